#include "harness/roofline/judge.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

#include <fmt/format.h>

#include "harness/roofline/ceiling.hpp"

namespace fabricgate::roofline {

namespace {

RunShape shape_of(const RunRecord& run) {
  RunShape s;
  s.nodes = std::max(run.launch.nodes, 1);
  s.nodes_emulated = run.launch.nodes_emulated;
  s.gpus_per_node = run.launch.gpus_per_node;
  s.network = run.capture.network;
  s.gdrdma = run.capture.gdrdma;
  return s;
}

std::string percent(double fraction) { return fmt::format("{:.1f} %", 100 * fraction); }

RooflineFinding judge_one(const BenchmarkResult& r, Ceiling c, const RooflinePolicy& policy) {
  RooflineFinding f;
  f.key = r.key;
  f.bytes = r.bytes;
  if (!c.unknown.empty()) {
    f.status = Status::tier_unknown;
    f.text = c.unknown;
    return f;
  }
  f.tier = c.tier;
  f.spec = c.spec;
  f.direction = c.direction;
  f.metric = c.metric;
  f.ceiling_GBps = c.GBps;
  f.measured_GBps = c.measured_GBps;
  f.fraction = c.GBps > 0 ? c.measured_GBps / c.GBps : 0;
  const std::string what = fmt::format("{} {:.1f} GB/s = {} of the {:.1f} GB/s {} {} ceiling ({})",
                                       c.metric, c.measured_GBps, percent(f.fraction), c.GBps,
                                       direction_name(c.direction), c.spec, c.tier);
  if (!c.not_physical.empty()) {
    f.status = Status::not_physical;
    f.text = "NOT-PHYSICAL: " + c.not_physical + "; not judged against the roofline";
    return f;
  }
  const FloorRule* rule = policy.floor_for(c.tier, c.direction, r.bytes);
  if (rule == nullptr) {
    f.status = Status::no_floor;
    f.text = what + "; no floor for this tier and size";
    return f;
  }
  f.floor = rule->floor;
  f.floor_source = rule->source;
  if (f.fraction >= rule->floor) {
    f.status = Status::within;
    f.text = what + "; floor " + percent(rule->floor);
    return f;
  }
  f.status = Status::below_floor;
  f.causes = std::move(c.causes);
  f.text = "BELOW-ROOFLINE: " + what + " is under the policy floor " + percent(rule->floor);
  if (f.causes.empty()) {
    f.text += "; the fingerprint shows no cause (check clocks, NUMA placement, contention)";
  } else {
    f.text += "; likely: ";
    for (std::size_t i = 0; i < f.causes.size(); ++i) f.text += (i ? "; " : "") + f.causes[i];
  }
  return f;
}

}  // namespace

std::vector<RooflineFinding> judge_keys(const RunRecord& run, const HardwareFacts& hardware,
                                        const RooflinePolicy& policy) {
  // A control scenario (NVLink off, Socket only, a forced algorithm or protocol) changes the
  // path on purpose (P13): the hardware's roofline does not describe it.
  if (!run.scenario.empty() && run.scenario != "default") return {};
  const RunShape shape = shape_of(run);
  std::vector<RooflineFinding> out;
  std::unordered_map<std::string, std::size_t> by_key;
  for (const BenchmarkResult& r : run.benchmarks) {
    auto c = ceiling_for(r, hardware, shape);
    if (!c) continue;
    by_key.emplace(r.key, out.size());
    out.push_back(judge_one(r, std::move(*c), policy));
  }
  for (const Dip& d : find_dips(run.benchmarks, policy.dip)) {
    auto it = by_key.find(d.larger->key);
    if (it == by_key.end()) {
      RooflineFinding f;
      f.key = d.larger->key;
      f.bytes = d.larger->bytes;
      f.status = Status::tier_unknown;
      f.text = "tier unknown: the roofline does not describe this key";
      it = by_key.emplace(f.key, out.size()).first;
      out.push_back(std::move(f));
    }
    RooflineFinding& f = out[it->second];
    f.dip = true;
    f.dip_from_bytes = d.smaller->bytes;
    f.dip_from_key = d.smaller->key;
    f.dip_text = d.text;
  }
  return out;
}

std::vector<RooflineFinding> judge_keys(const RunRecord& run, const RooflinePolicy& policy) {
  return judge_keys(run, hardware_facts(run.fingerprint.document), policy);
}

const char* status_name(Status s) {
  switch (s) {
    case Status::within: return "within";
    case Status::below_floor: return "BELOW-ROOFLINE";
    case Status::no_floor: return "no floor";
    case Status::not_physical: return "NOT-PHYSICAL";
    case Status::tier_unknown: return "tier unknown";
  }
  return "?";
}

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
