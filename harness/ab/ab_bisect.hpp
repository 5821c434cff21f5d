#pragma once
// `fabricgate ab --bisect`: which of an ordered list of candidates (NCCL builds oldest to newest)
// is the first one worse than the reference? Each probe is one A/B, reference vs candidate; the
// search assumes the ladder is monotone (once bad, later ones are bad too, as a regression that
// stays). The last candidate is probed first: when it is not bad, nothing in the list is (one
// A/B); otherwise a binary search between the reference and it, ceil(log2 n) more A/Bs at most:
// at most ceil(log2 n) + 1 in all. A candidate probed once is never probed again (its verdict
// is kept), so a ladder's launches are reused rather than repeated. A probe that cannot decide
// (UNDECIDED after the most pairs, a crash) ends the search: the answer would be a guess.
// Pure: the measuring is a callback, so the search is tested without launching anything.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace fabricgate::ab {

enum class ProbeOutcome { good, bad, undecided };

struct AbComparison;

// A probe's answer to "is this candidate worse?", from its settled A/B: a FAIL (exit 1) says
// yes; a key still open (UNDECIDED, or TWO-STATES: two levels, B not shown worse in either, not
// a pass), or a series that did not finish, leaves it unknown; everything else (PASS, NOISY keys
// beside decided ones) answers no.
ProbeOutcome probe_outcome(const AbComparison& c);

struct BisectProbe {
  std::size_t candidate = 0;  // 0-based index into the ordered list
  ProbeOutcome outcome = ProbeOutcome::good;
};

struct BisectResult {
  std::optional<std::size_t> first_bad;  // none: no candidate is bad (or the search stopped)
  bool stopped = false;                  // a probe was undecided
  std::string summary;                   // one line for the report
  std::vector<BisectProbe> probes;       // in the order they ran
};

// ceil(log2 n) + 1: the most probes bisect_first_bad makes for n candidates (n >= 1).
std::size_t bisect_probe_bound(std::size_t n);

BisectResult bisect_first_bad(std::size_t candidates,
                              const std::function<ProbeOutcome(std::size_t)>& probe);

}  // namespace fabricgate::ab
