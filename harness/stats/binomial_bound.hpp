#pragma once
// Exact (Clopper-Pearson) one-sided upper confidence bound for a binomial rate: how large a
// false-alarm rate is still compatible with seeing `failures` of `trials`. "0 of 40" is not "0 %":
// its 95 % upper bound is 7.2 %.
#include <cstddef>

namespace fabricgate::stats {

// The p with P(X <= failures | trials, p) = 1 - confidence; 1 when failures == trials, and 1 when
// trials == 0 (nothing observed). confidence in (0, 1), e.g. 0.95.
double binomial_upper_bound(std::size_t failures, std::size_t trials, double confidence);

// P(X <= k) for X ~ Binomial(n, p).
double binomial_cdf(std::size_t k, std::size_t n, double p);

}  // namespace fabricgate::stats
