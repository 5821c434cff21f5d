#!/usr/bin/env python3
"""`fabricgate report --format ctrf` validated against the published CTRF schema
(tests/data/schemas/ctrf.schema.json, from github.com/ctrf-io/ctrf schema/ctrf.schema.json; see
tests/data/schemas/README.md), with the real binary on committed runs: a Slurm run whose cluster
finding fails (NODE-MISMATCH, severity drain), a 2x H200 run whose NCCL protocol changed, against
its baseline, and the same run without a baseline. Each document must validate, its summary must
count its tests, and the validator must refuse a document with a status CTRF does not have.

Usage: ctrf_schema_test.py FABRICGATE REPO_ROOT
Exit 0 passed, 1 failed (each listed), 77 skipped (python3-jsonschema not installed).
"""
import json
import os
import subprocess
import sys
import tempfile

try:
    import jsonschema
except ImportError:
    print("SKIP: python3-jsonschema is not installed (ci/bootstrap installs it)")
    sys.exit(77)

problems = []


def check(ok, what):
    if not ok:
        problems.append(what)
    return ok


def main():
    fg, root = sys.argv[1], sys.argv[2]
    schema = json.load(open(os.path.join(root, "tests/data/schemas/ctrf.schema.json")))
    validator = jsonschema.Draft7Validator(schema)
    h200 = os.path.join(root, "results/h200-sxm-x2-nv18/20261129T191514Z-quick-default")
    slurm = os.path.join(root, "tests/data/slurm/20261201T091826Z-slurm-cpu-default")
    with tempfile.TemporaryDirectory(prefix="fabricgate-ctrf-") as work:
        cases = [
            ("slurm NODE-MISMATCH", [slurm], 1),
            ("h200 LL128 against its baseline",
             [h200, "--baseline", os.path.join(root, "baselines/h200-sxm-x2-nv18.json")], 1),
            ("h200 without a baseline", [h200, "--baselines-dir", os.path.join(work, "none")], 0),
        ]
        for name, args, code in cases:
            r = subprocess.run([fg, "report", *args, "--format", "ctrf", "--store", "none", "--no-history"],
                               capture_output=True, text=True, timeout=120)
            if not check(r.returncode == code, "%s: exit %d, expected %d: %s" % (name, r.returncode, code, r.stderr[-500:])):
                continue
            doc = json.loads(r.stdout)
            errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
            check(not errors, "%s: not valid CTRF: %s" % (name, "; ".join(e.message for e in errors[:5])))
            tests = doc["results"]["tests"]
            summary = doc["results"]["summary"]
            check(summary["tests"] == len(tests), "%s: summary.tests %d, %d tests" % (name, summary["tests"], len(tests)))
            for status in ("passed", "failed", "skipped", "pending", "other"):
                n = sum(1 for t in tests if t["status"] == status)
                check(summary[status] == n, "%s: summary.%s %d, counted %d" % (name, status, summary[status], n))
            failed = [t for t in tests if t["status"] == "failed"]
            if name.startswith("slurm"):
                check(any(t["name"] == "cluster/NODE-MISMATCH/fgsnode2" and "(severity drain)" in t["message"] for t in failed),
                      "slurm: the node finding is not a failed test with its severity: %r" % failed)
            elif code == 1:
                check(any(t["rawStatus"] == "ALGO-CHANGED" for t in failed), "h200: no ALGO-CHANGED key failed")
            else:
                check(not failed and all(t["status"] == "skipped" for t in tests),
                      "h200 without a baseline: every key must be skipped (not gated)")
            # The validator can fail: a status CTRF does not define.
            bad = json.loads(json.dumps(doc))
            bad["results"]["tests"][0]["status"] = "regressed"
            check(any(True for _ in validator.iter_errors(bad)), "%s: the validator accepted a bad status" % name)
    for p in problems:
        print("FAIL:", p)
    print("%d problems" % len(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
