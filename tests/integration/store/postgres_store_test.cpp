// The PostgreSQL results store against a real server: the one ci/postgres starts for .ci/run
// (FABRICGATE_TEST_POSTGRES_URL, password in PGPASSWORD). Without it the tests skip with the
// reason, unless FABRICGATE_REQUIRE_POSTGRES=1 (CI), where a missing server fails them.
#include <gtest/gtest.h>

#include <libpq-fe.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>

#include "../../unit/store/store_fixtures.hpp"
#include "harness/store/results_store.hpp"
#include "harness/store/row_seal.hpp"
#include "harness/store/schema.hpp"

namespace fabricgate::store {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

using fabricgate::testing::holds_complete_runs;
using fabricgate::testing::synthetic_run;

// The test server's URL with a fresh schema of its own (search_path), so tests never see each
// other's rows; "" (after GTEST_SKIP or a failure) when there is no server.
class PostgresStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* url = std::getenv("FABRICGATE_TEST_POSTGRES_URL");
    const bool required = std::getenv("FABRICGATE_REQUIRE_POSTGRES") &&
                          std::string(std::getenv("FABRICGATE_REQUIRE_POSTGRES")) == "1";
    if (!url || !*url) {
      if (required)
        FAIL() << "FABRICGATE_REQUIRE_POSTGRES=1 but FABRICGATE_TEST_POSTGRES_URL is not set "
                  "(ci/postgres start)";
      GTEST_SKIP() << "no PostgreSQL server: set FABRICGATE_TEST_POSTGRES_URL (ci/postgres start "
                      "DIR; . DIR/env)";
    }
    schema_ = "t" + std::to_string(getpid()) + "_" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name();
    for (char& c : schema_) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    admin("DROP SCHEMA IF EXISTS " + schema_ + " CASCADE; CREATE SCHEMA " + schema_);
    url_ = std::string(url) + "?options=-csearch_path%3D" + schema_;
  }
  void TearDown() override {
    if (!schema_.empty() && std::getenv("FABRICGATE_TEST_POSTGRES_URL"))
      admin("DROP SCHEMA IF EXISTS " + schema_ + " CASCADE");
  }
  void admin(const std::string& sql) {
    PGconn* c = PQconnectdb(std::getenv("FABRICGATE_TEST_POSTGRES_URL"));
    ASSERT_EQ(PQstatus(c), CONNECTION_OK) << PQerrorMessage(c);
    PQsetNoticeProcessor(
        c, [](void*, const char*) {}, nullptr);
    PGresult* r = PQexec(c, sql.c_str());
    EXPECT_EQ(PQresultStatus(r), PGRES_COMMAND_OK) << PQerrorMessage(c);
    PQclear(r);
    PQfinish(c);
  }
  std::unique_ptr<ResultsStore> open() { return open_store(parse_store_location(url_, "--store")); }

  std::string schema_;
  std::string url_;
};

// Read access never creates or migrates: an empty database is refused and stays empty; a store
// made by a write command is read.
TEST_F(PostgresStoreTest, ReadAccessNeverCreatesAStore) {
  const StoreLocation where = parse_store_location(url_, "--store");
  try {
    open_store(where, Access::read);
    FAIL() << "read access opened an empty database";
  } catch (const StoreError& e) {
    EXPECT_NE(std::string(e.what()).find("a write command"), std::string::npos) << e.what();
  }
  PGconn* c = PQconnectdb(std::getenv("FABRICGATE_TEST_POSTGRES_URL"));
  PGresult* r =
      PQexec(c, ("SELECT count(*) FROM pg_tables WHERE schemaname = '" + schema_ + "'").c_str());
  EXPECT_STREQ(PQgetvalue(r, 0, 0), "0") << "read access created tables";
  PQclear(r);
  PQfinish(c);
  open()->record(synthetic_run("plat", 0, 3));
  EXPECT_EQ(open_store(where, Access::read)->run_count("plat"), 1u);
}

