#include "harness/ab/ab_compare.hpp"

#include <algorithm>
#include <cmath>
#include <span>

#include <fmt/format.h>

#include "harness/ab/ab_interval.hpp"
#include "harness/ab/ab_verdict_table.hpp"
#include "harness/gate/route_checks.hpp"
#include "harness/gate/tolerance.hpp"
#include "harness/model/secret_redaction.hpp"
#include "harness/stats/shift_estimate.hpp"
#include "harness/stats/statistics.hpp"
#include "harness/stats/two_levels.hpp"
#include "harness/verdict/fingerprint_changes.hpp"
#include "harness/verdict/units_text.hpp"

namespace fabricgate::ab {

std::vector<std::string> recordable_items(const AbSide& side) {
  std::vector<std::string> out;
  for (const std::string& item : side.items) {
    const auto eq = item.find('=');
    out.push_back(eq == std::string::npos
                      ? item
                      : item.substr(0, eq + 1) +
                            recordable_value(item.substr(0, eq), item.substr(eq + 1)));
  }
  return out;
}

std::vector<AbVerdictCount> AbComparison::counts() const {
  std::vector<AbVerdictCount> out;
  for (int v = 0; v <= static_cast<int>(AbVerdict::skipped); ++v) {
    const auto verdict = static_cast<AbVerdict>(v);
    const auto n = static_cast<std::size_t>(std::count_if(
        keys.begin(), keys.end(), [&](const AbKey& k) { return k.verdict == verdict; }));
    if (n > 0) out.push_back({verdict, n});
  }
  return out;
}

std::size_t AbComparison::failing_count() const {
  return static_cast<std::size_t>(std::count_if(
      keys.begin(), keys.end(), [](const AbKey& k) { return ab_verdict_fails(k.verdict); }));
}

std::size_t AbComparison::not_decided_count() const {
  return static_cast<std::size_t>(std::count_if(
      keys.begin(), keys.end(), [](const AbKey& k) { return ab_verdict_open(k.verdict); }));
}

std::string AbComparison::headline() const {
  std::string tally;
  for (const AbVerdictCount& c : counts()) {
    tally +=
        (tally.empty() ? "" : ", ") + std::to_string(c.count) + " " + ab_verdict_name(c.verdict);
  }
  const std::string of =
      std::to_string(keys.size()) + " keys" + (tally.empty() ? "" : " (" + tally + ")");
  const std::string pairs =
      std::to_string(pairs_compared.size()) + " of " + std::to_string(pairs_requested) + " pairs";
  if (failing_count() > 0) {
    return "FAIL: " + std::to_string(failing_count()) + " of " + of + ": " + b.label +
           " worse than " + a.label + " or lost keys, " + pairs;
  }
  if (!complete) return "INCOMPLETE: " + of + " over " + pairs + ": " + incomplete_reason;
  if (not_decided_count() > 0) {
    return "UNDECIDED: " + std::to_string(not_decided_count()) + " of " + of +
           " not decided (not a pass), " + pairs + (stop_reason.empty() ? "" : ": " + stop_reason);
  }
  return "PASS: " + of + ": " + b.label + " within tolerance of " + a.label + ", " + pairs;
}

namespace {

// One side's launches that measured a key.
struct SideResults {
  std::vector<const BenchmarkResult*> results;
  std::vector<const RunRecord*> runs;
  std::vector<int> pairs;
};

struct KeyResults {
  SideResults a;
  SideResults b;
};

std::map<std::string, KeyResults> collect(const std::vector<AbPair>& pairs) {
  std::map<std::string, KeyResults> by_key;
  for (const AbPair& p : pairs) {
    for (const BenchmarkResult& r : p.a.run.benchmarks) {
      SideResults& s = by_key[r.key].a;
      s.results.push_back(&r);
      s.runs.push_back(&p.a.run);
      s.pairs.push_back(p.index);
    }
    for (const BenchmarkResult& r : p.b.run.benchmarks) {
      SideResults& s = by_key[r.key].b;
      s.results.push_back(&r);
      s.runs.push_back(&p.b.run);
      s.pairs.push_back(p.index);
    }
  }
  return by_key;
}

std::span<const double> samples_of(const BenchmarkResult& r, verdict::Metric m) {
  switch (m) {
    case verdict::Metric::time_us: return r.samples.time_us;
    case verdict::Metric::algbw_GBps: return r.samples.algbw_GBps;
    case verdict::Metric::busbw_GBps: return r.samples.busbw_GBps;
  }
  return {};
}

// Why a result cannot be used, or "" when it is a measurement.
std::string problem_of(const BenchmarkResult& r) {
  for (const Note& n : r.notes) {
    if (n.level == "error") return "invalid measurement (" + n.id + ": " + n.text + ")";
  }
  if (r.status == ResultStatus::error)
    return "benchmark failed: " + (r.message.empty() ? "no message" : r.message);
  if (r.status == ResultStatus::wrong) {
    return "wrong results (" + std::to_string(r.wrong_elements) + " elements differ)" +
           (r.message.empty() ? "" : ": " + r.message);
  }
  return {};
}

std::string skip_message(const SideResults& s) {
  for (const BenchmarkResult* r : s.results) {
    if (r->status == ResultStatus::skipped)
      return r->message.empty() ? "skipped" : "skipped: " + r->message;
  }
  return {};
}

std::vector<std::size_t> ok_indices(const SideResults& s) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < s.results.size(); ++i) {
    if (s.results[i]->status == ResultStatus::ok) out.push_back(i);
  }
  return out;
}

