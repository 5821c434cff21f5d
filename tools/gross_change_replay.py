#!/usr/bin/env python3
"""Would the gross-change limit blame a runner for a harmless setting change? (issue 51)

Judges every recorded run of the SOURCEs as a launch of a host the baseline never saw, with an
empty store (a fresh runner), its fingerprint carrying one more setting (--setting NAME=VALUE,
default NCCL_DEBUG=WARN: the software "changed", the fabric did not), through
`fabricgate compare --gate change --store none --format json`, against BASELINE with the
gross-change file LIMITS next to it (harness/gate/gross_change.hpp).

  tools/gross_change_replay.py FABRICGATE BASELINE LIMITS OUT.tsv SOURCE... [--setting N=V]
                                [--label-by source|host]

SOURCE: a run directory tree or a .tgz of one (confirmation launches travel with their run); only
runs of BASELINE's suite (its file name: cpu.json judges suite cpu) are judged.
Give LIMITS derived from other sessions than the SOURCEs (held out) for an honest rate. Prints per
SOURCE (or per host): launches, exit 1 (blamed), exit 3, exit 0, keys beyond the limit, and the
95 % upper bound of the blame rate (0 blamed of n: 1 - 0.05^(1/n))."""
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from gross_change_limits import runs_under  # noqa: E402
from session_replay import upper_95  # noqa: E402

UNSEEN_HOST = "0f0e0d0c0b0a"


def with_setting(run, work, name, value):
    d = Path(work) / "judged" / run.name
    if d.exists():
        shutil.rmtree(d)
    shutil.copytree(run, d)
    for f in d.glob("**/run.json"):
        doc = json.loads(f.read_text())
        doc["host_id"] = UNSEEN_HOST
        env = doc.setdefault("fingerprint", {}).setdefault("environment", {})
        env.setdefault("variables", {})[name] = value
        f.write_text(json.dumps(doc))
    return d


def main(argv):
    setting, label_by = "NCCL_DEBUG=WARN", "source"
    for flag in ("--setting", "--label-by"):
        if flag in argv:
            i = argv.index(flag)
            if flag == "--setting":
                setting = argv[i + 1]
            else:
                label_by = argv[i + 1]
            del argv[i:i + 2]
    if len(argv) < 6 or "=" not in setting:
        print(__doc__)
        return 2
    fabricgate, baseline, limits, out = argv[1], Path(argv[2]), Path(argv[3]), Path(argv[4])
    name, value = setting.split("=", 1)
    rows, totals = [], {}
    with tempfile.TemporaryDirectory() as work:
        bdir = Path(work) / "baselines"
        bdir.mkdir()
        shutil.copy(baseline, bdir / baseline.name)
        shutil.copy(limits, bdir / "gross-change.json")
        # A per-platform baseline (<platform>.json) finds its limits in <platform>/.
        platform = json.loads(limits.read_text())["platform"]
        (bdir / platform).mkdir()
        shutil.copy(limits, bdir / platform / "gross-change.json")
        for i, source in enumerate(map(Path, argv[5:])):
            root = source
            if source.name.endswith((".tgz", ".tar.gz")):
                root = Path(work) / f"s{i}"
                with tarfile.open(source) as t:
                    t.extractall(root, filter="data")
            for run in runs_under(root):
                doc = json.loads((run / "run.json").read_text())
                per_platform = baseline.stem == platform  # one file for every suite
                if not per_platform and doc.get("suite", baseline.stem) != baseline.stem:
                    continue  # another suite's run (an `ab` launch): not this baseline's keys
                judged = with_setting(run, work, name, value)
                p = subprocess.run([fabricgate, "compare", str(judged), "--baseline",
                                    str(bdir / baseline.name), "--gate", "change", "--store",
                                    "none", "--format", "json"],
                                   capture_output=True, text=True, timeout=300)
                try:
                    c = json.loads(p.stdout)
                except json.JSONDecodeError:
                    continue
                if not c.get("has_baseline", True):
                    continue
                gross = c["change"].get("gross_change_keys", 0)
                differs = sum(1 for k in c["keys"] if k["verdict"] == "RUNNER-DIFFERS")
                label = source.name if label_by == "source" else doc.get("host_id", "?")
                label = f"{source.parent.name}/{label}" if label_by == "source" else label
                rows.append([label, run.name, str(p.returncode), c["change"]["verdict"],
                             str(gross), str(differs)])
                n, e1, e3, g = totals.get(label, (0, 0, 0, 0))
                totals[label] = (n + 1, e1 + (p.returncode == 1), e3 + (p.returncode == 3),
                                 g + gross)
    with open(out, "w") as fh:
        fh.write("source\trun\texit\tchange\tgross_change_keys\trunner_differs_keys\n")
        for r in rows:
            fh.write("\t".join(r) + "\n")
    print(f"setting {setting}, limits {limits}")
    print("source\tlaunches\texit 1\texit 3\texit 0\tkeys beyond limit\t95 % upper (exit 1)")
    n_all = e_all = 0
    for label, (n, e1, e3, g) in sorted(totals.items()):
        print(f"{label}\t{n}\t{e1}\t{e3}\t{n - e1 - e3}\t{g}\t{upper_95(e1, n):.1%}")
        n_all, e_all = n_all + n, e_all + e1
    if n_all:
        print(f"all\t{n_all}\t{e_all}\t\t\t\t{upper_95(e_all, n_all):.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
