// Sessions and hosts on real data: the committed one-H200 A/A launches of three machines
// (results/h200-x1: the top-level run directories, trust-session5/results.tar.gz and
// trust-session6/*.tgz, extracted into a temporary directory) through the real `fabricgate`:
// `baseline create` lists three sessions on three hosts, `calibrate --by-session` leaves each
// session out in turn, and the launches a second process loaded with pinned copies (documented in
// results/h200-x1/README.md) are still REGRESSION against the two-level band.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "tests/integration/cli_runner.hpp"
#include "tests/unit/gate/gate_fixtures.hpp"

namespace fabricgate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fs = std::filesystem;
using testing::json;

const fs::path kResults = fs::path(FABRICGATE_SOURCE_DIR) / "results" / "h200-x1";

// Launches made while a second process copied pinned buffers on the same GPU (README.md of
// results/h200-x1, "Call 1" and the trust calls' "Injected regression"): not A/A.
const std::set<std::string> kInjected{
    "20261201T084949Z-p2p-default", "20261201T085007Z-p2p-default", "20261201T085025Z-p2p-default",
    "20261201T101041Z-p2p-default", "20261201T122623Z-p2p-default", "20261201T123322Z-p2p-default"};

using Result = testing::CliResult;

Result run(const std::vector<std::string>& argv, int seconds = 300) {
  return testing::run_command(argv, std::chrono::seconds(seconds), 32 << 20);
}

class gate_SessionsCli : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = testing::fresh_temp_dir("sessions-cli");
    const std::vector<fs::path> archives{kResults / "trust-session5" / "results.tar.gz",
                                         kResults / "trust-session6" / "trust-call3.tgz",
                                         kResults / "trust-session6" / "verify-call4.tgz"};
    for (std::size_t i = 0; i < archives.size(); ++i) {
      const fs::path into = root_ / ("archive" + std::to_string(i));
      fs::create_directories(into);
      const Result x = run({"tar", "-xzf", archives[i].string(), "-C", into.string()});
      ASSERT_EQ(x.code, 0) << x.err;
    }
    // The top-level run directories (one machine) stay where they are: read, never written.
    for (const auto& d : fs::directory_iterator(kResults)) collect(d.path(), false);
    for (const auto& d : fs::recursive_directory_iterator(root_)) collect(d.path(), true);
    std::sort(aa_.begin(), aa_.end());
  }
  void TearDown() override { fs::remove_all(root_); }

  void collect(const fs::path& dir, bool nested) {
    if (!fs::is_directory(dir) || !fs::exists(dir / "run.json")) return;
    if (nested && dir.parent_path().filename() == "confirm") return;  // confirmation launches
    if (dir.string().find("/confirm/") != std::string::npos) return;
    (kInjected.count(dir.filename().string()) ? injected_ : aa_).push_back(dir);
  }

  std::vector<std::string> from(const std::vector<fs::path>& runs) const {
    std::vector<std::string> out;
    for (const fs::path& p : runs) {
      out.push_back("--from");
      out.push_back(p.string());
    }
    return out;
  }

  fs::path root_;
  std::vector<fs::path> aa_;
  std::vector<fs::path> injected_;
};

