// The SQLite results store on real files: round trip, replace, migration from schema v1, a
// writer killed mid-transaction, import of run directories (bad ones skipped), and the store
// location rules (no password in a URL).
#include <gtest/gtest.h>

#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "../gate/gate_fixtures.hpp"
#include "core/errors.hpp"
#include "harness/report/dashboard_site.hpp"
#include "harness/store/dashboard_runs.hpp"
#include "harness/store/results_store.hpp"
#include "harness/store/row_seal.hpp"
#include "harness/store/schema.hpp"
#include "harness/store/store_import.hpp"
#include "harness/store/stored_run.hpp"
#include "store_fixtures.hpp"

namespace fabricgate::store {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fs = std::filesystem;
using fabricgate::testing::fresh_temp_dir;
using fabricgate::testing::holds_complete_runs;
using fabricgate::testing::synthetic_run;

StoreLocation sqlite_at(const fs::path& file) {
  return parse_store_location("sqlite:" + file.string(), "--store");
}

TEST(SqliteStore, KeepsHostAndSessionAndFiltersByHostAndStartTime) {
  const fs::path dir = fresh_temp_dir("store-hosts");
  auto s = open_store(sqlite_at(dir / "fg.sqlite"));
  // Runs 0..5 (started 00:00..00:05): even ones on host a, odd ones on host b.
  for (std::size_t i = 0; i < 6; ++i) {
    StoredRun r = synthetic_run("p", i, 2);
    r.host_id = i % 2 == 0 ? "aaaaaaaaaaaa" : "bbbbbbbbbbbb";
    r.session_id = "session-" + std::to_string(i / 2);
    s->record(r);
  }
  RunQuery q{"p", 0, "", "", "", ""};
  q.host = "aaaaaaaaaaaa";
  auto runs = s->runs(q);
  ASSERT_EQ(runs.size(), 3u);
  for (const auto& r : runs) EXPECT_EQ(r.host_id, "aaaaaaaaaaaa");
  EXPECT_EQ(runs[2].session_id, "session-2");
  q.started_before = "2026-01-01T00:04:00Z";  // runs 0 and 2 of host a
  runs = s->runs(q);
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[1].started_at, "2026-01-01T00:02:00Z");
  q.host.clear();  // every host before 00:04: runs 0..3
  EXPECT_EQ(s->runs(q).size(), 4u);
}

// The nodes a run blamed reach the dashboard with each finding's severity (issue 55), read back
// from the store; a severity that is not one of the gate's words is dropped.
TEST(SqliteStore, TheDashboardShowsTheNodesARunBlamedWithTheirSeverity) {
  const fs::path dir = fresh_temp_dir("store-node-findings");
  auto s = open_store(sqlite_at(dir / "fg.sqlite"));
  RunRecord run;
  run.platform = "p";
  run.suite = "cpu";
  run.scenario = "default";
  run.run_id = "r1";
  run.started_at = "2026-01-01T00:01:00Z";
  verdict::Comparison c;
  c.has_baseline = true;
  c.exit_code = ExitCode::gate_failure;
  c.cluster_findings.push_back({"NODE-MISMATCH", true, "fgsnode2", "driver", "driver differs", ""});
  c.cluster_findings.push_back({"STRAGGLER", true, "fgsnode1", "", "rank 1 late", ""});
  s->record(stored_run_from(run, &c));
  StoredRun forged = synthetic_run("p", 2, 1);
  forged.facts["node_findings"] = {{{"node", "x"}, {"finding", "F"}, {"severity", "drain!"}}};
  s->record(forged);
  RunQuery q;
  q.platform = "p";
  const auto rows = s->runs(q);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(dashboard_run(rows[0]).node_findings,
            (std::vector<std::string>{"fgsnode2: NODE-MISMATCH (drain)",
                                      "fgsnode1: STRAGGLER (monitor)"}));
  EXPECT_TRUE(dashboard_run(rows[1]).node_findings.empty());
  const auto pages =
      report::render_dashboard(dashboard_platforms(*s, "", 0, "2026-12-06T00:00:00Z"), {});
  bool shown = false;
  for (const auto& page : pages)
    shown = shown || page.html.find(
                         "fgsnode2: NODE-MISMATCH (drain); fgsnode1: STRAGGLER "
                         "(monitor)") != std::string::npos;
  EXPECT_TRUE(shown);
}

