// A shared results store is written by others: its rows are untrusted text. Runs recorded with
// the real CLI get hostile platform names, run ids, keys and facts written straight into the
// SQLite file (as anyone with write access could), then every command that reads the store back
// (store info, history KEY, history --all, the errors that list platforms) must print no control
// character a terminal obeys and no line GitHub would run as a workflow command.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <regex>
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

void exec(sqlite3* db, const std::string& sql, const std::vector<std::string>& binds) {
  sqlite3_stmt* st = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
  for (std::size_t i = 0; i < binds.size(); ++i) {
    sqlite3_bind_text(st, static_cast<int>(i + 1), binds[i].data(),
                      static_cast<int>(binds[i].size()), SQLITE_TRANSIENT);
  }
  EXPECT_EQ(sqlite3_step(st), SQLITE_DONE) << sql << ": " << sqlite3_errmsg(db);
  sqlite3_finalize(st);
}

// What a terminal or the Actions runner would obey: ESC (CSI, OSC), BEL, CR, the C1 CSI/OSC
// (U+009B, U+009D), and any line that starts, after blanks, with "::".
void expect_inert(const std::string& what, const std::string& text) {
  for (const char c : {'\x1b', '\x07', '\r', '\x08', '\x00'})
    EXPECT_EQ(text.find(c), std::string::npos) << what << " holds byte " << int(c) << ":\n" << text;
  EXPECT_EQ(text.find("\xc2\x9b"), std::string::npos) << what << ":\n" << text;
  EXPECT_EQ(text.find("\xc2\x9d"), std::string::npos) << what << ":\n" << text;
  static const std::regex command(R"((^|\n)[ \t]*::)");
  EXPECT_FALSE(std::regex_search(text, command)) << what << ":\n" << text;
}

const std::vector<std::string> kHostile = {
    "\x1b]0;owned\x07\n::error::forged by the store",
    "x\x1b[2J\x1b[H\n  ::add-mask::secret",
    "y\r\n::warning file=a,line=1::forged",
    "z\xc2\x9b"
    "2J\xc2\x9d"
    "0;t\x07\n\t::set-output name=a::b",
};

TEST(store_HostileRows, EveryReaderPrintsThemInert) {
  for (std::size_t variant = 0; variant < kHostile.size(); ++variant) {
    const std::string& bad = kHostile[variant];
    const fs::path root = testing::fresh_temp_dir("hostile-store-" + std::to_string(variant));
    const fs::path results = root / "results";
    for (int i = 0; i < 4; ++i) {
      testing::ResultSpec s;
      s.bytes = 1 << 20;
      s.time_us = testing::noisy(i < 2 ? 100.0 : 140.0, 0.003, 5, 10 + static_cast<unsigned>(i));
      testing::RunSpec rs;
      rs.run_id = "run-0" + std::to_string(i);
      rs.versions["nccl"] = i < 2 ? "2.28.3" : "2.28.9";
      testing::write_run_dir(results, testing::make_run(rs, {testing::make_result(s)}));
    }
    const std::string store = "sqlite:" + (results / "fabricgate.sqlite").string();
    const Result imported = cli({"store", "import", results.string(), "--store", store});
    ASSERT_EQ(imported.code, 0) << imported.out << imported.err;

    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open((results / "fabricgate.sqlite").string().c_str(), &db), SQLITE_OK);
    exec(db, "UPDATE runs SET platform = ?", {"plat" + bad});
    exec(db, "UPDATE runs SET run_id = run_id || ?", {bad});
    exec(db, "UPDATE keys SET key = key || ?", {bad});
    exec(db, "UPDATE runs SET suite = ?, scenario = ?", {bad, bad});
    sqlite3_close(db);

    const Result info = cli({"store", "info", "--store", store});
    EXPECT_EQ(info.code, 0) << info.err;
    EXPECT_NE(info.out.find("  plat"), std::string::npos) << info.out;  // shown, escaped
    expect_inert("store info", info.out + info.err);

    const Result all = cli({"history", "--all", "--results", results.string(), "--store", store});
    expect_inert("history --all", all.out + all.err);
    EXPECT_EQ(all.code, 0) << all.out << all.err;

    const Result listed =
        cli({"history", "--all", "--store", store, "--platform", "another-platform"});
    EXPECT_EQ(listed.code, 2) << listed.out << listed.err;
    expect_inert("history --platform (error listing the store's platforms)",
                 listed.out + listed.err);

    testing::ResultSpec s;
    s.bytes = 1 << 20;
    const Result key = cli({"history", testing::key_for(s) + bad, "--store", store});
    expect_inert("history KEY", key.out + key.err);
    const Result json_out = cli({"history", testing::key_for(s) + bad, "--store", store, "--json"});
    expect_inert("history KEY --json", json_out.out + json_out.err);
    fs::remove_all(root);
  }
}