bool all_have(const SideResults& s, const std::vector<std::size_t>& ok, verdict::Metric m) {
  return std::all_of(ok.begin(), ok.end(),
                     [&](std::size_t i) { return !samples_of(*s.results[i], m).empty(); });
}

std::string describe(const std::vector<verdict::Change>& changes) {
  std::string out;
  for (const verdict::Change& c : changes)
    out += (out.empty() ? "" : "; ") + c.what + " " + c.before + " -> " + c.after;
  return out;
}

// The route each side took for this key. Differences between the launches of one side are notes
// (NCCL may switch algorithm between processes); differences between the sides are route_changes.
void compare_routes(const KeyResults& kr, const std::vector<std::size_t>& ok_a,
                    const std::vector<std::size_t>& ok_b, const AbSide& a, const AbSide& b,
                    AbKey& k) {
  const auto transport_of = [&k](const SideResults& s, const std::vector<std::size_t>& ok,
                                 const AbSide& side) {
    std::optional<ExpectedTransport> first;
    for (const std::size_t i : ok) {
      const ExpectedTransport t = gate::observed_transport(*s.runs[i], *s.results[i]);
      if (!first) {
        first = t;
        continue;
      }
      std::string ignored;
      if (const auto d = gate::transport_changes(*first, t, ignored); !d.empty()) {
        k.notes.push_back("route varies between " + side.label + " launches (pair " +
                          std::to_string(s.pairs[i]) + "): " + describe(d));
      }
    }
    return first.value_or(ExpectedTransport{});
  };
  const auto choice_of = [&k](const SideResults& s, const std::vector<std::size_t>& ok,
                              const AbSide& side, bool& any) {
    ExpectedChoice all;
    std::optional<ExpectedChoice> first;
    for (const std::size_t i : ok) {
      if (!s.results[i]->choice) continue;
      const ExpectedChoice c = gate::observed_choice(*s.results[i]->choice);
      if (first && (c.algo != first->algo || c.proto != first->proto)) {
        k.notes.push_back("NCCL choice varies between " + side.label + " launches: pair " +
                          std::to_string(s.pairs[i]) + " used algo " + gate::join_set(c.algo) +
                          " proto " + gate::join_set(c.proto));
      }
      if (!first) first = c;
      all.algo.insert(c.algo.begin(), c.algo.end());
      all.proto.insert(c.proto.begin(), c.proto.end());
      all.channels.insert(c.channels.begin(), c.channels.end());
    }
    any = first.has_value();
    return all;
  };
  const ExpectedTransport ta = transport_of(kr.a, ok_a, a);
  const ExpectedTransport tb = transport_of(kr.b, ok_b, b);
  std::string ignored;
  k.route_changes = gate::transport_changes(ta, tb, ignored);
  if (ta.known != tb.known) {
    k.notes.push_back("transport captured for " + (ta.known ? a.label : b.label) +
                      " only: not compared");
  }
  bool any_a = false;
  bool any_b = false;
  const ExpectedChoice ca = choice_of(kr.a, ok_a, a, any_a);
  const ExpectedChoice cb = choice_of(kr.b, ok_b, b, any_b);
  if (any_a && any_b) {
    std::vector<verdict::Change> channels;
    const std::vector<verdict::Change> choice = gate::choice_changes(ca, cb, channels);
    k.route_changes.insert(k.route_changes.end(), choice.begin(), choice.end());
    k.route_changes.insert(k.route_changes.end(), channels.begin(), channels.end());
  } else if (any_a != any_b) {
    k.notes.push_back("NCCL's choice captured for " + (any_a ? a.label : b.label) +
                      " only: not compared");
  }
}

