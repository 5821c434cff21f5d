// The harness validates suites with core/suite_limits before launching; the bench must
// accept exactly what passed there. The data type names are the one list kept in two places.
#include <gtest/gtest.h>

#include <algorithm>

#include "bench/engine/collective.hpp"
#include "bench/engine/dtype.hpp"
#include "bench/engine/sizes.hpp"
#include "core/errors.hpp"
#include "core/suite.hpp"
#include "core/suite_names.hpp"

namespace fabricgate::bench {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

bool harness_accepts_dtype(std::string_view name) {
  const json doc = {{"benchmarks", json::array({{{"family", "coll"},
                                                 {"backend", "mpi"},
                                                 {"sizes", {{"list", {8u}}}},
                                                 {"dtypes", json::array({std::string(name)})}}})}};
  try {
    validate_suite_document(JsonReader(doc, "s.json"));
  } catch (const InputError&) {
    return false;
  }
  return true;
}

TEST(SuiteLimitsAgreement, EveryBenchDataTypeIsAcceptedByTheHarness) {
  for (const DataType t : all_data_types())
    EXPECT_TRUE(harness_accepts_dtype(to_string(t))) << to_string(t);
  EXPECT_FALSE(harness_accepts_dtype("float33"));
}

// The harness checks collective ops and data types against core/suite_names.hpp before launching;
// the bench's registries must hold exactly those names, or a suite passes one and fails the other.
TEST(SuiteLimitsAgreement, CollectivesAndDataTypesAreTheCoreLists) {
  std::vector<std::string> bench_ops;
  for (const auto& d : CollectiveRegistry::instance().all()) bench_ops.push_back(d.name);
  std::vector<std::string> core_ops(kCollectiveOps.begin(), kCollectiveOps.end());
  std::sort(bench_ops.begin(), bench_ops.end());
  std::sort(core_ops.begin(), core_ops.end());
  EXPECT_EQ(bench_ops, core_ops);
  std::vector<std::string> bench_types;
  for (const DataType t : all_data_types()) bench_types.emplace_back(to_string(t));
  std::vector<std::string> core_types(kDataTypeNames.begin(), kDataTypeNames.end());
  std::sort(bench_types.begin(), bench_types.end());
  std::sort(core_types.begin(), core_types.end());
  EXPECT_EQ(bench_types, core_types);
  for (const std::string_view r : kRedOps) EXPECT_TRUE(parse_red_op(std::string(r))) << r;
}

TEST(SuiteLimitsAgreement, SizeTextIsParsedByOneFunction) {
  for (const char* text : {"8", "64K", "16MiB", "1G", "1T", "16Q", "", "K"}) {
    EXPECT_EQ(parse_size(text), parse_size_text(text)) << text;
  }
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::bench
