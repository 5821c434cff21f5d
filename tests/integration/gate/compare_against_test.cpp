// `fabricgate compare NEW... --against OLD...` on generated run directories with the real binary
// (issue 54 item 4: "is run B worse than run A?" for runs of any sessions). Three runs a side twice
// as slow fail (exit 1) and say what changed; three runs a side at the same level never fail; one
// run a side cannot measure launch-to-launch drift and stays UNDECIDED (exit 3) saying how many
// runs it takes; unequal counts, another platform, junit and store flags are input errors (exit 2).
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/integration/cli_runner.hpp"
#include "tests/unit/gate/gate_fixtures.hpp"

namespace fabricgate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fs = std::filesystem;
using testing::json;
using Result = testing::CliResult;

Result cli(const std::vector<std::string>& args) { return testing::run_fabricgate(args); }

// A run of four keys at `slowdown` times the reference time, one day `day` of November.
std::string write(const fs::path& root, const std::string& id, double slowdown, int day,
                  const std::string& platform = "cpu-test-2c", const std::string& btl = "") {
  std::vector<json> results;
  for (int k = 0; k < 4; ++k) {
    testing::ResultSpec s;
    s.bytes = std::uint64_t{1} << (12 + 4 * k);
    const double t = 10.0 + static_cast<double>(s.bytes) / 500.0;
    s.time_us =
        testing::noisy(t * slowdown, 0.01, 7, 300u + static_cast<unsigned>(day) * 11u + k * 3u);
    results.push_back(testing::make_result(s));
  }
  testing::RunSpec rs;
  rs.run_id = id;
  rs.platform = platform;
  char started[32];
  std::snprintf(started, sizeof started, "2026-11-%02dT10:00:00Z", day);
  rs.started_at = started;
  if (!btl.empty()) rs.capture["env_overrides"]["OMPI_MCA_btl"] = btl;
  return testing::write_run_dir(root, testing::make_run(rs, results)).string();
}

TEST(gate_CompareAgainst, IsNewWorseThanOldForRunsOfAnySessions) {
  const fs::path root = testing::fresh_temp_dir("compare-against");
  std::vector<std::string> old_runs, slower, same;
  for (int i = 0; i < 3; ++i) {
    old_runs.push_back(write(root, "old-" + std::to_string(i), 1.0, 1 + i));
    slower.push_back(write(root, "tcp-" + std::to_string(i), 2.0, 10 + i, "cpu-test-2c", "tcp"));
    same.push_back(write(root, "same-" + std::to_string(i), 1.0, 20 + i));
  }
  const auto against = [&](const std::vector<std::string>& newer,
                           const std::vector<std::string>& older,
                           std::vector<std::string> extra = {}) {
    std::vector<std::string> args{"compare"};
    args.insert(args.end(), newer.begin(), newer.end());
    args.push_back("--against");
    args.insert(args.end(), older.begin(), older.end());
    args.insert(args.end(), {"--baselines-dir", (root / "no-baselines").string()});
    args.insert(args.end(), extra.begin(), extra.end());
    return cli(args);
  };
  const auto verdicts = [](const Result& r) {
    std::map<std::string, int> out;
    const json doc = json::parse(r.out);
    for (const json& k : doc["keys"]) ++out[k["verdict"].get<std::string>()];
    return out;
  };

  const Result worse = against(slower, old_runs, {"--format", "json"});
  ASSERT_EQ(worse.code, 1) << worse.out << worse.err;
  EXPECT_EQ(verdicts(worse)["FAIL"], 4) << worse.out;
  EXPECT_EQ(json::parse(worse.out)["command"], "compare --against");
  const Result worse_text = against(slower, old_runs);
  EXPECT_EQ(worse_text.code, 1);
  EXPECT_NE(worse_text.out.find("fabricgate compare --against: suite"), std::string::npos)
      << worse_text.out;

  const Result aa = against(same, old_runs, {"--format", "json"});
  EXPECT_NE(aa.code, 1) << aa.out << aa.err;
  EXPECT_EQ(verdicts(aa)["FAIL"], 0) << aa.out;

  const Result one = against({slower[0]}, {old_runs[0]});
  EXPECT_EQ(one.code, 3) << one.out << one.err;
  EXPECT_NE(one.out.find("1 run(s) a side: launch-to-launch drift is not measured"),
            std::string::npos)
      << one.out;

  const std::string other = write(root, "other", 1.0, 28, "cpu-other-2c");
  for (const auto& [args, says] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"compare", same[0], same[1], "--against", old_runs[0]}, "as many runs"},
           {{"compare", other, "--against", old_runs[0]}, "--force-platform"},
           {{"compare", same[0], "--against", old_runs[0], "--format", "junit"}, "console"},
           {{"compare", same[0], "--against", old_runs[0], "--vouch"}, "records nothing"}}) {
    const Result bad = cli(args);
    EXPECT_EQ(bad.code, 2) << says << "\n" << bad.out << bad.err;
    EXPECT_NE(bad.err.find(says), std::string::npos) << bad.err;
  }
  fs::remove_all(root);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