// A run file names its host: a host id with an OSC title sequence, BEL, a line break and a
// workflow command reaches the RUNNER DIFFERS headline, the Change: and Runner: lines and the
// HOST-OUTLIER finding of every text format; each must show it inert (issue 52, round five).
TEST(store_HostileRows, AHostileHostIdInARunIsShownInert) {
  for (std::size_t variant = 0; variant < kHostile.size(); ++variant) {
    const std::string& bad = kHostile[variant];
    const fs::path root = testing::fresh_temp_dir("hostile-host-" + std::to_string(variant));
    const fs::path results = root / "results";
    std::vector<std::string> create = {"baseline", "create"};
    for (int i = 0; i < 4; ++i) {
      testing::ResultSpec s;
      s.bytes = 1 << 20;
      // three launches of the fleet, then one 40 % slower on a host the baseline never saw
      s.time_us = testing::noisy(i < 3 ? 100.0 : 140.0, 0.003, 5, 20 + static_cast<unsigned>(i));
      testing::RunSpec rs;
      rs.run_id = "run-0" + std::to_string(i);
      json doc = testing::make_run(rs, {testing::make_result(s)});
      doc["host_id"] = i < 3 ? "a1b2c3d4e5f6" : "host" + bad;
      const fs::path dir = testing::write_run_dir(results, doc);
      if (i < 3) create.insert(create.end(), {"--from", dir.string()});
    }
    const fs::path baseline = root / "baseline.json";
    create.insert(create.end(), {"--out", baseline.string()});
    const Result created = cli(create);
    ASSERT_EQ(created.code, 0) << created.out << created.err;
    const fs::path judged = results / "cpu-test-2c" / "run-03";
    for (const std::string format : {"console", "markdown", "junit", "annotations"}) {
      const std::string command = format == "annotations" ? "report" : "compare";
      const Result r = cli({command, judged.string(), "--baseline", baseline.string(), "--store",
                            "none", "--format", format});
      EXPECT_TRUE(r.code == 1 || r.code == 3) << format << "\n" << r.out << r.err;
      EXPECT_NE(r.out.find("host"), std::string::npos) << r.out;
      if (format != "annotations") {
        expect_inert("compare --format " + format, r.out + r.err);
        continue;
      }
      // Annotations are workflow commands by design: each line is one that fabricgate built
      // (its own title), the data inside escaped by GitHub's rules, no raw control byte.
      expect_inert("report --format annotations (stderr)", r.err);
      for (const char c : {'\x1b', '\x07', '\r'}) EXPECT_EQ(r.out.find(c), std::string::npos);
      std::istringstream lines(r.out);
      for (std::string line; std::getline(lines, line);) {
        if (line.rfind("::", 0) != 0) continue;
        EXPECT_TRUE(
            std::regex_search(line, std::regex(R"(^::(error|warning|notice) title=fabricgate )")))
            << line;
      }
    }
    fs::remove_all(root);
  }
}