// Labels (schema v7, `fabricgate ack --label`) are kept per run and subject, a second label of the
// same subject replaces the first, and the dashboard's precision counts the labels of the runs
// that started in the 30 days before the page: 2 real + 1 expected of 4 labelled = 75 %, the
// label of a run older than the window left out, a failing run without a label counted as such.
TEST(SqliteStore, LabelsGiveTheDashboardItsMeasuredPrecision) {
  const fs::path dir = fresh_temp_dir("store-labels");
  auto s = open_store(sqlite_at(dir / "fg.sqlite"));
  EXPECT_EQ(s->schema_version(), 7);
  RunRecord run;
  run.platform = "p";
  run.suite = "cpu";
  run.scenario = "default";
  verdict::Comparison failed;
  failed.has_baseline = true;
  failed.exit_code = ExitCode::gate_failure;
  const std::vector<std::pair<std::string, std::string>> runs = {
      {"old", "2026-10-01T00:00:00Z"}, {"a", "2026-11-20T00:00:00Z"},
      {"b", "2026-11-25T00:00:00Z"},   {"c", "2026-12-01T00:00:00Z"},
      {"d", "2026-12-02T00:00:00Z"},   {"e", "2026-12-03T00:00:00Z"}};
  for (const auto& [id, started] : runs) {
    run.run_id = id;
    run.started_at = started;
    s->record(stored_run_from(run, &failed));
  }
  const auto label = [&](const std::string& id, const std::string& subject,
                         const std::string& what) {
    s->record_label({"p", id, subject, what, "carol", "", "2026-12-05T00:00:00Z"});
  };
  label("old", "run", "false-alarm");  // outside the window
  label("a", "run", "false-alarm");
  label("a", "run", "real");  // replaces the false alarm
  label("b", "k1", "real");
  label("c", "run", "expected");
  label("d", "run", "false-alarm");
  const auto labels = s->labels("p");
  ASSERT_EQ(labels.size(), 5u);
  EXPECT_TRUE(s->labels("other").empty());
  const auto platforms = dashboard_platforms(*s, "p", 0, "2026-12-06T00:00:00Z");
  ASSERT_EQ(platforms.size(), 1u);
  const report::LabelPrecision& p = platforms[0].precision;
  EXPECT_EQ(p.real, 2u);
  EXPECT_EQ(p.expected, 1u);
  EXPECT_EQ(p.false_alarm, 1u);
  EXPECT_EQ(p.failing_runs, 5u);             // a to e
  EXPECT_EQ(p.unlabelled_failing_runs, 1u);  // e
  EXPECT_NE(report::precision_text(p).find("Precision 75 %: 3 of 4 labelled finding(s)"),
            std::string::npos)
      << report::precision_text(p);
  const auto pages = report::render_dashboard(platforms, {});
  EXPECT_NE(pages[0].html.find("Precision 75 %"), std::string::npos);
  fs::remove_all(dir);
}

// The dashboard reads the newest runs per platform only (its default bound, 1000; here 2 of 6),
// and says so on the index and the platform's page with the count it left out (issue 58: every
// run of 10^5 took 7.5 GB and 87 s, results/cpu-amd-epyc-c2/dashboard-bound-s18/).
TEST(SqliteStore, TheDashboardSaysWhenItsBoundLeftRunsOut) {
  const fs::path dir = fresh_temp_dir("store-dash-bound");
  auto s = open_store(sqlite_at(dir / "fg.sqlite"));
  for (std::size_t i = 0; i < 6; ++i) s->record(synthetic_run("p", i, 2));
  const auto bounded = dashboard_platforms(*s, "p", 2, "2026-12-06T00:00:00Z");
  ASSERT_EQ(bounded.size(), 1u);
  EXPECT_EQ(bounded[0].runs.size(), 2u);
  EXPECT_EQ(bounded[0].stored_runs, 6u);
  report::DashboardOptions o;
  o.last = 2;
  const auto pages = report::render_dashboard(bounded, o);
  for (const auto& page : pages)
    EXPECT_NE(page.html.find("The newest 2 of the platform&apos;s 6 stored runs"),
              std::string::npos)
        << page.file;
  const auto every = dashboard_platforms(*s, "p", 0, "2026-12-06T00:00:00Z");
  EXPECT_EQ(every[0].runs.size(), 6u);
  for (const auto& page : report::render_dashboard(every, {}))
    EXPECT_EQ(page.html.find("The newest"), std::string::npos) << page.file;
  fs::remove_all(dir);
}

