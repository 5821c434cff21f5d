// Baselines that cannot fail are refused on load (and so on create/update, which read back what
// they write), naming the file and the field; schema /1 files still load.
#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "core/json_file.hpp"
#include "harness/baseline/baseline_builder.hpp"
#include "harness/model/baseline.hpp"
#include "tests/unit/gate/gate_fixtures.hpp"

namespace fabricgate::gate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

using testing::json;

json good_doc() {
  std::vector<RunRecord> runs;
  for (int i = 0; i < 3; ++i) {
    testing::ResultSpec s;
    s.time_us = {10.0 + i, 10.5 + i, 11.0 + i};
    testing::RunSpec rs;
    rs.run_id = "r" + std::to_string(i);
    runs.push_back(testing::to_run(testing::make_run(rs, {testing::make_result(s)})));
  }
  baseline::BaselineBuildOptions o;
  o.now = "2026-12-01T00:00:00Z";
  return baseline_to_json(baseline::create_baseline(runs, o).baseline);
}

std::string field_of_error(const json& doc) {
  try {
    parse_baseline(doc, "baselines/x.json");
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "baselines/x.json");
    return e.field();
  }
  return "(accepted)";
}

TEST(gate_BaselineRefusal, EmptyEntriesIsRefused) {
  json doc = good_doc();
  doc["entries"] = json::object();
  EXPECT_EQ(field_of_error(doc), "/entries");
}

TEST(gate_BaselineRefusal, KeyWithOneLaunchIsRefused) {
  json doc = good_doc();
  const std::string key = doc["entries"].begin().key();
  doc["entries"][key]["busbw_GBps"]["run_medians"] = json::array({85.0});
  doc["entries"][key]["busbw_GBps"]["samples"] = json::array({85.0});
  EXPECT_EQ(field_of_error(doc),
            "/entries/" + json_pointer_escape(key) + "/busbw_GBps/run_medians");
}

TEST(gate_BaselineRefusal, LaunchAlphaOutsideItsRangeIsRefused) {
  // A per-launch rate of 90 % would let almost every identical launch fail; 0 never fails.
  json doc = good_doc();
  doc["tolerance_policy"]["launch_alpha"] = 0.9;
  EXPECT_EQ(field_of_error(doc), "/tolerance_policy/launch_alpha");
  doc["tolerance_policy"]["launch_alpha"] = 0;
  EXPECT_EQ(field_of_error(doc), "/tolerance_policy/launch_alpha");
  doc["tolerance_policy"]["launch_alpha"] = "1%";
  EXPECT_EQ(field_of_error(doc), "/tolerance_policy/launch_alpha");
}

TEST(gate_BaselineRefusal, FewerLaunchesThanMinRunsIsRefused) {
  json doc = good_doc();
  doc["tolerance_policy"]["min_runs"] = 5;  // the entries hold 3 launch medians
  const std::string key = doc["entries"].begin().key();
  EXPECT_EQ(field_of_error(doc), "/entries/" + json_pointer_escape(key) + "/time_us/run_medians");
  doc["tolerance_policy"]["min_runs"] = 1;  // a band needs a spread: min_runs >= 2
  EXPECT_EQ(field_of_error(doc), "/tolerance_policy/min_runs");
}

TEST(gate_BaselineRefusal, SaveRefusesToWriteAnUngateableBaseline) {
  Baseline b = parse_baseline(good_doc(), "mem");
  b.entries.begin()->second.time_us.run_medians.resize(1);
  const auto dir = testing::fresh_temp_dir("refusal");
  EXPECT_THROW(save_baseline(dir / "b.json", b), InputError);
  EXPECT_FALSE(std::filesystem::exists(dir / "b.json"));
  std::filesystem::remove_all(dir);
}

TEST(gate_BaselineSchema, VersionOneLoadsWithBandDefaultsVersionTwoIsWritten) {
  json doc = good_doc();
  EXPECT_EQ(doc["schema"], "fabricgate.baseline/3");
  // Written: the family-wise rate and the per-key level derived from it (one per key).
  const double keys = static_cast<double>(doc["entries"].size());
  EXPECT_EQ(doc["tolerance_policy"]["launch_alpha"], 0.01);
  EXPECT_NEAR(doc["tolerance_policy"]["band_alpha"].get<double>(), 0.01 / keys, 1e-15);
  json v1 = doc;
  v1["schema"] = "fabricgate.baseline/1";
  for (const char* f : {"band_alpha", "max_band", "unstable_cv", "window"})
    v1["tolerance_policy"].erase(f);
  const auto dir = testing::fresh_temp_dir("schema-v1");
  write_json_atomically(dir / "v1.json", v1);
  const Baseline b = load_baseline(dir / "v1.json");
  EXPECT_NEAR(b.policy.band_alpha, 0.01 / keys, 1e-15);  // /1 gets today's family-wise default
  EXPECT_EQ(b.policy.window, 20);
  // A /2 file from before launch_alpha keeps the per-key band_alpha it was reviewed with.
  json old2 = doc;
  old2["tolerance_policy"].erase("launch_alpha");
  old2["tolerance_policy"]["band_alpha"] = 0.01;
  write_json_atomically(dir / "old2.json", old2);
  const Baseline kept = load_baseline(dir / "old2.json");
  EXPECT_EQ(kept.policy.band_alpha, 0.01);
  EXPECT_FALSE(kept.policy.launch_alpha);
  json v4 = doc;
  v4["schema"] = "fabricgate.baseline/4";
  write_json_atomically(dir / "v3.json", v4);
  try {
    load_baseline(dir / "v3.json");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "/schema");
  }
  json missing = doc;  // a /2 file must carry the band settings
  missing["tolerance_policy"].erase("max_band");
  EXPECT_EQ(field_of_error(missing), "/tolerance_policy/max_band");
  std::filesystem::remove_all(dir);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::gate
