#!/usr/bin/env python3
"""Replays committed launches through `fabricgate compare` to measure the NOISY rule (issue 53):
a NOISY key fails only when the launch and its confirmations lie beyond its own wide band.

  tools/noisy_rule_replay.py FABRICGATE BASELINE OUT.tsv [--own-level] [--exclude-tcp | --only-tcp]
                             [--as-host ID] LABEL=SOURCE [LABEL=SOURCE ...]

SOURCE is a directory or a .tgz/.tar.gz of run directories. Launches are the run directories not
under confirm*/ named by a run id (the UTC start; A/B side directories are not launches of `run`),
in run id order. A launch with confirm/ directories of its own is
judged with them (as `fabricgate run` judged it); one without is judged with the next launch and
the one three launches later of the same SOURCE and session (session_replay.py). Launches labelled inject-* in
a live-summary.txt next to a .tgz, and with --exclude-tcp launches whose fingerprint sets
OMPI_MCA_btl or FI_PROVIDER to tcp, are left out (they are not A/A). --only-tcp judges just those
fall-back launches (with their own confirm/ directories, else alone: their neighbours ran another
setting).
--store none (the fleet answers), or with --own-level ONE SQLite store per SOURCE, launches judged
in time order (the host's own level answers once it has one). --as-host ID judges every launch as
a run of host ID (copies with that host id): a host the baseline never saw.

Per launch: exit code, failing keys, and of them keys failing by the NOISY rule (the judging band
was NOISY). Per SOURCE and in all: launches, exit 1, the rate and its one-sided 95 % upper bound.
"""
import json
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from session_replay import upper_95  # noqa: E402


def take(args, flag, n=1):
    if flag not in args:
        return None
    i = args.index(flag)
    value = args[i + 1:i + 1 + n] if n else [True]
    del args[i:i + 1 + n]
    return value[0] if n <= 1 else value


def injected_labels(source):
    summary = next((p for p in (source.parent / "live-summary.txt", source.parent / "summary.txt")
                    if p.exists()), None)
    if summary is None:
        return None
    return [m.group(1) for m in re.finditer(r"^([a-z]+-[0-9a-z:.-]+): exit", summary.read_text(), re.M)]


def uses_tcp(run):
    env = json.loads((run / "run.json").read_text()).get("fingerprint", {}).get("environment", {})
    text = json.dumps(env)
    return bool(re.search(r'"(OMPI_MCA_btl|FI_PROVIDER)": *"[^"]*tcp', text))


def launches(source, work, exclude_tcp, only_tcp=False):
    root = source
    if source.is_file():
        root = Path(tempfile.mkdtemp(dir=work))
        with tarfile.open(source) as t:
            t.extractall(root, filter="data")
    # Launches of `fabricgate run` only (run ids are UTC start times), not A/B side directories.
    runs = sorted((p.parent for p in root.glob("**/run.json") if "/confirm" not in str(p)
                   and re.match(r"\d{8}T\d{6}Z-", p.parent.name)), key=lambda r: r.name)
    labels = injected_labels(source) if source.is_file() else None
    if labels is not None and len(labels) == len(runs):
        runs = [r for r, label in zip(runs, labels) if not label.startswith("inject")]
    if exclude_tcp:
        runs = [r for r in runs if not uses_tcp(r)]
    if only_tcp:
        runs = [r for r in runs if uses_tcp(r)]
    session = {r: json.loads((r / "run.json").read_text()).get("session_id", "") for r in runs}
    for i, first in enumerate(runs):
        if (first / "confirm").is_dir() or only_tcp:  # a TCP launch's neighbours ran otherwise
            yield first, []
        else:
            # The back-to-back launch and one after a gap, as `run` would have re-measured it:
            # recorded as launches of the first one's session (compare refuses others).
            yield first, [copy_as(r, work, session=session[first]) for r in
                          (runs[i + 1] if i + 1 < len(runs) else None,
                           runs[i + 3] if i + 3 < len(runs) else None) if r]


def copy_as(run, work, host=None, session=None):
    """A copy of the launch (its confirm/ directories too) recorded on `host` and/or in `session`."""
    dst = Path(tempfile.mkdtemp(dir=work)) / run.name
    shutil.copytree(run, dst)
    for doc_path in dst.glob("**/run.json"):
        doc = json.loads(doc_path.read_text())
        if host:
            doc["host_id"] = host
        if session is not None:
            doc["session_id"] = session
        doc_path.write_text(json.dumps(doc))
    return dst


def as_host(run, later, host, work):
    """Copies of the launch and its confirmations recorded as runs of `host`."""
    return copy_as(run, work, host), [copy_as(r, work, host) for r in later]


def judge(fabricgate, baseline, store, run, later):
    p = subprocess.run([fabricgate, "compare", str(run), *map(str, later), "--baseline", baseline,
                        "--gate", "change", "--store", store, "--format", "json"],
                       capture_output=True, text=True, timeout=300)
    failing, noisy_rule = [], []
    if p.returncode == 2:
        failing.append("input error: " + (p.stderr.strip().splitlines() or ["?"])[-1])
    if p.stdout.strip():
        for k in json.loads(p.stdout)["keys"]:
            if not k["fails_gate"]:
                continue
            failing.append(f'{k["verdict"]} {k["key"]}')
            if k.get("judgement", {}).get("noisy"):
                noisy_rule.append(k["key"])
    return p.returncode, failing, noisy_rule


def main(argv):
    args = argv[1:]
    own = take(args, "--own-level", 0)
    exclude_tcp = take(args, "--exclude-tcp", 0)
    only_tcp = take(args, "--only-tcp", 0)
    host = take(args, "--as-host")
    if len(args) < 4:
        print(__doc__)
        return 2
    fabricgate, baseline, out = args[0], args[1], Path(args[2])
    rows, table = [], []
    with tempfile.TemporaryDirectory() as work:
        for spec in args[3:]:
            label, source = spec.split("=", 1)
            store = f"sqlite:{Path(tempfile.mkdtemp(dir=work)) / 'store.sqlite'}" if own else "none"
            n = exit1 = exit3 = noisy_keys = 0
            for run, later in launches(Path(source), work, exclude_tcp, only_tcp):
                if host:
                    run, later = as_host(run, later, host, work)
                code, failing, noisy_rule = judge(fabricgate, baseline, store, run, later)
                n += 1
                exit1 += code == 1
                exit3 += code == 3
                noisy_keys += len(noisy_rule)
                rows.append([label, run.name, str(len(later)) if later else "own", str(code),
                             str(len(failing)), str(len(noisy_rule)), "; ".join(failing)[:400]])
                print("\t".join(rows[-1]), flush=True)
            table.append((label, n, exit1, exit3, noisy_keys))
    with open(out, "w") as fh:
        fh.write("source\tlaunch\tconfirmations\texit\tfailing_keys\tnoisy_rule_keys\tfailing\n")
        for row in rows:
            fh.write("\t".join(row) + "\n")
    print("\n| source | launches | exit 1 | exit 3 | NOISY-rule keys failing | 95 % upper bound (exit 1) |")
    print("|---|---|---|---|---|---|")
    total = [0, 0, 0, 0]
    for label, n, e1, e3, nk in table:
        print(f"| {label} | {n} | {e1} | {e3} | {nk} | {upper_95(e1, max(n, 1)) * 100:.1f} % |")
        total = [total[0] + n, total[1] + e1, total[2] + e3, total[3] + nk]
    print(f"| **all** | {total[0]} | {total[1]} | {total[2]} | {total[3]} | "
          f"{upper_95(total[1], max(total[0], 1)) * 100:.1f} % |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