std::string ratio_text(const AbKey& k, const AbOptions& o) {
  const bool is_time = k.metric == verdict::Metric::time_us;
  const double change = k.performance.estimate - 1;
  if (k.ratio.bounded) {
    return fmt::format(
        "{}: {} {} -> {}, B/A {:.3f} [{:.3f}, {:.3f}] at {:.1f}%: {:+.1f}% ({}), tolerance {:.1f}%",
        verdict::format_bytes(k.bytes), verdict::metric_name(k.metric),
        verdict::format_metric(k.median_a, is_time), verdict::format_metric(k.median_b, is_time),
        k.ratio.estimate, k.ratio.low, k.ratio.high, k.ratio.confidence * 100, change * 100,
        change < 0 ? "B worse" : "B better", k.tolerance * 100);
  }
  const std::string why =
      !k.pooled_ratio.bounded
          ? fmt::format("{} + {} samples are too few for a {:.1f}% interval", k.samples_a,
                        k.samples_b, o.confidence * 100)
          : fmt::format("{} pair(s) cannot bound launch-to-launch drift", k.pair_ratios.size());
  return fmt::format("{}: {} {} -> {}, B/A {:.3f}: {:+.1f}% ({}), tolerance {:.1f}%; {}",
                     verdict::format_bytes(k.bytes), verdict::metric_name(k.metric),
                     verdict::format_metric(k.median_a, is_time),
                     verdict::format_metric(k.median_b, is_time), k.ratio.estimate, change * 100,
                     change < 0 ? "B worse" : "B better", k.tolerance * 100, why);
}

AbLevels levels_of(const std::vector<double>& launch_medians, double tolerance) {
  const stats::TwoLevels t = stats::find_two_levels(launch_medians, tolerance);
  return {t.found, t.low_level, t.high_level, t.low_count, t.high_count, t.separation};
}

std::string levels_text(const AbLevels& l, bool is_time) {
  return fmt::format("{} x{} and {} x{} (D {:.1f})", verdict::format_metric(l.low, is_time),
                     l.low_count, verdict::format_metric(l.high, is_time), l.high_count,
                     l.separation);
}

