// The HTML report of real 2x H200 runs, rendered by the real `fabricgate` binary and opened in
// headless Chromium (file:// only, temporary profile, bounded time): the screenshot must not be
// blank (png_check.py decodes it) and the DOM Chromium built must hold the verdict, one rate and
// one time plot per collective with the baseline band, the NCCL choice changes the JSON report
// lists, the trend plots, and the GPU-pair matrix of the p2p records. Skips only without Chromium.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "core/json_file.hpp"
#include "harness/launch/process.hpp"
#include "tests/integration/cli_runner.hpp"

namespace fabricgate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fs = std::filesystem;

const fs::path kSource = FABRICGATE_SOURCE_DIR;
const fs::path kH200 = kSource / "results" / "h200-sxm-x2-nv18";
const fs::path kProtoLL128Run =
    kH200 / "20261129T191514Z-quick-default";  // NCCL_PROTO=LL128 injected

using testing::slurp;

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1))
    ++n;
  return n;
}

class report_HtmlInChromium : public ::testing::Test {
 protected:
  void SetUp() override {
    chromium_ = launch::find_in_path("chromium");
    if (chromium_.empty()) chromium_ = launch::find_in_path("chromium-browser");
    if (chromium_.empty())
      GTEST_SKIP() << "chromium is not installed (ci/bootstrap installs the Debian package)";
    python_ = launch::find_in_path("python3");
    ASSERT_FALSE(python_.empty()) << "python3 is needed to decode the screenshot";
    dir_ = fs::temp_directory_path() / ("fabricgate-html-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }

  launch::ProcessResult fabricgate(std::vector<std::string> args,
                                   const fs::path& stdout_file = {}) {
    args.insert(args.begin(), FABRICGATE_CLI);
    return launch::run_process({args, {}, std::chrono::seconds(120), stdout_file.string(), {}});
  }

  // One headless Chromium run on a local file: no network (file:// only, and the page's CSP),
  // a fresh profile, and a time limit so a hung browser fails the test instead of the CI job.
  launch::ProcessResult chromium(const fs::path& page, const std::vector<std::string>& action,
                                 const fs::path& stdout_file = {}) {
    std::vector<std::string> argv = {chromium_,
                                     "--headless=new",
                                     "--no-sandbox",
                                     "--disable-gpu",
                                     "--no-first-run",
                                     "--disable-extensions",
                                     "--hide-scrollbars",
                                     "--user-data-dir=" + (dir_ / "profile").string(),
                                     "--window-size=1400,2000"};
    argv.insert(argv.end(), action.begin(), action.end());
    argv.push_back("file://" + page.string());
    return launch::run_process({argv, {}, std::chrono::seconds(90), stdout_file.string(), {}});
  }

  std::string chromium_;
  std::string python_;
  fs::path dir_;
};

TEST_F(report_HtmlInChromium, RealGpuRunAgainstItsBaselineRendersEveryFigure) {
  const fs::path html = dir_ / "report.html";
  const std::string baseline = (kSource / "baselines" / "h200-sxm-x2-nv18.json").string();
  const launch::ProcessResult rendered =
      fabricgate({"report", kProtoLL128Run.string(), "--baseline", baseline, "--format", "html",
                  "--out", html.string()});
  // The report is written and its exit code is the gate's: this run changed NCCL's protocol.
  ASSERT_EQ(rendered.exit_code, 1) << rendered.describe();
  const std::string page = slurp(html);

  // Self-contained: nothing to fetch, nothing to run.
  EXPECT_NE(page.find("Content-Security-Policy\" content=\"default-src 'none'"), std::string::npos);
  EXPECT_EQ(page.find("<script"), std::string::npos);
  EXPECT_EQ(page.find("src="), std::string::npos);
  EXPECT_EQ(page.find("href="), std::string::npos);
  const std::string without_svg_namespace =
      std::regex_replace(page, std::regex("xmlns=\"http://www.w3.org/2000/svg\""), "");
  EXPECT_EQ(without_svg_namespace.find("http://"), std::string::npos);
  EXPECT_EQ(without_svg_namespace.find("https://"), std::string::npos);
  EXPECT_EQ(without_svg_namespace.find("url("), std::string::npos);

  // What the figures must show, counted from the run and the JSON report independently.
  const json run = load_json_file(kProtoLL128Run / "run.json");
  std::set<std::string> ops;
  for (const json& b : run["benchmarks"]) ops.insert(b["op"].get<std::string>());
  const fs::path comparison_file = dir_ / "comparison.json";
  ASSERT_EQ(
      fabricgate({"report", kProtoLL128Run.string(), "--baseline", baseline, "--format", "json"},
                 comparison_file)
          .exit_code,
      1);  // written; the exit code is the gate's
  const json comparison = load_json_file(comparison_file);
  std::size_t choice_changes = 0;
  for (const json& k : comparison["keys"]) {
    bool choice = !k["changes"].empty();
    for (const json& c : k["changes"])
      choice = choice && (c["what"] == "algo" || c["what"] == "proto");
    choice_changes += choice ? 1 : 0;
  }
  ASSERT_GT(choice_changes, 0u) << "the LL128 run changes NCCL's protocol";

  const fs::path dom_file = dir_ / "dom.html";
  const launch::ProcessResult dumped = chromium(html, {"--dump-dom"}, dom_file);
  ASSERT_TRUE(dumped.ok()) << dumped.describe();
  const std::string dom = slurp(dom_file);
  ASSERT_GT(dom.size(), 1000u) << dom;
  EXPECT_TRUE(std::regex_search(
      dom,
      std::regex("<header id=\"verdict\" class=\"verdict verdict-fail\"><h1>fabricgate: FAIL")))
      << dom.substr(0, 2000);
  EXPECT_NE(dom.find("<table class=\"failing-keys\">"), std::string::npos);
  EXPECT_LT(dom.find("id=\"failing\""), dom.find("id=\"collectives\""))
      << "failing keys come first";
  EXPECT_EQ(count(dom, "class=\"collective\""), ops.size());
  EXPECT_EQ(count(dom, "class=\"plot plot-rate plot-busbw\""), ops.size());
  EXPECT_EQ(count(dom, "class=\"plot plot-time\""), ops.size());
  // The judged band is drawn where keys were judged: per op, the rate plot when some key was
  // judged on busbw/algbw, the time plot when some key was judged on time (latency sizes, P15).
  std::set<std::string> rate_judged, time_judged;
  for (const json& k : comparison["keys"]) {
    if (!k.contains("judgement") || k["judgement"]["lower_limit"].get<double>() <= 0) continue;
    const std::string metric = k["judgement"]["metric"];
    (metric == "time_us" ? time_judged : rate_judged).insert(k["op"].get<std::string>());
  }
  EXPECT_EQ(count(dom, "class=\"band baseline-band\""), rate_judged.size() + time_judged.size())
      << "a judged band in every plot with a key judged on its metric";
  EXPECT_GT(rate_judged.size() + time_judged.size(), 0u);
  EXPECT_EQ(count(dom, "class=\"marker algo-change\""), 2 * choice_changes);
  EXPECT_NE(dom.find("proto {Simple} → {LL128}"), std::string::npos);
  EXPECT_NE(dom.find("data-pitfall=\"P19\""), std::string::npos)
      << "notes stand next to their keys";
  // The committed runs before this one make a trend in every collective.
  EXPECT_EQ(count(dom, "class=\"plot plot-trend\""), ops.size());
  EXPECT_NE(dom.find("id=\"history-source\""), std::string::npos);

  const fs::path png = dir_ / "report.png";
  const launch::ProcessResult shot = chromium(html, {"--screenshot=" + png.string()});
  ASSERT_TRUE(shot.ok()) << shot.describe();
  const launch::ProcessResult checked =
      launch::run_process({{python_, (kSource / "tests/integration/report/png_check.py").string(),
                            png.string(), "--min-colours", "50", "--min-foreground", "0.05"},
                           {},
                           std::chrono::seconds(120),
                           "",
                           {}});
  EXPECT_TRUE(checked.ok()) << "the screenshot looks blank: " << checked.describe();
}

TEST_F(report_HtmlInChromium, BlankPageFailsTheScreenshotCheck) {
  // The checker itself must be able to fail: an empty page is one colour.
  const fs::path page = dir_ / "blank.html";
  std::ofstream(page) << "<!DOCTYPE html><html><body></body></html>\n";
  const fs::path png = dir_ / "blank.png";
  ASSERT_TRUE(chromium(page, {"--screenshot=" + png.string()}).ok());
  const launch::ProcessResult checked = launch::run_process(
      {{python_, (kSource / "tests/integration/report/png_check.py").string(), png.string()},
       {},
       std::chrono::seconds(120),
       "",
       {}});
  EXPECT_EQ(checked.exit_code, 1) << checked.describe();
}

// Issue 54 item 3: the first screen of a failing GPU run leads with each failing or ambiguous
// key's launches against the band and centre that judged it. The run: a real H200 launch measured
// beside a copy load, whose host copies regress in the first launch and both confirmations
// (results/h200-x1/sessions-s8/machine-h/loads.tgz), reported against the committed baseline.
// The committed screenshot of that first screen: docs/report-first-screen.png.
TEST_F(report_HtmlInChromium, AFailingGpuRunLeadsWithEachFailingKeysLaunchesAgainstItsBand) {
  const fs::path unpacked = dir_ / "loads";
  fs::create_directories(unpacked);
  const launch::ProcessResult untar = launch::run_process(
      {{"tar", "xzf", (kSource / "results/h200-x1/sessions-s8/machine-h/loads.tgz").string(), "-C",
        unpacked.string()},
       {},
       std::chrono::seconds(60),
       "",
       {}});
  ASSERT_TRUE(untar.ok()) << untar.describe();
  const fs::path run = unpacked / "live/results/h200-x1/20261201T223125Z-p2p-default";
  ASSERT_TRUE(fs::exists(run / "confirm-2" / "run.json"));
  const std::string baseline = (kSource / "baselines/h200-x1/p2p.json").string();
  const fs::path html = dir_ / "failing.html";
  const launch::ProcessResult rendered =
      fabricgate({"report", run.string(), "--baseline", baseline, "--store", "none", "--format",
                  "html", "--no-history", "--out", html.string()});
  ASSERT_EQ(rendered.exit_code, 1) << rendered.describe();
  const fs::path json_file = dir_ / "failing.json";
  ASSERT_EQ(fabricgate({"report", run.string(), "--baseline", baseline, "--store", "none",
                        "--format", "json", "--no-history"},
                       json_file)
                .exit_code,
            1);
  // Counted from the JSON report: the failing or ambiguous keys judged against a band, and how
  // many launches (the first and each confirmation with a value) each one has.
  std::size_t failing = 0;
  std::size_t launches = 0;
  const json report = load_json_file(json_file);
  for (const json& k : report["keys"]) {
    const std::string v = k["verdict"];
    if (v != "REGRESSION" && v != "AMBIGUOUS" && v != "DRIFT") continue;
    if (!k.contains("judgement")) continue;
    ++failing;
    launches += 1;
    if (k.contains("confirmation")) {
      for (const json& later : k["confirmation"]["later"])
        launches += later.contains("value") && !later["value"].is_null() ? 1 : 0;
    }
  }
  ASSERT_GE(failing, 3u);
  const fs::path dom_file = dir_ / "failing-dom.html";
  ASSERT_TRUE(chromium(html, {"--dump-dom"}, dom_file).ok());
  const std::string dom = slurp(dom_file);
  const std::size_t charts = dom.find("id=\"failing-charts\"");
  ASSERT_NE(charts, std::string::npos) << dom.substr(0, 3000);
  EXPECT_LT(dom.find("id=\"verdict\""), charts);
  EXPECT_LT(charts, dom.find("id=\"failing\"")) << "the charts come before the table";
  EXPECT_LT(charts, dom.find("id=\"collectives\""));
  EXPECT_EQ(count(dom, "class=\"key-band-figure\""), failing);
  EXPECT_EQ(count(dom, "class=\"band key-band\""), failing) << "each chart draws its band";
  EXPECT_EQ(count(dom, "class=\"series key-centre\""), failing) << "and its centre";
  // One dot per launch: each tooltip names the launch ("first launch: ...", "confirmation n: ...").
  EXPECT_EQ(count(dom, "<title>first launch: "), failing);
  EXPECT_EQ(count(dom, "<title>first launch: ") + count(dom, "<title>confirmation "), launches);
  // The first screen (1400 x 900) is not blank.
  const fs::path png = dir_ / "first-screen.png";
  std::vector<std::string> shot = {"--screenshot=" + png.string(), "--window-size=1400,900"};
  ASSERT_TRUE(chromium(html, shot).ok());
  const launch::ProcessResult checked =
      launch::run_process({{python_, (kSource / "tests/integration/report/png_check.py").string(),
                            png.string(), "--min-colours", "20", "--min-foreground", "0.05"},
                           {},
                           std::chrono::seconds(120),
                           "",
                           {}});
  EXPECT_TRUE(checked.ok()) << "the first screen looks blank: " << checked.describe();
}

TEST_F(report_HtmlInChromium, P2pRecordsBecomeOneMatrixPerCopyShape) {
  const fs::path html = dir_ / "p2p.html";
  const launch::ProcessResult rendered = fabricgate(
      {"report", (kH200 / "p2p").string(), "--baselines-dir", (dir_ / "no-baselines").string(),
       "--format", "html", "--no-history", "--out", html.string()});
  // Records only (a run without run.json is incomplete): written, and exit 3 like `compare`.
  ASSERT_EQ(rendered.exit_code, 3) << rendered.describe();
  // Expected matrices: the pair keys' shapes (the key without src:/dst:), read from the records.
  std::set<std::string> shapes;
  std::ifstream records(kH200 / "p2p" / "records.jsonl");
  for (std::string line; std::getline(records, line);) {
    const json r = json::parse(line);
    if (r.value("type", "") != "benchmark") continue;
    const std::string key = r["key"].get<std::string>();
    if (key.find("/src:") == std::string::npos || key.find("/dst:") == std::string::npos) continue;
    shapes.insert(std::regex_replace(key, std::regex("/(src|dst):[0-9]+"), ""));
  }
  ASSERT_FALSE(shapes.empty());

  const fs::path dom_file = dir_ / "p2p-dom.html";
  ASSERT_TRUE(chromium(html, {"--dump-dom"}, dom_file).ok());
  const std::string dom = slurp(dom_file);
  EXPECT_NE(dom.find("id=\"p2p\""), std::string::npos);
  EXPECT_EQ(count(dom, "class=\"heatmap pair-matrix\""), shapes.size());
  EXPECT_NE(dom.find(">GPU 1</text>"), std::string::npos);
  EXPECT_NE(dom.find("class=\"verdict verdict-incomplete\""), std::string::npos)
      << "records.jsonl only: incomplete";
  EXPECT_NE(dom.find("P07 note:"), std::string::npos)
      << "the % of spec notes are listed under the matrices";
}

// `fabricgate history` on the committed runs: the table names the injected settings; several
// platforms without --platform and an unknown key are bad input (exit 2). Needs no browser.
TEST(report_HistoryCli, CommittedRunsAndBadInput) {
  const fs::path dir =
      fs::temp_directory_path() / ("fabricgate-history-cli-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path out = dir / "stdout.txt";
  // The committed run directories are scanned (--store none): a store the main job left next to
  // results/ (results/fabricgate.sqlite, git-ignored) holds other runs.
  const auto history = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {FABRICGATE_CLI, "history", "--store", "none"});
    return launch::run_process({args, {}, std::chrono::seconds(60), out.string(), {}});
  };
  const std::string key = "coll/nccl/all_reduce/float32/sum/bytes:1073741824/ranks:2/oop";
  const std::string results = (kSource / "results").string();
  const launch::ProcessResult ok =
      history({key, "--results", results, "--platform", "h200-sxm-x2-nv18", "--last", "5"});
  EXPECT_TRUE(ok.ok()) << ok.describe();
  const std::string text = slurp(out);
  EXPECT_NE(text.find("(busbw_GBps, median per run, 5 runs, oldest first)"), std::string::npos)
      << text;
  EXPECT_NE(text.find("NCCL_P2P_DISABLE=1"), std::string::npos) << text;
  EXPECT_NE(text.find("\ntrend: busbw_GBps "), std::string::npos) << text;
  EXPECT_EQ(history({key, "--results", results}).exit_code, 2) << "two platforms under results/";
  EXPECT_EQ(history({key + "x", "--results", kH200.string()}).exit_code, 2)
      << "a key no run measured";
  EXPECT_EQ(history({key, "--results", (dir / "missing").string()}).exit_code, 2);
  fs::remove_all(dir);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
