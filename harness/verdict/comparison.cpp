#include "harness/verdict/comparison.hpp"

#include <array>

#include <fmt/format.h>

#include "harness/verdict/verdict_table.hpp"

namespace fabricgate::gate {

const char* metric_name(Metric m) {
  switch (m) {
    case Metric::time_us: return "time_us";
    case Metric::algbw_GBps: return "algbw_GBps";
    case Metric::busbw_GBps: return "busbw_GBps";
  }
  return "?";
}

const char* metric_unit(Metric m) { return m == Metric::time_us ? "us" : "GB/s"; }

bool metric_higher_is_better(Metric m) { return m != Metric::time_us; }

std::vector<VerdictCount> Comparison::counts() const {
  const std::size_t kVerdicts = verdict_table().size();
  std::vector<std::size_t> n(kVerdicts, 0);
  for (const KeyComparison& k : keys) ++n[static_cast<std::size_t>(k.verdict)];
  std::vector<VerdictCount> out;
  for (std::size_t i = 0; i < kVerdicts; ++i) {
    if (n[i] > 0) out.push_back({static_cast<Verdict>(i), n[i]});
  }
  return out;
}

std::size_t Comparison::failing_count() const {
  std::size_t n = 0;
  for (const KeyComparison& k : keys) {
    if (verdict_fails_gate(k.verdict) && !k.missing_because_incomplete) ++n;
  }
  return n;
}

std::size_t Comparison::gated_count() const {
  std::size_t n = 0;
  for (const KeyComparison& k : keys) n += facts_of(k.verdict).gated ? 1 : 0;
  return n;
}

std::size_t Comparison::warning_count() const {
  std::size_t n = 0;
  for (const KeyComparison& k : keys) n += facts_of(k.verdict).warns ? 1 : 0;
  return n;
}

std::size_t Comparison::failing_findings() const {
  std::size_t n = 0;
  for (const ClusterFinding& f : cluster_findings) n += f.fails_gate ? 1 : 0;
  return n;
}

std::string Comparison::headline() const {
  std::string counts_text;
  for (const VerdictCount& c : counts()) {
    if (!counts_text.empty()) counts_text += ", ";
    counts_text += std::to_string(c.count) + " " + verdict_name(c.verdict);
  }
  std::string head;
  switch (exit_code) {
    case ExitCode::gate_failure:
      head = "FAIL: " + std::to_string(failing_count()) + " of " + std::to_string(keys.size()) +
             " keys fail the gate";
      if (failing_findings() > 0)
        head += ", " + std::to_string(failing_findings()) + " cluster findings";
      break;
    case ExitCode::infra_failure:
      head = runner_busy && runner_evidence.busy_gpu
                 ? fmt::format(
                       "RUNNER BUSY, NOT JUDGED: {} of {} keys look worse, but another process "
                       "computed on the launch's GPU: {}; rerun on an idle runner",
                       failing_count(), keys.size(), runner_evidence.summary())
             : runner_busy
                 ? fmt::format(
                       "RUNNER BUSY, NOT JUDGED: {} of {} keys look worse, but a task waited for "
                       "a CPU of the launching host {:.0f} % of the launch (over {:.0f} %): other "
                       "work, not the fabric, may have cost it; rerun on an idle runner",
                       failing_count(), keys.size(), 100 * host_cpu_pressure.value_or(0),
                       100 * busy_threshold)
                 : "INCOMPLETE RUN: " + incomplete_reason;
      break;
    default:
      if (has_baseline) {
        head = "PASS: " + std::to_string(keys.size()) + " keys compared";
      } else if (!roofline_policy.empty()) {
        head = "NO BASELINE: " + std::to_string(keys.size()) +
               " keys judged on roofline floors, dips and correctness only";
      } else {
        head = "NO BASELINE: " + std::to_string(keys.size()) + " keys not gated";
      }
  }
  std::string line = counts_text.empty() ? head : head + " (" + counts_text + ")";
  // Never let keys that were not judged read as passes: say how many were gated at all.
  const std::size_t gated = gated_count();
  if (has_baseline && gated < keys.size()) {
    line += "; " + std::to_string(gated) + " of " + std::to_string(keys.size()) + " keys gated, " +
            std::to_string(keys.size() - gated) + " not gated";
  }
  return line;
}

}  // namespace fabricgate::gate