// The dashboard's headline for each run is the gate's own outcome, as recorded with the run (one
// run of every outcome, read back from SQLite); a row whose outcome is not one of the gate's words
// (anyone who can write the store can write it) falls back to the keys' verdicts.
TEST(SqliteStore, TheDashboardHeadlineIsTheGatesOutcome) {
  const fs::path dir = fresh_temp_dir("store-outcomes");
  auto s = open_store(sqlite_at(dir / "fg.sqlite"));
  RunRecord run;
  run.platform = "p";
  run.suite = "cpu";
  run.scenario = "default";
  const auto record = [&](const std::string& id, bool has_baseline, ExitCode exit_code) {
    verdict::Comparison c;
    c.has_baseline = has_baseline;
    c.exit_code = exit_code;
    run.run_id = id;
    run.started_at = "2026-01-01T00:0" + id + ":00Z";
    s->record(stored_run_from(run, &c));
  };
  record("1", false, ExitCode::pass);
  record("2", true, ExitCode::pass);
  record("3", true, ExitCode::gate_failure);
  record("4", true, ExitCode::infra_failure);
  StoredRun forged = synthetic_run("p", 5, 1);
  forged.facts["outcome"] = "PASS<script>";
  forged.medians.front().verdict = "REGRESSION";
  s->record(forged);
  RunQuery q;
  q.platform = "p";
  std::vector<std::string> headlines;
  for (const StoredRun& r : s->runs(q)) headlines.push_back(report::run_verdict(dashboard_run(r)));
  EXPECT_EQ(headlines,
            (std::vector<std::string>{"NO BASELINE", "PASS", "FAIL", "NOT JUDGED", "FAIL"}));
}

TEST(SqliteStore, RecordsAndReadsBackNewestRunsOldestFirst) {
  const fs::path dir = fresh_temp_dir("store-roundtrip");
  auto s = open_store(sqlite_at(dir / "sub" / "fg.sqlite"));  // the directory is created
  EXPECT_EQ(s->schema_version(), kSchemaVersion);
  for (std::size_t i = 0; i < 6; ++i) s->record(synthetic_run("plat-a", i, 5));
  s->record(synthetic_run("plat-b", 0, 2));
  EXPECT_EQ(s->platforms(), (std::vector<std::string>{"plat-a", "plat-b"}));
  RunQuery q;
  q.platform = "plat-a";
  q.last = 3;
  const auto runs = s->runs(q);
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[0].run_id, synthetic_run("plat-a", 3, 0).run_id);
  EXPECT_EQ(runs[2].run_id, synthetic_run("plat-a", 5, 0).run_id);
  ASSERT_EQ(runs[2].medians.size(), 5u);
  EXPECT_EQ(runs[2].medians[0].verdict, "PASS");
  EXPECT_EQ(runs[2].env.at("NCCL_PROTO"), "Simple");
  EXPECT_EQ(runs[2].facts["versions"]["nccl"], "2.28.3");
  EXPECT_FALSE(runs[2].fingerprint_digest.empty());
  // The oldest runs instead (a host's first level, harness/gate/host_history.hpp), oldest first.
  RunQuery first = q;
  first.oldest = true;
  const auto oldest = s->runs(first);
  ASSERT_EQ(oldest.size(), 3u);
  EXPECT_EQ(oldest[0].run_id, synthetic_run("plat-a", 0, 0).run_id);
  EXPECT_EQ(oldest[2].run_id, synthetic_run("plat-a", 2, 0).run_id);
  EXPECT_EQ(oldest[0].medians.size(), 5u);
  q.key = runs[2].medians[1].key;
  q.exclude_run_id = runs[2].run_id;
  const auto one_key = s->runs(q);
  ASSERT_EQ(one_key.size(), 3u);
  EXPECT_EQ(one_key.back().run_id, runs[1].run_id);
  ASSERT_EQ(one_key.back().medians.size(), 1u);
  EXPECT_FALSE(one_key.back().medians[0].busbw_GBps);  // odd keys have no busbw: NULL round trip
  EXPECT_TRUE(holds_complete_runs(*s, "plat-a", 5));
}

