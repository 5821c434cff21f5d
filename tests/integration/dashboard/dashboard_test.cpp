// `fabricgate dashboard` end to end: 30 runs of two hosts (make_store_runs.py: a committed real
// CPU run cut to 8 keys with 1 % seeded noise, the 1 MiB key 30 % slower from the 21st run on, both
// hosts) go into an SQLite store through the real CLI (`baseline create`, then `compare --store
// --vouch` per run, which records each run, sealed, with its verdicts); the dashboard of that store
// is opened in headless Chromium. The DOM Chromium built must mark the step on the stepped key's
// trend for each host (and on no other key), list every run with its verdict and both hosts; the
// pages hold no script and no external URL, and Chromium's net log shows the page fetched nothing
// (checked by netlog_check.py, which a page that does fetch fails). With
// FABRICGATE_TEST_POSTGRES_URL the same store is built in PostgreSQL and gives the same index.
// Skips only without Chromium.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "harness/launch/process.hpp"
#include "tests/integration/cli_runner.hpp"

#if FABRICGATE_TEST_POSTGRES
#include <libpq-fe.h>
#endif

namespace fabricgate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fs = std::filesystem;

const fs::path kSource = FABRICGATE_SOURCE_DIR;
const fs::path kTemplate =
    kSource / "results" / "cpu-intel-xeon-c2" / "20261129T194721Z-cpu-default" / "run.json";
const std::string kPlatform = "cpu-intel-xeon-c2";
// 1 MiB: judged on bandwidth with an 8 % floor, so the 30 % step fails the gate (small sizes have a
// 35 % latency floor).
const std::string kSteppedKey = "coll/mpi/all_reduce/float32/sum/bytes:1048576/ranks:2/oop";
constexpr int kRuns = 30;
constexpr int kStepAt = 20;  // 0-based: the 21st run, host-a's 11th and host-b's 11th

using testing::slurp;

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1))
    ++n;
  return n;
}

class dashboard_Site : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("fabricgate-dashboard-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  launch::ProcessResult run(std::vector<std::string> argv, const fs::path& out = {}) {
    return launch::run_process({argv, {}, std::chrono::seconds(180), out.string(), {}});
  }
  launch::ProcessResult fabricgate(std::vector<std::string> args, const fs::path& out = {}) {
    args.insert(args.begin(), FABRICGATE_CLI);
    return run(args, out);
  }

  // The runs, a baseline of host-a's first five, and every run compared into `store`.
  std::vector<std::string> make_store(const std::string& store) {
    const fs::path ids_file = dir_ / "run-ids.txt";
    const launch::ProcessResult made =
        run({"python3", (kSource / "tests/integration/dashboard/make_store_runs.py").string(),
             kTemplate.string(), (dir_ / "results").string(), "--runs", std::to_string(kRuns),
             "--keys", "8", "--step-key-index", "7", "--step-at", std::to_string(kStepAt)},
            ids_file);
    EXPECT_TRUE(made.ok()) << made.describe();
    std::vector<std::string> ids;
    std::istringstream lines(slurp(ids_file));
    for (std::string id; std::getline(lines, id);) ids.push_back(id);
    EXPECT_EQ(ids.size(), static_cast<std::size_t>(kRuns));
    const fs::path runs = dir_ / "results" / kPlatform;
    std::vector<std::string> create{"baseline", "create"};
    for (int i = 0; i < 10; i += 2)
      create.insert(create.end(), {"--from", (runs / ids[static_cast<std::size_t>(i)]).string()});
    create.insert(create.end(), {"--out", (dir_ / "baseline.json").string()});
    const launch::ProcessResult created = fabricgate(create, dir_ / "create.txt");
    EXPECT_TRUE(created.ok()) << created.describe() << slurp(dir_ / "create.txt");
    for (const std::string& id : ids) {
      const launch::ProcessResult compared = fabricgate(
          {"compare", (runs / id).string(), "--baseline", (dir_ / "baseline.json").string(),
           "--store", store, "--vouch"},  // each host's own runs: they make its level
          dir_ / "compare.txt");
      // 0 pass, 1 the stepped key fails, 3 it fails on a host with a level of its own and the
      // baseline's software (runner degraded): all are verdicts recorded in the store.
      const std::string said = slurp(dir_ / "compare.txt");
      EXPECT_TRUE(compared.exit_code == 0 || compared.exit_code == 1 ||
                  (compared.exit_code == 3 && said.find("RUNNER DEGRADED") != std::string::npos))
          << id << ": " << compared.describe() << said;
    }
    return ids;
  }

  // One headless Chromium on a local file: temporary profile, bounded time, the net log kept.
  launch::ProcessResult chromium(const fs::path& page, const std::vector<std::string>& action,
                                 const fs::path& netlog, const fs::path& out = {}) {
    std::vector<std::string> argv = {chromium_,
                                     "--headless=new",
                                     "--no-sandbox",
                                     "--disable-gpu",
                                     "--no-first-run",
                                     "--disable-extensions",
                                     "--disable-background-networking",
                                     "--hide-scrollbars",
                                     "--user-data-dir=" + (dir_ / "profile").string(),
                                     "--log-net-log=" + netlog.string(),
                                     "--window-size=1400,2000"};
    argv.insert(argv.end(), action.begin(), action.end());
    argv.push_back("file://" + page.string());
    return launch::run_process({argv, {}, std::chrono::seconds(90), out.string(), {}});
  }

  launch::ProcessResult netlog_check(const fs::path& netlog) {
    return run({"python3", (kSource / "tests/integration/dashboard/netlog_check.py").string(),
                netlog.string()},
               dir_ / "netlog-check.txt");
  }

  bool have_chromium() {
    chromium_ = launch::find_in_path("chromium");
    if (chromium_.empty()) chromium_ = launch::find_in_path("chromium-browser");
    return !chromium_.empty();
  }

  fs::path dir_;
  std::string chromium_;
};