TEST_F(gate_SessionsCli, BaselineOfThreeHostsAndLeaveOneSessionOut) {
  ASSERT_EQ(injected_.size(), kInjected.size());
  ASSERT_GE(aa_.size(), 90u);
  const fs::path baseline = root_ / "h200-x1.json";
  std::vector<std::string> create{FABRICGATE_CLI, "baseline", "create", "--out", baseline.string()};
  for (const auto& a : from(aa_)) create.push_back(a);
  const Result made = run(create);
  ASSERT_EQ(made.code, 0) << made.out << made.err;
  // Legacy runs (no session id): grouped per host by 30-minute gaps. The two calls on the third
  // machine were minutes apart: one session.
  EXPECT_NE(made.out.find("sessions: 3 on 3 host(s)"), std::string::npos) << made.out;
  EXPECT_EQ(made.out.find("NOT estimated"), std::string::npos) << made.out;

  std::ifstream in(baseline);
  const json doc = json::parse(in);
  EXPECT_EQ(doc["schema"], "fabricgate.baseline/3");
  ASSERT_EQ(doc["sessions"].size(), 3u);
  ASSERT_EQ(doc["hosts"].size(), 3u);
  std::size_t launches = 0;
  for (const auto& s : doc["sessions"]) launches += s["launches"].get<std::size_t>();
  EXPECT_EQ(launches, aa_.size());
  const auto& h2d = doc["entries"]["hostcopy/cuda/h2d/pinned/gpu:0/bytes:1073741824"]["algbw_GBps"];
  EXPECT_EQ(h2d["run_sessions"].size(), h2d["run_medians"].size());

  // Every injected launch (pinned copies lost 30-44 %) is still caught by the two-level band.
  for (const fs::path& r : injected_) {
    // --store none: these are the repository's committed runs, and a test never writes a store
    // into the checkout (results/fabricgate.sqlite).
    const Result c = run({FABRICGATE_CLI, "compare", r.string(), "--baseline", baseline.string(),
                          "--store", "none"});
    EXPECT_EQ(c.code, 1) << r << "\n" << c.out << c.err;
    EXPECT_NE(c.out.find("REGRESSION"), std::string::npos) << c.out;
  }

  std::vector<std::string> calibrate{FABRICGATE_CLI, "calibrate", "--by-session", "--out",
                                     (root_ / "sessions.txt").string()};
  for (const auto& a : from(aa_)) calibrate.push_back(a);
  const Result cal = run(calibrate, 600);
  ASSERT_EQ(cal.code, 0) << cal.out << cal.err;
  EXPECT_NE(cal.out.find("calibration by session: " + std::to_string(aa_.size()) +
                         " runs, 3 sessions, 3 hosts"),
            std::string::npos)
      << cal.out;
  // Each left-out session is judged by a baseline of the other two: every launch judged once.
  EXPECT_NE(cal.out.find("false alarms: "), std::string::npos);
  EXPECT_NE(cal.out.find(" of " + std::to_string(aa_.size()) + " launches"), std::string::npos)
      << cal.out;
  EXPECT_EQ(cal.out.find("skipped"), std::string::npos) << cal.out;
  // Three sessions estimate the between term: the suggested allowance is the nearest-rank 90th
  // percentile of the table's own "between" column, rounded up to a whole percent.
  std::vector<double> between;
  std::istringstream table(cal.out);
  for (std::string line; std::getline(table, line);) {
    std::istringstream row(line);
    std::string key, sessions, hosts, runs, within, between_pct;
    // A key row: "<family>/..." then sessions, hosts, runs, within %, between %.
    if (!(row >> key >> sessions >> hosts >> runs >> within >> between_pct)) continue;
    if (key.find('/') == std::string::npos || !std::isdigit(sessions[0]) ||
        between_pct.find('%') == std::string::npos)
      continue;
    between.push_back(std::stod(between_pct) / 100);
  }
  ASSERT_FALSE(between.empty()) << cal.out;
  std::sort(between.begin(), between.end());
  const double p90 =
      between[static_cast<std::size_t>(std::ceil(0.9 * static_cast<double>(between.size()))) - 1];
  const std::string expected = fmt::format("-> session_allowance {:.2f} for baselines of this kind",
                                           std::ceil(p90 * 100 - 1e-9) / 100);
  EXPECT_NE(cal.out.find(expected), std::string::npos) << expected << "\n" << cal.out;
  std::cout << cal.out;  // the table, for the record (ctest -V)
}

TEST_F(gate_SessionsCli, TwoSessionsSayTheBetweenTermIsNotEstimated) {
  std::vector<fs::path> two;
  for (const fs::path& p : aa_) {
    if (p.string().find(root_.string()) != 0 || p.string().find("archive0") != std::string::npos)
      two.push_back(p);  // the top-level machine and trust-session5's machine
  }
  std::vector<std::string> create{FABRICGATE_CLI, "baseline", "create", "--out",
                                  (root_ / "two.json").string()};
  for (const auto& a : from(two)) create.push_back(a);
  const Result made = run(create);
  ASSERT_EQ(made.code, 0) << made.out << made.err;
  EXPECT_NE(made.out.find("sessions: 2 on 2 host(s)"), std::string::npos) << made.out;
  EXPECT_NE(made.out.find("between-session term NOT estimated"), std::string::npos) << made.out;
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
