#!/usr/bin/env python3
"""How far from the fleet the committed runners have been: the data behind the gross-change limit
(the policy's gross_change_sds, harness/gate/README.md "Two questions").

Judges every recorded run (not its confirmation launches) with `fabricgate compare --gate fleet
--store none --format json` against its platform's committed baseline, as a host with no level of
its own, and reads each key's offset from the fleet in fleet between-session SDs (`fleet_offset_sd`
of the keys outside the fleet band). Runs whose software equals the baseline's are the fleet's
runners (A/A, degraded machines included); runs whose software changed are listed apart.

  tools/gross_change_limits.py FABRICGATE OUT.tsv SOURCE... [--keys KEYS.tsv]
                               [--limits GROSS.json --factor F]
SOURCE is a run directory tree or a .tgz of one. Prints per platform, host and software: launches,
the lowest ratio to the fleet of any key (and the key), the widest offset in SDs. --keys writes
every key's ratio per run (platform, host, source, run, software, key, ratio).

--limits writes the gross-change file the gate reads (harness/gate/gross_change.hpp, schema
fabricgate.gross-change/1) from the same-software runs of the SOURCEs: per key the lowest ratio to
the fleet centre, the launches and hosts it comes from, and --factor (the margin below it). Give
only sessions known to be quiet A/A launches of the baseline's software (one platform)."""
import json
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path


def runs_under(root):
    return sorted(p.parent for p in Path(root).glob("**/run.json")
                  if not any(part.startswith("confirm") for part in p.parent.relative_to(root).parts))


def judge(fabricgate, run):
    p = subprocess.run([fabricgate, "compare", str(run), "--gate", "fleet", "--store", "none",
                        "--format", "json"], capture_output=True, text=True, timeout=300)
    try:
        return json.loads(p.stdout)
    except json.JSONDecodeError:
        return None


def main(argv):
    if len(argv) < 4:
        print(__doc__)
        return 2
    keys_out = None
    if "--keys" in argv:
        i = argv.index("--keys")
        keys_out = open(argv[i + 1], "w")
        keys_out.write("platform\thost\tsource\trun\tsoftware\tkey\tratio\n")
        del argv[i:i + 2]
    limits_out, factor = None, None
    if "--limits" in argv:
        i = argv.index("--limits")
        limits_out = Path(argv[i + 1])
        del argv[i:i + 2]
        if "--factor" not in argv:
            print("--limits needs --factor F (0 < F < 1)", file=sys.stderr)
            return 2
        i = argv.index("--factor")
        factor = float(argv[i + 1])
        del argv[i:i + 2]
        if not 0 < factor < 1:
            print("--factor must be in (0, 1)", file=sys.stderr)
            return 2
    per_key = {}  # (platform, key) -> [lowest ratio, launches, {hosts}]
    fabricgate, out = argv[1], Path(argv[2])
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for i, source in enumerate(map(Path, argv[3:])):
            root = source
            if source.name.endswith((".tgz", ".tar.gz")):
                root = Path(work) / f"s{i}"
                with tarfile.open(source) as t:
                    t.extractall(root, filter="data")
            for run in runs_under(root):
                doc = json.loads((run / "run.json").read_text())
                c = judge(fabricgate, run)
                if c is None or not c.get("has_baseline", True):
                    continue
                changed = bool(c.get("change", {}).get("software_changes"))
                # Runs written before run.json carried a host id: the host compare derived.
                doc.setdefault("host_id", c.get("runner", {}).get("host_id") or "?")
                offsets = [(k["fleet_offset_sd"], k["key"]) for k in c["keys"]
                           if k.get("outside_fleet") and k.get("fleet_offset_sd") is not None]
                widest = min(offsets) if offsets else (0.0, "-")
                ratios = [(k["judgement"]["performance_ratio"], k["key"]) for k in c["keys"]
                          if k.get("judgement") and k["judgement"].get("performance_ratio")]
                lowest = min(ratios) if ratios else (1.0, "-")
                if not changed:
                    for ratio, key in ratios:
                        e = per_key.setdefault((doc.get("platform", "?"), key), [ratio, 0, set()])
                        e[0] = min(e[0], ratio)
                        e[1] += 1
                        e[2].add(doc.get("host_id", "?"))
                if keys_out:
                    for ratio, key in ratios:
                        keys_out.write("\t".join([doc.get("platform", "?"), doc.get("host_id", "?"),
                                                   source.name, run.name,
                                                   "changed" if changed else "same", key,
                                                   f"{ratio:.4f}"]) + "\n")
                rows.append([doc.get("platform", "?"), doc.get("host_id", "?"), source.name,
                             run.name, "changed" if changed else "same", f"{lowest[0]:.4f}",
                             lowest[1], str(len(offsets)), f"{widest[0]:.1f}", widest[1]])
    with open(out, "w") as fh:
        fh.write("platform\thost\tsource\trun\tsoftware\tlowest_ratio\tlowest_key\t"
                 "keys_outside\twidest_sd\twidest_key\n")
        for r in rows:
            fh.write("\t".join(r) + "\n")
    hosts = {}
    for r in rows:
        k = (r[0], r[1], r[4])
        n, low, key, sd = hosts.get(k, (0, 1.0, "-", 0.0))
        ratio = float(r[5])
        hosts[k] = (n + 1, min(low, ratio), r[6] if ratio < low else key, min(sd, float(r[8])))
    if limits_out:
        platforms = sorted({p for p, _ in per_key})
        if len(platforms) != 1:
            print(f"--limits: the same-software runs are of {len(platforms)} platforms "
                  f"({', '.join(platforms)}): give one platform's sessions", file=sys.stderr)
            return 2
        sources = ", ".join(str(s) for s in argv[3:])
        launches = max(n for _, n, _ in per_key.values())
        host_ids = sorted({h for _, _, hs in per_key.values() for h in hs})
        doc = {"schema": "fabricgate.gross-change/1", "platform": platforms[0], "factor": factor,
               "derived_from": f"tools/gross_change_limits.py over {sources}: up to {launches} "
                               f"launches of the baseline's software on {len(host_ids)} host(s) "
                               f"({', '.join(host_ids)})",
               "keys": {key: {"slowest_ratio": float(f"{min(1.0, low):.4g}"), "launches": n,
                              "hosts": len(hs)}
                        for (_, key), (low, n, hs) in sorted(per_key.items())}}
        limits_out.write_text(json.dumps(doc, indent=2) + "\n")
    print("platform\thost\tsoftware\tlaunches\tlowest_ratio\tkey\twidest_sd")
    for (platform, host, sw), (n, low, key, sd) in sorted(hosts.items()):
        print(f"{platform}\t{host}\t{sw}\t{n}\t{low:.4f}\t{key}\t{sd:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
