#!/usr/bin/env python3
"""A store whose rows say the host was FACTOR times faster than it is (planted or copied rows, or
rows of a host that was never like this; issue 50, harness/gate/stored_level_check.hpp): the
first LEVEL launches of a live-gate session are judged into one SQLite store, their stored
medians are then multiplied by FACTOR (times divided), and every later launch, unchanged, is
judged against that store with `fabricgate compare --gate change`.

  tools/forged_store_replay.py FABRICGATE BASELINE OUT.tsv MACHINE_DIR [--level N] [--factor F]

MACHINE_DIR as for two_questions_replay.py (live.tgz, live-summary.txt). Per later launch: exit,
change and runner verdicts, failing keys, and how many keys had their stored level set aside."""
import sqlite3
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from two_questions_replay import compare_change, launches  # noqa: E402


def option(args, name, default):
    if name in args:
        i = args.index(name)
        value = args[i + 1]
        del args[i:i + 2]
        return type(default)(value)
    return default


def main(argv):
    args = argv[1:]
    level = option(args, "--level", 5)
    factor = option(args, "--factor", 2.0)
    if len(args) != 4:
        print(__doc__)
        return 2
    fabricgate, baseline, out, machine = args[0], args[1], Path(args[2]), Path(args[3])
    rows = []
    with tempfile.TemporaryDirectory() as work:
        store = Path(work) / "store.sqlite"
        runs = [(label, run) for label, run in launches(machine, work) if label.startswith("aa")]
        for label, run in runs[:level]:
            compare_change(fabricgate, baseline, store, run)
        with sqlite3.connect(store) as db:
            db.execute("UPDATE medians SET time_us = time_us / ?, algbw = algbw * ?, "
                       "busbw = busbw * ?", (factor, factor, factor))
        for label, run in runs[level:]:
            code, c, err = compare_change(fabricgate, baseline, store, run)
            if c is None:
                rows.append([label, str(code), "-", "-", "-", "-", err])
                continue
            fails = [f"{k['verdict']} ({(k.get('judgement') or {}).get('reference', '-')}) {k['key']}"
                     for k in c["keys"] if k["fails_gate"]]
            aside = sum(1 for k in c["keys"]
                        if (k.get("judgement") or {}).get("stored_level_set_aside"))
            rows.append([label, str(code), c["change"]["verdict"], c["runner"]["verdict"],
                         str(len(fails)), str(aside), "; ".join(fails) or "-"])
    with open(out, "w") as fh:
        fh.write("launch\texit\tchange\trunner\tfailing_keys\tstored_level_set_aside\tfailing\n")
        for r in rows:
            fh.write("\t".join(r) + "\n")
    for r in rows:
        print("\t".join(r[:6]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
