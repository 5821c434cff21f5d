// Hostile values through the real binary (issue 58): a roofline policy whose version carries a
// raw escape, a fingerprint whose link is far slower than the copy measured over it, and a store
// longer than the dashboard's bound.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/json_file.hpp"
#include "tests/integration/bad_inputs/child_process.hpp"

namespace fabricgate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fs = std::filesystem;
using json = nlohmann::json;

const fs::path kSource = FABRICGATE_SOURCE_DIR;
const fs::path kH200Run = kSource / "results/h200-x1/20261201T084506Z-p2p-default";
const std::string kH2d1GiB = "hostcopy/cuda/h2d/pinned/gpu:0/bytes:1073741824";

class HostileValues : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "fabricgate-hostile-XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    root_ = tmpl;
    fs::create_directories(root_ / "logs");
    fs::create_directories(root_ / "no-baselines");
  }
  void TearDown() override { fs::remove_all(root_); }

  testing::ChildResult cli(std::vector<std::string> args) {
    args.insert(args.begin(), FABRICGATE_CLI);
    return testing::run_child(args, root_, root_ / "logs", std::chrono::seconds(120),
                              {"GITHUB_STEP_SUMMARY"});
  }
  // The committed H200 run, changed by `edit`, as a run directory of its own.
  fs::path variant(const std::string& name, const std::function<void(json&)>& edit) {
    json doc = load_json_file(kH200Run / "run.json");
    edit(doc);
    const fs::path dir = root_ / name;
    fs::create_directories(dir);
    write_json_atomically(dir / "run.json", doc);
    return dir;
  }

  fs::path root_;
};

// A fingerprint that says PCIe Gen1 x1 (0.25 GB/s) under copies of 55 GB/s: judged "within" at
// 21,000 % before; NOT-PHYSICAL now, never a pass of the roofline.
TEST_F(HostileValues, ACopyFasterThanItsLinkIsNotPhysical) {
  const fs::path run = variant("gen1", [](json& doc) {
    json& pcie = doc["fingerprint"]["gpus"]["devices"][0]["pcie"];
    pcie["current_gen"] = 1;
    pcie["current_width"] = 1;
    pcie["max_gen"] = 1;
    pcie["max_width"] = 1;
  });
  const auto r = cli({"compare", run.string(), "--baselines-dir", (root_ / "no-baselines").string(),
                      "--store", "none", "--format", "json"});
  ASSERT_NE(r.exit_code, 2) << r.output;
  const json doc = json::parse(r.output.substr(r.output.find('{')), nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << r.output;
  bool found = false;
  for (const json& k : doc["keys"]) {
    if (k["key"] != kH2d1GiB) continue;
    found = true;
    EXPECT_NE(k.dump().find("NOT-PHYSICAL"), std::string::npos) << k.dump(2);
    EXPECT_EQ(k.dump().find("within"), std::string::npos) << k.dump(2);
  }
  EXPECT_TRUE(found) << r.output.substr(0, 2000);
}

// The policy's version reached the roofline heading of every report as it was, escape and all.
TEST_F(HostileValues, ARooflinePolicyWithARawEscapeIsRefused) {
  json policy = load_json_file(kSource / "policies/roofline.json");
  policy["version"] = "v1\x1b]0;owned\x07";
  fs::create_directories(root_ / "policies");  // compare reads ./policies/roofline.json
  write_json_atomically(root_ / "policies" / "roofline.json", policy);
  const auto r = cli({"compare", kH200Run.string(), "--baselines-dir",
                      (root_ / "no-baselines").string(), "--store", "none"});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("/version"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find('\x1b'), std::string::npos) << r.output;
}

// Past its bound the dashboard reads the newest runs only and says how many it left out.
TEST_F(HostileValues, TheDashboardSaysWhatItsBoundLeftOut) {
  const std::string store = "sqlite:" + (root_ / "fg.sqlite").string();
  for (int i = 0; i < 3; ++i) {
    const fs::path run = variant("run" + std::to_string(i), [i](json& doc) {
      doc["run_id"] = doc["run_id"].get<std::string>() + "-" + std::to_string(i);
    });
    const auto r = cli({"compare", run.string(), "--baselines-dir",
                        (root_ / "no-baselines").string(), "--store", store});
    ASSERT_NE(r.exit_code, 2) << r.output;
  }
  fs::create_directories(root_ / "site");
  const auto d = cli({"dashboard", "--store", store, "--out", (root_ / "site").string(), "--last",
                      "2", "--baselines-dir", (root_ / "no-baselines").string()});
  ASSERT_EQ(d.exit_code, 0) << d.output;
  std::ifstream in(root_ / "site" / "index.html");
  std::stringstream html;
  html << in.rdbuf();
  EXPECT_NE(html.str().find("The newest 2 of the platform&apos;s 3 stored runs"),
            std::string::npos);
  const auto all = cli({"dashboard", "--store", store, "--out", (root_ / "site").string(),
                        "--all-runs", "--baselines-dir", (root_ / "no-baselines").string()});
  EXPECT_EQ(all.exit_code, 0) << all.output;
  EXPECT_NE(all.output.find("dashboard of 3 run(s)"), std::string::npos) << all.output;
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
