#!/usr/bin/env python3
"""Per-process all_gather / reduce_scatter 4 GiB busbw (GB/s) of each session-4 device call, read
from the raw outputs in this folder; prints one table per call (tool x op: processes, median, range,
spread = (max - min) / median). One process = one fresh mpirun of 2 ranks on the two H200s."""
import csv, glob, os, re, statistics
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
PROBE = re.compile(r"set=\d+\((\S+?)\)\s+(\S+)\s+busbw med=([\d.]+)")
REF = re.compile(r"^\s*(?:4294967296\s+\d+\s+\S+\s+\S+\s+-?\d+)?\s*[\d.]+\s+[\d.]+\s+([\d.]+)\s+(?:0|N/A)\b", re.M)

def nccl_tests(path):
    m = REF.search(open(path).read())
    return float(m.group(1)) if m else None

def probe_rounds(path, label_of=lambda fill: "probe"):
    """probe.txt holds '== round N' headers; per round and label, the median over its cells."""
    out, rnd = defaultdict(list), 0
    for line in open(path):
        if line.startswith("== round"): rnd = int(line.split()[2]); continue
        m = PROBE.search(line)
        if m: out[(rnd, label_of(m.group(1)), m.group(2))].append(float(m.group(3)))
    return [(r, t, op, statistics.median(v)) for (r, t, op), v in out.items()]

def call1():
    rows = probe_rounds(f"{HERE}/call13-probe-int8/probe.txt", lambda f: "probe (int8, cudaMemset fill)")
    for p in glob.glob(f"{HERE}/call13-probe-int8/ref-r*-*.txt"):
        r, op = re.search(r"ref-r(\d+)-(\w+)\.txt", p).groups()
        rows.append((int(r), "nccl-tests -c 0", op, nccl_tests(p)))
    return rows

def call2():
    rows = probe_rounds(f"{HERE}/call14-data-fills/probe.txt", lambda f: "probe (kernel+memset fills)")
    for p in glob.glob(f"{HERE}/call14-data-fills/ref-r*-c*-*.txt"):
        r, c, op = re.search(r"ref-r(\d+)-c(\d)-(\w+)\.txt", p).groups()
        rows.append((int(r), f"nccl-tests -c {c}", op, nccl_tests(p)))
    for p in glob.glob(f"{HERE}/call14-data-fills/results/*/*/run.json"):
        import json
        for b in json.load(open(p))["benchmarks"]:
            if b.get("status") == "ok": rows.append((p, "fabricgate", b["op"], b["busbw_GBps"]))
    return rows

def call3():
    rows = []
    for p in glob.glob(f"{HERE}/call15-process-variants/logs/r*.txt"):
        r, what = re.search(r"/r(\d+)-(.+)\.txt$", p).groups()
        if what.startswith("ref-"):
            c, op = re.match(r"ref-c(\d)-(\w+)", what).groups()
            rows.append((int(r), f"nccl-tests -c {c} (NCCL_DEBUG=INFO)", op, nccl_tests(p)))
        else:
            for m in PROBE.finditer(open(p).read()):
                rows.append((int(r), what.replace("probe-", "probe ") + " (NCCL_DEBUG=INFO)", m.group(2), float(m.group(3))))
    return rows

def tsv(name):
    return [(r["round"], r["tool"], r["op"], float(r["busbw_GBps"]))
            for r in csv.DictReader(open(f"{HERE}/{name}/samples.tsv"), delimiter="\t") if r["busbw_GBps"]]

def table(title, rows):
    print(f"\n## {title}\n{'op':<15} {'tool':<42} {'n':>2} {'median':>7} {'min':>6} {'max':>6} {'spread':>6}")
    groups = defaultdict(list)
    for _, tool, op, v in rows:
        if v is not None: groups[(op, tool)].append(v)
    for (op, tool), v in sorted(groups.items()):
        med = statistics.median(v)
        print(f"{op:<15} {tool:<42} {len(v):>2} {med:7.1f} {min(v):6.1f} {max(v):6.1f} {100 * (max(v) - min(v)) / med:5.1f}%")

table("call 13: plain NCCL probe vs nccl-tests", call1())
table("call 14: data content (5 fills per probe process), nccl-tests -c 0/-c 1, fabricgate", call2())
table("call 15: process variants (all with NCCL_DEBUG=INFO)", call3())
table("call 16: 12 fresh processes of each tool, interleaved", tsv("call16-twelve-processes"))
table("call 17: kernel-free fill (copy engine) vs cudaMemset", tsv("call17-copy-engine-fill"))
