#include "harness/roofline/judge.hpp"

#include <unordered_map>

#include <fmt/format.h>

#include "harness/roofline/ceiling.hpp"
#include "harness/roofline/dip_check.hpp"

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

}  // namespace fabricgate::roofline