// A side on two levels is never averaged into a pass. B fails (BIMODAL) when its worse level is
// worse than A's (A's worse level when A has two, else A's median) beyond the tolerance and B's
// launches sit in that worse state significantly more often than A's (one-sided Fisher test at
// the look's alpha): a state both sides have, drawn more into B by chance (the CPU box's
// occasional slow launch), is not B's fault. Otherwise the key is TWO-STATES: not decided, not a
// pass. Failing and invalid verdicts stand.
void judge_two_states(AbKey& k, bool higher_better, const std::vector<double>& medians_a,
                      const std::vector<double>& medians_b, double alpha) {
  if (!k.levels_a.found && !k.levels_b.found) return;
  if (ab_verdict_fails(k.verdict)) return;
  const bool is_time = !higher_better;
  const auto worse_of = [&](const AbLevels& l, double median_level) {
    if (!l.found) return median_level;
    return higher_better ? l.low : l.high;
  };
  const double worse_a = worse_of(k.levels_a, k.median_a);
  const double worse_b = worse_of(k.levels_b, k.median_b);
  // performance of B's worse level against A's worse level (> 1: B better)
  const double perf = higher_better ? worse_b / worse_a : worse_a / worse_b;
  std::string text;
  if (k.levels_a.found) text += "A on two levels: " + levels_text(k.levels_a, is_time);
  if (k.levels_b.found)
    text += (text.empty() ? "" : "; ") + std::string("B on two levels: ") +
            levels_text(k.levels_b, is_time);
  // Launches in B's worse state: beyond the geometric middle of B's two levels (or of B's worse
  // level and A's median when only A has two).
  const double other =
      k.levels_b.found ? (higher_better ? k.levels_b.high : k.levels_b.low) : k.median_b;
  const double cut = std::sqrt(worse_b * other);
  const auto in_worse = [&](const std::vector<double>& v) {
    return static_cast<std::size_t>(std::count_if(
        v.begin(), v.end(), [&](double m) { return higher_better ? m < cut : m > cut; }));
  };
  const std::size_t xb = in_worse(medians_b);
  const std::size_t xa = in_worse(medians_a);
  const double p = stats::state_excess_p(xb, medians_b.size(), xa, medians_a.size());
  const std::string counts =
      fmt::format("{} of {} B launches in the worse state, {} of {} A ({})", xb, medians_b.size(),
                  xa, medians_a.size(), fmt::format("p {:.3g}", p));
  if (k.levels_b.found && perf < 1 - k.tolerance && p <= alpha) {
    k.verdict = AbVerdict::bimodal;
    k.reason += fmt::format("; {}; B's worse level is {:+.1f}% against A's; {}", text,
                            (perf - 1) * 100, counts);
  } else if (k.levels_a.found && perf >= 1 - k.tolerance) {
    // A has the two states too, and B's worse state is no worse than A's beyond the tolerance:
    // the runner's own states, which B neither brought nor made worse. Not gated, said.
    k.verdict = AbVerdict::noisy;
    k.reason += fmt::format(
        "; {}; B's worse level {:+.1f}% against A's worse level, {}: the runner's own two states, "
        "B no worse in either: not gated here",
        text, (perf - 1) * 100, counts);
  } else if (xa > 0) {
    // A's launches visit B's worse state too, and B's are not there significantly more often:
    // the state is the runner's, not B's (B brought no state A never had). Not gated, said.
    k.verdict = AbVerdict::noisy;
    k.reason += fmt::format(
        "; {}; {}: A's launches visit the worse state too, B's not significantly more often: the "
        "runner's own states, not gated here",
        text, counts);
  } else {
    k.verdict = AbVerdict::two_states;
    k.reason += fmt::format("; {}; B's worse level {:+.1f}% against A's, {}: not a pass", text,
                            (perf - 1) * 100, counts);
  }
}

