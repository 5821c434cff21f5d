#!/usr/bin/env python3
"""Hang forensics campaign (docs/STRAGGLERS.md, "Hang forensics"): LAUNCHES runs of a suite that
cannot finish before the harness's --timeout, with one rank stopped (SIGSTOP, by the pid its own
progress file gives) after it completed a few samples. Per launch it records the exit code, the
seconds from the stop to the end of `fabricgate run`, hang.json's did_not_reach and rank states,
whether the console named the stopped rank and its host, and how many finished benchmarks run.json
kept; then a table. Every wait is bounded; the stopped rank is continued and every process of the
launch is gone before the next starts (the harness kills its process group at the timeout).

Usage: hang_campaign.py BUILD_DIR OUT [LAUNCHES=5] [RANKS=2] [STOP_RANK=1] [TIMEOUT_S=25]
"""
import glob
import gzip
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from session_replay import upper_95  # noqa: E402  (exact one-sided 95 % Clopper-Pearson bound)


def find(build, name):
    hits = [p for p in glob.glob(os.path.join(build, "**", name), recursive=True)
            if os.path.isfile(p) and os.access(p, os.X_OK)]
    if not hits:
        sys.exit("no %s under %s" % (name, build))
    return sorted(hits, key=len)[0]


def progress(run_root, rank):
    for f in glob.glob(os.path.join(run_root, "*", "*", "ranks", "%d.progress.json" % rank)):
        try:
            return json.load(open(f))
        except (OSError, ValueError):
            return None
    return None


