#include "core/suite_limits.hpp"

#include <array>
#include <cctype>
#include <cmath>

#include "core/errors.hpp"
#include "core/nearest_name.hpp"
#include "core/suite_names.hpp"

namespace fabricgate {

namespace {

void non_empty_names(const JsonReader& r, const std::string& p) {
  const json& list = r.array_at(p);
  if (list.empty()) r.fail(p, "a non-empty array of names");
  for (std::size_t i = 0; i < list.size(); ++i) r.string_at(p + "/" + std::to_string(i));
}

// Data types are checked for every family (a hostcopy entry may list them; it copies bytes).
void check_dtypes(const JsonReader& r, const std::string& p) {
  non_empty_names(r, p);
  const json& list = r.at(p);
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string name = list[i].get<std::string>();
    if (!is_one_of(name, kDataTypeNames))
      r.fail(p + "/" + std::to_string(i), "a data type (" + names_text(kDataTypeNames) +
                                              "), found \"" + name + "\"" +
                                              did_you_mean(name, kDataTypeNames));
  }
}

double number_in(const JsonReader& r, const std::string& p, double hi, const char* unit) {
  const double v = r.number_at(p);
  if (!(v > 0 && v <= hi)) {
    r.fail(p, std::string(unit) + " in (0, " + std::to_string(static_cast<long long>(hi)) +
                  "], found " + r.at(p).dump());
  }
  return v;
}

// The measurement fields shared by "defaults" and each entry (bench/engine/family.cpp read_plan).
void check_plan(const JsonReader& r, const std::string& p) {
  suite_integer_in(r, p + "/repetitions", kRepetitions, 1);
  suite_integer_in(r, p + "/warmup", kWarmupOps, 1);
  suite_integer_in(r, p + "/iterations", kIterations, 1);
  if (r.find(p + "/target_sample_ms"))
    number_in(r, p + "/target_sample_ms", kMaxTargetSampleMs, "milliseconds");
  if (r.find(p + "/timeout_s")) number_in(r, p + "/timeout_s", kMaxTimeoutSeconds, "seconds");
}

std::size_t check_sizes(const JsonReader& r, const std::string& p) {
  if (!r.find(p))
    r.fail(p, "a size list {\"list\": [...]} or sweep {\"min\", \"max\", \"factor\"}");
  r.object_at(p);
  if (r.find(p + "/list")) {
    const json& list = r.array_at(p + "/list");
    if (list.empty() || list.size() > kMaxSizesPerEntry)
      r.fail(p + "/list", "between 1 and 4096 sizes");
    for (std::size_t i = 0; i < list.size(); ++i)
      suite_size_at(r, p + "/list/" + std::to_string(i));
    return list.size();
  }
  const std::uint64_t lo = suite_size_at(r, p + "/min");
  const std::uint64_t hi = suite_size_at(r, p + "/max");
  if (hi < lo) r.fail(p + "/max", "a size >= sizes/min");
  std::size_t count = 0;
  if (r.find(p + "/increment")) {
    const std::uint64_t step = suite_size_at(r, p + "/increment");
    count =
        static_cast<std::size_t>(std::min<std::uint64_t>((hi - lo) / step + 1, kMaxSizesPerEntry));
  } else {
    const double factor = r.find(p + "/factor") ? r.number_at(p + "/factor") : 2.0;
    if (factor <= 1.0 || factor > 1024) r.fail(p + "/factor", "a factor in (1, 1024]");
    for (double s = static_cast<double>(lo);
         s <= static_cast<double>(hi) && count < kMaxSizesPerEntry; s *= factor)
      ++count;
  }
  if (count >= kMaxSizesPerEntry) r.fail(p, "fewer than 4096 sizes");
  return count;
}

// Multiplies without wrapping: a count past 2^63 is as refusable as 2^63.
std::uint64_t times(std::uint64_t a, std::uint64_t b) {
  constexpr std::uint64_t cap = std::uint64_t{1} << 63;
  if (a != 0 && b > cap / a) return cap;
  return a * b;
}

}  // namespace

