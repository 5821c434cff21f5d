#pragma once
// Element types and reduction operators as plain data. Backends map them to their own enums;
// the engine needs sizes, names and a host-side conversion to generate and check data.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fabricgate::bench {

enum class DataType {
  int8,
  uint8,
  int32,
  uint32,
  int64,
  uint64,
  float16,
  bfloat16,
  float32,
  float64,
  fp8_e4m3,
  fp8_e5m2
};
enum class RedOp { sum, prod, min, max, avg };

std::string_view to_string(DataType t);
std::string_view to_string(RedOp op);
std::optional<DataType> parse_data_type(std::string_view name);
std::optional<RedOp> parse_red_op(std::string_view name);
std::size_t size_of(DataType t);
bool is_floating(DataType t);
const std::vector<DataType>& all_data_types();

// Host conversions so data patterns can be written and checked without vendor headers.
// Values used by the patterns are small integers, exactly representable in every type.
void store_element(DataType t, void* base, std::size_t index, double value);
double load_element(DataType t, const void* base, std::size_t index);

}  // namespace fabricgate::bench
