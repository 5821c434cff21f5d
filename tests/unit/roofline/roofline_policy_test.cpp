// The roofline policy file: the committed one loads, every bad field is refused naming the file
// and field (exit 2 through InputError), and a platform file overrides whole tiers.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "harness/roofline/policy.hpp"

namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fr = fabricgate::roofline;
using nlohmann::json;

namespace {

const std::string kPolicy = std::string(FABRICGATE_SOURCE_DIR) + "/policies/roofline.json";

json minimal() {
  return {{"schema", "fabricgate.roofline/1"},
          {"version", "test"},
          {"floors",
           {{{"tier", "pcie-host-copy"},
             {"direction", "unidirectional"},
             {"min_bytes", 1024},
             {"floor", 0.5},
             {"source", "a test"}}}}};
}

// The InputError's field for `doc`, or "" when it loads.
std::string refused_field(const json& doc) {
  try {
    fr::parse_roofline_policy(doc, "policy.json");
  } catch (const fabricgate::InputError& e) {
    EXPECT_EQ(e.file(), "policy.json");
    return e.field();
  }
  return "";
}

}  // namespace

// The version reaches every report's roofline heading: a raw escape in it was printed as it was
// (issue 58). Control characters in the version or a floor's source are refused, naming the field.
TEST(RooflinePolicy, ControlCharactersInItsWordsAreRefused) {
  json doc = minimal();
  doc["version"] = "v1\x1b]0;owned\x07";
  EXPECT_EQ(refused_field(doc), "/version");
  doc = minimal();
  doc["floors"][0]["source"] = "a test\n::error::pwned";
  EXPECT_EQ(refused_field(doc), "/floors/0/source");
  EXPECT_EQ(refused_field(minimal()), "");
}

TEST(RooflinePolicy, CommittedPolicyLoadsWithASourcePerFloor) {
  const fr::RooflinePolicy p = fr::load_roofline_policy(kPolicy);
  EXPECT_FALSE(p.floors.empty());
  for (const fr::FloorRule& r : p.floors) {
    EXPECT_FALSE(r.source.empty()) << r.origin;
    ASSERT_TRUE(r.achievable) << r.origin;
    EXPECT_LT(r.floor, *r.achievable) << r.origin;  // set below what a healthy run achieves
  }
  // No floor for small sizes (P15): 16 MiB host copies and collectives are not judged.
  EXPECT_EQ(p.floor_for("pcie-host-copy", fr::Direction::unidirectional, 16ull << 20), nullptr);
  EXPECT_EQ(p.floor_for("nvlink-collective", fr::Direction::unidirectional, 16ull << 20), nullptr);
  const fr::FloorRule* big =
      p.floor_for("nvlink-collective", fr::Direction::unidirectional, 16ull << 30);
  ASSERT_NE(big, nullptr);
  EXPECT_DOUBLE_EQ(big->floor, 0.45);
  EXPECT_DOUBLE_EQ(p.dip.threshold, 0.05);
}

TEST(RooflinePolicy, MinimalPolicyLoads) { EXPECT_EQ(refused_field(minimal()), ""); }

TEST(RooflinePolicy, BadFieldsAreNamed) {
  json d = minimal();
  d["schema"] = "fabricgate.roofline/2";
  EXPECT_EQ(refused_field(d), "/schema");
  d = minimal();
  d["floors"][0]["floor"] = 1.2;
  EXPECT_EQ(refused_field(d), "/floors/0/floor");
  d = minimal();
  d["floors"][0]["floor"] = 0;
  EXPECT_EQ(refused_field(d), "/floors/0/floor");
  d = minimal();
  d["floors"][0].erase("source");
  EXPECT_EQ(refused_field(d), "/floors/0/source");
  d = minimal();
  d["floors"][0]["tier"] = "pcie-hostcopy";
  EXPECT_EQ(refused_field(d), "/floors/0/tier");
  d = minimal();
  d["floors"][0]["direction"] = "both";
  EXPECT_EQ(refused_field(d), "/floors/0/direction");
  d = minimal();
  d["floors"][0]["flor"] = 0.5;
  EXPECT_EQ(refused_field(d), "/floors/0/flor");
  d = minimal();
  d["floors"][0]["achievable"] = 0.4;  // a floor above what is achievable would fail healthy runs
  EXPECT_EQ(refused_field(d), "/floors/0/floor");
  d = minimal();
  d["floors"][0]["max_bytes"] = 10;
  EXPECT_EQ(refused_field(d), "/floors/0/max_bytes");
  d = minimal();
  d["floors"].push_back(d["floors"][0]);  // the same range twice
  EXPECT_EQ(refused_field(d), "/floors/1/min_bytes");
  d = minimal();
  d["dip"] = {{"threshold", 0.05}, {"noise_cv_multiple", 3}, {"min_bytes", 1}};
  EXPECT_EQ(refused_field(d), "/dip/source");
}