// Session and host ids are any text in a run file: `baseline create`, `update`, `status` and
// `calibrate --by-session` print them (sessions, hosts, keys) inert (issue 52, round four high 3).
TEST(store_HostileRows, BaselineCommandsPrintRunFileIdsInert) {
  for (std::size_t variant = 0; variant < kHostile.size(); ++variant) {
    const std::string& bad = kHostile[variant];
    const fs::path root = testing::fresh_temp_dir("hostile-ids-" + std::to_string(variant));
    const fs::path results = root / "results";
    std::vector<std::string> from;
    for (int i = 0; i < 4; ++i) {
      testing::ResultSpec s;
      s.bytes = 1 << 20;
      s.time_us = testing::noisy(100.0, 0.003, 5, 30 + static_cast<unsigned>(i));
      testing::RunSpec rs;
      rs.run_id = "run-0" + std::to_string(i);
      json doc = testing::make_run(rs, {testing::make_result(s)});
      doc["session_id"] = "session-" + std::to_string(i % 2) + bad;
      doc["host_id"] = "host" + bad;
      from.push_back(testing::write_run_dir(results, doc).string());
    }
    const fs::path baseline = root / "baseline.json";
    const Result created = cli({"baseline", "create", "--from", from[0], "--from", from[1],
                                "--from", from[2], "--out", baseline.string()});
    EXPECT_EQ(created.code, 0) << created.out << created.err;
    expect_inert("baseline create", created.out + created.err);
    EXPECT_NE(created.out.find("session-0"), std::string::npos) << created.out;  // shown
    const Result status =
        cli({"baseline", "status", "--baseline", baseline.string(), "--all-keys"});
    EXPECT_EQ(status.code, 0) << status.out << status.err;
    expect_inert("baseline status", status.out + status.err);
    const Result updated =
        cli({"baseline", "update", "--baseline", baseline.string(), "--from", from[3]});
    EXPECT_EQ(updated.code, 0) << updated.out << updated.err;
    expect_inert("baseline update", updated.out + updated.err);
    const Result by_session = cli({"calibrate", "--by-session", "--from", from[0], "--from",
                                   from[1], "--from", from[2], "--from", from[3]});
    EXPECT_EQ(by_session.code, 0) << by_session.out << by_session.err;
    expect_inert("calibrate --by-session", by_session.out + by_session.err);
    fs::remove_all(root);
  }
}

// Launches measured on a busy runner (CPU pressure over the policy's busy_cpu_pressure) never join
// a baseline by themselves: `baseline grow` and `update` leave them out and say so (`create`
// keeps the launches it was given and warns), and a policy
// whose busy threshold would call a quiet runner busy is refused (issue 52, round four high 6).
TEST(store_HostileRows, BusyLaunchesNeverJoinABaseline) {
  const fs::path root = testing::fresh_temp_dir("busy-baseline");
  const fs::path results = root / "results";
  std::vector<std::string> dirs;
  for (int i = 0; i < 6; ++i) {
    const bool busy = i == 1 || i == 5;
    testing::ResultSpec s;
    s.bytes = 1 << 20;
    s.time_us = testing::noisy(busy ? 300.0 : 100.0, 0.003, 5, 40 + static_cast<unsigned>(i));
    testing::RunSpec rs;
    rs.run_id = "run-0" + std::to_string(i) + "-cpu-default";  // as `run` names its launches
    json doc = testing::make_run(rs, {testing::make_result(s)});
    doc["host_cpu_pressure"] = {{"some_share", busy ? 0.6 : 0.02},
                                {"source", "/proc/pressure/cpu"}};
    dirs.push_back(testing::write_run_dir(results, doc).string());
  }
  const fs::path baseline = root / "baseline.json";
  const Result created = cli({"baseline", "create", "--from", dirs[0], "--from", dirs[1], "--from",
                              dirs[2], "--from", dirs[3], "--out", baseline.string()});
  ASSERT_EQ(created.code, 0) << created.out << created.err;
  // `create` names its launches one by one: a busy one stays, said loudly on stderr.
  EXPECT_NE(created.err.find(
                "run-01-cpu-default/run.json: measured on a busy runner (a task waited for a "
                "CPU 60 %"),
            std::string::npos)
      << created.err;
  const json made = json::parse(std::ifstream(baseline));
  // `grow` picks launches itself: it leaves the busy ones out and says so.
  const Result grown = cli({"baseline", "grow", "--results-dir", results.string(), "--suite", "cpu",
                            "--out", (root / "grown.json").string(), "--min-gateable", "0.01"});
  EXPECT_EQ(grown.code, 0) << grown.out << grown.err;
  EXPECT_NE(grown.out.find("4 launch(es)"), std::string::npos) << grown.out;  // of 6
  EXPECT_NE(grown.out.find("run-05-cpu-default/run.json: measured on a busy runner"),
            std::string::npos)
      << grown.out;
  const Result updated =
      cli({"baseline", "update", "--baseline", baseline.string(), "--from", dirs[5]});
  EXPECT_EQ(updated.code, 2) << updated.out << updated.err;  // nothing quiet to merge
  EXPECT_NE(updated.err.find("busy runner"), std::string::npos) << updated.err;
  EXPECT_EQ(json::parse(std::ifstream(baseline)), made);  // unchanged
  // busy_cpu_pressure 0.01 would call every quiet runner busy: refused.
  json lax = made;
  lax["tolerance_policy"]["busy_cpu_pressure"] = 0.01;
  std::ofstream(root / "lax.json") << lax.dump();
  const Result refused = cli({"compare", dirs[4], "--baseline", (root / "lax.json").string()});
  EXPECT_EQ(refused.code, 2) << refused.out << refused.err;
  EXPECT_NE(refused.err.find("busy_cpu_pressure"), std::string::npos) << refused.err;
  fs::remove_all(root);
}

