#include "harness/ab/ab_bisect.hpp"

#include <algorithm>
#include <map>

#include "core/errors.hpp"
#include "harness/ab/ab_compare.hpp"

namespace fabricgate::ab {

ProbeOutcome probe_outcome(const AbComparison& c) {
  if (c.exit_code == ExitCode::gate_failure) return ProbeOutcome::bad;
  const bool open = std::any_of(c.keys.begin(), c.keys.end(),
                                [](const AbKey& k) { return ab_verdict_open(k.verdict); });
  return open || !c.complete ? ProbeOutcome::undecided : ProbeOutcome::good;
}

std::size_t bisect_probe_bound(std::size_t n) {
  std::size_t log2_ceil = 0;
  while ((std::size_t{1} << log2_ceil) < n) ++log2_ceil;
  return log2_ceil + 1;
}

BisectResult bisect_first_bad(std::size_t n,
                              const std::function<ProbeOutcome(std::size_t)>& probe) {
  if (n == 0) throw InputError("--candidate: expected at least one candidate to bisect");
  BisectResult r;
  std::map<std::size_t, ProbeOutcome> seen;
  const auto outcome_of = [&](std::size_t i) {
    if (const auto it = seen.find(i); it != seen.end()) return it->second;
    const ProbeOutcome o = probe(i);
    seen.emplace(i, o);
    r.probes.push_back({i, o});
    return o;
  };
  const auto undecided = [&](std::size_t i) {
    r.stopped = true;
    r.summary = "stopped: candidate " + std::to_string(i + 1) +
                " was not decided against the reference, so the first bad one is not known";
    return r;
  };
  const ProbeOutcome last = outcome_of(n - 1);
  if (last == ProbeOutcome::undecided) return undecided(n - 1);
  if (last == ProbeOutcome::good) {
    r.summary =
        "no candidate is worse than the reference (the last, " + std::to_string(n) + ", is not)";
    return r;
  }
  // Invariant: every candidate before lo is good, candidate hi is bad.
  std::size_t lo = 0;
  std::size_t hi = n - 1;
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    const ProbeOutcome o = outcome_of(mid);
    if (o == ProbeOutcome::undecided) return undecided(mid);
    if (o == ProbeOutcome::bad) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  r.first_bad = hi;
  r.summary = "first bad candidate: " + std::to_string(hi + 1) + " of " + std::to_string(n) + " (" +
              std::to_string(r.probes.size()) + " A/Bs, at most " +
              std::to_string(bisect_probe_bound(n)) + ")";
  return r;
}

}  // namespace fabricgate::ab
