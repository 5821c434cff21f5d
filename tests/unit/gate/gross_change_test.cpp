// The gross-change file (harness/gate/gross_change.hpp): read as written, refused with the file,
// field and expectation when it could make the gate blame A/A runners or nothing at all.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/errors.hpp"
#include "harness/gate/gross_change.hpp"
#include "tests/unit/gate/gate_fixtures.hpp"

namespace fabricgate::gate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

using nlohmann::json;

json good() {
  return {{"schema", "fabricgate.gross-change/1"},
          {"platform", "cpu-test-2c"},
          {"factor", 0.2},
          {"derived_from", "sessions-s10: 45 A/A launches of 1 host"},
          {"keys",
           {{"coll/mpi/all_reduce/bytes:8",
             {{"slowest_ratio", 0.5}, {"launches", 45}, {"hosts", 1}}}}}};
}

std::string refusal(const json& doc) {
  try {
    parse_gross_change_limits(doc, "baselines/cpu-test-2c/gross-change.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(gate_GrossChange, AKeysLimitIsItsSlowestAaRatioTimesTheFactor) {
  const GrossChangeLimits l =
      parse_gross_change_limits(good(), "baselines/cpu-test-2c/gross-change.json");
  ASSERT_TRUE(l.limit_for("coll/mpi/all_reduce/bytes:8").has_value());
  EXPECT_DOUBLE_EQ(*l.limit_for("coll/mpi/all_reduce/bytes:8"), 0.1);
  EXPECT_FALSE(l.limit_for("coll/mpi/all_reduce/bytes:16").has_value());  // unknown: no limit
  EXPECT_EQ(l.platform, "cpu-test-2c");
}

TEST(gate_GrossChange, ALimitThatCouldBlameAnAaRunnerOrNothingIsRefused) {
  json d = good();
  d["factor"] = 1.0;  // as slow as the fleet's slowest A/A launch would be blamed
  EXPECT_NE(refusal(d).find("/factor"), std::string::npos) << refusal(d);
  d = good();
  d["keys"]["coll/mpi/all_reduce/bytes:8"]["slowest_ratio"] = 0;
  EXPECT_NE(refusal(d).find("slowest_ratio"), std::string::npos) << refusal(d);
  d = good();
  d["keys"]["coll/mpi/all_reduce/bytes:8"]["slowest_ratio"] = 1.5;
  EXPECT_NE(refusal(d).find("(0, 1]"), std::string::npos) << refusal(d);
  d = good();
  d["keys"] = json::object();
  EXPECT_NE(refusal(d).find("/keys"), std::string::npos) << refusal(d);
  d = good();
  d["keys"]["coll/mpi/all_reduce/bytes:8"]["hosts"] = 46;
  EXPECT_NE(refusal(d).find("between 1 and launches"), std::string::npos) << refusal(d);
  d = good();
  d["platform"] = "../etc";
  EXPECT_NE(refusal(d).find("/platform"), std::string::npos) << refusal(d);
  d = good();
  d["extra"] = 1;
  EXPECT_NE(refusal(d).find("no such field"), std::string::npos) << refusal(d);
  d = good();
  d["schema"] = "fabricgate.gross-change/2";
  EXPECT_NE(refusal(d).find("/schema"), std::string::npos) << refusal(d);
  EXPECT_NE(refusal(d).find("baselines/cpu-test-2c/gross-change.json"), std::string::npos);
}

TEST(gate_GrossChange, TheFileNextToTheBaselineServesItsPlatformOnly) {
  const std::filesystem::path dir = testing::fresh_temp_dir("gross-change");
  const std::filesystem::path baseline = dir / "cpu.json";
  EXPECT_FALSE(find_gross_change_limits(baseline, "cpu-test-2c").has_value());  // none there
  std::ofstream(dir / "gross-change.json") << good().dump();
  EXPECT_TRUE(find_gross_change_limits(baseline, "cpu-test-2c").has_value());
  EXPECT_FALSE(find_gross_change_limits(baseline, "cpu-other-2c").has_value());
  std::ofstream(dir / "gross-change.json") << "{\"schema\": ";  // broken: never ignored
  EXPECT_THROW(find_gross_change_limits(baseline, "cpu-test-2c"), InputError);
  std::filesystem::remove_all(dir);
}

TEST(gate_GrossChange, APerPlatformBaselineFindsItsPlatformsDirectory) {
  // baselines/cpu-intel-xeon-c2.json: the limits are baselines/cpu-intel-xeon-c2/gross-change.json,
  // not a file in baselines/ that every platform's per-platform baseline would share.
  const std::filesystem::path dir = testing::fresh_temp_dir("gross-change-platform");
  const std::filesystem::path baseline = dir / "cpu-test-2c.json";
  std::ofstream(dir / "gross-change.json") << good().dump();
  EXPECT_FALSE(find_gross_change_limits(baseline, "cpu-test-2c").has_value());
  std::filesystem::create_directories(dir / "cpu-test-2c");
  std::ofstream(dir / "cpu-test-2c" / "gross-change.json") << good().dump();
  EXPECT_TRUE(find_gross_change_limits(baseline, "cpu-test-2c").has_value());
  std::filesystem::remove_all(dir);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::gate
