#!/usr/bin/env python3
"""Judges recorded CPU runs through `fabricgate compare --gate change`, in the order given, into ONE
results store (a runner's store as CI would see it), so each run becomes part of the host's history
for the next one (harness/gate/README.md "Two questions", host_history.hpp).

  tools/host_level_replay.py FABRICGATE BASELINE OUT.tsv [--repeat N] [--as-host ID] RUN_DIR...

--repeat N judges each RUN_DIR N times as N runs of its host (copies with their own run id and a
start one hour after the previous): a change that stays, seen run after run on one runner.
--as-host ID judges the copies as runs of host ID (12 hex digits), one the baseline never saw.
--cycle N judges N runs in all, going round the RUN_DIRs (each copy a run of its own, an hour
apart). --slide PCT EVERY makes every run slower by PCT % more each EVERY runs (times x, bandwidths
/ (1 - PCT/100)^(i // EVERY)): a slow slide, or a step with EVERY = the run it starts at and
--slide-once. --busy-at N makes run N (1-based) a busy launch: 3x slower, recorded with the host CPU
pressure of a loaded runner (0.6). --keys FILE writes one row per judged key and run: its verdict, what judged it
(reference), its band (tolerance %) and its change from that reference.
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


KEYS_OUT = None  # --keys FILE: one row per judged key and run (what judged it, its band)


def judge(fabricgate, baseline, store, run):
    code, c, err = compare_change(fabricgate, baseline, store, run, timeout=300)
    if c is None:
        return [str(code), "-", "-", "-", "-", "-", err]
    if KEYS_OUT:
        with open(KEYS_OUT, "a") as fh:
            for k in c["keys"]:
                j = k.get("judgement") or {}
                fh.write("\t".join([run.name, k["key"], k["verdict"], j.get("reference", ""),
                                     f"{j.get('tolerance', 0) * 100:.1f}",
                                     f"{(j.get('performance_ratio', 1) - 1) * 100:+.1f}",
                                     j.get("band_scope", "").replace("\t", " ")]) + "\n")
    gated = [k for k in c["keys"] if k.get("judgement") and k["verdict"] not in ("NOISY", "NEW", "SKIPPED")]
    own = [k for k in gated if k["judgement"].get("reference", "").startswith("host")]
    refs = sorted({k["judgement"].get("reference", "") for k in gated})
    fails = sum(1 for k in c["keys"] if k["fails_gate"])
    return [str(code), c["change"]["verdict"], c["runner"]["verdict"],
            str(c["change"].get("host_history_runs", "")), str(len(gated)), str(len(own)),
            f"{fails} failing; references {','.join(refs)}"]


def slowed(doc, factor):
    """The run's timings times `factor`, its bandwidths divided by it (repetitions and ranks too)."""
    for b in doc.get("benchmarks", []):
        for k in ("time_us", "warmup_us"):
            if isinstance(b.get(k), (int, float)):
                b[k] *= factor
        for k in ("algbw_GBps", "busbw_GBps"):
            if isinstance(b.get(k), (int, float)):
                b[k] /= factor
        s = b.get("samples", {})
        if s.get("time_us"):
            s["time_us"] = [v * factor for v in s["time_us"]]
        for k in ("algbw_GBps", "busbw_GBps"):
            if s.get(k):
                s[k] = [v / factor for v in s[k]]
        for r in b.get("ranks", []):
            for k in ("max_us", "p50_us", "p99_us"):
                if isinstance(r.get(k), (int, float)):
                    r[k] *= factor
            if r.get("sample_us"):
                r["sample_us"] = [v * factor for v in r["sample_us"]]
    return doc


def copy_run(run, work, index, host_id=None, factor=1.0, pressure=None):
    """Copy `index` (1-based) of `run`: its own run id, starting `index - 1` hours after the
    first, on `host_id` when given (a host the baseline never saw), slowed by `factor`."""
    doc = json.loads((run / "run.json").read_text())
    d = Path(work) / f"{run.name}-r{index}"
    shutil.copytree(run, d)
    # The run and its confirmation launches (confirm/, confirm-2/) move together.
    for f in d.glob("**/run.json"):
        doc_f = json.loads(f.read_text())
        if f.parent == d:
            doc_f["run_id"] = f"{doc['run_id']}-r{index}"
        if host_id:
            doc_f["host_id"] = host_id
        t = datetime.strptime(doc_f["started_at"], "%Y-%m-%dT%H:%M:%SZ")
        doc_f["started_at"] = (t + timedelta(hours=index - 1)).strftime("%Y-%m-%dT%H:%M:%SZ")
        if pressure is not None:
            doc_f["host_cpu_pressure"] = {"some_share": pressure, "source": "/proc/pressure/cpu"}
        f.write_text(json.dumps(slowed(doc_f, factor) if factor != 1.0 else doc_f))
    return d


def copies(run, n, work, host_id=None):
    """n copies of `run`, an hour apart (the same run seen run after run on one runner)."""
    return [copy_run(run, work, i + 1, host_id) for i in range(n)]


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
    cycle = 0
    if "--cycle" in args:
        i = args.index("--cycle")
        cycle = int(args[i + 1])
        del args[i:i + 2]
    slide = None
    if "--slide" in args:
        i = args.index("--slide")
        slide = (float(args[i + 1]), int(args[i + 2]))
        del args[i:i + 3]
    global KEYS_OUT
    if "--keys" in args:
        i = args.index("--keys")
        KEYS_OUT = args[i + 1]
        del args[i:i + 2]
        Path(KEYS_OUT).write_text("run\tkey\tverdict\treference\ttolerance_pct\tchange_pct\tband_scope\n")
    busy_at = None
    if "--busy-at" in args:
        i = args.index("--busy-at")
        busy_at = int(args[i + 1])
        del args[i:i + 2]
    once = "--slide-once" in args
    if once:
        args.remove("--slide-once")
    if len(args) < 4:
        print(__doc__)
        return 2
    fabricgate, baseline, out, runs = args[0], args[1], Path(args[2]), [Path(a) for a in args[3:]]
    rows = []
    with tempfile.TemporaryDirectory() as work:
        store = Path(work) / "store.sqlite"
        if cycle:
            for i in range(cycle):
                steps = i // slide[1] if slide else 0
                if once:
                    steps = min(steps, 1)
                factor = 1 / (1 - slide[0] / 100) ** steps if slide else 1.0
                busy = busy_at == i + 1
                r = copy_run(runs[i % len(runs)], work, i + 1, host_id, factor * (3 if busy else 1),
                             0.6 if busy else None)
                label = "busy x3" if busy else f"{(1 / factor - 1) * 100:+.1f}"
                rows.append([r.name, label] +
                            judge(fabricgate, baseline, store, r))
                print("\t".join(rows[-1]), flush=True)
                shutil.rmtree(r)
        else:
            for run in runs:
                for r in (copies(run, repeat, work, host_id) if repeat > 1 or host_id else [run]):
                    rows.append([r.name, "+0.0"] + judge(fabricgate, baseline, store, r))
    header = ["run", "injected_pct", "exit", "change", "runner", "host_history_runs", "gated", "gated_against_host", "note"]
    with open(out, "w") as fh:
        fh.write("\t".join(header) + "\n")
        for row in rows:
            fh.write("\t".join(row) + "\n")
    for row in rows:
        print("\t".join(row))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
