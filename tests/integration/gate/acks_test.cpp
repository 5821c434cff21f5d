// Acknowledged failures with the real binary (issue 56 item 1; harness/gate/acks.hpp): `fabricgate
// ack` writes <baselines-dir>/acks.json; a regression it covers is ACKED and the run exits 0,
// saying which ack held it; on the expiry date the key fails again (exit 1, "fails again"); an ack
// of another platform changes nothing; a malformed or never-expiring file is an input error (exit
// 2) naming the entry, for `compare` and for `ack` alike, and `ack` then writes nothing.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
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

std::string date_in(int days) {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now() +
                                                             std::chrono::hours(24 * days));
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char out[16];
  std::strftime(out, sizeof out, "%Y-%m-%d", &tm);
  return out;
}

std::string write(const fs::path& root, const std::string& id, double slowdown, int hour,
                  const std::string& day = "2026-11-20") {
  testing::ResultSpec s;
  s.bytes = 64u << 20;
  s.time_us = testing::noisy(30000.0 * slowdown, 0.003, 5, 700u + static_cast<unsigned>(hour));
  testing::RunSpec rs;
  rs.run_id = id;
  char started[32];
  std::snprintf(started, sizeof started, "%sT%02d:00:00Z", day.c_str(), hour);
  rs.started_at = started;
  return testing::write_run_dir(root, testing::make_run(rs, {testing::make_result(s)})).string();
}

void write_acks(const fs::path& dir, const json& entry) {
  std::ofstream(dir / "acks.json")
      << json{{"schema", "fabricgate.acks/1"}, {"acks", json::array({entry})}}.dump();
}

TEST(gate_Acks, AnAckedRegressionPassesUntilItsExpiryThenFailsAgain) {
  const fs::path root = testing::fresh_temp_dir("acks");
  const fs::path baselines = root / "baselines";
  std::vector<std::string> create{"baseline", "create", "--baselines-dir", baselines.string()};
  for (int i = 0; i < 3; ++i)
    create.insert(create.end(),
                  {"--from", write(root / "base", "b" + std::to_string(i), 1.0, 2 * i)});
  ASSERT_EQ(cli(create).code, 0);
  const std::string slow = write(root / "runs", "slow", 1.5, 12);
  const auto compare = [&] {
    return cli({"compare", slow, "--baselines-dir", baselines.string(), "--store", "none",
                "--format", "json"});
  };
  ASSERT_EQ(compare().code, 1) << "the regression is real";

  const std::string key = "coll/mpi/all_reduce/*";
  const Result acked = cli({"ack", key, "--platform", "cpu-test-2c", "--reason",
                            "https://github.com/org/repo/issues/12", "--who", "alice", "--expires",
                            date_in(30), "--baselines-dir", baselines.string()});
  ASSERT_EQ(acked.code, 0) << acked.out << acked.err;
  ASSERT_TRUE(fs::exists(baselines / "acks.json"));
  Result r = compare();
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  json doc = json::parse(r.out);
  ASSERT_EQ(doc["keys"].size(), 1u);
  EXPECT_EQ(doc["keys"][0]["verdict"], "ACKED") << r.out;
  EXPECT_NE(doc["keys"][0]["reason"].get<std::string>().find("was REGRESSION"), std::string::npos);
  EXPECT_NE(doc.dump().find("acknowledged failure: " + key), std::string::npos) << r.out;

  // Another platform's ack changes nothing.
  write_acks(baselines, {{"key", key},
                         {"platform", "h200-x8"},
                         {"reason", "https://x/1"},
                         {"who", "bob"},
                         {"expires", date_in(30)}});
  EXPECT_EQ(compare().code, 1);
  // Expired (today is its expiry date): the key fails again, and the run says so.
  write_acks(baselines, {{"key", key},
                         {"platform", "cpu-test-2c"},
                         {"reason", "https://x/1"},
                         {"who", "bob"},
                         {"expires", date_in(0)}});
  r = compare();
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("fails again: "), std::string::npos) << r.out;

  // Malformed or never expiring: exit 2 naming the entry's field.
  for (const auto& [field, value] : std::vector<std::pair<std::string, std::string>>{
           {"expires", "2099-01-01"}, {"expires", "soon"}, {"reason", "see slack"}}) {
    json entry = {{"key", key},
                  {"platform", "cpu-test-2c"},
                  {"reason", "https://x/1"},
                  {"who", "bob"},
                  {"expires", date_in(10)}};
    entry[field] = value;
    write_acks(baselines, entry);
    r = compare();
    EXPECT_EQ(r.code, 2) << field << "=" << value << "\n" << r.out << r.err;
    EXPECT_NE(r.err.find("/acks/0/" + field), std::string::npos) << r.err;
  }
  // `ack` refuses a never-expiring entry and writes nothing.
  fs::remove(baselines / "acks.json");
  const Result forever =
      cli({"ack", key, "--platform", "cpu-test-2c", "--reason", "https://x/1", "--who", "bob",
           "--expires", "2099-01-01", "--baselines-dir", baselines.string()});
  EXPECT_EQ(forever.code, 2) << forever.out << forever.err;
  EXPECT_NE(forever.err.find("--expires"), std::string::npos) << forever.err;
  EXPECT_FALSE(fs::exists(baselines / "acks.json"));
  fs::remove_all(root);
}