void judge_numbers(const KeyResults& kr, const std::vector<std::size_t>& ok_a,
                   const std::vector<std::size_t>& ok_b, const AbOptions& o, AbKey& k) {
  const SizeClass& size_class = size_class_for(o.policy, k.bytes);
  const bool busbw = all_have(kr.a, ok_a, verdict::Metric::busbw_GBps) &&
                     all_have(kr.b, ok_b, verdict::Metric::busbw_GBps);
  const bool algbw = all_have(kr.a, ok_a, verdict::Metric::algbw_GBps) &&
                     all_have(kr.b, ok_b, verdict::Metric::algbw_GBps);
  k.metric = gate::default_metric(o.policy, k.bytes, busbw, algbw);
  k.why_metric = size_class.judged_on_latency ? "latency-bound size (P15)"
                 : k.metric == verdict::Metric::time_us
                     ? "no bandwidth reported: elapsed time"
                     : "bandwidth size (" + size_class.name + ")";
  std::vector<double> pooled_a;
  std::vector<double> pooled_b;
  std::vector<double> launch_medians_a;
  std::vector<double> launch_medians_b;
  std::map<int, double> pair_median_a;
  for (const std::size_t i : ok_a) {
    const auto s = samples_of(*kr.a.results[i], k.metric);
    pooled_a.insert(pooled_a.end(), s.begin(), s.end());
    launch_medians_a.push_back(stats::median(s));
    pair_median_a[kr.a.pairs[i]] = stats::median(s);
  }
  for (const std::size_t i : ok_b) {
    const auto s = samples_of(*kr.b.results[i], k.metric);
    pooled_b.insert(pooled_b.end(), s.begin(), s.end());
    launch_medians_b.push_back(stats::median(s));
    const auto a = pair_median_a.find(kr.b.pairs[i]);
    if (a != pair_median_a.end() && a->second > 0)
      k.pair_ratios.push_back(stats::median(s) / a->second);
  }
  k.samples_a = pooled_a.size();
  k.samples_b = pooled_b.size();
  k.median_a = stats::median(pooled_a);
  k.median_b = stats::median(pooled_b);
  // A is the reference, as a baseline is: its spread (repetitions and launch-to-launch drift)
  // widens the tolerance the same way the baseline gate's does.
  k.spread_a =
      gate::baseline_relative_spread(MetricBaseline{k.median_a, pooled_a, launch_medians_a, {}});
  k.static_tolerance = o.tolerance ? *o.tolerance : size_class.tolerance;
  k.tolerance =
      o.tolerance ? *o.tolerance
                  : std::min(o.policy.max_tolerance,
                             std::max(k.static_tolerance, o.policy.spread_multiplier * k.spread_a));
  k.levels_a = levels_of(launch_medians_a, k.tolerance);
  k.levels_b = levels_of(launch_medians_b, k.tolerance);
  const auto ratio = stats::hodges_lehmann_ratio_interval(pooled_a, pooled_b, o.confidence);
  if (!ratio) {
    k.verdict = AbVerdict::undecided;
    k.reason = verdict::format_bytes(k.bytes) + ": " + verdict::metric_name(k.metric) +
               " has samples <= 0: no ratio";
    return;
  }
  k.pooled_ratio = to_interval(*ratio);
  k.paired_ratio = paired_interval(k.pair_ratios, o.confidence);
  k.ratio = hull(k.pooled_ratio, k.paired_ratio);
  k.performance = performance_of(k.ratio, verdict::metric_higher_is_better(k.metric));
  const double floor = 1 - k.tolerance;
  k.reason = ratio_text(k, o);
  if (k.performance.bounded && k.performance.high < floor) {
    k.verdict = AbVerdict::fail;
    k.reason += "; the whole interval is beyond the tolerance";
  } else if (k.performance.bounded && k.performance.low > 1 + k.tolerance) {
    k.verdict = AbVerdict::improvement;
  } else if (k.performance.bounded && k.performance.low >= floor) {
    k.verdict = AbVerdict::pass;
    k.reason += "; the whole interval lies above 1 - tolerance";
  } else {
    // A PASS is a decision: an interval that reaches below 1 - tolerance could be a regression.
    k.verdict = AbVerdict::undecided;
    k.reason += k.performance.bounded ? "; the interval reaches below 1 - tolerance: not decided"
                                      : "; no interval yet: not decided";
  }
  judge_two_states(k, verdict::metric_higher_is_better(k.metric), launch_medians_a,
                   launch_medians_b, 1 - o.confidence);
}

