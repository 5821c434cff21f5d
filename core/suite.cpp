#include "core/suite.hpp"

#include <array>
#include <cctype>
#include <cmath>

#include "core/errors.hpp"
#include "core/nearest_name.hpp"
#include "core/suite_names.hpp"

namespace fabricgate {

bool is_safe_env_name(const std::string& name) {
  if (name.empty() || name.size() > 128) return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool ok = (c >= 'A' && c <= 'Z') || c == '_' || (i > 0 && c >= '0' && c <= '9');
    if (!ok) return false;
  }
  return true;
}

bool is_safe_env_value(const std::string& value) {
  if (value.size() > 4096) return false;
  for (const char c : value) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    std::string_view("_-.,:/=+@%^~ ").find(c) != std::string_view::npos;
    if (!ok) return false;
  }
  return true;
}

bool entry_uses_nccl(const json& entry) {
  const std::string family = entry.value("family", "");
  return (family == "coll" || family == "nodepairs") &&
         entry.value("backend", family == "coll" ? "" : "mpi") == "nccl";
}

Suite load_suite(const std::filesystem::path& file) {
  Suite s;
  s.file = file;
  s.doc = load_json_file(file, "fabricgate.suite/1");
  const JsonReader rd(s.doc, file.string());
  s.name = rd.string_at("/name");
  require_safe_name(s.name, file.string(), "/name");
  if (const json* d = rd.find("/description")) {
    if (!d->is_string()) rd.fail("/description", "a string");
    s.description = d->get<std::string>();
  }
  if (const json* r = rd.find("/ranks")) {
    if (r->is_string() && r->get<std::string>() == "per-gpu") {
      s.ranks = 0;
    } else if (r->is_number_integer() && !r->is_number_float() && r->get<long long>() >= 1 &&
               r->get<long long>() <= kMaxRanks &&
               !(r->is_number_unsigned() && r->get<std::uint64_t>() > kMaxRanks)) {
      s.ranks = static_cast<int>(r->get<long long>());
    } else {
      rd.fail("/ranks", "\"per-gpu\" or an integer in [1, " + std::to_string(kMaxRanks) +
                            "], found " + r->dump());
    }
  }
  if (rd.find("/min_ranks")) {
    s.min_ranks = suite_integer_in(rd, "/min_ranks", IntegerRange{1, kMaxRanks}, 1);
  }
  if (rd.find("/scenarios")) {
    const json& arr = rd.array_at("/scenarios");
    if (arr.empty()) rd.fail("/scenarios", "a non-empty array of scenario names");
    s.scenarios.clear();
    for (std::size_t i = 0; i < arr.size(); ++i) {
      const std::string p = "/scenarios/" + std::to_string(i);
      const std::string name = rd.string_at(p);
      // Scenario names such as "algo:Ring" carry a colon; everything else must be a safe name.
      std::string plain = name;
      for (auto& c : plain) {
        if (c == ':') c = '-';
      }
      if (!is_safe_name(plain))
        rd.fail(p,
                "a scenario name (default, nvlink-off, nic-path, socket-only, algo:<name>, "
                "proto:<name>)");
      s.scenarios.push_back(name);
    }
  }
  if (rd.find("/env")) {
    for (const auto& [k, v] : rd.object_at("/env").items()) {
      const std::string p = "/env/" + k;
      if (!is_safe_env_name(k)) rd.fail(p, "an environment variable name of A-Z, 0-9 and _");
      if (!v.is_string()) rd.fail(p, "a string value");
      const std::string value = v.get<std::string>();
      if (!is_safe_env_value(value)) {
        rd.fail(p,
                "a plain value without shell syntax ($ ` ; | & < > quotes or newlines), found \"" +
                    value + "\"");
      }
      s.env[k] = value;
    }
  }
  if (rd.find("/defaults")) rd.object_at("/defaults");
  const json& benchmarks = rd.array_at("/benchmarks");
  if (benchmarks.empty()) rd.fail("/benchmarks", "at least one benchmark entry");
  for (std::size_t i = 0; i < benchmarks.size(); ++i) {
    const std::string p = "/benchmarks/" + std::to_string(i);
    rd.object_at(p);
    rd.string_at(p + "/family");
  }
  validate_suite_document(rd);
  return s;
}

std::filesystem::path resolve_suite(const std::string& name_or_path,
                                    const std::vector<std::filesystem::path>& dirs) {
  if (name_or_path.find('/') != std::string::npos || name_or_path.ends_with(".json")) {
    if (!std::filesystem::exists(name_or_path))
      throw InputError(name_or_path, "", "suite file does not exist");
    return name_or_path;
  }
  if (!is_safe_name(name_or_path))
    throw InputError("--suite", "", "a suite name or a path to a suite file");
  std::string searched;
  for (const auto& d : dirs) {
    const auto candidate = d / (name_or_path + ".json");
    if (std::filesystem::exists(candidate)) return candidate;
    searched += " " + candidate.string();
  }
  throw InputError("--suite", "",
                   "no suite named \"" + name_or_path + "\" (looked for" + searched + ")");
}

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

namespace {

// Families whose fixtures launch CUDA kernels (fill, SM copy, check) of their own.
bool launches_kernels(const json& entry) {
  const std::string family = entry.value("family", "");
  return family == "p2p" || family == "devcopy";
}

std::string entry_list(const std::vector<std::size_t>& indices) {
  std::string text;
  for (std::size_t i : indices)
    text += (text.empty() ? "" : ", ") + std::string("/benchmarks/") + std::to_string(i);
  return text;
}

}  // namespace

std::vector<std::string> suite_advice(const Suite& suite) {
  std::vector<std::string> advice;
  const auto found = suite.doc.find("benchmarks");
  if (found == suite.doc.end() || !found->is_array()) return advice;
  const json& benchmarks = *found;
  std::vector<std::size_t> nccl;
  std::vector<std::size_t> kernels;
  for (std::size_t i = 0; i < benchmarks.size(); ++i) {
    if (!benchmarks[i].is_object()) continue;
    if (entry_uses_nccl(benchmarks[i])) nccl.push_back(i);
    if (launches_kernels(benchmarks[i])) kernels.push_back(i);
  }
  if (!nccl.empty() && !kernels.empty()) {
    advice.push_back(
        "suite " + suite.name + " runs GPU copy fixtures (" + entry_list(kernels) +
        ") in the same process as NCCL benchmarks (" + entry_list(nccl) +
        "): their kernels can move all_gather/reduce_scatter by up to 8 % from one run to the "
        "next (docs/DESIGN.md, \"The data check\"); put them in separate suites");
  }
  return advice;
}

}  // namespace fabricgate