// A finding ack (issue 56): the committed Slurm run blames fgsnode2 (NODE-MISMATCH, severity
// drain). Acked for that node, `nodes` plans no drain, cordon, condition or HealthEvent and exits
// 0, `compare` no longer fails on it, and both say which ack held it; an ack of another node holds
// nothing; on its expiry date the node is blamed again; a finding ack with a key, or a node
// without a finding, is an input error naming the entry.
TEST(gate_Acks, AnAckedNodeFindingPlansNoActionUntilItsExpiry) {
  const fs::path run =
      fs::path(FABRICGATE_SOURCE_DIR) / "tests/data/slurm/20261201T091826Z-slurm-cpu-default";
  const fs::path root = testing::fresh_temp_dir("acks-finding");
  const std::string dir = root.string();
  const auto nodes = [&](const std::string& format) {
    return cli({"nodes", run.string(), "--format", format, "--baselines-dir", dir});
  };
  const auto compare = [&] {
    return cli({"compare", run.string(), "--baselines-dir", dir, "--store", "none"});
  };
  ASSERT_EQ(nodes("slurm").code, 1) << "fgsnode2 is blamed without an ack";
  ASSERT_EQ(compare().code, 1);

  const Result acked = cli({"ack", "--finding", "NODE-MISMATCH", "--node", "fgsnode2", "--platform",
                            "slurm-ci", "--reason", "https://github.com/org/repo/issues/13",
                            "--who", "bob", "--expires", date_in(14), "--baselines-dir", dir});
  ASSERT_EQ(acked.code, 0) << acked.out << acked.err;
  for (const std::string format : {"text", "slurm", "kubernetes", "nvsentinel"}) {
    const Result r = nodes(format);
    EXPECT_EQ(r.code, 0) << format << "\n" << r.out << r.err;
    EXPECT_EQ(r.out.find("fgsnode2"), std::string::npos) << format << "\n" << r.out;
    EXPECT_NE(r.err.find("acknowledged failure: NODE-MISMATCH on fgsnode2 on slurm-ci"),
              std::string::npos)
        << r.err;
  }
  Result c = compare();
  EXPECT_EQ(c.code, 0) << c.out << c.err;
  EXPECT_NE(c.out.find("ACKED until " + date_in(14) + " by bob"), std::string::npos) << c.out;
  EXPECT_EQ(c.out.find("scontrol update"), std::string::npos) << c.out;

  // Another node's ack holds nothing.
  write_acks(root, {{"finding", "NODE-MISMATCH"},
                    {"node", "fgsnode1"},
                    {"platform", "slurm-ci"},
                    {"reason", "https://x/1"},
                    {"who", "bob"},
                    {"expires", date_in(14)}});
  EXPECT_EQ(nodes("slurm").code, 1);
  // Expired: blamed again, and said.
  write_acks(root, {{"finding", "NODE-*"},
                    {"platform", "slurm-ci"},
                    {"reason", "https://x/1"},
                    {"who", "bob"},
                    {"expires", date_in(0)}});
  const Result again = nodes("slurm");
  EXPECT_EQ(again.code, 1) << again.out << again.err;
  EXPECT_NE(again.out.find("NodeName=fgsnode2 State=DRAIN"), std::string::npos) << again.out;
  EXPECT_NE(again.err.find("fails again: NODE-MISMATCH fgsnode2"), std::string::npos) << again.err;

  // A key and a finding in one entry, or a node without a finding: exit 2 naming the field.
  for (const json& bad :
       {json{{"key", "a/*"}, {"finding", "HOST-OUTLIER"}}, json{{"key", "a/*"}, {"node", "n1"}}}) {
    json entry = bad;
    entry.update(json{{"platform", "slurm-ci"},
                      {"reason", "https://x/1"},
                      {"who", "bob"},
                      {"expires", date_in(5)}});
    write_acks(root, entry);
    const Result r = nodes("text");
    EXPECT_EQ(r.code, 2) << bad.dump() << "\n" << r.out << r.err;
    EXPECT_NE(r.err.find(bad.contains("finding") ? "/acks/0/finding" : "/acks/0/node"),
              std::string::npos)
        << r.err;
  }
  fs::remove_all(root);
}