// Nothing to fetch, nothing to run: the checks the HTML report's test makes.
void expect_self_contained(const std::string& page, const std::string& name) {
  EXPECT_NE(page.find("Content-Security-Policy\" content=\"default-src 'none'"), std::string::npos)
      << name;
  EXPECT_EQ(page.find("<script"), std::string::npos) << name;
  EXPECT_EQ(page.find("src="), std::string::npos) << name;
  const std::string without_svg_namespace =
      std::regex_replace(page, std::regex("xmlns=\"http://www.w3.org/2000/svg\""), "");
  EXPECT_EQ(without_svg_namespace.find("http://"), std::string::npos) << name;
  EXPECT_EQ(without_svg_namespace.find("https://"), std::string::npos) << name;
  EXPECT_EQ(without_svg_namespace.find("url("), std::string::npos) << name;
  static const std::regex link("href=\"([^\"#]*)");
  for (std::sregex_iterator it(page.begin(), page.end(), link), end; it != end; ++it) {
    const std::string target = (*it)[1].str();
    EXPECT_TRUE(target.empty() || target == "index.html" ||
                std::regex_match(target, std::regex("platform-[A-Za-z0-9._-]+\\.html")))
        << name << " links to " << target;
  }
}

// The index (as written, or as Chromium built it): every run with its verdict, both hosts, and
// the step found on the stepped key of each host at the first run of the new level, nowhere else.
void expect_index_shows_hosts_verdicts_and_the_step(const std::string& dom,
                                                    const std::vector<std::string>& ids) {
  EXPECT_EQ(count(dom, "<tr class=\"run\""), static_cast<std::size_t>(kRuns)) << dom;
  EXPECT_EQ(count(dom, "<tr class=\"host\""), 2u) << dom;
  EXPECT_NE(dom.find("<tr class=\"host\" data-host=\"host-a\""), std::string::npos);
  EXPECT_NE(dom.find("<tr class=\"host\" data-host=\"host-b\""), std::string::npos);
  for (const auto& [host, run] :
       {std::pair{"host-a", ids[kStepAt]}, {"host-b", ids[kStepAt + 1]}}) {
    EXPECT_NE(dom.find("<tr class=\"change\" data-key=\"" + kSteppedKey + "\" data-host=\"" + host +
                       "\" data-run-id=\"" + run + "\""),
              std::string::npos)
        << host << "\n"
        << dom;
  }
  EXPECT_EQ(count(dom, "<tr class=\"change\""), 2u) << "one step per host, no other key:\n" << dom;
  // The baseline is host-a's first runs: the slowed key fails the runs after the step. The
  // headline is the gate's outcome: FAIL (exit 1), or NOT JUDGED where the gate found the runner
  // degraded (exit 3: slower than its own level, software unchanged); never PASS.
  const std::string last =
      "data-run-id=\"" + ids.back() + "\" data-host=\"host-b\" data-verdict=\"";
  const std::size_t at = dom.find(last);
  ASSERT_NE(at, std::string::npos) << dom;
  const std::string verdict =
      dom.substr(at + last.size(), dom.find('"', at + last.size()) - at - last.size());
  EXPECT_TRUE(verdict == "FAIL" || verdict == "NOT JUDGED") << verdict;
  EXPECT_NE(dom.find("data-run-id=\"" + ids[2] + "\" data-host=\"host-a\" data-verdict=\"PASS\""),
            std::string::npos)
      << dom;
}

