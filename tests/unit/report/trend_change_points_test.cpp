// The HTML trend plot marks change points: a synthetic 16-run history of one key with a known
// 10 % drop at run 8 gets one vertical marker there, labelled with the step and naming the first
// run on the new level; the same history without the step (A/A, 1 % noise) gets none.
#include <gtest/gtest.h>

#include <cstdio>
#include <regex>
#include <string>
#include <vector>

#include "harness/report/html_figures.hpp"

namespace fabricgate::report {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

const std::string kKey = "coll/nccl/all_reduce/float32/sum/bytes:1048576/ranks:2/oop";

// 1 % noise from a fixed table (no generator: the test's data are plain to read).
constexpr double kNoise[16] = {0.004, -0.007, 0.010, -0.002, 0.006, -0.009, 0.001,  -0.004,
                               0.008, -0.006, 0.003, -0.010, 0.005, 0.000,  -0.003, 0.007};

std::vector<IndexedRun> history(double step) {
  std::vector<IndexedRun> runs;
  for (int i = 0; i < 16; ++i) {
    IndexedRun r;
    char id[32];
    std::snprintf(id, sizeof id, "run-%02d", i);
    r.run_id = id;
    char when[32];
    std::snprintf(when, sizeof when, "2026-11-%02dT03:00:00Z", i + 1);
    r.started_at = when;
    r.suite = "quick";
    r.scenario = "default";
    const double busbw = 100 * (1 + kNoise[i]) * (i >= 8 ? 1 + step : 1);
    r.keys[kKey] = KeyMedians{1 << 20, 1048576 / busbw / 1000, busbw, busbw};
    runs.push_back(r);
  }
  return runs;
}

verdict::Comparison one_key_comparison() {
  verdict::Comparison c;
  verdict::KeyComparison k;
  k.key = kKey;
  k.family = "coll";
  k.backend = "nccl";
  k.op = "all_reduce";
  k.bytes = 1 << 20;
  k.nranks = 2;
  k.busbw_now = 90;
  k.busbw_baseline = 100;
  c.keys.push_back(k);
  return c;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1))
    ++n;
  return n;
}

TEST(TrendChangePoints, AKnownStepGetsOneMarkerAtItsFirstRun) {
  const verdict::Comparison c = one_key_comparison();
  const auto groups = curve_groups(c);
  ASSERT_EQ(groups.size(), 1u);
  const std::string svg = trend_plot_svg(groups.front(), history(-0.10), 16);
  ASSERT_FALSE(svg.empty());
  EXPECT_EQ(count(svg, "class=\"vertical-marker change-point\""), 1u) << svg;
  EXPECT_NE(svg.find("first run on the new level run-08 (2026-11-09T03:00:00Z)"), std::string::npos)
      << svg;
  // The label: the step, about -10 % (the Hodges-Lehmann ratio of the two noisy levels).
  EXPECT_TRUE(std::regex_search(svg, std::regex(">-(9|10)\\.[0-9]% worse</text>"))) << svg;
  // The tooltip: the key, its two levels (about 100 and 90 GB/s), the interval and p.
  EXPECT_TRUE(std::regex_search(
      svg,
      std::regex(": (99|100)\\.[0-9]+ GB/s -&gt; (89|90)\\.[0-9]+ GB/s, -(9|10)\\.[0-9]% worse "
                 "\\(95% interval [^)]+\\), p = 0\\.0")))
      << svg;
}

TEST(TrendChangePoints, AnAaHistoryGetsNoMarker) {
  const verdict::Comparison c = one_key_comparison();
  const std::string svg = trend_plot_svg(curve_groups(c).front(), history(0), 16);
  ASSERT_FALSE(svg.empty());
  EXPECT_EQ(svg.find("change-point"), std::string::npos) << svg;
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::report
