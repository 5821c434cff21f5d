#pragma once
// Student's t distribution, for the gate's prediction interval over launch medians
// (launch_band.hpp). A handful of baseline launches is all a gate ever has, so the normal
// quantile (1.645 at 95 %) would understate the band badly at n = 3..5 (t_2 = 2.92).
namespace fabricgate::stats {

// P(T <= t) for T ~ t(dof), dof > 0.
double student_t_cdf(double t, double dof);

// The t with P(T <= t) = p, for p in (0, 1), dof > 0 (bisection on the CDF: 1e-12 relative).
double student_t_quantile(double p, double dof);

}  // namespace fabricgate::stats