TEST_F(dashboard_Site, TwoHostsOneStepRenderedInChromium) {
  if (!have_chromium())
    GTEST_SKIP() << "chromium is not installed (ci/bootstrap installs the Debian package)";
  const std::string store = "sqlite:" + (dir_ / "store.sqlite").string();
  const std::vector<std::string> ids = make_store(store);
  ASSERT_EQ(ids.size(), static_cast<std::size_t>(kRuns));
  const fs::path site = dir_ / "site";
  const launch::ProcessResult built =
      fabricgate({"dashboard", "--store", store, "--out", site.string()}, dir_ / "dashboard.txt");
  ASSERT_TRUE(built.ok()) << built.describe() << slurp(dir_ / "dashboard.txt");
  EXPECT_NE(slurp(dir_ / "dashboard.txt").find("dashboard of 30 run(s), 1 platform(s)"),
            std::string::npos)
      << slurp(dir_ / "dashboard.txt");
  const fs::path index = site / "index.html";
  const fs::path trends = site / ("platform-" + kPlatform + ".html");
  expect_self_contained(slurp(index), "index.html");
  expect_self_contained(slurp(trends), trends.filename().string());

  // The index as Chromium built it: every run with its verdict, both hosts, and the step found
  // on the stepped key of each host at the first run of the new level.
  const fs::path dom_file = dir_ / "index-dom.html";
  ASSERT_TRUE(chromium(index, {"--dump-dom"}, dir_ / "index-net.json", dom_file).ok());
  expect_index_shows_hosts_verdicts_and_the_step(slurp(dom_file), ids);
  const std::string step_a = ids[kStepAt];
  const std::string step_b = ids[kStepAt + 1];

  // The trend page: the stepped key's section carries both change runs and its plot draws the
  // change points; no other section has one.
  const fs::path trends_dom_file = dir_ / "trends-dom.html";
  ASSERT_TRUE(chromium(trends, {"--dump-dom"}, dir_ / "trends-net.json", trends_dom_file).ok());
  const std::string tdom = slurp(trends_dom_file);
  EXPECT_EQ(count(tdom, "<section class=\"key\""), 8u);
  const std::size_t section = tdom.find("data-key=\"" + kSteppedKey + "\"");
  ASSERT_NE(section, std::string::npos) << tdom.substr(0, 3000);
  const std::size_t section_end = tdom.find("</section>", section);
  const std::string stepped = tdom.substr(section, section_end - section);
  EXPECT_NE(stepped.find("data-change-runs=\"" + step_a + " " + step_b + "\""), std::string::npos)
      << stepped.substr(0, 400);
  EXPECT_GE(count(stepped, "class=\"vertical-marker change-point\""), 1u) << stepped;
  EXPECT_EQ(count(tdom, "class=\"vertical-marker change-point\""),
            count(stepped, "class=\"vertical-marker change-point\""))
      << "change points only on the stepped key";
  EXPECT_NE(stepped.find(step_a), std::string::npos);

  // Chromium's own record of the page's requests: nothing but the page itself.
  for (const char* log : {"index-net.json", "trends-net.json"}) {
    const launch::ProcessResult checked = netlog_check(dir_ / log);
    EXPECT_EQ(checked.exit_code, 0) << log << ": " << slurp(dir_ / "netlog-check.txt");
  }
  const fs::path png = dir_ / "trends.png";
  ASSERT_TRUE(chromium(trends, {"--screenshot=" + png.string()}, dir_ / "shot-net.json").ok());
  const launch::ProcessResult looked =
      run({"python3", (kSource / "tests/integration/report/png_check.py").string(), png.string(),
           "--min-colours", "20", "--min-foreground", "0.02"});
  EXPECT_TRUE(looked.ok()) << "the screenshot looks blank: " << looked.describe();
}