// A statement that cannot finish (a table locked by another session) ends at the store timeout
// with the bound named, on the real server (statement_timeout and the client's deadline).
TEST_F(PostgresStoreTest, AStatementThatCannotFinishEndsAtTheStoreTimeout) {
  open()->record(synthetic_run("plat", 0, 3));
  PGconn* locker = PQconnectdb((std::string(std::getenv("FABRICGATE_TEST_POSTGRES_URL"))).c_str());
  ASSERT_EQ(PQstatus(locker), CONNECTION_OK);
  PQclear(PQexec(locker, "BEGIN"));
  PGresult* locked =
      PQexec(locker, ("LOCK TABLE " + schema_ + ".runs IN ACCESS EXCLUSIVE MODE").c_str());
  ASSERT_EQ(PQresultStatus(locked), PGRES_COMMAND_OK) << PQerrorMessage(locker);
  PQclear(locked);
  for (const Access access : {Access::read, Access::write}) {
    StoreLocation where = parse_store_location(url_, "--store");
    where.timeout = std::chrono::seconds(1);
    const auto start = std::chrono::steady_clock::now();
    try {
      auto s = open_store(where, access);
      if (access == Access::write) {
        s->record(synthetic_run("plat", 1, 3));
      } else {
        RunQuery q;
        q.platform = "plat";
        s->runs(q);
      }
      ADD_FAILURE() << "a statement on a locked table finished";
    } catch (const StoreError& e) {
      EXPECT_NE(std::string(e.what()).find("statement timeout"), std::string::npos) << e.what();
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_LT(seconds, 8.0);
  }
  PQclear(PQexec(locker, "ROLLBACK"));
  PQfinish(locker);
  EXPECT_EQ(open()->run_count("plat"), 1u);  // the store works again once the lock is gone
}

// Labels (schema v7) on PostgreSQL: a second label of the same run and subject replaces the
// first (ON CONFLICT), other subjects and platforms stay apart, and a run is found by its id.
TEST_F(PostgresStoreTest, LabelsAreKeptPerRunAndSubject) {
  auto s = open();
  s->record(synthetic_run("plat", 1, 3));
  s->record_label({"plat", "run-1", "run", "false-alarm", "carol", "", "2026-12-05T00:00:00Z"});
  s->record_label({"plat", "run-1", "run", "real", "dave", "https://x/1", "2026-12-05T01:00:00Z"});
  s->record_label({"plat", "run-1", "k/a", "expected", "carol", "", "2026-12-05T02:00:00Z"});
  s->record_label({"other", "run-1", "run", "real", "carol", "", "2026-12-05T03:00:00Z"});
  const std::vector<FindingLabel> labels = s->labels("plat");
  ASSERT_EQ(labels.size(), 2u);
  EXPECT_EQ(labels[0].subject, "run");
  EXPECT_EQ(labels[0].label, "real");
  EXPECT_EQ(labels[0].who, "dave");
  EXPECT_EQ(labels[0].note, "https://x/1");
  EXPECT_EQ(labels[1].label, "expected");
  RunQuery q;
  q.platform = "plat";
  q.run_id = synthetic_run("plat", 1, 3).run_id;
  EXPECT_EQ(s->runs(q).size(), 1u);
  q.run_id = "no-such-run";
  EXPECT_TRUE(s->runs(q).empty());
}

TEST_F(PostgresStoreTest, RecordsReplacesAndReadsBack) {
  auto s = open();
  EXPECT_EQ(s->schema_version(), kSchemaVersion);
  for (std::size_t i = 0; i < 5; ++i) s->record(synthetic_run("plat", i, 7));
  StoredRun again = synthetic_run("plat", 4, 7);
  again.medians[0].verdict = "DRIFT";
  s->record(again);
  EXPECT_EQ(s->run_count("plat"), 5u);
  RunQuery q;
  q.platform = "plat";
  q.last = 2;
  const auto runs = s->runs(q);
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[1].run_id, again.run_id);
  ASSERT_EQ(runs[1].medians.size(), 7u);
  bool drift_seen = false;
  for (const StoredMedian& m : runs[1].medians) drift_seen = drift_seen || m.verdict == "DRIFT";
  EXPECT_TRUE(drift_seen);
  EXPECT_EQ(runs[1].facts["versions"]["nccl"], "2.28.3");
  // The oldest runs instead (a host's first level), oldest first, like SQLite's.
  RunQuery first = q;
  first.oldest = true;
  const auto oldest = s->runs(first);
  ASSERT_EQ(oldest.size(), 2u);
  EXPECT_EQ(oldest[0].run_id, synthetic_run("plat", 0, 0).run_id);
  EXPECT_EQ(oldest[1].run_id, synthetic_run("plat", 1, 0).run_id);
  EXPECT_EQ(oldest[0].medians.size(), 7u);
  for (const StoredMedian& m : runs[1].medians) {
    if (m.key.find("/ranks:1/") != std::string::npos)
      q.key = m.key;  // key 1: odd keys have no busbw
  }
  ASSERT_FALSE(q.key.empty());
  q.exclude_run_id = again.run_id;
  const auto one = s->runs(q);
  ASSERT_EQ(one.size(), 2u);
  ASSERT_EQ(one[1].medians.size(), 1u);
  EXPECT_FALSE(one[1].medians[0].busbw_GBps);  // NULL round trip
  EXPECT_TRUE(holds_complete_runs(*s, "plat", 7));
}

