#include "harness/publish/pushgateway_payload.hpp"

#include <charconv>
#include <cmath>
#include <set>

namespace fabricgate::publish {

namespace {

struct Family {
  const char* name;
  const char* help;
  std::string samples;
};

void add_sample(Family& f, const std::string& labels, double value) {
  f.samples += std::string(f.name) + (labels.empty() ? "" : "{" + labels + "}") + " " +
               exposition_number(value) + "\n";
}

std::string label(const char* name, std::string_view value) {
  return std::string(name) + "=\"" + exposition_label_value(value) + "\"";
}

void append_family(std::string& out, const Family& f) {
  if (f.samples.empty()) return;
  out += std::string("# HELP ") + f.name + " " + f.help + "\n";
  out += std::string("# TYPE ") + f.name + " gauge\n";
  out += f.samples;
}

}  // namespace

GroupingKey pushgateway_grouping(const RunRecord& run) {
  const std::string host =
      run.ranks.empty() || run.ranks.front().host.empty() ? "unknown" : run.ranks.front().host;
  return {{"platform", run.platform},
          {"host", host},
          {"suite", run.suite.empty() ? "unknown" : run.suite},
          {"scenario", run.scenario.empty() ? "default" : run.scenario}};
}

std::string exposition_label_value(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (const char c : value) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::string exposition_number(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, value);
  return std::string(buf, r.ptr);
}

std::string pushgateway_exposition(const RunRecord& run, const verdict::Comparison& comparison) {
  // Seconds, the base unit: promtool's linter refuses an abbreviated unit in a name ("_us").
  Family time{"fabricgate_time_seconds", "Median time of one operation in seconds.", {}};
  Family algbw{
      "fabricgate_algbw_gbps", "Median algorithm bandwidth in GB/s (10^9 bytes per second).", {}};
  Family busbw{"fabricgate_busbw_gbps",
               "Median bus bandwidth in GB/s (10^9 bytes per second), collectives only.",
               {}};
  Family ratio{
      "fabricgate_performance_ratio",
      "Judged metric now relative to the baseline median; above 1 is better, below 1 worse.",
      {}};
  Family key_failed{"fabricgate_key_failed", "1 when this key fails the gate, else 0.", {}};
  Family gate_failed{"fabricgate_gate_failed",
                     "1 when the run fails the gate (exit code 1), 0 when it passes (exit 0), NaN "
                     "when the gate could not judge it (exit 3).",
                     {}};
  Family gate_judged{"fabricgate_gate_judged",
                     "1 when the gate judged the run (exit 0 or 1), 0 when it could not (exit 3: "
                     "a busy or degraded runner, a runner unlike the fleet, an incomplete run).",
                     {}};
  Family exit_code{
      "fabricgate_gate_exit_code",
      "Exit code of the gate: 0 pass, 1 gate failure, 2 input error, 3 infrastructure failure.",
      {}};
  Family complete{
      "fabricgate_run_complete", "1 when every benchmark of the run finished, else 0.", {}};
  Family keys{"fabricgate_keys", "Number of keys with each gate verdict.", {}};
  Family drift{"fabricgate_key_drift",
               "1 when this key passed but its recent runs sit on a worse level (DRIFT, from the "
               "results store), else 0.",
               {}};

  std::set<std::string> seen;
  for (const BenchmarkResult& b : run.benchmarks) {
    if (b.status != ResultStatus::ok || !seen.insert(b.key).second) continue;
    const std::string labels = label("key", b.key);
    add_sample(time, labels, b.time_us / 1e6);
    add_sample(algbw, labels, b.algbw_GBps);
    if (b.busbw_GBps.has_value()) add_sample(busbw, labels, b.busbw_GBps.value());
  }
  std::set<std::string> judged;
  for (const verdict::KeyComparison& k : comparison.keys) {
    if (!judged.insert(k.key).second) continue;
    const std::string labels = label("key", k.key);
    if (k.judgement.has_value()) add_sample(ratio, labels, k.judgement->performance_ratio);
    add_sample(key_failed, labels, verdict::verdict_fails_gate(k.verdict) ? 1 : 0);
    add_sample(drift, labels, k.verdict == verdict::Verdict::drift ? 1 : 0);
  }
  // A run the gate could not judge (a busy runner excused, a degraded one) is no pass: a 0 here
  // would read "passed" on every dashboard and alert rule that watches this series.
  const bool gate_judged_run =
      comparison.exit_code == ExitCode::pass || comparison.exit_code == ExitCode::gate_failure;
  add_sample(gate_failed, "",
             !gate_judged_run                                 ? std::nan("")
             : comparison.exit_code == ExitCode::gate_failure ? 1.0
                                                              : 0.0);
  add_sample(gate_judged, "", gate_judged_run ? 1 : 0);
  add_sample(exit_code, "", static_cast<double>(static_cast<int>(comparison.exit_code)));
  add_sample(complete, "", run.complete ? 1 : 0);
  for (const verdict::VerdictCount& c : comparison.counts()) {
    add_sample(keys, label("verdict", verdict::verdict_name(c.verdict)),
               static_cast<double>(c.count));
  }

  std::string out;
  for (const Family* f : {&time, &algbw, &busbw, &ratio, &key_failed, &gate_failed, &gate_judged,
                          &exit_code, &complete, &keys, &drift}) {
    append_family(out, *f);
  }
  return out;
}

}  // namespace fabricgate::publish
