#!/usr/bin/env python3
"""Replays recorded live-gate sessions of one-GPU machines through `fabricgate compare --gate
change` with ONE results store per machine, in time order, as a CI store would see them
(harness/gate/README.md "Two questions"): each launch is judged with the confirmations it kept,
recorded in the store, and so becomes part of that host's history for the next launch.

For every launch: the exit code, the change and runner verdicts, how many earlier runs of the
host the change question read, and the failing keys. A/A launches that exit 1 blamed a change;
injected-load launches (labels inject-*) that exit 1 were caught. Prints a table per machine and
in all: launches, exit 1, the rate and its one-sided 95 % Clopper-Pearson upper bound.

  tools/two_questions_replay.py FABRICGATE BASELINE OUT.tsv MACHINE_DIR [MACHINE_DIR...]
MACHINE_DIR holds live.tgz and live-summary.txt as ci/device/live-gate.sh left them (labels are
read from the summary, in launch order)."""
import json
import re
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from session_replay import upper_95  # noqa: E402


def launches(machine_dir, work):
    with tarfile.open(machine_dir / "live.tgz") as t:
        t.extractall(work, filter="data")
    runs = sorted(p.parent for p in Path(work).glob("**/run.json")
                  if "/confirm" not in str(p) and p.parent.name.endswith("-p2p-default"))
    labels = [m.group(1) for m in re.finditer(r"^([a-z]+-[0-9a-z:.-]+): exit",
                                               (machine_dir / "live-summary.txt").read_text(), re.M)]
    if len(labels) != len(runs):
        labels = [f"launch-{i + 1}" for i in range(len(runs))]
    return list(zip(labels, runs))


def compare_change(fabricgate, baseline, store, run, timeout=120):
    """`fabricgate compare RUN --gate change` into the SQLite `store`: (exit code, parsed JSON or
    None, the last stderr line)."""
    p = subprocess.run([fabricgate, "compare", str(run), "--baseline", baseline, "--gate", "change",
                        "--store", f"sqlite:{store}", "--format", "json"],
                       capture_output=True, text=True, timeout=timeout)
    try:
        return p.returncode, json.loads(p.stdout), ""
    except json.JSONDecodeError:
        return p.returncode, None, (p.stderr.strip().splitlines() or ["no output"])[-1]


def judge(fabricgate, baseline, store, run):
    code, c, err = compare_change(fabricgate, baseline, store, run)
    if c is None:
        return code, "-", "-", 0, [err]
    fails = [f"{k['verdict']} {k['key'].split('/')[2]}/{k['key'].split('/')[-1]}"
             for k in c["keys"] if k["fails_gate"]]
    return (code, c["change"]["verdict"], c["runner"]["verdict"],
            c["change"]["host_history_runs"], fails)


def main(argv):
    if len(argv) < 5:
        print(__doc__)
        return 2
    fabricgate, baseline, out = argv[1], argv[2], Path(argv[3])
    rows, totals = [], {}
    for machine in map(Path, argv[4:]):
        with tempfile.TemporaryDirectory() as work:
            store = Path(work) / "store.sqlite"
            for label, run in launches(machine, work):
                code, change, runner, history, fails = judge(fabricgate, baseline, store, run)
                kind = "inject" if label.startswith("inject") else "aa"
                rows.append([machine.name, label, kind, str(code), change, runner, str(history),
                             "; ".join(fails) or "-"])
                n, f = totals.get((machine.name, kind), (0, 0))
                totals[(machine.name, kind)] = (n + 1, f + (code == 1))
    with open(out, "w") as fh:
        fh.write("machine\tlaunch\tkind\texit\tchange\trunner\thost_history_runs\tfailing\n")
        for r in rows:
            fh.write("\t".join(r) + "\n")
    print("machine\tkind\tlaunches\texit 1\trate\t95 % upper")
    for kind in ("aa", "inject"):
        all_n = all_f = 0
        for (m, k), (n, f) in sorted(totals.items()):
            if k != kind:
                continue
            all_n, all_f = all_n + n, all_f + f
            print(f"{m}\t{k}\t{n}\t{f}\t{f / n:.1%}\t{upper_95(f, n):.1%}")
        if all_n:
            print(f"all\t{kind}\t{all_n}\t{all_f}\t{all_f / all_n:.1%}\t{upper_95(all_f, all_n):.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
