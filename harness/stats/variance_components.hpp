#pragma once
// Two noise levels of one key: between sessions (a `fabricgate run` invocation on one host, or a
// host) and between launches of one session. One-way random-effects ANOVA on LOG launch medians
// grouped by session, unbalanced (Searle, Casella & McCulloch, "Variance Components", ch. 3).
//
// The gate judges ONE launch of a NEW session against a centre made of S earlier sessions, so the
// variance that matters is that of (new launch - centre):
//   V = sb2 (1 + 1/S) + sw2 (1 + (1/S^2) sum 1/n_s)
// where the centre is the mean of the session means (each session weighs the same, however many
// launches it ran: a long session must not pull the centre to its host).
#include <cstddef>
#include <span>
#include <vector>

namespace fabricgate::stats {

struct ComponentOptions {
  // Sessions needed before the between-session term is estimated from the data. With fewer, it
  // is replaced by `allowance` (a log-scale SD), a policy value, and the result says so.
  std::size_t min_sessions = 3;
  double allowance = 0.02;
};

struct VarianceComponents {
  std::size_t sessions = 0;  // S: groups with at least one value
  std::size_t values = 0;    // N: launches in those groups
  double centre = 0;         // mean of the session means (log scale)
  double ms_within = 0;      // MSW, pooled within-session mean square, df N - S
  double ms_between = 0;     // MSB = sum n_s (m_s - weighted mean)^2 / (S - 1)
  double n0 = 0;             // (N - sum n_s^2 / N) / (S - 1): the "average" session size
  double within_var = 0;     // sw2 = MSW
  double between_var = 0;    // sb2 = max(0, (MSB - MSW) / n0), or allowance^2 when not estimated
  bool between_estimated = false;  // S >= min_sessions and the within term is measurable
  bool between_clamped = false;    // MSB <= MSW: the data show no between-session term
  bool within_measured = false;    // some session ran >= 2 launches (N > S)
  double predictive_var = 0;       // V above, for one launch of a new session
  double dof = 0;                  // Satterthwaite degrees of freedom of V (0: no estimate)
};

// `log_groups[s]` are the log values of session s; empty groups are ignored. Rules when a term
// cannot be estimated (each keeps the centre = mean of session means, so one formula judges):
//  - S >= min_sessions, N > S, MSB > MSW: V = a MSB + b MSW with a = (1 + 1/S) / n0,
//    b = 1 + sum(1/n_s)/S^2 - a; dof = V^2 / ((a MSB)^2/(S-1) + (b MSW)^2/(N-S)).
//  - S >= min_sessions, N > S, MSB <= MSW (clamped): sb2 = 0, V = MSW (1 + sum(1/n_s)/S^2),
//    dof = N - S. The between term is estimated, as zero.
//  - S >= min_sessions, N == S (one launch per session): the two terms cannot be told apart; each
//    session mean is one draw of sb2 + sw2, estimated by MSB: V = MSB (1 + 1/S), dof = S - 1;
//    reported as between_var = MSB, within_var = 0, within_measured = false.
//  - S < min_sessions: V = W + allowance^2 with W = MSW (1 + sum(1/n_s)/S^2); the allowance is a
//    policy constant, not an estimate (infinite df), so Satterthwaite gives dof = V^2 / (W^2 /
//    (N - S)) (= N - S when the allowance is 0); between_estimated = false. With N == S (or W = 0)
//    only the constant is left: dof = 0, which callers read as "normal quantile".
VarianceComponents variance_components(std::span<const std::vector<double>> log_groups,
                                       const ComponentOptions& options = {});

}  // namespace fabricgate::stats
