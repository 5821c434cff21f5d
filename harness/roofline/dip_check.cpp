#include "harness/roofline/dip_check.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

namespace fabricgate::roofline {

namespace {

// The series a key belongs to: everything that names it except its size. Read from fields,
// never by parsing the key back.
std::string series_of(const BenchmarkResult& r) {
  return r.family + "|" + r.backend + "|" + r.op + "|" + r.params.dump() + "|" +
         std::to_string(r.nranks) + "|" + std::to_string(r.gpus_per_process);
}

bool has_busbw(const BenchmarkResult& r) { return r.busbw_GBps.has_value(); }

double bandwidth(const BenchmarkResult& r) { return has_busbw(r) ? *r.busbw_GBps : r.algbw_GBps; }

const std::vector<double>& bandwidth_samples(const BenchmarkResult& r) {
  return has_busbw(r) ? r.samples.busbw_GBps : r.samples.algbw_GBps;
}

std::string size_text(std::uint64_t bytes) {
  if (bytes >= (1ull << 30) && bytes % (1ull << 30) == 0) return fmt::format("{} GiB", bytes >> 30);
  if (bytes >= (1ull << 20) && bytes % (1ull << 20) == 0) return fmt::format("{} MiB", bytes >> 20);
  return fmt::format("{} B", bytes);
}

}  // namespace

double robust_cv(std::vector<double> values) {
  if (values.size() < 3) return 0;
  const double m = median(values);
  if (m <= 0) return 0;
  for (double& v : values) v = std::fabs(v - m);
  return 1.4826 * median(values) / m;
}

std::vector<Dip> find_dips(const std::vector<BenchmarkResult>& results, const DipPolicy& policy) {
  std::map<std::string, std::vector<const BenchmarkResult*>> series;
  for (const BenchmarkResult& r : results) {
    if (r.status != ResultStatus::ok || r.algbw_GBps <= 0 || r.bytes < policy.min_bytes) continue;
    if (r.op == "latency" || r.op == "pingpong") continue;
    series[series_of(r)].push_back(&r);
  }
  std::vector<Dip> out;
  for (auto& [name, keys] : series) {
    std::sort(keys.begin(), keys.end(), [](const BenchmarkResult* a, const BenchmarkResult* b) {
      return a->bytes < b->bytes;
    });
    for (std::size_t i = 1; i < keys.size(); ++i) {
      const BenchmarkResult& small = *keys[i - 1];
      const BenchmarkResult& large = *keys[i];
      const double before = bandwidth(small);
      if (before <= 0) continue;
      const double drop = 1 - bandwidth(large) / before;
      const double noise = policy.noise_cv_multiple * std::max(robust_cv(bandwidth_samples(small)),
                                                               robust_cv(bandwidth_samples(large)));
      const double allowance = policy.threshold + noise;
      if (drop <= allowance) continue;
      Dip d{&small, &large, drop, allowance, ""};
      d.text = fmt::format(
          "DIP: {} falls {:.1f} % from {} ({:.1f} GB/s) to {} ({:.1f} GB/s); the policy allows "
          "{:.1f} % ({:.1f} % threshold + {:.1f} % noise)",
          has_busbw(large) ? "busbw" : "algbw", 100 * drop, size_text(small.bytes), before,
          size_text(large.bytes), bandwidth(large), 100 * allowance, 100 * policy.threshold,
          100 * noise);
      out.push_back(std::move(d));
    }
  }
  return out;
}

}  // namespace fabricgate::roofline