TEST(SqliteStore, RecordingARunAgainReplacesIt) {
  const fs::path dir = fresh_temp_dir("store-replace");
  auto s = open_store(sqlite_at(dir / "fg.sqlite"));
  s->record(synthetic_run("p", 1, 4));
  StoredRun again = synthetic_run("p", 1, 4);
  again.medians[0].verdict = "DRIFT";
  again.medians.pop_back();
  s->record(again);
  EXPECT_EQ(s->run_count("p"), 1u);
  const auto runs = s->runs(RunQuery{"p", 0, "", "", "", ""});
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].medians.size(), 3u);
}

// The seal (row_seal.hpp) covers what decides a host's level: a verdict turned into PASS, a
// median made faster, another host id or another key each break it; the same row read back from
// the store still verifies.
TEST(RowSeal, BreaksOnEveryFieldThatDecidesALevelAndSurvivesTheStore) {
  const std::string key(64, 'a');
  StoredRun row = synthetic_run("p", 1, 3);
  row.host_id = "h1";
  row.session_id = "s1";
  row.medians[0].verdict = "REGRESSION";
  row.medians[1].busbw_GBps = 0.1 + 0.2;  // a double that needs all its digits
  row.host_seal = row_seal(row, key);
  EXPECT_TRUE(seal_holds(row, key));
  EXPECT_FALSE(seal_holds(row, std::string(64, 'b')));
  EXPECT_FALSE(seal_holds(row, ""));
  const auto broken = [&](auto&& edit) {
    StoredRun copy = row;
    edit(copy);
    return !seal_holds(copy, key);
  };
  EXPECT_TRUE(broken([](StoredRun& r) { r.medians[0].verdict = "PASS"; }));
  EXPECT_TRUE(broken([](StoredRun& r) { r.medians[1].time_us *= 0.5; }));
  EXPECT_TRUE(broken([](StoredRun& r) { r.medians[1].algbw_GBps *= 2; }));
  EXPECT_TRUE(broken([](StoredRun& r) { r.medians[1].busbw_GBps.reset(); }));
  EXPECT_TRUE(broken([](StoredRun& r) { r.medians.pop_back(); }));
  EXPECT_TRUE(broken([](StoredRun& r) { r.host_id = "h2"; }));
  EXPECT_TRUE(broken([](StoredRun& r) { r.session_id = "s2"; }));
  EXPECT_TRUE(broken([](StoredRun& r) { r.started_at = "2020-01-01T00:00:00Z"; }));
  EXPECT_TRUE(broken([](StoredRun& r) { r.suite = "other"; }));
  EXPECT_TRUE(broken([](StoredRun& r) { r.host_seal[0] = r.host_seal[0] == '0' ? '1' : '0'; }));
  EXPECT_TRUE(broken([](StoredRun& r) { r.host_seal.clear(); }));
  // The medians' order is not part of it.
  EXPECT_FALSE(broken([](StoredRun& r) { std::swap(r.medians[0], r.medians[2]); }));

  const fs::path dir = fresh_temp_dir("store-seal");
  auto s = open_store(sqlite_at(dir / "fg.sqlite"));
  s->record(row);
  const auto runs = s->runs(RunQuery{"p", 0, "", "", "", ""});
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].host_seal, row.host_seal);
  EXPECT_TRUE(seal_holds(runs[0], key));
  // v6: the run's host names, read back, filtered by whole name, and sealed.
  StoredRun with_nodes = synthetic_run("p", 2, 3);
  with_nodes.nodes = {"gpu-1", "gpu-12"};
  with_nodes.host_seal = row_seal(with_nodes, key);
  s->record(with_nodes);
  RunQuery by_node{"p", 0, "", "", "", ""};
  by_node.node = "gpu-12";
  const auto found = s->runs(by_node);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].nodes, with_nodes.nodes);
  EXPECT_TRUE(seal_holds(found[0], key));
  by_node.node = "gpu-2";
  EXPECT_TRUE(s->runs(by_node).empty());
  StoredRun moved = found[0];
  moved.nodes = {"gpu-3"};
  EXPECT_FALSE(seal_holds(moved, key));
}

