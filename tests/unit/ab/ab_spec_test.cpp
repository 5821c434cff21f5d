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
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

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

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::launch

namespace fabricgate::launch {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

// wrap=CMD: split into argv, the program resolved on PATH or taken as an absolute executable;
// no shell, so shell syntax, relative paths and unknown programs are InputErrors naming the item.
std::string wrap_error(const std::string& command, const char* path) {
  try {
    parse_wrap_command("--b wrap=" + command, command, path);
  } catch (const InputError& e) {
    return e.what();
  }
  return {};
}

TEST(AbWrap, CommandIsSplitAndItsProgramResolvedOnPath) {
  const auto argv = parse_wrap_command("--b wrap=env FOO=1", "env  FOO=1", "/nonexistent:/usr/bin");
  ASSERT_EQ(argv.size(), 2u);
  EXPECT_EQ(argv[0], "/usr/bin/env");
  EXPECT_EQ(argv[1], "FOO=1");
  EXPECT_EQ(parse_wrap_command("x", "/usr/bin/env", nullptr).front(), "/usr/bin/env");
}

TEST(AbWrap, BadCommandsAreRefusedWithTheItemNamed) {
  EXPECT_NE(wrap_error("no-such-wrapper-xyz -c 0", "/usr/bin").find("not an executable on PATH"),
            std::string::npos);
  EXPECT_NE(wrap_error("taskset -c 0; rm -rf /", "/usr/bin").find("shell syntax"),
            std::string::npos);
  EXPECT_NE(wrap_error("bin/env", "/usr").find("relative path"), std::string::npos);
  const fs::path plain = testing::fresh_temp_dir("ab-wrap") / "not-executable";
  std::ofstream(plain) << "data";
  fs::permissions(plain, fs::perms::owner_read | fs::perms::owner_write);
  EXPECT_NE(wrap_error(plain.string(), "/usr/bin").find("not an executable file"),
            std::string::npos)
      << wrap_error(plain.string(), "/usr/bin");
  fs::remove_all(plain.parent_path());
  EXPECT_NE(wrap_error("   ", "/usr/bin").find("expected a command"), std::string::npos);
  EXPECT_NE(wrap_error("env", ".").find("not an executable on PATH"), std::string::npos)
      << "a relative PATH entry must not be searched";
  EXPECT_NE(wrap_error("/nonexistent", "/usr/bin").find("--b wrap=/nonexistent"),
            std::string::npos);
}

TEST(AbWrap, SideCarriesTheWrapAndRefusesItTwice) {
  const ab::AbSide s = parse_ab_side("b", {"wrap=/usr/bin/env", "label=wrapped"});
  ASSERT_EQ(s.wrap.size(), 1u);
  EXPECT_EQ(s.wrap.front(), "/usr/bin/env");
  EXPECT_THROW(parse_ab_side("b", {"wrap=/usr/bin/env", "wrap=/usr/bin/env"}), InputError);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::launch
