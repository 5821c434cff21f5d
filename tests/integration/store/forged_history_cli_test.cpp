// Issue 52, round five, high 1: anyone who can write a shared results directory or store must not
// decide the change verdict. A real 30 % regression on every key of host "victim" after an Open
// MPI upgrade (exit 1 against its baseline) is compared with a store that holds five earlier runs
// of "victim" at the slow level, every one a pass: planted through `store import`, given made-up
// seals with the sqlite3 API, or sealed with another machine's key. None of them may become the
// host's level: exit 1, and the run says how many stored runs it left out. The control: the same
// five runs imported with `--vouch` (this machine's host key seals them, as `run` seals its own)
// are the host's level, and the same run is no longer a regression, so the test fails if the seal
// check goes.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdlib>
#include <filesystem>
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

// This test's host key, never the machine's own (FABRICGATE_HOST_KEY_FILE for every child).
class HostKeyAt {
 public:
  explicit HostKeyAt(const fs::path& file) {
    ::setenv("FABRICGATE_HOST_KEY_FILE", file.c_str(), 1);
  }
  ~HostKeyAt() { ::unsetenv("FABRICGATE_HOST_KEY_FILE"); }
  HostKeyAt(const HostKeyAt&) = delete;
  HostKeyAt& operator=(const HostKeyAt&) = delete;
};

constexpr int kKeys = 4;

// A run of `host` whose every key takes `slowdown` times the fleet's time; hour `hour` of a day.
testing::ResultSpec key_spec(int k) {
  testing::ResultSpec s;
  s.bytes = std::uint64_t{1} << (16 + 2 * k);
  return s;
}

// `mpi`: the Open MPI the run used (the judged run's is an upgrade: a change to judge).
fs::path write_run(const fs::path& root, const std::string& id, const std::string& host,
                   double slowdown, int hour, const std::string& mpi = "Open MPI 4.1.6") {
  std::vector<json> results;
  for (int k = 0; k < kKeys; ++k) {
    testing::ResultSpec s = key_spec(k);
    const double t = 20.0 + static_cast<double>(s.bytes) / 1000.0;
    s.time_us = testing::noisy(t * slowdown, 0.005, 5, 40u + static_cast<unsigned>(hour) * 7u);
    results.push_back(testing::make_result(s));
  }
  testing::RunSpec rs;
  rs.versions["mpi"] = mpi;
  rs.run_id = id;
  rs.started_at = "2026-11-2" + std::to_string(hour / 24) + "T" + (hour % 24 < 10 ? "0" : "") +
                  std::to_string(hour % 24) + ":00:00Z";
  json doc = testing::make_run(rs, results);
  doc["host_id"] = host;
  doc["session_id"] = "session-" + id;
  return testing::write_run_dir(root, doc);
}

void exec(const fs::path& file, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
  char* error = nullptr;
  EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK)
      << (error ? error : "");
  sqlite3_free(error);
  sqlite3_close(db);
}

TEST(store_ForgedHistory, PlantedOrForgedRowsNeverBecomeTheHostsLevel) {
  const fs::path root = testing::fresh_temp_dir("forged-history");
  HostKeyAt key(root / "state" / "host-key");
  std::vector<std::string> create{"baseline", "create", "--out", (root / "baseline.json").string()};
  for (int i = 0; i < 3; ++i) {
    create.push_back("--from");
    create.push_back(
        write_run(root / "base", "base-" + std::to_string(i), "fleet-1", 1.0, i).string());
  }
  const Result created = cli(create);
  ASSERT_EQ(created.code, 0) << created.out << created.err;
  for (int i = 0; i < 5; ++i)
    write_run(root / "planted", "planted-" + std::to_string(i), "victim", 1.3, 4 + 3 * i);
  // The judged run: an Open MPI upgrade that costs 30 % on every key, on a host the baseline
  // never saw. The fleet's gross-change limit (no fleet runner was ever 15 % under its centre)
  // tells the change from the runner without any history: exit 1.
  const fs::path judged = write_run(root / "judged", "judged", "victim", 1.3, 40, "Open MPI 5.0.3");
  json gross = {{"schema", "fabricgate.gross-change/1"},
                {"platform", "cpu-test-2c"},
                {"factor", 0.9},
                {"derived_from", "this test"},
                {"keys", json::object()}};
  for (int k = 0; k < kKeys; ++k)
    gross["keys"][testing::key_for(key_spec(k))] = {
        {"slowest_ratio", 0.95}, {"launches", 3}, {"hosts", 1}};
  std::ofstream(root / "gross-change.json") << gross.dump();
  const auto compare = [&](const std::string& store) {
    return cli({"compare", judged.string(), "--baseline", (root / "baseline.json").string(),
                "--store", store});
  };
  const Result alone = compare("none");
  ASSERT_EQ(alone.code, 1) << "the regression is real:\n" << alone.out << alone.err;

  const auto store_with = [&](const std::string& name, std::vector<std::string> import_flags) {
    const fs::path file = root / (name + ".sqlite");
    std::vector<std::string> args{"store", "import", (root / "planted").string(), "--store",
                                  "sqlite:" + file.string()};
    args.insert(args.end(), import_flags.begin(), import_flags.end());
    const Result imported = cli(args);
    EXPECT_EQ(imported.code, 0) << imported.out << imported.err;
    return file;
  };
  const auto expect_regression = [&](const std::string& attack, const fs::path& file) {
    const Result r = compare("sqlite:" + file.string());
    EXPECT_EQ(r.code, 1) << attack << "\n" << r.out << r.err;
    EXPECT_NE(r.out.find("5 stored run(s) in sqlite:" + file.string() + " carry no seal"),
              std::string::npos)
        << attack << "\n"
        << r.out;
  };
  // Planted run directories taken in by `store import`.
  expect_regression("store import of planted runs", store_with("imported", {}));
  // The same rows with seals made up in the sqlite3 shell.
  const fs::path made_up = store_with("made-up", {});
  exec(made_up, "UPDATE runs SET host_seal = '" + std::string(64, 'f') + "'");
  expect_regression("made-up seals", made_up);
  // Sealed with another machine's key (vouched for there, copied here).
  fs::path elsewhere;
  {
    HostKeyAt other(root / "other-machine" / "host-key");
    elsewhere = store_with("elsewhere", {"--vouch"});
  }
  expect_regression("another machine's seals", elsewhere);
  // Sealed here, then a run's verdicts or medians edited.
  const fs::path edited = store_with("edited", {"--vouch"});
  exec(edited, "UPDATE medians SET time_us = time_us * 1.01");
  expect_regression("medians edited after sealing", edited);

  // The control: this machine vouched for them, so they are the host's level, and a run at that
  // level is not a regression of this host (exit 0, or 3 when the runner question speaks).
  const fs::path vouched = store_with("vouched", {"--vouch"});
  const Result level = compare("sqlite:" + vouched.string());
  EXPECT_NE(level.code, 1) << level.out << level.err;
  EXPECT_EQ(level.out.find("carry no seal"), std::string::npos) << level.out;
  fs::remove_all(root);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