AbKey judge_key(const KeyResults& kr, const AbSide& a, const AbSide& b, const AbOptions& o) {
  AbKey k;
  const BenchmarkResult& first =
      kr.a.results.empty() ? *kr.b.results.front() : *kr.a.results.front();
  k.identify(first.key, first);
  for (const auto* side : {&kr.a, &kr.b}) {
    const AbSide& s = side == &kr.a ? a : b;
    for (std::size_t i = 0; i < side->results.size(); ++i) {
      const std::string problem = problem_of(*side->results[i]);
      if (problem.empty()) continue;
      k.verdict = AbVerdict::invalid;
      k.reason = verdict::format_bytes(k.bytes) + ": " + s.label + " launch " + s.id + "-" +
                 std::to_string(side->pairs[i]) + ": " + problem;
      return k;
    }
  }
  const auto ok_a = ok_indices(kr.a);
  const auto ok_b = ok_indices(kr.b);
  if (ok_a.empty() && ok_b.empty()) {
    k.verdict = AbVerdict::skipped;
    const std::string why = skip_message(kr.a).empty() ? skip_message(kr.b) : skip_message(kr.a);
    k.reason = why.empty() ? "skipped" : why;
    return k;
  }
  if (ok_b.empty() || ok_a.empty()) {
    const bool lost = ok_b.empty();
    const AbSide& with = lost ? a : b;
    const AbSide& without = lost ? b : a;
    const std::string why = skip_message(lost ? kr.b : kr.a);
    k.verdict = lost ? AbVerdict::only_a : AbVerdict::only_b;
    k.reason = verdict::format_bytes(k.bytes) + ": measured with " + with.label + ", not with " +
               without.label + (why.empty() ? "" : " (" + without.label + ": " + why + ")");
    return k;
  }
  compare_routes(kr, ok_a, ok_b, a, b, k);
  judge_numbers(kr, ok_a, ok_b, o, k);
  if (!k.route_changes.empty()) k.reason += "; route " + describe(k.route_changes);
  return k;
}

std::string join(const std::set<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + s;
  return out.empty() ? "(none)" : out;
}

std::string or_none(const std::string& s) { return s.empty() ? "(none)" : s; }

void add_if_different(std::vector<verdict::Change>& out, const std::string& what,
                      const std::string& a, const std::string& b) {
  if (a != b) out.push_back({what, a, b});
}

std::vector<verdict::Change> side_changes(const AbSide& a, const AbSide& b,
                                          const std::vector<AbPair>& pairs) {
  std::vector<verdict::Change> out;
  std::set<std::string> names;
  for (const auto& [k, v] : a.env) names.insert(k);
  for (const auto& [k, v] : b.env) names.insert(k);
  names.insert(a.unset.begin(), a.unset.end());
  names.insert(b.unset.begin(), b.unset.end());
  // Reports are published: a credential-like variable shows as <redacted> (secret_redaction.hpp).
  const auto value_on = [](const AbSide& side, const std::string& name) -> std::string {
    if (side.unset.count(name)) return "(unset)";
    const auto it = side.env.find(name);
    return it == side.env.end() ? "(not set by the spec)" : recordable_value(name, it->second);
  };
  for (const std::string& name : names)
    add_if_different(out, name, value_on(a, name), value_on(b, name));
  const auto words = [](const std::vector<std::string>& w) {
    std::string t;
    for (const std::string& x : w) t += (t.empty() ? "" : " ") + x;
    return t.empty() ? std::string("(none)") : t;
  };
  add_if_different(out, "wrap", words(a.wrap), words(b.wrap));
  if (pairs.empty()) {
    add_if_different(out, "nccl=", or_none(a.nccl), or_none(b.nccl));
    return out;
  }
  const LoadedLibraries& la = pairs.front().a.libraries;
  const LoadedLibraries& lb = pairs.front().b.libraries;
  add_if_different(out, "NCCL version", or_none(la.nccl_version), or_none(lb.nccl_version));
  add_if_different(out, "NCCL library", join(la.nccl_libraries), join(lb.nccl_libraries));
  add_if_different(out, "MPI", or_none(la.mpi_version), or_none(lb.mpi_version));
  const Capture& ca = pairs.front().a.run.capture;
  const Capture& cb = pairs.front().b.run.capture;
  if (ca.path != "none" && cb.path != "none") {
    add_if_different(out, "NCCL network", or_none(ca.network), or_none(cb.network));
    add_if_different(out, "NCCL transports", join({ca.transports.begin(), ca.transports.end()}),
                     join({cb.transports.begin(), cb.transports.end()}));
    add_if_different(out, "GDRDMA", ca.gdrdma ? "yes" : "no", cb.gdrdma ? "yes" : "no");
  }
  return out;
}

}  // namespace

