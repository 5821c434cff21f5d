// The harness validates suites with core/suite_limits before launching; the bench must
// accept exactly what passed there. The data type names are the one list kept in two places.
#include <gtest/gtest.h>

#include "bench/engine/dtype.hpp"
#include "bench/engine/sizes.hpp"
#include "core/errors.hpp"
#include "core/suite_limits.hpp"

namespace fabricgate::bench {
namespace {

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

TEST(SuiteLimitsAgreement, SizeTextIsParsedByOneFunction) {
  for (const char* text : {"8", "64K", "16MiB", "1G", "1T", "16Q", "", "K"}) {
    EXPECT_EQ(parse_size(text), parse_size_text(text)) << text;
  }
}

}  // namespace
}  // namespace fabricgate::bench