// A store row's platform names a dashboard page and reaches its links: with markup that would
// redirect the page, and with "../" that would write outside --out, the dashboard writes only
// pages inside --out, named by a hash, and no row's text becomes markup, in the files and as
// headless Chromium renders the index (issue 52, round four high 2).
TEST(store_HostileRows, TheDashboardKeepsHostilePlatformsInsideOutAndOutOfTheMarkup) {
  const fs::path root = testing::fresh_temp_dir("hostile-dashboard");
  const fs::path results = root / "results";
  for (int i = 0; i < 3; ++i) {
    testing::ResultSpec s;
    s.bytes = 1 << 20;
    s.time_us = testing::noisy(100.0, 0.003, 5, 50 + static_cast<unsigned>(i));
    testing::RunSpec rs;
    rs.run_id = "run-0" + std::to_string(i);
    testing::write_run_dir(results, testing::make_run(rs, {testing::make_result(s)}));
  }
  const std::string store = "sqlite:" + (results / "fabricgate.sqlite").string();
  ASSERT_EQ(cli({"store", "import", results.string(), "--store", store}).code, 0);
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((results / "fabricgate.sqlite").string().c_str(), &db), SQLITE_OK);
  const std::string redirect =
      "x\"><meta http-equiv=\"refresh\" content=\"0;url=https://evil.example/\"><base "
      "href=\"//e\">";
  exec(db, "UPDATE runs SET platform = ? WHERE run_id = 'run-00'", {redirect});
  exec(db, "UPDATE runs SET platform = ? WHERE run_id = 'run-01'", {"../../escaped"});
  // Every other column a row gives the page: host and session ids, run id, key, verdict, facts.
  exec(db, "UPDATE runs SET host_id = ?, session_id = ? WHERE run_id = 'run-02'",
       {"<img src=x onerror=\"location='https://evil.example/h'\">",
        "</td><iframe src=\"https://evil.example/s\"></iframe>"});
  exec(db, "UPDATE runs SET facts = ? WHERE run_id = 'run-02'",
       {R"({"versions":{"nccl":"<svg onload=\"fetch('https://evil.example/f')\"></svg>"}})"});
  exec(db, "UPDATE runs SET run_id = ? WHERE run_id = 'run-02'",
       {"\"><script>location='https://evil.example/r'</script>"});
  exec(db, "UPDATE keys SET key = ?", {"<form action=\"https://evil.example/k\"><input></form>"});
  exec(db, "UPDATE medians SET verdict = ?", {"<a href=\"javascript:alert(1)\">PASS</a>"});
  sqlite3_close(db);
  const fs::path site = root / "deep" / "site";
  const Result made = cli({"dashboard", "--store", store, "--out", site.string()});
  ASSERT_EQ(made.code, 0) << made.out << made.err;
  expect_inert("dashboard", made.out + made.err);
  EXPECT_FALSE(fs::exists(root / "escaped.html"));
  EXPECT_FALSE(fs::exists(root / "deep" / "escaped.html"));
  std::size_t pages = 0;
  for (const auto& e : fs::recursive_directory_iterator(root / "deep")) {
    if (!e.is_regular_file()) continue;
    ++pages;
    EXPECT_EQ(e.path().parent_path(), site) << e.path();  // nothing outside --out
    std::ifstream in(e.path());
    const std::string html((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(html.find("<meta http-equiv=\"refresh\" content=\"0;url=https://evil"),
              std::string::npos)
        << e.path();
    EXPECT_EQ(html.find("<base href"), std::string::npos) << e.path();
    EXPECT_EQ(html.find("href=\"platform-../"), std::string::npos) << e.path();
  }
  EXPECT_GE(pages, 4u);  // index and one page per platform (three)
  // As Chromium renders it (when installed: ci/bootstrap installs it): the index stays the page
  // it was (no redirect, no <base>), and the page requests nothing beyond file: URLs.
  std::string chromium;
  for (const char* name : {"chromium", "chromium-browser"}) {
    const Result which = testing::run_command({"sh", "-c", std::string("command -v ") + name},
                                              std::chrono::seconds(10), 1 << 16);
    if (which.code == 0 && !which.out.empty()) {
      chromium = which.out.substr(0, which.out.find('\n'));
      break;
    }
  }
  // Every page, as Chromium builds it: no element a row brought (script, img, iframe, form, an
  // event handler, a javascript: link), no redirect or <base>, and nothing fetched.
  for (const auto& e : fs::directory_iterator(site)) {
    if (chromium.empty() || e.path().extension() != ".html") continue;
    const std::string page = e.path().filename().string();
    const fs::path netlog = root / ("net-" + page + ".json");
    const Result dom = testing::run_command(
        {chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-extensions", "--disable-background-networking",
         "--user-data-dir=" + (root / "profile").string(), "--log-net-log=" + netlog.string(),
         "--dump-dom", "file://" + e.path().string()},
        std::chrono::seconds(90), 32 << 20);
    EXPECT_EQ(dom.code, 0) << page << ": " << dom.err.substr(0, 2000);
    EXPECT_NE(dom.out.find("fabricgate dashboard"), std::string::npos)
        << page << ": " << dom.out.substr(0, 2000);
    const fs::path dumped = root / ("dom-" + page);
    std::ofstream(dumped, std::ios::binary) << dom.out;
    const Result markup = testing::run_command(
        {"python3",
         (fs::path(FABRICGATE_SOURCE_DIR) / "tests/integration/dashboard/dom_check.py").string(),
         dumped.string()},
        std::chrono::seconds(60), 1 << 20);
    EXPECT_EQ(markup.code, 0) << page << ": a row became markup:\n" << markup.out << markup.err;
    std::ifstream in(netlog);
    const std::string log((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(log.find("evil.example"), std::string::npos) << page << " navigated or fetched";
    const Result fetched = testing::run_command(
        {"python3",
         (fs::path(FABRICGATE_SOURCE_DIR) / "tests/integration/dashboard/netlog_check.py").string(),
         netlog.string()},
        std::chrono::seconds(60), 1 << 20);
    EXPECT_EQ(fetched.code, 0) << page << ": " << fetched.out << fetched.err;
  }
  fs::remove_all(root);
}

// A baseline's fingerprint_detail is a file anyone may have written: a secret in it never
// reaches WHAT CHANGED, in any format (issue 52, round four high 4).
TEST(store_HostileRows, ABaselinesFingerprintSecretsNeverReachWhatChanged) {
  const fs::path root = testing::fresh_temp_dir("baseline-secrets");
  const fs::path results = root / "results";
  std::vector<std::string> from;
  for (int i = 0; i < 4; ++i) {
    testing::ResultSpec s;
    s.bytes = 1 << 20;
    s.time_us = testing::noisy(100.0, 0.003, 5, 60 + static_cast<unsigned>(i));
    testing::RunSpec rs;
    rs.run_id = "run-0" + std::to_string(i);
    json doc = testing::make_run(rs, {testing::make_result(s)});
    doc["fingerprint"]["environment"] = {{"variables", {{"NCCL_DEBUG", "WARN"}}}};
    from.push_back(testing::write_run_dir(results, doc).string());
  }
  const fs::path baseline = root / "baseline.json";
  ASSERT_EQ(cli({"baseline", "create", "--from", from[0], "--from", from[1], "--from", from[2],
                 "--out", baseline.string()})
                .code,
            0);
  json b = json::parse(std::ifstream(baseline));
  b["fingerprint_detail"]["env/NCCL_SECRET_TOKEN"] = "hunter2-token";
  b["fingerprint_detail"]["env/NCCL_IB_HCA"] = "mlx5_0 ghp_" + std::string(30, 'q');
  b["fingerprint_detail"]["env/OMPI_MCA_plm_rsh_agent"] = "ssh --password=hunter3";
  std::ofstream(baseline) << b.dump();
  for (const std::string format : {"console", "markdown", "json", "junit"}) {
    const Result r = cli({"compare", from[3], "--baseline", baseline.string(), "--store", "none",
                          "--format", format});
    EXPECT_EQ(r.code, 0) << format << "\n" << r.out << r.err;
    for (const char* secret : {"hunter2", "hunter3", "ghp_qqqq"})
      EXPECT_EQ((r.out + r.err).find(secret), std::string::npos) << format << ": " << secret;
  }
  const Result console =
      cli({"compare", from[3], "--baseline", baseline.string(), "--store", "none"});
  EXPECT_NE(console.out.find("NCCL_SECRET_TOKEN"), std::string::npos) << console.out;  // named
  fs::remove_all(root);
}

// A policy that reads as stricter in review but lets no key gate (max_band 0.001 makes every key
// NOISY; a half-log allowance with min_sessions 1000 widens every band past max_band) could
// fail nothing: compare refuses the baseline, exit 2 naming its file and /tolerance_policy,
// and a 30 % regression is never a pass through it (issue 52, round four high 5).
TEST(store_HostileRows, ABaselineThatCanFailNothingIsRefused) {
  const fs::path root = testing::fresh_temp_dir("gates-nothing");
  const fs::path results = root / "results";
  std::vector<std::string> from;
  for (int i = 0; i < 4; ++i) {
    testing::ResultSpec s;
    s.bytes = 1 << 20;
    s.time_us = testing::noisy(i < 3 ? 100.0 : 130.0, 0.01, 5, 70 + static_cast<unsigned>(i));
    testing::RunSpec rs;
    rs.run_id = "run-0" + std::to_string(i);
    from.push_back(
        testing::write_run_dir(results, testing::make_run(rs, {testing::make_result(s)})).string());
  }
  const fs::path baseline = root / "baseline.json";
  ASSERT_EQ(cli({"baseline", "create", "--from", from[0], "--from", from[1], "--from", from[2],
                 "--out", baseline.string()})
                .code,
            0);
  const json good = json::parse(std::ifstream(baseline));
  EXPECT_EQ(cli({"compare", from[3], "--baseline", baseline.string(), "--store", "none"}).code, 1);
  for (const auto& [field, value] :
       std::vector<std::pair<std::string, json>>{{"max_band", 0.001}, {"unstable_cv", 0.001}}) {
    json b = good;
    b["tolerance_policy"][field] = value;
    std::ofstream(baseline) << b.dump();
    const Result r = cli({"compare", from[3], "--baseline", baseline.string(), "--store", "none"});
    EXPECT_NE(r.code, 0) << field << "\n" << r.out << r.err;  // never a pass
    {  // refused on load: unstable_cv below 5 % by its range, max_band by what it leaves gated
      EXPECT_EQ(r.code, 2) << r.out << r.err;
      EXPECT_NE(r.err.find("/tolerance_policy" + std::string(field == "max_band" ? "" : "/")),
                std::string::npos)
          << r.err;
      EXPECT_NE(r.err.find(baseline.string()), std::string::npos) << r.err;
    }
  }
  fs::remove_all(root);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
