// The loaded-library guard: a side that asked for nccl=PATH must have loaded exactly that library
// on every rank (InputError, exit 2), and a side must load the same libraries in every launch
// (InfraError, exit 3).
#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "harness/ab/ab_library_guard.hpp"
#include "tests/unit/ab/ab_fixtures.hpp"

namespace fabricgate::gate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

using testing::ab_side;
using testing::libs;

ab::AbSide wants(const std::string& path) {
  ab::AbSide s = ab_side("b");
  s.nccl = "/pip/nvidia/nccl";
  s.nccl_dir = "/pip/nvidia/nccl/lib";
  s.nccl_expected = path;
  return s;
}

TEST(AbLibraryGuard, TheAskedLibraryPasses) {
  EXPECT_NO_THROW(ab::verify_loaded_libraries(wants("/pip/lib/libnccl.so.2"),
                                              libs("2.28.9", "/pip/lib/libnccl.so.2"), "b-1", "d"));
  EXPECT_NO_THROW(ab::verify_loaded_libraries(ab_side("a"), libs("2.28.3", "/usr/lib/libnccl.so.2"),
                                              "a-1", "d"));
}

TEST(AbLibraryGuard, AnotherLibraryIsAnInputError) {
  try {
    ab::verify_loaded_libraries(wants("/pip/lib/libnccl.so.2"),
                                libs("2.28.3", "/usr/lib/libnccl.so.2.28.3"), "b-1", "dir");
    FAIL() << "no error";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("/pip/lib/libnccl.so.2"), std::string::npos) << what;
    EXPECT_NE(what.find("/usr/lib/libnccl.so.2.28.3"), std::string::npos) << what;
    EXPECT_NE(what.find("b-1"), std::string::npos) << what;
  }
}

TEST(AbLibraryGuard, NoNcclOrMixedRanksAreInputErrors) {
  EXPECT_THROW(ab::verify_loaded_libraries(wants("/pip/lib/libnccl.so.2"), ab::LoadedLibraries{},
                                           "b-1", "d"),
               InputError);
  ab::LoadedLibraries mixed = libs("2.28.9", "/pip/lib/libnccl.so.2");
  mixed.nccl_libraries.insert("/usr/lib/libnccl.so.2");
  EXPECT_THROW(ab::verify_loaded_libraries(ab_side("a"), mixed, "a-1", "d"), InputError);
  ab::LoadedLibraries log_disagrees = libs("2.28.9", "/pip/lib/libnccl.so.2");
  log_disagrees.capture_nccl_version = "2.28.3";
  EXPECT_THROW(ab::verify_loaded_libraries(ab_side("a"), log_disagrees, "a-1", "d"), InputError);
}

TEST(AbLibraryGuard, AChangeBetweenLaunchesOfOneSideIsAnInfraError) {
  const ab::AbSide a = ab_side("a");
  EXPECT_NO_THROW(
      ab::require_same_libraries(a, libs("2.28.3", "/l"), "a-1", libs("2.28.3", "/l"), "a-2"));
  EXPECT_THROW(
      ab::require_same_libraries(a, libs("2.28.3", "/l"), "a-1", libs("2.28.9", "/l"), "a-3"),
      InfraError);
  EXPECT_THROW(
      ab::require_same_libraries(a, libs("2.28.3", "/l"), "a-1", libs("2.28.3", "/m"), "a-2"),
      InfraError);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::gate