// A re-judgement (`compare`) or an import records the run unsealed: it never replaces the row
// that `run` sealed, or a run could be taken out of its host's level (or put in with other
// verdicts) by recording it again. A sealed row replaces either.
TEST(SqliteStore, AnUnsealedRecordNeverReplacesASealedOne) {
  const fs::path dir = fresh_temp_dir("store-keep-sealed");
  auto s = open_store(sqlite_at(dir / "fg.sqlite"));
  const std::string key(64, 'c');
  StoredRun sealed = synthetic_run("p", 1, 4);
  sealed.host_seal = row_seal(sealed, key);
  s->record(sealed);
  StoredRun again = synthetic_run("p", 1, 4);
  again.medians[0].verdict = "PASS";
  again.medians.pop_back();
  s->record(again);
  auto runs = s->runs(RunQuery{"p", 0, "", "", "", ""});
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].medians.size(), 4u);
  EXPECT_TRUE(seal_holds(runs[0], key));
  RunQuery sealed_only{"p", 0, "", "", "", ""};
  sealed_only.sealed_only = true;
  s->record(synthetic_run("p", 2, 4));  // unsealed, another run
  EXPECT_EQ(s->runs(sealed_only).size(), 1u);
  again.host_seal = row_seal(again, key);
  s->record(again);
  runs = s->runs(RunQuery{"p", 0, "", "", "", ""});
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].medians.size(), 3u);
}

TEST(SqliteStore, MigratesAVersion1StoreKeepingItsRuns) {
  const fs::path file = fresh_temp_dir("store-migrate") / "v1.sqlite";
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
  for (const std::string& sql : create_schema_v1(Dialect::sqlite))
    ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sql;
  const char* rows =
      "INSERT INTO runs (id, platform, run_id, started_at, suite, scenario, complete) VALUES "
      "(1, 'p', 'r1', '2026-01-01T00:00:00Z', 'quick', 'default', 1), (2, 'p', 'r2', "
      "'2026-01-02T00:00:00Z', 'quick', 'default', 1);"
      "INSERT INTO medians VALUES (1, 'k/a', 1024, 5.0, 10.0, NULL), (1, 'k/b', 2048, 6.0, 11.0, "
      "12.0),"
      " (2, 'k/a', 1024, 5.5, 9.0, NULL);";
  ASSERT_EQ(sqlite3_exec(db, rows, nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  auto s = open_store(sqlite_at(file));
  EXPECT_EQ(s->schema_version(),
            7);  // v1 -> v2 -> v3 (host, session) -> v4 (counters) -> v5 (seal) -> v6 -> v7
  const auto runs = s->runs(RunQuery{"p", 0, "", "", "", ""});
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].run_id, "r1");
  ASSERT_EQ(runs[0].medians.size(), 2u);
  EXPECT_EQ(runs[1].medians[0].algbw_GBps, 9.0);
  EXPECT_EQ(runs[0].fingerprint_digest, "");
  EXPECT_EQ(runs[0].host_id, "");  // rows older than v3 know no host
  EXPECT_EQ(runs[0].session_id, "");
  s->record(synthetic_run("p", 3, 2));  // the migrated store takes new runs
  EXPECT_EQ(s->run_count("p"), 3u);
}