def launch(cli, bench, work, i, ranks, stop_rank, timeout_s):
    results = os.path.join(work, "results-%d" % i)
    suite = os.path.join(work, "hang.json")
    log = open(os.path.join(work, "run-%d.log" % i), "w")
    started = time.monotonic()
    proc = subprocess.Popen([cli, "run", "--suite", suite, "--results-dir", results, "--lock",
                             os.path.join(work, "lock"), "--bench", bench, "--platform", "campaign",
                             "--timeout", str(timeout_s), "--no-compare"],
                            stdout=log, stderr=subprocess.STDOUT)
    victim, steps_at_stop, stopped_at = None, None, None
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        p = progress(results, stop_rank)
        if p and p.get("steps", 0) >= 14:
            victim, steps_at_stop = int(p["pid"]), int(p["steps"])
            os.kill(victim, signal.SIGSTOP)
            stopped_at = time.monotonic()
            break
        time.sleep(0.05)
    try:
        proc.wait(timeout=timeout_s + 120)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    ended = time.monotonic()
    if victim:
        try:
            os.kill(victim, signal.SIGCONT)  # normally gone with the harness's process group
        except ProcessLookupError:
            pass
    log.close()
    out = open(os.path.join(work, "run-%d.log" % i)).read()
    run_dirs = glob.glob(os.path.join(results, "campaign", "*"))
    hang, record = {}, {}
    if run_dirs:
        try:
            hang = json.load(open(os.path.join(run_dirs[0], "hang.json")))
        except (OSError, ValueError):
            pass
        try:
            record = json.load(open(os.path.join(run_dirs[0], "run.json")))
        except (OSError, ValueError):
            pass
    host = (progress(results, stop_rank) or {}).get("host", socket.gethostname())
    named = "rank %d on host %s did not reach the collective" % (stop_rank, host) in out
    return {
        "launch": i, "ranks": ranks, "stopped_rank": stop_rank, "timeout_s": timeout_s,
        "exit": proc.returncode, "stopped": victim is not None, "steps_at_stop": steps_at_stop,
        "stop_after_s": round(stopped_at - started, 1) if stopped_at else None,
        "report_after_stop_s": round(ended - stopped_at, 1) if stopped_at else None,
        "did_not_reach": hang.get("did_not_reach"),
        "states": [r.get("state") for r in hang.get("ranks", [])],
        "console_names_rank_and_host": named,
        "benchmarks_kept": len(record.get("benchmarks", [])),
        "complete": record.get("complete"),
        "loadavg": open("/proc/loadavg").read().split()[:3],
        "console_hang_lines": [l for l in out.splitlines() if "hang" in l][:ranks + 2],
    }


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    build, out = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    ranks = int(sys.argv[4]) if len(sys.argv) > 4 else 2
    stop_rank = int(sys.argv[5]) if len(sys.argv) > 5 else 1
    timeout_s = int(sys.argv[6]) if len(sys.argv) > 6 else 25
    cli, bench = find(build, "fabricgate"), find(build, "fabricgate-bench")
    os.makedirs(os.path.join(out, "launches"), exist_ok=True)
    work = tempfile.mkdtemp(prefix="fg-hang-")
    # 100 samples of at least 20 ms per benchmark, 20 benchmarks: longer than any timeout here.
    json.dump({"schema": "fabricgate.suite/1", "name": "hang", "ranks": ranks,
               "defaults": {"repetitions": 100, "warmup": 2, "target_sample_ms": 20},
               "benchmarks": [{"family": "coll", "backend": "mpi",
                               "ops": ["all_reduce", "all_gather", "broadcast", "alltoall"],
                               "sizes": {"list": [8, 1024, 65536, 262144, 1048576]}}]},
              open(os.path.join(work, "hang.json"), "w"))
    rows = []
    try:
        for i in range(1, n + 1):
            r = launch(cli, bench, work, i, ranks, stop_rank, timeout_s)
            rows.append(r)
            json.dump(r, open(os.path.join(out, "launches", "hang-%02d.json" % i), "w"), indent=1)
            runs = glob.glob(os.path.join(work, "results-%d" % i, "campaign", "*", "hang.json"))
            if runs:
                with open(runs[0], "rb") as src, gzip.open(os.path.join(out, "launches", "hang-%02d.hang.json.gz" % i), "wb") as dst:
                    dst.write(src.read())
            print("launch %d: exit %s, stop at step %s after %s s, report %s s after the stop, did_not_reach %s, states %s"
                  % (i, r["exit"], r["steps_at_stop"], r["stop_after_s"], r["report_after_stop_s"],
                     r["did_not_reach"], r["states"]), flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    ok = [r for r in rows if r["stopped"] and r["exit"] == 3 and r["did_not_reach"] == [stop_rank]
          and len(r["states"]) == ranks and r["states"][stop_rank] == "not responding"
          and r["console_names_rank_and_host"] and r["benchmarks_kept"] >= 1
          and r["report_after_stop_s"] is not None and r["report_after_stop_s"] <= timeout_s + 15]
    with open(os.path.join(out, "table.md"), "w") as t:
        t.write("# Hang forensics: %d MPI ranks on %d cores, rank %d stopped (SIGSTOP) mid-suite, "
                "--timeout %d s, %d launches\n\n" % (ranks, os.cpu_count(), stop_rank, timeout_s, n))
        t.write("- exit 3, hang.json naming exactly rank %d (state: not responding), the console naming it and its host, "
                "finished results kept, report within the timeout + 15 s: **%d of %d** "
                "(exact one-sided 95 %% upper bound on the miss rate %.3f)\n\n"
                % (stop_rank, len(ok), n, upper_95(n - len(ok), n)))
        t.write("| # | exit | stopped at step (s after start) | report s after stop | did_not_reach | states | kept | load 1/5/15 |\n")
        t.write("|---|---|---|---|---|---|---|---|\n")
        for r in rows:
            t.write("| %d | %s | %s (%s) | %s | %s | %s | %d | %s |\n" % (
                r["launch"], r["exit"], r["steps_at_stop"], r["stop_after_s"], r["report_after_stop_s"],
                r["did_not_reach"], ", ".join(map(str, r["states"])), r["benchmarks_kept"], " ".join(r["loadavg"])))
    print(open(os.path.join(out, "table.md")).read())
    return 0 if len(ok) == n else 1


if __name__ == "__main__":
    sys.exit(main())
