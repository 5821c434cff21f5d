#pragma once
// A fixture family ("coll", "hostcopy", "rdma", "p2p") turns one suite entry into registered
// benchmarks. Families register themselves from their own file; the bench dispatches on the
// entry's "family" field. Adding a family touches one file.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/engine/bench_env.hpp"
#include "bench/engine/measurement.hpp"
#include "bench/engine/sizes.hpp"
#include "core/json_file.hpp"

namespace fabricgate::bench {

// One entry of a suite's "benchmarks" array, with the suite-level defaults applied.
struct SuiteEntry {
  const JsonReader& reader;  // the suite document (errors name the suite file)
  std::string pointer;       // e.g. "/benchmarks/2"
  MeasurePlan plan;          // suite defaults overridden by the entry's own fields

  std::string field(std::string_view name) const { return pointer + "/" + std::string(name); }
  bool has(std::string_view name) const { return reader.find(field(name)) != nullptr; }
  std::string string_or(std::string_view name, const std::string& fallback) const;
  long long integer_or(std::string_view name, long long fallback) const;
  std::vector<std::string> strings_or(std::string_view name,
                                      std::vector<std::string> fallback) const;
  SizeSweep sizes() const;  // required field "sizes"
};

using FamilyRegistrar = std::function<void(const SuiteEntry& entry, BenchEnv& env)>;

class FamilyRegistry {
 public:
  static FamilyRegistry& instance();
  void add(std::string name, FamilyRegistrar registrar);
  const FamilyRegistrar* find(std::string_view name) const;
  std::vector<std::string> names() const;

 private:
  std::vector<std::pair<std::string, FamilyRegistrar>> families_;
};

struct FamilyRegistration {
  FamilyRegistration(std::string name, FamilyRegistrar registrar) {
    FamilyRegistry::instance().add(std::move(name), std::move(registrar));
  }
};

// Reads "repetitions", "warmup", "iterations", "target_sample_ms", "timeout_s" from `pointer`
// over `base`.
MeasurePlan read_plan(const JsonReader& reader, const std::string& pointer, MeasurePlan base);

}  // namespace fabricgate::bench
