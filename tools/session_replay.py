#!/usr/bin/env python3
"""Replays A/A sessions through the live gate's judgement: `fabricgate compare RUN RUN2 RUN3`.

Each launch of a session is judged against BASELINE with two later launches of the same session
as its confirmations, as `fabricgate run` would have re-measured it: the next launch (back-to-back)
and the one GAP launches after the first (not back-to-back; the device sessions space launches
~15 s apart, so GAP=3 is ~45 s, more than `--confirm-gap` 30 s). A launch counts as a false alarm
when compare exits 1. Prints one row per launch and a table: launches, failures, the rate and its
one-sided 95 % Clopper-Pearson upper bound.

  tools/session_replay.py FABRICGATE BASELINE OUT.tsv SESSION_DIR [SESSION_DIR...] [--gap 3]
                         [--exclude REGEX]   (run ids left out, e.g. injected-load launches)
SESSION_DIR holds the session's run directories (results/<platform>/<run_id>/); launches are
ordered by run id (UTC start time)."""
import json
import re
import subprocess
import sys
from pathlib import Path


def upper_95(failures, n):
    """One-sided 95 % Clopper-Pearson upper bound of a binomial rate (bisection on the CDF)."""
    if failures >= n:
        return 1.0

    def cdf(p):  # P[X <= failures] for X ~ Bin(n, p)
        term, total = (1 - p) ** n, 0.0
        for k in range(failures + 1):
            total += term
            term = term * (n - k) / (k + 1) * p / (1 - p) if p < 1 else 0
        return total

    lo, hi = failures / n, 1.0
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if cdf(mid) > 0.05 else (lo, mid)
    return hi


def session_launches(session, gap, exclude, same_session=False):
    """Each A/A launch of SESSION_DIR (oldest first, confirm/ launches and run ids matching
    `exclude` left out) with its confirmations: the next launch and the one `gap` launches after it.
    With `same_session`, only later launches whose run.json has the first one's session_id."""
    runs = sorted(p.parent for p in Path(session).glob("*/run.json")
                  if "/confirm" not in str(p) and not (exclude and exclude.search(p.parent.name)))
    session_of = ({r: json.load(open(r / "run.json")).get("session_id", "") for r in runs}
                  if same_session else {})
    for i, first in enumerate(runs):
        later = [r for r in (runs[i + 1] if i + 1 < len(runs) else None,
                             runs[i + gap] if i + gap < len(runs) else None)
                 if r and (not same_session or session_of[r] == session_of[first])]
        yield first, later


def main(argv):
    gap, exclude = 3, None
    if "--exclude" in argv:
        i = argv.index("--exclude")
        exclude = re.compile(argv[i + 1])
        del argv[i:i + 2]
    if "--gap" in argv:
        i = argv.index("--gap")
        gap = int(argv[i + 1])
        del argv[i:i + 2]
    fg, baseline, out, sessions = argv[1], argv[2], argv[3], argv[4:]
    rows, failures, total = [], 0, 0
    for session in sessions:
        for first, later in session_launches(session, gap, exclude):
            cmd = [fg, "compare", str(first), *map(str, later), "--baseline", baseline,
                   "--store", "none", "--format", "json"]
            p = subprocess.run(cmd, capture_output=True, text=True)
            failing, ambiguous = [], 0
            if p.stdout.strip():
                for k in json.loads(p.stdout)["keys"]:
                    if k["fails_gate"]:
                        failing.append(f'{k["verdict"]} {k["key"]}')
                    ambiguous += k["verdict"] == "AMBIGUOUS"
            total += 1
            failures += p.returncode == 1
            rows.append(f"{Path(session).name}\t{first.name}\t{len(later)}\t{p.returncode}\t"
                        f"{ambiguous}\t{'; '.join(failing)[:300]}")
    with open(out, "w") as f:
        f.write("session\tlaunch\tconfirmations\texit\tambiguous_keys\tfailing_keys\n")
        f.write("\n".join(rows) + "\n")
    print(f"A/A launches judged: {total}; failed (exit 1): {failures}; rate {failures / max(total, 1):.3f}; "
          f"95 % upper bound {upper_95(failures, total):.3f}")


if __name__ == "__main__":
    main(sys.argv)
