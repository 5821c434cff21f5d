#include "harness/gate/comparison.hpp"

#include <array>

namespace fabricgate::gate {

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::invalid: return "INVALID";
    case Verdict::wrong_results: return "WRONG-RESULTS";
    case Verdict::transport_changed: return "TRANSPORT-CHANGED";
    case Verdict::algo_changed: return "ALGO-CHANGED";
    case Verdict::regression: return "REGRESSION";
    case Verdict::below_roofline: return "BELOW-ROOFLINE";
    case Verdict::dip: return "DIP";
    case Verdict::drift: return "DRIFT";
    case Verdict::missing: return "MISSING";
    case Verdict::unstable: return "UNSTABLE";
    case Verdict::ambiguous: return "AMBIGUOUS";
    case Verdict::noisy: return "NOISY";
    case Verdict::improvement: return "IMPROVEMENT";
    case Verdict::new_key: return "NEW";
    case Verdict::pass: return "PASS";
    case Verdict::skipped: return "SKIPPED";
  }
  return "?";
}

bool verdict_fails_gate(Verdict v) {
  switch (v) {
    case Verdict::invalid:
    case Verdict::wrong_results:
    case Verdict::transport_changed:
    case Verdict::algo_changed:
    case Verdict::regression:
    case Verdict::below_roofline:
    case Verdict::dip:
    case Verdict::drift:
    case Verdict::missing: return true;
    default: return false;
  }
}

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
  constexpr std::size_t kVerdicts = static_cast<std::size_t>(Verdict::skipped) + 1;
  std::array<std::size_t, kVerdicts> n{};
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
    case ExitCode::infra_failure: head = "INCOMPLETE RUN: " + incomplete_reason; break;
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
  return counts_text.empty() ? head : head + " (" + counts_text + ")";
}

}  // namespace fabricgate::gate