// Labels (issue 56 item 2): a failing run recorded by `compare` is labelled with `ack --label`;
// the dashboard shows the platform's measured precision with its counts and the acks in force.
// Only a failure can be labelled: a run the store does not hold, a key that passed, an unknown
// label or --expires with a label is an input error and nothing is recorded.
TEST(gate_Acks, ALabelledFailureGivesTheDashboardItsPrecision) {
  const fs::path root = testing::fresh_temp_dir("acks-label");
  const fs::path baselines = root / "baselines";
  const std::string yesterday = date_in(-1);
  std::vector<std::string> create{"baseline", "create", "--baselines-dir", baselines.string()};
  for (int i = 0; i < 3; ++i)
    create.insert(create.end(),
                  {"--from", write(root / "base", "b" + std::to_string(i), 1.0, 2 * i)});
  ASSERT_EQ(cli(create).code, 0);
  const std::string store = "sqlite:" + (root / "fg.sqlite").string();
  const std::string slow = write(root / "runs", "slow", 1.5, 12, yesterday);
  const std::string same = write(root / "runs", "same", 1.0, 13, yesterday);
  ASSERT_EQ(cli({"compare", slow, "--baselines-dir", baselines.string(), "--store", store}).code,
            1);
  ASSERT_EQ(cli({"compare", same, "--baselines-dir", baselines.string(), "--store", store}).code,
            0);
  const auto label = [&](std::vector<std::string> extra) {
    std::vector<std::string> args{"ack",   "--platform", "cpu-test-2c", "--who",
                                  "carol", "--store",    store};
    args.insert(args.end(), extra.begin(), extra.end());
    return cli(args);
  };
  const auto dashboard = [&] {
    const fs::path site = root / "site";
    fs::remove_all(site);
    fs::create_directories(site);
    const Result r = cli({"dashboard", "--store", store, "--out", site.string(), "--baselines-dir",
                          baselines.string()});
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    std::ifstream in(site / "index.html");
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  EXPECT_NE(dashboard().find("No finding labelled in the last 30 days; 1 failing run(s) in that "
                             "time, 1 with no label"),
            std::string::npos);

  for (const std::vector<std::string>& bad : std::vector<std::vector<std::string>>{
           {"--label", "false-alarm", "--run", "nope"},  // no such run
           {"--label", "false-alarm", "--run", "same"},  // it passed
           {"--label", "wrong", "--run", "slow"},        // no such label
           {"--label", "real", "--run", "slow", "--expires", date_in(3)}}) {
    const Result r = label(bad);
    EXPECT_EQ(r.code, 2) << bad[1] << " " << bad[3] << "\n" << r.out << r.err;
  }
  const Result ok = label({"--label", "false-alarm", "--run", "slow", "--reason", "https://x/7"});
  ASSERT_EQ(ok.code, 0) << ok.out << ok.err;
  EXPECT_NE(ok.out.find("labelled the failure of run slow (cpu-test-2c) false-alarm"),
            std::string::npos)
      << ok.out;
  write_acks(baselines, {{"key", "coll/mpi/*"},
                         {"platform", "cpu-test-2c"},
                         {"reason", "https://x/8"},
                         {"who", "bob"},
                         {"expires", date_in(20)}});
  const std::string index = dashboard();
  EXPECT_NE(index.find("Precision 0 %: 0 of 1 labelled finding(s) real (0) or expected (0), 1 "
                       "false alarm(s), in the last 30 days; 1 failing run(s) in that time, 0 "
                       "with no label"),
            std::string::npos)
      << index;
  EXPECT_NE(index.find("coll/mpi/* on cpu-test-2c until " + date_in(20) + " by bob"),
            std::string::npos);
  // Relabelled after the review: the same subject, one label, now real.
  ASSERT_EQ(label({"--label", "real", "--run", "slow"}).code, 0);
  EXPECT_NE(dashboard().find("Precision 100 %: 1 of 1"), std::string::npos);
  fs::remove_all(root);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