TEST(SqliteStore, RefusesAStoreFromANewerFabricgate) {
  const fs::path file = fresh_temp_dir("store-newer") / "fg.sqlite";
  { auto s = open_store(sqlite_at(file)); }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
  sqlite3_exec(db, "UPDATE schema_version SET version = 99", nullptr, nullptr, nullptr);
  sqlite3_close(db);
  try {
    open_store(sqlite_at(file));
    FAIL() << "opened a v99 store";
  } catch (const StoreError& e) {
    EXPECT_NE(std::string(e.what()).find("schema version 99"), std::string::npos) << e.what();
  }
}

TEST(SqliteStore, AWriterKilledMidRunLeavesOnlyWholeRuns) {
  const fs::path file = fresh_temp_dir("store-kill") / "fg.sqlite";
  { auto s = open_store(sqlite_at(file)); }
  constexpr std::size_t kKeys = 20000;  // ~tens of ms per run: the kill lands inside a transaction
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto s = open_store(sqlite_at(file));
    for (std::size_t i = 0; i < 1000; ++i) s->record(synthetic_run("p", i, kKeys));
    _exit(0);
  }
  {  // kill once a few runs are committed, so the kill lands inside a later run's transaction
    auto watcher = open_store(sqlite_at(file));
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (watcher->run_count("p") < 2 && std::chrono::steady_clock::now() < give_up) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(25));
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the writer finished 1000 runs before the kill";
  auto s = open_store(sqlite_at(file));
  EXPECT_GT(s->run_count("p"), 0u);
  EXPECT_TRUE(holds_complete_runs(*s, "p", kKeys));
}

TEST(StoreImport, BackFillsRunDirectoriesAndSkipsBadOnes) {
  using namespace fabricgate::testing;
  const fs::path root = fresh_temp_dir("store-import");
  for (int i = 0; i < 3; ++i) {
    RunSpec spec;
    spec.run_id = "2026010" + std::to_string(i + 1) + "T000000Z-quick-default";
    ResultSpec r;
    r.time_us = noisy(100, 0.01, 5, static_cast<unsigned>(i));
    write_run_dir(root, make_run(spec, {make_result(r)}));
  }
  fs::create_directories(root / "cpu-test-2c" / "broken");
  std::ofstream(root / "cpu-test-2c" / "broken" / "run.json") << "{\"schema\": ";
  auto s = open_store(sqlite_at(root / "fg.sqlite"));
  const ImportSummary summary = import_run_directories(*s, root);
  EXPECT_EQ(summary.imported, 3u);
  EXPECT_EQ(summary.skipped, 1u);
  ASSERT_EQ(summary.warnings.size(), 1u);
  EXPECT_NE(summary.warnings[0].find("broken/run.json"), std::string::npos) << summary.warnings[0];
  EXPECT_EQ(s->run_count("cpu-test-2c"), 3u);
  EXPECT_THROW(import_run_directories(*s, root / "nowhere"), InputError);
}

TEST(StoreLocation, SqliteUriNamesAndBadTimeoutsAreRefused) {
  for (const char* uri :
       {"sqlite:file:x.db?mode=memory", "sqlite:file:/tmp/x.db?mode=ro", "sqlite:FILE:x.db",
        "sqlite:file:x.db?vfs=unix-none", "sqlite::memory:", "sqlite://file:x.db?cache=shared"})
    EXPECT_THROW(parse_store_location(uri, "--store"), InputError) << uri;
  EXPECT_EQ(parse_store_location("sqlite:./file:x.db", "--store").target, "./file:x.db");
  for (const char* bad : {"0", "-1", "3601", "ten", "5s"}) {
    setenv("FABRICGATE_STORE_TIMEOUT", bad, 1);
    EXPECT_THROW(parse_store_location("sqlite:/tmp/x.db", "--store"), InputError) << bad;
  }
  setenv("FABRICGATE_STORE_TIMEOUT", "7", 1);
  EXPECT_EQ(parse_store_location("postgresql://h/db", "--store").timeout, std::chrono::seconds(7));
  unsetenv("FABRICGATE_STORE_TIMEOUT");
  EXPECT_EQ(parse_store_location("postgresql://h/db", "--store").timeout, std::chrono::seconds(30));
}