// Floors and dip settings that could never fail a run are refused, naming the field (issue 52,
// round four high 5: a floor of 1e-300, a range no suite size falls in, an empty rule list).
TEST(RooflinePolicy, APolicyThatCannotFailIsRefused) {
  json d = minimal();
  d["floors"][0]["floor"] = 1e-300;
  EXPECT_EQ(refused_field(d), "/floors/0/floor");
  d = minimal();
  d["floors"][0]["floor"] = 0.2;
  EXPECT_EQ(refused_field(d), "/floors/0/floor");
  d = minimal();
  d["floors"][0]["floor"] = 0.4;
  d["floors"][0]["achievable"] = 0.8;  // 0.4 lets a link at half rate (0.4) pass
  EXPECT_EQ(refused_field(d), "/floors/0/floor");
  d["floors"][0]["floor"] = 0.41;
  EXPECT_EQ(refused_field(d), "");
  d = minimal();
  d["floors"][0]["min_bytes"] = 3;
  d["floors"][0]["max_bytes"] = 1000;  // under 1 MiB: latency-bound, no suite size judged
  EXPECT_EQ(refused_field(d), "/floors/0/min_bytes");
  d = minimal();
  d["floors"][0]["min_bytes"] = (1ull << 30) + 1;
  d["floors"][0]["max_bytes"] = (2ull << 30) - 1;  // between two suite sizes
  EXPECT_EQ(refused_field(d), "/floors/0/min_bytes");
  d = minimal();
  d["floors"][0]["min_bytes"] = 1ull << 50;  // a petabyte: nothing that large is measured
  EXPECT_EQ(refused_field(d), "/floors/0/min_bytes");
  const json dip = {
      {"threshold", 0.05}, {"noise_cv_multiple", 3}, {"min_bytes", 1 << 26}, {"source", "t"}};
  for (const auto& [field, value] : std::vector<std::pair<std::string, json>>{
           {"threshold", 0.99}, {"noise_cv_multiple", 1e9}, {"min_bytes", 1ull << 40}}) {
    d = minimal();
    d["dip"] = dip;
    EXPECT_EQ(refused_field(d), "");
    d["dip"][field] = value;
    EXPECT_EQ(refused_field(d), "/dip/" + field);
  }
  // A base file with no rule reads as "roofline on" and judges nothing: refused where it is found.
  const auto dir =
      std::filesystem::temp_directory_path() / ("roofline-empty-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  d = minimal();
  d["floors"] = json::array();
  std::ofstream(dir / "roofline.json") << d.dump();
  try {
    fr::find_roofline_policy("p", {dir});
    ADD_FAILURE() << "an empty roofline policy loaded";
  } catch (const fabricgate::InputError& e) {
    EXPECT_EQ(e.field(), "/floors");
    EXPECT_EQ(e.file(), (dir / "roofline.json").string());
  }
  std::filesystem::remove_all(dir);
}

TEST(RooflinePolicy, PlatformFileReplacesTheTiersItNames) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("roofline-policy-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "roofline");
  std::filesystem::copy_file(kPolicy, dir / "roofline.json");
  json o = minimal();
  o["version"] = "platform";
  o["floors"][0]["floor"] = 0.8;
  std::ofstream(dir / "roofline" / "my-platform.json") << o.dump();
  const auto p = fr::find_roofline_policy("my-platform", {dir / "missing", dir});
  ASSERT_TRUE(p);
  const fr::FloorRule* r =
      p->floor_for("pcie-host-copy", fr::Direction::unidirectional, 1ull << 30);
  ASSERT_NE(r, nullptr);
  EXPECT_DOUBLE_EQ(r->floor, 0.8);
  // The whole tier was replaced: its bidirectional rule is gone, other tiers stay.
  EXPECT_EQ(p->floor_for("pcie-host-copy", fr::Direction::bidirectional, 1ull << 30), nullptr);
  EXPECT_NE(p->floor_for("nvlink-collective", fr::Direction::unidirectional, 1ull << 30), nullptr);
  EXPECT_EQ(p->sources.size(), 2u);
  // Another platform gets the base policy.
  const auto other = fr::find_roofline_policy("other", {dir});
  ASSERT_TRUE(other);
  EXPECT_DOUBLE_EQ(
      other->floor_for("pcie-host-copy", fr::Direction::unidirectional, 1ull << 30)->floor, 0.75);
  EXPECT_FALSE(fr::find_roofline_policy("x", {dir / "missing"}));
  std::filesystem::remove_all(dir);
}
}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
