#include "bench/engine/family.hpp"

#include <algorithm>

#include "core/suite.hpp"
#include "core/suite_names.hpp"

namespace fabricgate::bench {

FamilyRegistry& FamilyRegistry::instance() {
  static FamilyRegistry registry;  // filled during static initialisation, read-only after
  return registry;
}

void FamilyRegistry::add(std::string name, FamilyRegistrar registrar) {
  allow_extra_suite_family(name);  // a no-op for the product's families
  families_.emplace_back(std::move(name), std::move(registrar));
}

const FamilyRegistrar* FamilyRegistry::find(std::string_view name) const {
  for (const auto& [n, r] : families_) {
    if (n == name) return &r;
  }
  return nullptr;
}

std::vector<std::string> FamilyRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& f : families_) out.push_back(f.first);
  std::sort(out.begin(), out.end());
  return out;
}

std::string SuiteEntry::string_or(std::string_view name, const std::string& fallback) const {
  return has(name) ? reader.string_at(field(name)) : fallback;
}

long long SuiteEntry::integer_or(std::string_view name, long long fallback) const {
  return has(name) ? reader.integer_at(field(name)) : fallback;
}

std::vector<std::string> SuiteEntry::strings_or(std::string_view name,
                                                std::vector<std::string> fallback) const {
  if (!has(name)) return fallback;
  const auto& arr = reader.array_at(field(name));
  if (arr.empty()) reader.fail(field(name), "a non-empty array of strings");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < arr.size(); ++i)
    out.push_back(reader.string_at(field(name) + "/" + std::to_string(i)));
  return out;
}

SizeSweep SuiteEntry::sizes() const {
  const std::string p = field("sizes");
  // The harness checked the same fields with the same function before launching.
  const auto size_at = [&](const std::string& ptr) { return suite_size_at(reader, ptr); };
  SizeSweep sweep;
  reader.object_at(p);
  if (reader.find(p + "/list")) {
    const auto& list = reader.array_at(p + "/list");
    if (list.empty() || list.size() > 4096) reader.fail(p + "/list", "between 1 and 4096 sizes");
    for (std::size_t i = 0; i < list.size(); ++i)
      sweep.list.push_back(size_at(p + "/list/" + std::to_string(i)));
    return sweep;
  }
  sweep.min_bytes = size_at(p + "/min");
  sweep.max_bytes = size_at(p + "/max");
  if (sweep.max_bytes < sweep.min_bytes) reader.fail(p + "/max", "a size >= sizes/min");
  if (reader.find(p + "/increment")) {
    sweep.increment = size_at(p + "/increment");
  } else {
    sweep.factor = reader.find(p + "/factor") ? reader.number_at(p + "/factor") : 2.0;
    if (sweep.factor <= 1.0 || sweep.factor > 1024)
      reader.fail(p + "/factor", "a factor in (1, 1024]");
  }
  if (expand(sweep).size() >= 4096) reader.fail(p, "fewer than 4096 sizes");
  return sweep;
}

MeasurePlan read_plan(const JsonReader& reader, const std::string& pointer, MeasurePlan plan) {
  // Ranges from core/suite.hpp, which the harness checked before launching.
  plan.repetitions =
      suite_integer_in(reader, pointer + "/repetitions", kRepetitions, plan.repetitions);
  plan.warmup_ops = suite_integer_in(reader, pointer + "/warmup", kWarmupOps, plan.warmup_ops);
  plan.fixed_ops_per_sample =
      suite_integer_in(reader, pointer + "/iterations", kIterations, plan.fixed_ops_per_sample);
  if (reader.find(pointer + "/target_sample_ms")) {
    const double ms = reader.number_at(pointer + "/target_sample_ms");
    if (ms <= 0 || ms > kMaxTargetSampleMs)
      reader.fail(pointer + "/target_sample_ms", "milliseconds in (0, 60000]");
    plan.target_sample_seconds = ms / 1000.0;
  }
  if (reader.find(pointer + "/timeout_s")) {
    const double t = reader.number_at(pointer + "/timeout_s");
    if (!(t > 0 && t <= kMaxTimeoutSeconds))
      reader.fail(pointer + "/timeout_s", "seconds in (0, 86400]");
    plan.timeout_seconds = t;
  }
  return plan;
}

}  // namespace fabricgate::bench
