# Reference numbers for tests/unit/gate/jitter_test.cpp, computed independently of the C++ code
# with the Python standard library. One session and no between-session allowance: the band is the
# one-session t band h = t_{0.99, n-1} * s * sqrt(1 + 1/n) on the log ratios (harness/gate/
# launch_band.hpp), limit = centre * exp(h). t_{0.99, 4} is SciPy's stats.t.ppf(0.99, 4), the value
# tests/unit/gate/launch_band_test.cpp pins.
import math, statistics

ratios = [1.20, 1.25, 1.18, 1.22, 1.24]
t_099_4 = 3.7469473879811366
logs = [math.log(r) for r in ratios]
n = len(logs)
centre = math.exp(statistics.fmean(logs))
s = statistics.stdev(logs)
h = t_099_4 * s * math.sqrt(1 + 1 / n)
half_width = 1 - math.exp(-h)
print("centre", repr(centre))
print("half_width", repr(half_width))
print("limit", repr(centre / (1 - half_width)))

# p99 / p50 by nearest rank of 40 repetitions: 21 x 10.0, 18 x 10.5 and one tail value.
def nearest_rank(values, q):
    v = sorted(values)
    return v[max(1, math.ceil(q * len(v))) - 1]
for tail in (14.0, 12.0):
    reps = [10.0] * 21 + [10.5] * 18 + [tail]
    print("ratio", tail, repr(nearest_rank(reps, 0.99) / nearest_rank(reps, 0.50)))
