#include "harness/ab/ab_json.hpp"

#include <cmath>

#include "harness/model/secret_redaction.hpp"
#include "harness/verdict/fingerprint_changes.hpp"

namespace fabricgate::ab {

namespace {

using nlohmann::json;

// JSON has no infinity: an unbounded end of an interval is null.
json bound(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

json interval_to_json(const AbInterval& i) {
  return {{"estimate", bound(i.estimate)},
          {"low", bound(i.low)},
          {"high", bound(i.high)},
          {"bounded", i.bounded},
          {"confidence", i.confidence}};
}

json changes_to_json(const std::vector<verdict::Change>& changes) {
  json out = json::array();
  for (const verdict::Change& c : changes)
    out.push_back({{"what", c.what}, {"a", c.before}, {"b", c.after}});
  return out;
}

json libraries_to_json(const LoadedLibraries& l) {
  return {{"nccl_version", l.nccl_version},
          {"nccl_libraries", l.nccl_libraries},
          {"capture_nccl_version", l.capture_nccl_version},
          {"mpi_version", l.mpi_version}};
}

// ab.json is published: credential-like variables keep their names, not their values.
json side_to_json(const AbSide& s, const LoadedLibraries& loaded) {
  return {{"label", s.label},
          {"items", recordable_items(s)},
          {"env", recordable_environment(s.env)},
          {"nccl", s.nccl},
          {"nccl_dir", s.nccl_dir},
          {"nccl_expected", s.nccl_expected},
          {"wrap", s.wrap},
          {"loaded", libraries_to_json(loaded)}};
}

json levels_to_json(const AbLevels& l) {
  if (!l.found) return nullptr;
  return {{"low", l.low},
          {"low_count", l.low_count},
          {"high", l.high},
          {"high_count", l.high_count},
          {"separation", bound(l.separation)}};
}

json key_to_json(const AbKey& k) {
  json j = {{"key", k.key},
            {"family", k.family},
            {"backend", k.backend},
            {"op", k.op},
            {"bytes", k.bytes},
            {"nranks", k.nranks},
            {"verdict", ab_verdict_name(k.verdict)},
            {"fails_gate", ab_verdict_fails(k.verdict)},
            {"reason", k.reason},
            {"pairs_needed", k.pairs_needed},
            {"stop_reason", k.stop_reason},
            {"route_changes", changes_to_json(k.route_changes)},
            {"notes", k.notes}};
  if (k.samples_a > 0 && k.samples_b > 0) {
    j["metric"] = verdict::metric_name(k.metric);
    j["why_metric"] = k.why_metric;
    j["higher_is_better"] = verdict::metric_higher_is_better(k.metric);
    j["samples_a"] = k.samples_a;
    j["samples_b"] = k.samples_b;
    j["median_a"] = k.median_a;
    j["median_b"] = k.median_b;
    j["ratio_b_over_a"] = interval_to_json(k.ratio);
    j["ratio_pooled"] = interval_to_json(k.pooled_ratio);
    j["ratio_pairs"] = interval_to_json(k.paired_ratio);
    j["performance"] = interval_to_json(k.performance);
    j["tolerance"] = k.tolerance;
    j["static_tolerance"] = k.static_tolerance;
    j["spread_a"] = k.spread_a;
    j["pair_ratios"] = k.pair_ratios;
    j["levels_a"] = levels_to_json(k.levels_a);
    j["levels_b"] = levels_to_json(k.levels_b);
  }
  return j;
}

}  // namespace

json ab_to_json(const AbComparison& c) {
  json counts = json::object();
  for (const AbVerdictCount& n : c.counts()) counts[ab_verdict_name(n.verdict)] = n.count;
  json keys = json::array();
  for (const AbKey& k : c.keys) keys.push_back(key_to_json(k));
  json launches = json::array();
  for (const AbLaunchRef& l : c.launches)
    launches.push_back({{"name", l.name}, {"dir", l.dir}, {"complete", l.complete}});
  return {
      {"schema", kAbSchema},
      {"command", c.command},
      {"run_id", c.run_id},
      {"suite", c.suite},
      {"platform", c.platform},
      {"directory", c.directory},
      {"sides", {{"a", side_to_json(c.a, c.libraries_a)}, {"b", side_to_json(c.b, c.libraries_b)}}},
      {"changes", changes_to_json(c.side_changes)},
      {"fingerprint_diff", verdict::fingerprint_diff_to_json(c.fingerprint_changes)},
      {"fingerprint_note", c.fingerprint_note},
      {"pairs_requested", c.pairs_requested},
      {"min_pairs", c.min_pairs},
      {"max_pairs", c.pairs_requested},
      {"look_confidence", c.look_confidence},
      {"decided", c.decided},
      {"stop_reason", c.stop_reason},
      {"pairs_compared", c.pairs_compared},
      {"launches", std::move(launches)},
      {"complete", c.complete},
      {"incomplete_reason", c.incomplete_reason},
      {"confidence", c.confidence},
      {"tolerance_source", c.tolerance_source},
      {"warnings", c.warnings},
      {"exit_code", static_cast<int>(c.exit_code)},
      {"headline", c.headline()},
      {"counts", std::move(counts)},
      {"keys", std::move(keys)}};
}

}  // namespace fabricgate::ab
