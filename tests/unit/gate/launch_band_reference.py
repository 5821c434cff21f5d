# Reference numbers for tests/unit/gate/launch_band_test.cpp (computed once with SciPy).
import numpy as np
from scipy import stats
for p, dof in [(0.99, 4), (0.99, 2), (0.95, 19), (0.999, 9), (0.9, 1)]:
    print("t", p, dof, repr(stats.t.ppf(p, dof)))
for t, dof in [(2.0, 3), (-1.5, 7)]:
    print("cdf", t, dof, repr(stats.t.cdf(t, dof)))
def band(x, a):
    l = np.log(x); n = len(l); s = l.std(ddof=1)
    h = stats.t.ppf(1 - a, n - 1) * s * np.sqrt(1 + 1 / n)
    return np.exp(l.mean()), s, 1 - np.exp(-h)
for x in [[7.68, 8.09, 7.72], [100, 102, 98, 101, 99], [10.0, 10.5, 9.6, 10.2, 9.9, 10.1, 9.8, 10.3, 10.0, 9.7, 10.4, 9.9, 10.1, 10.0, 9.8, 10.2, 10.0, 9.9, 10.1, 10.0]]:
    c, s, hw = band(np.array(x), 0.01)
    print("band", x[:5], len(x), repr(c), repr(s), repr(hw))
# distribution-free [min,max] coverage for one new draw: (n-1)/(n+1)
for n in [3, 5, 20]:
    print("minmax coverage", n, (n - 1) / (n + 1))
# robust CV of repetitions
for r in [[10, 10.2, 9.9, 10.1, 10.0], [10, 14, 7, 12, 9]]:
    r = np.array(r); med = np.median(r); mad = np.median(np.abs(r - med))
    print("rcv", list(r), repr(1.4826 * mad / med))
