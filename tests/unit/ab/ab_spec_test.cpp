// --a / --b items: variables, labels and nccl=PATH resolved against real files and symlinks in a
// temporary directory; bad items are InputErrors naming the option and the item.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/errors.hpp"
#include "harness/launch/ab_spec.hpp"
#include "tests/unit/gate/gate_fixtures.hpp"

namespace fabricgate::launch {
namespace {

namespace fs = std::filesystem;

class AbSpec : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = testing::fresh_temp_dir("ab-spec"); }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path touch(const fs::path& p) {
    fs::create_directories(p.parent_path());
    std::ofstream(p) << "not really a library";
    return p;
  }
  fs::path dir_;
};

std::string error_of(const std::vector<std::string>& items) {
  try {
    parse_ab_side("b", items);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST_F(AbSpec, VariablesAndLabel) {
  const auto s = parse_ab_side("b", {"OMPI_MCA_btl=self,tcp", "NCCL_ALGO=^NVLS", "label=tcp"});
  EXPECT_EQ(s.id, "b");
  EXPECT_EQ(s.label, "tcp");
  EXPECT_EQ(s.env.at("OMPI_MCA_btl"), "self,tcp");
  EXPECT_EQ(s.env.at("NCCL_ALGO"), "^NVLS");
  EXPECT_TRUE(s.nccl.empty());
  EXPECT_EQ(parse_ab_side("a", {}).label, "A");
  EXPECT_TRUE(ab_launch_env(s, "/x").count("LD_LIBRARY_PATH") == 0);
}

TEST_F(AbSpec, BadItemsNameTheOptionAndTheItem) {
  EXPECT_NE(error_of({"NCCL_ALGO=$(reboot)"}).find("--b NCCL_ALGO=$(reboot)"), std::string::npos);
  EXPECT_NE(error_of({"NCCL_ALGO=Ring;ls"}).find("shell syntax"), std::string::npos);
  EXPECT_NE(error_of({"foo=1"}).find("neither an environment variable"), std::string::npos);
  EXPECT_NE(error_of({"NCCL_ALGO"}).find("expected NAME=VALUE"), std::string::npos);
  EXPECT_NE(error_of({"X=1", "X=2"}).find("set twice"), std::string::npos);
  EXPECT_NE(error_of({"label=../up"}).find("label"), std::string::npos);
  EXPECT_NE(error_of({"nccl=/nonexistent/libnccl"}).find("does not exist"), std::string::npos);
  EXPECT_NE(error_of({"nccl=/tmp/a:b"}).find("without ':'"), std::string::npos);
}

TEST_F(AbSpec, NcclDirectoryOrItsLibSubdirectory) {
  const fs::path lib = touch(dir_ / "nccl" / "lib" / "libnccl.so.2");
  const auto s =
      parse_ab_side("b", {"nccl=" + (dir_ / "nccl").string()});  // like nvidia.nccl.__path__
  EXPECT_EQ(s.nccl_dir, (dir_ / "nccl" / "lib").string());
  EXPECT_EQ(s.nccl_expected, fs::canonical(lib).string());
  const auto env = ab_launch_env(s, "/opt/other:/usr/lib");
  EXPECT_EQ(env.at("LD_LIBRARY_PATH"), s.nccl_dir + ":/opt/other:/usr/lib");
  EXPECT_EQ(ab_launch_env(s, nullptr).at("LD_LIBRARY_PATH"), s.nccl_dir);
}

TEST_F(AbSpec, NcclFileMustBeWhatTheSonameFinds) {
  const fs::path real = touch(dir_ / "libnccl.so.2.28.9");
  fs::create_symlink("libnccl.so.2.28.9", dir_ / "libnccl.so.2");
  const auto s = parse_ab_side("a", {"nccl=" + real.string()});
  EXPECT_EQ(s.nccl_dir, dir_.string());
  EXPECT_EQ(s.nccl_expected, fs::canonical(real).string());
  // A file the soname does not lead to would silently not be loaded: refused.
  const fs::path other = touch(dir_ / "libnccl-other.so");
  EXPECT_NE(error_of({"nccl=" + other.string()}).find("soname"), std::string::npos);
  // A directory without the soname.
  fs::create_directories(dir_ / "empty");
  EXPECT_NE(error_of({"nccl=" + (dir_ / "empty").string()}).find("holding libnccl.so.2"),
            std::string::npos);
}

TEST_F(AbSpec, NcclAndLdLibraryPathTogetherAreRefused) {
  touch(dir_ / "libnccl.so.2");
  EXPECT_NE(error_of({"nccl=" + dir_.string(), "LD_LIBRARY_PATH=/x"}).find("together"),
            std::string::npos);
  EXPECT_NE(error_of({"nccl=" + dir_.string(), "nccl=" + dir_.string()}).find("twice"),
            std::string::npos);
}

}  // namespace
}  // namespace fabricgate::launch
