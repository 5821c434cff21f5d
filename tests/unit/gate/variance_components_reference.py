# Reference numbers for tests/unit/gate/variance_components_test.cpp, computed with NumPy/SciPy
# (Debian python3-numpy, python3-scipy), independently of the C++ code. scipy.stats.f_oneway gives
# F = MSB / MSW, which checks both mean squares; beta.ppf gives the exact Clopper-Pearson bound.
import numpy as np
from scipy import stats

def components(groups, min_sessions=3, allowance=0.02):
    g = [np.log(np.array(x, dtype=float)) for x in groups]
    S = len(g); n = np.array([len(x) for x in g], dtype=float); N = n.sum()
    means = np.array([x.mean() for x in g])
    allx = np.concatenate(g)
    msw = sum(((x - x.mean()) ** 2).sum() for x in g) / (N - S)
    msb = (n * (means - allx.mean()) ** 2).sum() / (S - 1) if S > 1 else 0.0
    if S > 1:
        F = stats.f_oneway(*g).statistic
        assert abs(F - msb / msw) < 1e-9 * F
    n0 = (N - (n ** 2).sum() / N) / (S - 1) if S > 1 else 0.0
    wf = 1 + (1 / n).sum() / S ** 2
    if S < min_sessions:  # the allowance is a constant: Satterthwaite over the measured part only
        V = msw * wf + allowance ** 2; sb2 = allowance ** 2
        dof = V ** 2 / ((msw * wf) ** 2 / (N - S))
    elif msb <= msw:
        sb2 = 0.0; V = msw * wf; dof = N - S
    else:
        sb2 = (msb - msw) / n0
        V = sb2 * (1 + 1 / S) + msw * wf
        a = (1 + 1 / S) / n0; b = wf - a
        dof = V ** 2 / ((a * msb) ** 2 / (S - 1) + (b * msw) ** 2 / (N - S))
    return dict(centre=means.mean(), msw=msw, msb=msb, n0=n0, sb2=sb2, V=V, dof=dof,
                t=stats.t.ppf(0.99, dof))

unbalanced = [[55.50, 55.42, 55.61, 55.47], [54.90, 55.02], [56.10, 56.31, 56.02], [55.30]]
for name, groups in [("unbalanced", unbalanced),
                     ("clamped", [[10.0, 10.4, 9.7], [10.1, 9.8, 10.3], [10.2, 9.9, 10.05]]),
                     ("two sessions", [[20.0, 20.3, 19.8], [20.6, 20.4]])]:
    print(name, {k: repr(v) for k, v in components(groups).items()})
for x, n in [(0, 40), (1, 40), (3, 120), (0, 300)]:
    print("cp", x, n, repr(stats.beta.ppf(0.95, x + 1, n - x)))
print("binom cdf", repr(stats.binom.cdf(2, 30, 0.05)))

# Host id: FNV-1a 64 (offset 0xcbf29ce484222325, prime 0x100000001b3) of the host description.
def fnv1a64(text):
    h = 0xcbf29ce484222325
    for c in text.encode():
        h = ((h ^ c) * 0x100000001b3) % 2 ** 64
    return "%016x" % h
print("host gpu", fnv1a64("host:vm\ngpu:GPU-1111\ngpu:GPU-2222")[:12])
print("host cpu", fnv1a64("host:ci-7\ncpu:Intel(R) Xeon(R) Processor")[:12])

# session_band: h = t_{dof, 0.99} sqrt(V), relative band 1 - exp(-h), centre exp(mean of session
# means); the host-aware case uses the first three sessions (host "a") only.
for name, groups in [("band platform", unbalanced), ("band host a", unbalanced[:3]),
                     ("band one session no allowance", [[100, 100.1, 99.9, 100, 100.05]])]:
    c = components(groups, allowance=0.0) if "no allowance" in name else components(groups)
    # "no allowance": S = 1 < 3, V = msw (1 + 1/n), dof n - 1: the one-session t band.
    h = stats.t.ppf(0.99, c["dof"]) * np.sqrt(c["V"])
    print(name, repr(np.exp(c["centre"])), repr(1 - np.exp(-h)), repr(c["dof"]))
one = [[100, 100.1, 99.9, 100, 100.05]]
c = components(one, allowance=0.02)
print("band one session allowance", repr(1 - np.exp(-stats.t.ppf(0.99, c["dof"]) * np.sqrt(c["V"]))))
