// Baseline files through the real CLI: re-creating a baseline keeps its reviewed tolerance policy
// (unless --reset-policy) and the file's mode; updating through a symlink keeps the link.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "tests/integration/bad_inputs/child_process.hpp"

namespace fabricgate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fs = std::filesystem;
using json = nlohmann::json;

const fs::path kGood = fs::path(FABRICGATE_SOURCE_DIR) / "tests/data/bad_inputs/good";

class BaselineFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "fabricgate-basefiles-XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    root_ = tmpl;
    fs::create_directories(root_ / "logs");
  }
  void TearDown() override { fs::remove_all(root_); }

  testing::ChildResult cli(std::vector<std::string> args) {
    args.insert(args.begin(), FABRICGATE_CLI);
    return testing::run_child(args, root_, root_ / "logs", std::chrono::seconds(60),
                              {"GITHUB_STEP_SUMMARY"});
  }
  testing::ChildResult create(const fs::path& out, const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args{"baseline", "create",
                                  "--from",   (kGood / "run").string(),
                                  "--from",   (kGood / "run2").string(),
                                  "--from",   (kGood / "run3").string(),
                                  "--out",    out.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    return cli(args);
  }
  static json read(const fs::path& p) {
    std::ifstream in(p);
    return json::parse(in);
  }
  static void write(const fs::path& p, const json& doc) { std::ofstream(p) << doc.dump(2) << "\n"; }

  fs::path root_;
};

TEST_F(BaselineFiles, RecreatingKeepsTheTunedPolicyUnlessReset) {
  const fs::path b = root_ / "baseline.json";
  ASSERT_EQ(create(b).exit_code, 0);
  json doc = read(b);
  const json defaults = doc.at("tolerance_policy");
  doc["tolerance_policy"]["size_classes"][0]["tolerance"] = 0.77;  // tuned in review
  write(b, doc);

  const auto again = create(b);
  ASSERT_EQ(again.exit_code, 0) << again.output;
  EXPECT_EQ(read(b).at("tolerance_policy").at("size_classes").at(0).at("tolerance"), 0.77)
      << again.output;

  const auto reset = create(b, {"--reset-policy"});
  ASSERT_EQ(reset.exit_code, 0) << reset.output;
  EXPECT_EQ(read(b).at("tolerance_policy"), defaults);
}

TEST_F(BaselineFiles, ModeAndSymlinkSurviveAnUpdate) {
  fs::create_directories(root_ / "store");
  const fs::path real = root_ / "store/baseline.json";
  ASSERT_EQ(create(real).exit_code, 0);
  ASSERT_EQ(::chmod(real.c_str(), 0644), 0);
  const fs::path link = root_ / "baseline.json";
  fs::create_symlink(real, link);
  // A fourth launch (the baseline already holds the three good runs; update merges only new ones).
  const fs::path fourth = root_ / "run4";
  fs::copy(kGood / "run", fourth, fs::copy_options::recursive);
  json doc = read(fourth / "run.json");
  doc["run_id"] = "20261129T194999Z-cpu-default";
  write(fourth / "run.json", doc);
  const auto r =
      cli({"baseline", "update", "--baseline", link.string(), "--from", fourth.string()});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(fs::is_symlink(link)) << "update replaced the link with a file";
  struct stat st {};
  ASSERT_EQ(::stat(real.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0644u) << "mkstemp's 0600 leaked into the baseline";
  for (const auto& e : fs::directory_iterator(root_ / "store")) {
    EXPECT_EQ(e.path().filename().string().find(".tmp"), std::string::npos) << e.path();
  }
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