TEST(SqliteStore, ReadAccessNeverCreatesAFileAndRefusesToRecord) {
  const fs::path file = fresh_temp_dir("store-read") / "fg.sqlite";
  EXPECT_THROW(open_store(sqlite_at(file), Access::read),
               InputError);  // a store named for reading must exist (exit 2)
  EXPECT_FALSE(fs::exists(file));
  open_store(sqlite_at(file))->record(synthetic_run("p", 0, 2));
  auto reader = open_store(sqlite_at(file), Access::read);
  EXPECT_EQ(reader->run_count("p"), 1u);
  EXPECT_THROW(reader->record(synthetic_run("p", 1, 2)), std::logic_error);
}

TEST(StoreLocation, KindsDefaultsAndRefusedPasswords) {
  EXPECT_EQ(parse_store_location("sqlite:/tmp/x.sqlite", "--store").target, "/tmp/x.sqlite");
  EXPECT_EQ(parse_store_location("postgresql://ci@db.example:5432/fg", "--store").kind,
            StoreKind::postgresql);
  EXPECT_EQ(parse_store_location("host=db dbname=fg user=ci", "--store").kind,
            StoreKind::postgresql);
  EXPECT_EQ(parse_store_location("none", "--store").kind, StoreKind::none);
  EXPECT_THROW(parse_store_location("mysql://db/fg", "--store"), InputError);
  EXPECT_THROW(parse_store_location("sqlite:", "--store"), InputError);
  // Percent-encoded keys too: libpq decodes them (issue 52, round four high 4).
  for (const char* secret :
       {"postgresql://ci:hunter2@db/fg", "host=db password=hunter2",
        "postgresql://db/fg?password=hunter2", "postgresql://db/fg?pass%77ord=hunter2",
        "postgresql://db/fg?%70assword=hunter2", "postgresql://db/fg?sslpass%77ord=hunter2",
        "postgresql://db/fg?user=ci&%50ASSWORD=hunter2"}) {
    try {
      parse_store_location(secret, "FABRICGATE_STORE");
      ADD_FAILURE() << "accepted " << secret;
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()).find("hunter2"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("PGPASSWORD"), std::string::npos) << e.what();
    }
  }
  unsetenv("FABRICGATE_STORE");
  EXPECT_EQ(resolve_store_location("", "res").target, "res/fabricgate.sqlite");
  setenv("FABRICGATE_STORE", "sqlite:/tmp/env.sqlite", 1);
  EXPECT_EQ(resolve_store_location("", "res").target, "/tmp/env.sqlite");
  EXPECT_EQ(resolve_store_location("none", "res").kind, StoreKind::none);
  unsetenv("FABRICGATE_STORE");
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::store

namespace fabricgate::store {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

// v4: the run's compact runner counters (docs/COUNTERS.md) are written to their own column.
TEST(SqliteStore, KeepsRunnerCountersInTheirOwnColumn) {
  const fs::path file = fabricgate::testing::fresh_temp_dir("store-counters") / "fg.sqlite";
  {
    auto s = open_store(sqlite_at(file));
    StoredRun r = synthetic_run("p", 0, 1);
    r.runner_counters = {{"foreign_processes", {{{"pid", 4242}, {"name", "python3"}}}}};
    s->record(r);
  }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
  sqlite3_stmt* q = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT runner_counters, facts FROM runs", -1, &q, nullptr),
            SQLITE_OK);
  ASSERT_EQ(sqlite3_step(q), SQLITE_ROW);
  const std::string counters = reinterpret_cast<const char*>(sqlite3_column_text(q, 0));
  const std::string facts = reinterpret_cast<const char*>(sqlite3_column_text(q, 1));
  sqlite3_finalize(q);
  sqlite3_close(db);
  EXPECT_EQ(counters, R"({"foreign_processes":[{"name":"python3","pid":4242}]})");
  EXPECT_EQ(facts.find("foreign_processes"), std::string::npos);  // not a "what changed" fact
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::store
