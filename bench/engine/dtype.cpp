#include "bench/engine/dtype.hpp"

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace fabricgate::bench {

namespace {

struct TypeInfo {
  DataType type;
  std::string_view name;
  std::size_t size;
  bool floating;
};

constexpr std::array<TypeInfo, 12> kTypes{{
    {DataType::int8, "int8", 1, false},
    {DataType::uint8, "uint8", 1, false},
    {DataType::int32, "int32", 4, false},
    {DataType::uint32, "uint32", 4, false},
    {DataType::int64, "int64", 8, false},
    {DataType::uint64, "uint64", 8, false},
    {DataType::float16, "float16", 2, true},
    {DataType::bfloat16, "bfloat16", 2, true},
    {DataType::float32, "float32", 4, true},
    {DataType::float64, "float64", 8, true},
    {DataType::fp8_e4m3, "fp8_e4m3", 1, true},
    {DataType::fp8_e5m2, "fp8_e5m2", 1, true},
}};

constexpr std::array<std::string_view, 5> kOps{"sum", "prod", "min", "max", "avg"};

const TypeInfo& info(DataType t) { return kTypes[static_cast<std::size_t>(t)]; }

// IEEE binary16 / bfloat16 / fp8 from float for small integers and back. Exactness matters
// only for the small integer values the patterns use; rounding is to nearest.
std::uint16_t float_to_half(float f) {
  const std::uint32_t x = std::bit_cast<std::uint32_t>(f);
  const std::uint32_t sign = (x >> 16) & 0x8000u;
  const int exp = static_cast<int>((x >> 23) & 0xff) - 127 + 15;
  std::uint32_t mant = x & 0x7fffffu;
  if (((x >> 23) & 0xff) == 0) return static_cast<std::uint16_t>(sign);  // zero/denormal
  if (exp >= 31) return static_cast<std::uint16_t>(sign | 0x7c00u);      // overflow → inf
  if (exp <= 0) return static_cast<std::uint16_t>(sign);                 // underflow → 0
  mant += 0x1000u;                                                       // round to nearest
  if (mant & 0x800000u)
    return static_cast<std::uint16_t>(sign | (static_cast<std::uint32_t>(exp + 1) << 10));
  return static_cast<std::uint16_t>(sign | (static_cast<std::uint32_t>(exp) << 10) | (mant >> 13));
}

float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t exp = (h >> 10) & 0x1fu;
  const std::uint32_t mant = h & 0x3ffu;
  if (exp == 0) {
    const float v = std::ldexp(static_cast<float>(mant), -24);
    return sign ? -v : v;
  }
  if (exp == 31) return std::bit_cast<float>(sign | 0x7f800000u | (mant << 13));
  return std::bit_cast<float>(sign | ((exp - 15 + 127) << 23) | (mant << 13));
}

std::uint16_t float_to_bf16(float f) {
  const std::uint32_t x = std::bit_cast<std::uint32_t>(f);
  return static_cast<std::uint16_t>((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

float bf16_to_float(std::uint16_t b) {
  return std::bit_cast<float>(static_cast<std::uint32_t>(b) << 16);
}

// fp8: generic decode of sign/exponent/mantissa with the given widths and bias.
double fp8_decode(std::uint8_t v, int exp_bits, int bias) {
  const int mant_bits = 7 - exp_bits;
  const int sign = (v >> 7) & 1;
  const int exp = (v >> mant_bits) & ((1 << exp_bits) - 1);
  const int mant = v & ((1 << mant_bits) - 1);
  double r = exp == 0 ? std::ldexp(mant, 1 - bias - mant_bits)
                      : std::ldexp((1 << mant_bits) + mant, exp - bias - mant_bits);
  return sign ? -r : r;
}

std::uint8_t fp8_encode(double value, int exp_bits, int bias) {
  // Search the 256 codes for the closest finite value: only used for small pattern values.
  std::uint8_t best = 0;
  double best_err = INFINITY;
  for (int code = 0; code < 256; ++code) {
    const double d = fp8_decode(static_cast<std::uint8_t>(code), exp_bits, bias);
    if (!std::isfinite(d)) continue;
    const double err = std::fabs(d - value);
    if (err < best_err) {
      best_err = err;
      best = static_cast<std::uint8_t>(code);
    }
  }
  return best;
}

template <typename T>
void put(void* base, std::size_t index, T value) {
  std::memcpy(static_cast<char*>(base) + index * sizeof(T), &value, sizeof(T));
}

template <typename T>
T get(const void* base, std::size_t index) {
  T value;
  std::memcpy(&value, static_cast<const char*>(base) + index * sizeof(T), sizeof(T));
  return value;
}

}  // namespace

std::string_view to_string(DataType t) { return info(t).name; }
std::string_view to_string(RedOp op) { return kOps[static_cast<std::size_t>(op)]; }
std::size_t size_of(DataType t) { return info(t).size; }
bool is_floating(DataType t) { return info(t).floating; }

std::optional<DataType> parse_data_type(std::string_view name) {
  for (const auto& t : kTypes) {
    if (t.name == name) return t.type;
  }
  return std::nullopt;
}

std::optional<RedOp> parse_red_op(std::string_view name) {
  for (std::size_t i = 0; i < kOps.size(); ++i) {
    if (kOps[i] == name) return static_cast<RedOp>(i);
  }
  return std::nullopt;
}

const std::vector<DataType>& all_data_types() {
  static const std::vector<DataType> types = [] {
    std::vector<DataType> v;
    for (const auto& t : kTypes) v.push_back(t.type);
    return v;
  }();
  return types;
}

void store_element(DataType t, void* base, std::size_t index, double value) {
  switch (t) {
    case DataType::int8: put(base, index, static_cast<std::int8_t>(value)); break;
    case DataType::uint8: put(base, index, static_cast<std::uint8_t>(value)); break;
    case DataType::int32: put(base, index, static_cast<std::int32_t>(value)); break;
    case DataType::uint32: put(base, index, static_cast<std::uint32_t>(value)); break;
    case DataType::int64: put(base, index, static_cast<std::int64_t>(value)); break;
    case DataType::uint64: put(base, index, static_cast<std::uint64_t>(value)); break;
    case DataType::float16: put(base, index, float_to_half(static_cast<float>(value))); break;
    case DataType::bfloat16: put(base, index, float_to_bf16(static_cast<float>(value))); break;
    case DataType::float32: put(base, index, static_cast<float>(value)); break;
    case DataType::float64: put(base, index, value); break;
    case DataType::fp8_e4m3: put(base, index, fp8_encode(value, 4, 7)); break;
    case DataType::fp8_e5m2: put(base, index, fp8_encode(value, 5, 15)); break;
  }
}

double load_element(DataType t, const void* base, std::size_t index) {
  switch (t) {
    case DataType::int8: return get<std::int8_t>(base, index);
    case DataType::uint8: return get<std::uint8_t>(base, index);
    case DataType::int32: return get<std::int32_t>(base, index);
    case DataType::uint32: return get<std::uint32_t>(base, index);
    case DataType::int64: return static_cast<double>(get<std::int64_t>(base, index));
    case DataType::uint64: return static_cast<double>(get<std::uint64_t>(base, index));
    case DataType::float16: return half_to_float(get<std::uint16_t>(base, index));
    case DataType::bfloat16: return bf16_to_float(get<std::uint16_t>(base, index));
    case DataType::float32: return get<float>(base, index);
    case DataType::float64: return get<double>(base, index);
    case DataType::fp8_e4m3: return fp8_decode(get<std::uint8_t>(base, index), 4, 7);
    case DataType::fp8_e5m2: return fp8_decode(get<std::uint8_t>(base, index), 5, 15);
  }
  return 0;
}

}  // namespace fabricgate::bench
