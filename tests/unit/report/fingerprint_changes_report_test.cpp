// "What changed" in compare's reports: a baseline created from real (synthetic) runs keeps the
// newest run's fingerprint detail; a run whose NCCL version and one NCCL_* variable differ is
// named with both in every format; identical fingerprints say so; a baseline written before the
// detail was kept says it has none rather than inventing a difference.
#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "harness/baseline/baseline_builder.hpp"
#include "harness/gate/compare.hpp"
#include "harness/model/baseline.hpp"
#include "harness/report/render.hpp"
#include "tests/unit/gate/gate_fixtures.hpp"

namespace fabricgate::report {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

using testing::json;

json run_doc(const std::string& id, const std::string& nccl, const std::string& ib_hca,
             unsigned seed) {
  testing::RunSpec spec;
  spec.run_id = id;
  spec.versions["nccl"] = nccl;
  testing::ResultSpec r;
  r.time_us = testing::noisy(100, 0.01, 7, seed);
  json doc = testing::make_run(spec, {testing::make_result(r)});
  doc["fingerprint"]["nccl"] = {{"available", true},
                                {"version", nccl},
                                {"path", "/usr/lib/libnccl.so.2"},
                                {"config_files", json::array()}};
  doc["fingerprint"]["environment"] = {
      {"redacted", json::array()},
      {"variables", {{"NCCL_IB_HCA", ib_hca}, {"NCCL_DEBUG", "WARN"}}}};
  doc["fingerprint"]["host"] = {{"kernel", {{"release", "6.1.0-test"}}}};
  return doc;
}

Baseline baseline_of_three() {
  std::vector<RunRecord> runs;
  for (unsigned i = 0; i < 3; ++i)
    runs.push_back(testing::to_run(run_doc("base-" + std::to_string(i), "2.28.3", "mlx5_0", i)));
  baseline::BaselineBuildOptions o;
  o.now = "2026-12-01T00:00:00Z";
  Baseline b = baseline::create_baseline(runs, o).baseline;
  // Through the file format: what compare reads is what `baseline create` wrote.
  return parse_baseline(baseline_to_json(b), "<test baseline>");
}

verdict::Comparison compare(const Baseline& b, const json& run) {
  return gate::compare_run(testing::to_run(run), &b, gate::CompareOptions{});
}

TEST(FingerprintChangesReport, NamesTheNcclVersionAndTheChangedVariableInEveryFormat) {
  const Baseline b = baseline_of_three();
  ASSERT_EQ(b.fingerprint_detail.at("nccl"), "2.28.3");
  const verdict::Comparison c = compare(b, run_doc("now", "2.28.9", "mlx5_1", 9));
  ASSERT_EQ(c.fingerprint_changes.size(), 2u);
  EXPECT_EQ(c.fingerprint_note, "");

  const json js = json::parse(render(c, ReportFormat::json, {}));
  EXPECT_EQ(js["fingerprint_diff"], json::parse(R"([
    {"field": "env/NCCL_IB_HCA", "before": "mlx5_0", "after": "mlx5_1"},
    {"field": "nccl", "before": "2.28.3", "after": "2.28.9"}])"));

  const std::string console = render(c, ReportFormat::console, {});
  EXPECT_NE(console.find("WHAT CHANGED (2 fingerprint fields, baseline -> this run):\n"
                         "  env/NCCL_IB_HCA: mlx5_0 -> mlx5_1\n  nccl: 2.28.3 -> 2.28.9\n"),
            std::string::npos)
      << console;
  const std::string md = render(c, ReportFormat::markdown, {});
  EXPECT_NE(
      md.find("### What changed\n\n| field | baseline | this run |\n|---|---|---|\n"
              "| env/NCCL\\_IB\\_HCA | mlx5\\_0 | mlx5\\_1 |\n| nccl | 2\\.28.3 | 2\\.28.9 |\n"),
      std::string::npos)
      << md;
  const std::string html = render(c, ReportFormat::html, {});
  EXPECT_NE(html.find("<tr><td>nccl</td><td>2.28.3</td><td class=\"change\">2.28.9</td></tr>"),
            std::string::npos);
  EXPECT_NE(
      html.find("<tr><td>env/NCCL_IB_HCA</td><td>mlx5_0</td><td class=\"change\">mlx5_1</td></tr>"),
      std::string::npos);
}

TEST(FingerprintChangesReport, IdenticalFingerprintsSayNoDifference) {
  const Baseline b = baseline_of_three();
  const verdict::Comparison c = compare(b, run_doc("now", "2.28.3", "mlx5_0", 9));
  EXPECT_TRUE(c.fingerprint_changes.empty());
  EXPECT_NE(render(c, ReportFormat::console, {}).find("what changed: no fingerprint difference\n"),
            std::string::npos);
  EXPECT_NE(render(c, ReportFormat::markdown, {}).find("no fingerprint difference"),
            std::string::npos);
  EXPECT_NE(render(c, ReportFormat::html, {}).find("no fingerprint difference"), std::string::npos);
  EXPECT_EQ(json::parse(render(c, ReportFormat::json, {}))["fingerprint_diff"], json::array());
}

TEST(FingerprintChangesReport, ABaselineWithoutDetailSaysSoInsteadOfInventing) {
  json doc = baseline_to_json(baseline_of_three());
  doc.erase("fingerprint_detail");  // as written before the detail was kept
  const Baseline old = parse_baseline(doc, "<old baseline>");
  const verdict::Comparison c = compare(old, run_doc("now", "2.28.9", "mlx5_1", 9));
  EXPECT_TRUE(c.fingerprint_changes.empty());
  const std::string console = render(c, ReportFormat::console, {});
  EXPECT_NE(
      console.find(
          "what changed: baseline has no fingerprint detail; re-create it to see what changed\n"),
      std::string::npos)
      << console;
  EXPECT_EQ(json::parse(render(c, ReportFormat::json, {}))["fingerprint_note"],
            "baseline has no fingerprint detail; re-create it to see what changed");
}

TEST(FingerprintChangesReport, HostileValuesAreEscapedAndSecretsRedacted) {
  const Baseline b = baseline_of_three();
  json run = run_doc("now", "2.28.3", "mlx5_0\x1b[2J", 9);
  run["fingerprint"]["environment"]["variables"]["NCCL_PLUGIN_TOKEN"] = "hunter2";
  const verdict::Comparison c = compare(b, run);
  const std::string console = render(c, ReportFormat::console, {});
  EXPECT_EQ(console.find('\x1b'), std::string::npos);
  EXPECT_NE(console.find("env/NCCL_IB_HCA: mlx5_0 -> mlx5_0\\x1b[2J"), std::string::npos)
      << console;
  EXPECT_NE(console.find("env/NCCL_PLUGIN_TOKEN: (unset) -> <redacted>"), std::string::npos)
      << console;
  EXPECT_EQ(console.find("hunter2"), std::string::npos);
  EXPECT_EQ(render(c, ReportFormat::html, {}).find('\x1b'), std::string::npos);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::report

namespace fabricgate::report {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

TEST(FingerprintChangesReport, ABaselineWithANonTextDetailIsRefusedNamingTheField) {
  json doc = baseline_to_json(baseline_of_three());
  doc["fingerprint_detail"]["nccl"] = 2;
  try {
    parse_baseline(doc, "<bad baseline>");
    FAIL() << "a number where the detail holds text was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("/fingerprint_detail/nccl"), std::string::npos)
        << e.what();
  }
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::report
