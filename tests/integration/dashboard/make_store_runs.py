#!/usr/bin/env python3
"""Writes run directories for the dashboard test: <out>/<platform>/<run-id>/run.json.

  make_store_runs.py TEMPLATE_RUN_JSON OUT --runs 30 --keys 8 --step-key-index 3 --step-at 20
      --step-factor 1.3 [--seed 1]

Each run is the committed template run (a real CPU run of fabricgate) cut to its first --keys
results, its figures multiplied by seeded noise of about 1 %, alternating between two hosts
("host-a", "host-b": rank hosts and fingerprint hostname) one hour apart. From run --step-at on
(0-based, both hosts) the key at --step-key-index is --step-factor slower: the step the
dashboard must mark. Prints the run ids, one a line. Standard library only.
"""
import argparse
import copy
import datetime
import json
import os
import random


def scale(bench, factor):
    bench["time_us"] *= factor
    bench["algbw_GBps"] /= factor
    if bench.get("busbw_GBps") is not None:
        bench["busbw_GBps"] /= factor
    samples = bench.get("samples", {})
    for name, values in samples.items():
        samples[name] = [v * factor if name == "time_us" else v / factor for v in values]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("template")
    ap.add_argument("out")
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--keys", type=int, default=8)
    ap.add_argument("--step-key-index", type=int, default=3)
    ap.add_argument("--step-at", type=int, default=20)
    ap.add_argument("--step-factor", type=float, default=1.3)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    with open(a.template) as f:
        template = json.load(f)
    ok = [b for b in template["benchmarks"] if b["status"] == "ok"][: a.keys]
    rng = random.Random(a.seed)
    start = datetime.datetime(2026, 11, 1, tzinfo=datetime.timezone.utc)
    for i in range(a.runs):
        run = copy.deepcopy(template)
        when = start + datetime.timedelta(hours=i)
        host = "host-a" if i % 2 == 0 else "host-b"
        run["run_id"] = when.strftime("%Y%m%dT%H%M%SZ") + "-" + run["suite"] + "-default"
        run["started_at"] = when.strftime("%Y-%m-%dT%H:%M:%SZ")
        run["finished_at"] = (when + datetime.timedelta(minutes=5)).strftime("%Y-%m-%dT%H:%M:%SZ")
        for r in run["ranks"]:
            r["host"] = host
        run["fingerprint"]["host"]["hostname"] = host
        run["benchmarks"] = copy.deepcopy(ok)
        for k, b in enumerate(run["benchmarks"]):
            factor = rng.gauss(1.0, 0.01)
            if k == a.step_key_index and i >= a.step_at:
                factor *= a.step_factor
            scale(b, factor)
        d = os.path.join(a.out, run["platform"], run["run_id"])
        os.makedirs(d)
        with open(os.path.join(d, "run.json"), "w") as f:
            json.dump(run, f, indent=1)
        print(run["run_id"])


if __name__ == "__main__":
    main()
