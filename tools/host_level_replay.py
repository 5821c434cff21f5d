#!/usr/bin/env python3
"""Judges recorded CPU runs through `fabricgate compare --gate change`, in the order given, into ONE
results store (a runner's store as CI would see it), so each run becomes part of the host's history
for the next one (harness/gate/README.md "Two questions", host_history.hpp).

  tools/host_level_replay.py FABRICGATE BASELINE OUT.tsv [--repeat N] [--as-host ID] RUN_DIR...

--repeat N judges each RUN_DIR N times as N runs of its host (copies with their own run id and a
start one hour after the previous): a change that stays, seen run after run on one runner.
--as-host ID judges the copies as runs of host ID (12 hex digits), one the baseline never saw.
Per judgement: the exit code, change and runner verdicts, the host's earlier runs the change
question read, keys gated and, of them, keys judged against the host's own level."""
import json
import shutil
import sys
import tempfile
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from two_questions_replay import compare_change  # noqa: E402


def judge(fabricgate, baseline, store, run):
    code, c, err = compare_change(fabricgate, baseline, store, run, timeout=300)
    if c is None:
        return [str(code), "-", "-", "-", "-", "-", err]
    gated = [k for k in c["keys"] if k.get("judgement") and k["verdict"] not in ("NOISY", "NEW", "SKIPPED")]
    own = [k for k in gated if k["judgement"].get("reference", "").startswith("host")]
    refs = sorted({k["judgement"].get("reference", "") for k in gated})
    fails = sum(1 for k in c["keys"] if k["fails_gate"])
    return [str(code), c["change"]["verdict"], c["runner"]["verdict"],
            str(c["change"].get("host_history_runs", "")), str(len(gated)), str(len(own)),
            f"{fails} failing; references {','.join(refs)}"]


def copies(run, n, work, host_id=None):
    """n copies of `run` with run ids r1..rn, each starting an hour after the one before, on
    `host_id` when given (the same run on a host the baseline never saw)."""
    doc = json.loads((run / "run.json").read_text())
    out = []
    for i in range(n):
        d = Path(work) / f"{run.name}-r{i + 1}"
        shutil.copytree(run, d)
        # The run and its confirmation launches (confirm/, confirm-2/) move together.
        for f in d.glob("**/run.json"):
            doc_f = json.loads(f.read_text())
            if f.parent == d:
                doc_f["run_id"] = f"{doc['run_id']}-r{i + 1}"
            if host_id:
                doc_f["host_id"] = host_id
            t = datetime.strptime(doc_f["started_at"], "%Y-%m-%dT%H:%M:%SZ")
            doc_f["started_at"] = (t + timedelta(hours=i)).strftime("%Y-%m-%dT%H:%M:%SZ")
            f.write_text(json.dumps(doc_f))
        out.append(d)
    return out


def main(argv):
    args = argv[1:]
    repeat = 1
    host_id = None
    if "--as-host" in args:
        i = args.index("--as-host")
        host_id = args[i + 1]
        del args[i:i + 2]
    if "--repeat" in args:
        i = args.index("--repeat")
        repeat = int(args[i + 1])
        del args[i:i + 2]
    if len(args) < 4:
        print(__doc__)
        return 2
    fabricgate, baseline, out, runs = args[0], args[1], Path(args[2]), [Path(a) for a in args[3:]]
    rows = []
    with tempfile.TemporaryDirectory() as work:
        store = Path(work) / "store.sqlite"
        for run in runs:
            for r in (copies(run, repeat, work, host_id) if repeat > 1 or host_id else [run]):
                rows.append([r.name] + judge(fabricgate, baseline, store, r))
    header = ["run", "exit", "change", "runner", "host_history_runs", "gated", "gated_against_host", "note"]
    with open(out, "w") as fh:
        fh.write("\t".join(header) + "\n")
        for row in rows:
            fh.write("\t".join(row) + "\n")
    for row in rows:
        print("\t".join(row))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