// The net log check can fail: a page that loads an image from a loopback port is caught.
TEST_F(dashboard_Site, NetLogCheckCatchesAPageThatFetches) {
  if (!have_chromium())
    GTEST_SKIP() << "chromium is not installed (ci/bootstrap installs the Debian package)";
  const fs::path page = dir_ / "fetching.html";
  std::ofstream(page) << "<!DOCTYPE html><html><body><img src=\"http://127.0.0.1:9/x.png\">"
                         "</body></html>\n";
  ASSERT_TRUE(chromium(page, {"--dump-dom"}, dir_ / "net.json", dir_ / "dom.html").ok());
  EXPECT_EQ(netlog_check(dir_ / "net.json").exit_code, 1) << slurp(dir_ / "netlog-check.txt");
}

TEST_F(dashboard_Site, BadInputIsRefusedBeforeAnythingIsWritten) {
  const launch::ProcessResult none = fabricgate(
      {"dashboard", "--store", "none", "--out", (dir_ / "site").string()}, dir_ / "out.txt");
  EXPECT_EQ(none.exit_code, 2) << none.describe();
  const std::string empty_store = "sqlite:" + (dir_ / "empty.sqlite").string();
  const launch::ProcessResult empty =
      fabricgate({"dashboard", "--store", empty_store, "--out", (dir_ / "site").string()});
  EXPECT_EQ(empty.exit_code, 2) << empty.describe();
  EXPECT_FALSE(fs::exists(dir_ / "site" / "index.html"));
}

// The same store in PostgreSQL (the server ci/postgres starts for .ci/run; a schema of its own)
// gives the same index. Skips without a server unless FABRICGATE_REQUIRE_POSTGRES=1.
#if FABRICGATE_TEST_POSTGRES
TEST_F(dashboard_Site, PostgresStoreGivesTheSameIndex) {
  const char* url = std::getenv("FABRICGATE_TEST_POSTGRES_URL");
  const char* required = std::getenv("FABRICGATE_REQUIRE_POSTGRES");
  if (url == nullptr || *url == '\0') {
    if (required != nullptr && std::string(required) == "1")
      FAIL() << "FABRICGATE_REQUIRE_POSTGRES=1 but FABRICGATE_TEST_POSTGRES_URL is not set";
    GTEST_SKIP() << "no PostgreSQL server: set FABRICGATE_TEST_POSTGRES_URL (ci/postgres start)";
  }
  const std::string schema = "dash" + std::to_string(::getpid());
  const auto admin = [&](const std::string& sql) {
    PGconn* c = PQconnectdb(url);
    ASSERT_EQ(PQstatus(c), CONNECTION_OK) << PQerrorMessage(c);
    PQsetNoticeProcessor(
        c, [](void*, const char*) {}, nullptr);
    PGresult* r = PQexec(c, sql.c_str());
    EXPECT_EQ(PQresultStatus(r), PGRES_COMMAND_OK) << PQerrorMessage(c);
    PQclear(r);
    PQfinish(c);
  };
  admin("DROP SCHEMA IF EXISTS " + schema + " CASCADE; CREATE SCHEMA " + schema);
  const std::string store = std::string(url) + "?options=-csearch_path%3D" + schema;
  const std::vector<std::string> ids = make_store(store);
  const fs::path site = dir_ / "site";
  const launch::ProcessResult built =
      fabricgate({"dashboard", "--store", store, "--out", site.string()}, dir_ / "dashboard.txt");
  EXPECT_TRUE(built.ok()) << built.describe() << slurp(dir_ / "dashboard.txt");
  const std::string index = slurp(site / "index.html");
  expect_self_contained(index, "index.html");
  expect_index_shows_hosts_verdicts_and_the_step(index, ids);
  admin("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
}
#endif

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