ExitCode ab_exit_code(const AbComparison& c) {
  if (c.failing_count() > 0) return ExitCode::gate_failure;
  // Not decided is not a pass: 3, as for a run that could not be judged.
  if (!c.complete || c.not_decided_count() > 0) return ExitCode::infra_failure;
  // Keys the runner's noise leaves undecidable are not gated; but a comparison that gated
  // nothing at all is no pass.
  const bool judged_any = std::any_of(c.keys.begin(), c.keys.end(),
                                      [](const AbKey& k) { return ab_facts_of(k.verdict).judged; });
  if (!judged_any && std::any_of(c.keys.begin(), c.keys.end(),
                                 [](const AbKey& k) { return k.verdict == AbVerdict::noisy; }))
    return ExitCode::infra_failure;
  return ExitCode::pass;
}

AbComparison compare_ab(const AbSide& a, const AbSide& b, const std::vector<AbPair>& pairs,
                        const AbOptions& o) {
  AbComparison c;
  c.a = a;
  c.b = b;
  c.pairs_requested = o.pairs_requested;
  c.confidence = o.confidence;
  c.tolerance_source = o.tolerance_source;
  c.complete = o.incomplete_reason.empty();
  c.incomplete_reason = o.incomplete_reason;
  for (const AbPair& p : pairs) c.pairs_compared.push_back(p.index);
  if (!pairs.empty()) {
    c.libraries_a = pairs.front().a.libraries;
    c.libraries_b = pairs.front().b.libraries;
    c.suite = pairs.front().a.run.suite;
    c.platform = pairs.front().a.run.platform;
  }
  c.side_changes = side_changes(a, b, pairs);
  if (pairs.empty()) {
    c.fingerprint_note = "no pair compared";
  } else {
    verdict::FingerprintChanges fp = verdict::fingerprint_changes(
        pairs.front().a.run.fingerprint.detail, pairs.front().b.run.fingerprint.detail,
        "side A's run has no fingerprint detail", "side B's run has no fingerprint detail");
    c.fingerprint_changes = std::move(fp.changes);
    c.fingerprint_note = std::move(fp.note);
  }
  if (a.env == b.env && a.unset == b.unset && a.nccl_expected == b.nccl_expected &&
      a.wrap == b.wrap) {
    c.warnings.push_back(
        "A and B are the same configuration (an A/A run): a FAIL here is noise or drift");
  } else if (c.side_changes.empty() && !pairs.empty()) {
    c.warnings.push_back(
        "the sides differ in their specs but loaded the same libraries and variables");
  }
  if (!pairs.empty() && pairs.size() < 3) {
    c.warnings.push_back("only " + std::to_string(pairs.size()) +
                         " pair(s) compared: launch-to-launch drift is poorly sampled");
  }
  for (const auto& [key, kr] : collect(pairs)) c.keys.push_back(judge_key(kr, a, b, o));
  std::stable_sort(c.keys.begin(), c.keys.end(), [](const AbKey& x, const AbKey& y) {
    return x.verdict != y.verdict ? x.verdict < y.verdict : x.key < y.key;
  });
  c.look_confidence = o.confidence;
  c.decided = std::none_of(c.keys.begin(), c.keys.end(),
                           [](const AbKey& k) { return ab_verdict_open(k.verdict); });
  c.exit_code = ab_exit_code(c);
  return c;
}

}  // namespace fabricgate::ab
