#pragma once
// Range-checked field readers over JsonReader for the run record's readers (the benchmark result
// here in core, the rest of run.json in harness/model/run_record.cpp): every value that fails a
// check is an InputError naming the file, the JSON pointer and the expectation.
#include <map>
#include <string>
#include <vector>

#include "core/json_file.hpp"
#include "core/plausibility_limits.hpp"

namespace fabricgate {

// Helpers that add range checks on top of JsonReader; `p` is always a full JSON pointer.
class RecordFields {
 public:
  RecordFields(const json& doc, const std::string& origin, const PlausibilityLimits& limits)
      : r_(doc, origin), limits_(limits) {}

  const JsonReader& reader() const { return r_; }

  int int_in(const std::string& p, long long lo, long long hi) const {
    const long long v = r_.integer_at(p);
    if (v < lo || v > hi) {
      r_.fail(p, "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], found " +
                     std::to_string(v));
    }
    return static_cast<int>(v);
  }

  std::string optional_string(const std::string& p) const {
    return r_.find(p) ? r_.string_at(p) : std::string();
  }

  std::map<std::string, std::string> string_map(const std::string& p) const {
    std::map<std::string, std::string> out;
    if (!r_.find(p)) return out;
    for (const auto& [k, v] : r_.object_at(p).items()) {
      if (!v.is_string())
        r_.fail(p + "/" + json_pointer_escape(k), "a string, found " + std::string(v.type_name()));
      out[k] = v.get<std::string>();
    }
    return out;
  }

  std::vector<std::string> string_list(const std::string& p) const {
    std::vector<std::string> out;
    if (!r_.find(p)) return out;
    const json& a = r_.array_at(p);
    for (std::size_t i = 0; i < a.size(); ++i) {
      out.push_back(r_.string_at(p + "/" + std::to_string(i)));
    }
    return out;
  }

  // A time: finite, > 0 when `positive`, and below the plausibility ceiling.
  double time_at(const std::string& p, bool positive) const {
    const double v = r_.non_negative_at(p);
    if (positive && v <= 0) r_.fail(p, "a time > 0 us for a measured result, found 0");
    if (v > limits_.max_time_us) {
      r_.fail(p, "a plausible time (<= " + std::to_string(limits_.max_time_us) + " us), found " +
                     std::to_string(v));
    }
    return v;
  }

  double rate_at(const std::string& p) const {
    const double v = r_.non_negative_at(p);
    if (v > limits_.max_rate_GBps) {
      r_.fail(p, "a plausible rate (<= " + std::to_string(limits_.max_rate_GBps) +
                     " GB/s), found " + std::to_string(v));
    }
    return v;
  }

  std::vector<double> series(const std::string& p, bool is_time, bool positive) const {
    std::vector<double> out;
    if (!r_.find(p)) return out;
    const json& a = r_.array_at(p);
    out.reserve(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      const std::string item = p + "/" + std::to_string(i);
      out.push_back(is_time ? time_at(item, positive) : rate_at(item));
    }
    return out;
  }

  std::map<std::string, long long> count_map(const std::string& p) const {
    std::map<std::string, long long> out;
    if (!r_.find(p)) return out;
    for (const auto& [k, v] : r_.object_at(p).items()) {
      const std::string item = p + "/" + json_pointer_escape(k);
      if (!v.is_number_integer()) r_.fail(item, "an integer count, found " + v.dump());
      const long long n = v.get<long long>();
      if (n < 0) r_.fail(item, "a count >= 0");
      out[k] = n;
    }
    return out;
  }

  const PlausibilityLimits& limits() const { return limits_; }

 private:
  JsonReader r_;
  const PlausibilityLimits& limits_;
};

}  // namespace fabricgate
