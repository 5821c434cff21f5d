// DRIFT end to end with the real `fabricgate` binary: runs compared one after another record
// themselves in the default SQLite store at the results root; a 2.5 % step at 64 MiB passes the
// gate's 3 % tolerance run by run, and fails as DRIFT once it has lasted 3 runs, naming the run
// where it began. `history KEY --json` from the store carries that run as the change point.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <sstream>

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

constexpr std::uint64_t kLarge = std::uint64_t{64} << 20;

fs::path write(const fs::path& results, const std::string& id, double slowdown, unsigned seed,
               const std::string& nccl = "2.28.3") {
  std::vector<json> out;
  for (const std::uint64_t bytes : {std::uint64_t{8192}, kLarge}) {
    testing::ResultSpec s;
    s.bytes = bytes;
    const double t = 5.0 + static_cast<double>(bytes) / 2000.0;
    s.time_us = testing::noisy(bytes == kLarge ? t * slowdown : t, 0.003, 5, seed);
    out.push_back(testing::make_result(s));
  }
  testing::RunSpec rs;
  rs.run_id = id;
  rs.versions["nccl"] = nccl;
  json doc = testing::make_run(rs, out);
  // Runs of a history start one after another: DRIFT reads the runs that started before.
  char started[32];
  std::snprintf(started, sizeof started, "2026-11-30T%02u:%02u:00Z", seed / 60 % 24, seed % 60);
  doc["started_at"] = started;
  return testing::write_run_dir(results, doc);
}

std::string run_id(int i) {
  char id[16];
  std::snprintf(id, sizeof id, "run-%02d", i);
  return id;
}

TEST(store_DriftCli, StepWithinToleranceFailsAsDriftAfterThreeRunsAndHistoryFindsIt) {
  const fs::path root = testing::fresh_temp_dir("drift-cli");
  const fs::path results = root / "results";
  std::vector<std::string> create{"baseline", "create", "--baselines-dir",
                                  (root / "baselines").string()};
  for (int i = 0; i < 3; ++i) {
    create.push_back("--from");
    create.push_back(
        // Three sittings an hour apart (seed = minute of the day): the between-sitting noise is
        // measured, so the keys gate.
        write(root / "base", "base-" + std::to_string(i), 1.0, 100 + 60 * static_cast<unsigned>(i))
            .string());
  }
  const Result created = cli(create);
  ASSERT_EQ(created.code, 0) << created.out << created.err;
  unsetenv("FABRICGATE_STORE");
  constexpr int kStepAt = 12;
  for (int i = 0; i < kStepAt + 3; ++i) {
    const fs::path dir =
        write(results, run_id(i), i >= kStepAt ? 1.025 : 1.0, 200 + static_cast<unsigned>(i),
              i >= kStepAt ? "2.28.9" : "2.28.3");  // the step comes with an NCCL update
    const Result r =
        cli({"compare", dir.string(), "--baselines-dir", (root / "baselines").string(),
             "--vouch"});  // measured "here": its row counts for the host's DRIFT series
    if (i < kStepAt + 2) {
      ASSERT_EQ(r.code, 0) << "run " << i << "\n" << r.out << r.err;
      continue;
    }
    EXPECT_EQ(r.code, 1) << r.out << r.err;
    EXPECT_NE(r.out.find("DRIFT"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("began at run " + run_id(kStepAt)), std::string::npos) << r.out;
  }
  ASSERT_TRUE(fs::exists(results / "fabricgate.sqlite"));

  const std::string key = testing::key_for([] {
    testing::ResultSpec s;
    s.bytes = kLarge;
    return s;
  }());
  const Result h = cli({"history", key, "--results", results.string(), "--json"});
  ASSERT_EQ(h.code, 0) << h.err;
  const json j = json::parse(h.out);
  EXPECT_EQ(j["source"], "sqlite:" + (results / "fabricgate.sqlite").string());
  ASSERT_EQ(j["points"].size(), static_cast<std::size_t>(kStepAt + 3));
  ASSERT_EQ(j["change_points"].size(), 1u) << h.out;
  EXPECT_EQ(j["change_points"][0]["run_id"], run_id(kStepAt));
  EXPECT_EQ(j["change_points"][0]["direction"], "worse");
  const json changed = j["change_points"][0]["changed"];  // what changed across the step
  ASSERT_EQ(changed.size(), 1u) << changed.dump();
  EXPECT_EQ(changed[0]["what"], "versions/nccl");
  EXPECT_EQ(changed[0]["before"], "2.28.3");
  EXPECT_EQ(changed[0]["after"], "2.28.9");
  const Result text = cli({"history", key, "--results", results.string()});
  EXPECT_NE(text.out.find("what changed: versions/nccl 2.28.3 -> 2.28.9"), std::string::npos)
      << text.out;

  const Result all = cli({"history", "--all", "--results", results.string()});
  ASSERT_EQ(all.code, 0) << all.err;
  EXPECT_NE(all.out.find("1 with change points"), std::string::npos) << all.out;

  const Result bad = cli(
      {"history", key, "--results", results.string(), "--store", "postgresql://ci:secret@db/fg"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_EQ(bad.err.find("secret"), std::string::npos) << bad.err;
  fs::remove_all(root);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