std::optional<std::uint64_t> parse_size_text(std::string_view text) {
  std::size_t i = 0;
  std::uint64_t value = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
    const auto digit = static_cast<std::uint64_t>(text[i] - '0');
    if (value > (UINT64_MAX - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
    ++i;
  }
  if (i == 0) return std::nullopt;
  std::string suffix(text.substr(i));
  for (auto& c : suffix) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  int shift = 0;
  if (suffix.empty() || suffix == "B")
    shift = 0;
  else if (suffix == "K" || suffix == "KB" || suffix == "KIB")
    shift = 10;
  else if (suffix == "M" || suffix == "MB" || suffix == "MIB")
    shift = 20;
  else if (suffix == "G" || suffix == "GB" || suffix == "GIB")
    shift = 30;
  else if (suffix == "T" || suffix == "TB" || suffix == "TIB")
    shift = 40;
  else
    return std::nullopt;
  if (shift > 0 && value > (UINT64_MAX >> shift)) return std::nullopt;
  return value << shift;
}

std::uint64_t suite_size_at(const JsonReader& reader, const std::string& pointer) {
  const json& v = reader.at(pointer);
  std::optional<std::uint64_t> bytes;
  if (v.is_number_unsigned()) bytes = v.get<std::uint64_t>();  // 0 and 2^63.. are unsigned too
  if (v.is_string()) bytes = parse_size_text(v.get<std::string>());
  if (!bytes || *bytes == 0 || *bytes > kMaxSuiteBytes) {
    reader.fail(pointer,
                "a size in bytes in [1, 2^40] (a number, or a string such as \"64K\", \"16M\", "
                "\"1G\"), found " +
                    v.dump(-1, ' ', false, json::error_handler_t::replace));
  }
  return *bytes;
}

int suite_integer_in(const JsonReader& reader, const std::string& pointer, IntegerRange range,
                     int fallback) {
  if (!reader.find(pointer)) return fallback;
  const json& v = reader.at(pointer);
  const bool in_range = v.is_number_integer() &&
                        !(v.is_number_unsigned() && v.get<std::uint64_t>() > INT32_MAX) &&
                        v.get<long long>() >= range.lo && v.get<long long>() <= range.hi;
  if (!in_range) {
    reader.fail(pointer, "an integer in [" + std::to_string(range.lo) + ", " +
                             std::to_string(range.hi) + "], found " + v.dump());
  }
  return static_cast<int>(v.get<long long>());
}

void require_rank_count(long long ranks, const std::string& origin, const std::string& field) {
  if (ranks < 1 || ranks > kMaxRanks) {
    throw InputError(origin, field,
                     "a process count in [1, " + std::to_string(kMaxRanks) + "], found " +
                         std::to_string(ranks));
  }
}

std::size_t suite_size_count(const JsonReader& reader, const std::string& pointer) {
  return check_sizes(reader, pointer);
}

std::uint64_t entry_benchmark_count(const JsonReader& r, const std::string& pointer) {
  const std::string family = r.string_at(pointer + "/family");
  // Every product family sweeps sizes; a family a test bench registers (allow_extra_suite_family)
  // may have none, and then counts as one benchmark.
  const bool sized = is_one_of(family, kSuiteFamilies) || r.find(pointer + "/sizes");
  std::uint64_t count = sized ? suite_size_count(r, pointer + "/sizes") : 1;
  for (const NameField& f : family_name_fields(family)) {
    if (!f.is_list) continue;
    const json* list = r.find(pointer + "/" + std::string(f.field));
    count = times(count, list ? list->size() : f.default_count);
  }
  for (const char* free_list : {"providers", "devices", "gpus"}) {
    const json* list = r.find(pointer + "/" + free_list);
    if (list && list->is_array() && !list->empty()) count = times(count, list->size());
  }
  return count;
}

void validate_suite_document(const JsonReader& r) {
  if (r.find("/defaults")) check_plan(r, "/defaults");
  const json& benchmarks = r.array_at("/benchmarks");
  std::uint64_t total = 0;
  std::uint64_t largest = 0;
  std::string largest_at;
  for (std::size_t i = 0; i < benchmarks.size(); ++i) {
    const std::string p = "/benchmarks/" + std::to_string(i);
    r.object_at(p);
    check_plan(r, p);
    if (r.find(p + "/sizes")) check_sizes(r, p + "/sizes");
    if (r.find(p + "/dtypes")) check_dtypes(r, p + "/dtypes");
    if (r.find(p + "/ops")) non_empty_names(r, p + "/ops");
    check_entry_names(r, p);
    const std::uint64_t count = entry_benchmark_count(r, p);  // checks the sizes
    total = std::min(total + count, kMaxCountShown);
    if (count > largest) {
      largest = count;
      largest_at = p;
    }
  }
  if (total > kMaxSuiteBenchmarks) {
    r.fail("/benchmarks",
           "at most " + std::to_string(kMaxSuiteBenchmarks) +
               " benchmarks per launch (entries x sizes x ops x dtypes x ...), found " +
               std::to_string(total) + (total == kMaxCountShown ? " or more" : "") +
               " (the largest entry, " + largest_at + ", asks for " + std::to_string(largest) +
               "); split the suite or narrow its lists");
  }
}

}  // namespace fabricgate
