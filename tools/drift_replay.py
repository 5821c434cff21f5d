#!/usr/bin/env python3
"""Replays committed A/A sessions through ONE results store in time order, as a shared CI store
sees them, and counts the launches that DRIFT marks (harness/gate/README.md, "DRIFT").

Every launch of every SESSION_DIR is sorted by its start time (run id) across sessions and judged
in that order with `fabricgate compare RUN NEXT LATER --baseline BASELINE --store sqlite:STORE`:
compare reads the history DRIFT needs from the store (runs of the platform that started before the
judged one; DRIFT keeps only the judged run's host) and then records the launch, so each launch
sees exactly the launches before it. The confirmations are the session's next launch and the one
GAP launches after it, as in tools/session_replay.py, when they belong to its session (launches
that were each their own `run` session keep their own confirm/ directories). A launch counts when any key's verdict is
DRIFT; failures of other kinds are counted apart. Prints one row per launch (OUT.tsv) and a table:
launches, DRIFT launches, the rate and its one-sided 95 % Clopper-Pearson upper bound.

  tools/drift_replay.py FABRICGATE BASELINE STORE OUT.tsv SESSION_DIR [SESSION_DIR...] [--gap 3]
                        [--exclude REGEX]
STORE must not exist yet (a fresh store; nothing else is read)."""
import json
import re
import subprocess
import sys
from pathlib import Path

from session_replay import session_launches, upper_95


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
    fg, baseline, store, out, sessions = argv[1], argv[2], Path(argv[3]), argv[4], argv[5:]
    if store.exists():
        sys.exit(f"{store}: exists; the replay needs a fresh store")
    launches = []  # (run id, run dir, confirmations)
    for session in sessions:
        for first, later in session_launches(session, gap, exclude, same_session=True):
            launches.append((first.name, first, later, Path(session).name))
    launches.sort(key=lambda x: x[0])
    rows, drifted, other = [], 0, 0
    for run_id, first, later, session in launches:
        cmd = [fg, "compare", str(first), *map(str, later), "--baseline", baseline,
               "--store", f"sqlite:{store}", "--format", "json"]
        p = subprocess.run(cmd, capture_output=True, text=True)
        try:
            keys = json.loads(p.stdout)["keys"]
        except (ValueError, KeyError):
            sys.exit(f"{run_id}: compare exit {p.returncode}, no JSON: {p.stderr[:400]}")
        drift = [k for k in keys if k["verdict"] == "DRIFT"]
        fails = [k for k in keys if k["fails_gate"] and k["verdict"] != "DRIFT"]
        drifted += bool(drift)
        other += bool(fails)
        detail = "; ".join(f"{k['key']} ({k.get('reason', '')[:120]})" for k in drift)
        rows.append(f"{run_id}\t{session}\t{p.returncode}\t{len(drift)}\t{len(fails)}\t{detail}")
        print(rows[-1], flush=True)
    n = len(launches)
    with open(out, "w") as f:
        f.write("run_id\tsession\tcompare_exit\tdrift_keys\tother_failing_keys\tdrift_detail\n")
        f.write("\n".join(rows) + "\n")
    print(f"\n{n} launches in time order through one store: {drifted} with DRIFT "
          f"({drifted / n:.1%}, 95 % upper bound {upper_95(drifted, n):.1%}); "
          f"{other} with another failing verdict")


if __name__ == "__main__":
    main(sys.argv)