// A sealed row (row_seal.hpp) reads back verifying, PostgreSQL's numbers included; an unsealed
// re-record never replaces it; sealed_only leaves unsealed rows out, as SQLite does.
TEST_F(PostgresStoreTest, ASealedRowVerifiesAndAnUnsealedRecordNeverReplacesIt) {
  auto s = open();
  const std::string key(64, '7');
  StoredRun sealed = synthetic_run("sealplat", 1, 6);
  sealed.medians[0].time_us = 0.1 + 0.2;  // a double that needs all 17 digits
  sealed.nodes = {"gpu-1", "gpu-12"};     // v6: the run's host names, sealed too
  sealed.host_seal = row_seal(sealed, key);
  s->record(sealed);
  s->record(synthetic_run("sealplat", 2, 6));  // unsealed
  StoredRun again = synthetic_run("sealplat", 1, 3);
  again.medians[0].verdict = "PASS";
  s->record(again);  // unsealed: keeps the sealed row
  RunQuery q;
  q.platform = "sealplat";
  auto runs = s->runs(q);
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].run_id, sealed.run_id);
  EXPECT_EQ(runs[0].medians.size(), 6u);
  EXPECT_TRUE(seal_holds(runs[0], key));
  EXPECT_FALSE(seal_holds(runs[1], key));
  q.sealed_only = true;
  runs = s->runs(q);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].run_id, sealed.run_id);
  EXPECT_EQ(runs[0].nodes, sealed.nodes);
  // The node filter matches a whole host name, not a prefix of another.
  RunQuery by_node;
  by_node.platform = "sealplat";
  by_node.node = "gpu-12";
  EXPECT_EQ(s->runs(by_node).size(), 1u);
  by_node.node = "gpu-2";
  EXPECT_TRUE(s->runs(by_node).empty());
}

TEST_F(PostgresStoreTest, MigratesAVersion1Store) {
  std::string v1 = "SET search_path = " + schema_ + ";";
  for (const std::string& sql : create_schema_v1(Dialect::postgresql)) v1 += sql + ";";
  v1 +=
      "INSERT INTO runs (platform, run_id, started_at, suite, scenario, complete) VALUES "
      "('p', 'r1', '2026-01-01T00:00:00Z', 'quick', 'default', 1);"
      "INSERT INTO medians SELECT id, 'k/a', 1024, 5.0, 10.0, NULL FROM runs;";
  admin(v1);
  auto s = open();
  EXPECT_EQ(s->schema_version(),
            7);  // v1 -> v2 -> v3 (host, session) -> v4 (counters) -> v5 (seal) -> v6 -> v7
  const auto runs = s->runs(RunQuery{"p", 0, "", "", "", ""});
  ASSERT_EQ(runs.size(), 1u);
  ASSERT_EQ(runs[0].medians.size(), 1u);
  EXPECT_EQ(runs[0].medians[0].key, "k/a");
  s->record(synthetic_run("p", 2, 3));
  EXPECT_EQ(s->run_count("p"), 2u);
}

TEST_F(PostgresStoreTest, TwoWritersAtOnceLoseNothing) {
  constexpr std::size_t kRuns = 40;
  constexpr std::size_t kKeys =
      300;              // both writers share these keys: the new-key race is exercised
  { auto s = open(); }  // schema created once; the writers race on keys and runs
  std::vector<pid_t> writers;
  for (const char* name : {"a", "b"}) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      int code = 0;
      try {
        auto s = open();
        for (std::size_t i = 0; i < kRuns; ++i) s->record(synthetic_run("shared", i, kKeys, name));
      } catch (const std::exception& e) {
        std::fprintf(stderr, "writer %s: %s\n", name, e.what());
        code = 1;
      }
      _exit(code);
    }
    writers.push_back(pid);
  }
  for (const pid_t pid : writers) {
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
        << "a writer failed (its message is above)";
  }
  auto s = open();
  EXPECT_EQ(s->run_count("shared"), 2 * kRuns);
  EXPECT_TRUE(holds_complete_runs(*s, "shared", kKeys));
}

TEST_F(PostgresStoreTest, AWrongPasswordFailsWithoutPrintingIt) {
  const char* saved = std::getenv("PGPASSWORD");
  const std::string keep = saved ? saved : "";
  setenv("PGPASSWORD", "not-the-password-5b2c", 1);
  try {
    open();
    ADD_FAILURE() << "connected with a wrong password";
  } catch (const StoreError& e) {
    EXPECT_EQ(std::string(e.what()).find("not-the-password-5b2c"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("cannot connect"), std::string::npos) << e.what();
  }
  if (saved) setenv("PGPASSWORD", keep.c_str(), 1);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::store
