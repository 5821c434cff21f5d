#!/usr/bin/env bash
# GPU check of the p2p / devcopy families on a machine with >= 2 GPUs (nvidia-h200-x2):
#   1. builds fabricgate-bench (unless FABRICGATE_BENCH points at one),
#   2. runs suites/p2p.json at 1 GiB (CE and SM, write and read, uni and bi, every ordered pair;
#      pinned H2D / D2H / bi per GPU) plus the latency entries, in ONE process (-np 1),
#   3. measures the same copies with PyTorch (dst.copy_(src), timed over 20 copies after warm-up),
#   4. prints fabricgate vs reference with the ratio; exit 1 when a ratio is below 0.98.
# Usage: tests/device/p2p_check.sh [records-dir]      (default: $OUT or /tmp/fabricgate-p2p)
set -euo pipefail
export NCCL_NVLS_ENABLE=0  # GPU-MACHINE.md: multicast stays off in every process
here="$(cd "$(dirname "$0")/../.." && pwd)"
out="${1:-${OUT:-/tmp/fabricgate-p2p}}"
mkdir -p "$out"

bench="${FABRICGATE_BENCH:-}"
if [[ -z "$bench" ]]; then
  build="${BUILD_DIR:-$here/build/p2p-device}"
  export CUDAHOSTCXX="${CUDAHOSTCXX:-/opt/gcc/bin/g++}"
  cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFABRICGATE_BUILD_TESTS=OFF >"$out/cmake.log" 2>&1 ||
    { tail -30 "$out/cmake.log"; exit 3; }
  cmake --build "$build" --target fabricgate-bench -j"$(nproc)" >"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 3; }
  bench="$build/bench/fabricgate-bench"
fi

filter='(p2p/(ce|sm)/(write|read)/(uni|bi)/src:[0-9]+/dst:[0-9]+/bytes:1073741824)|(hostcopy/cuda/(h2d|d2h|bi)/pinned/gpu:[0-9]+/bytes:1073741824)|latency'
rm -f "$out/records.jsonl"
mpirun --allow-run-as-root -np 1 -x NCCL_NVLS_ENABLE "$bench" --suite "$here/suites/p2p.json" \
  --records "$out/records.jsonl" --gbench-json "$out/bench.json" --progress "--benchmark_filter=$filter" \
  >"$out/bench.log" 2>&1 || { tail -40 "$out/bench.log"; exit 3; }
nvidia-smi topo -m >"$out/topo.txt" 2>&1 || true

python3 - "$out/records.jsonl" <<'PY'
import json, statistics, sys, time
import torch

records = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    if "key" in r:
        records[r["key"]] = r

G = 1 << 30
def fg(key):
    r = records.get(key)
    if not r or r["status"] != "ok":
        return None, (r or {}).get("message", "not run")
    return r["algbw_GBps"], ""

def timed(issue, devices, iters=20, warm=3):
    for _ in range(warm):
        issue()
    for d in devices:
        torch.cuda.synchronize(d)
    t0 = time.perf_counter()
    for _ in range(iters):
        issue()
    for d in devices:
        torch.cuda.synchronize(d)
    return (time.perf_counter() - t0) / iters

def reference():
    ref = {}
    a = torch.empty(G, dtype=torch.uint8, device="cuda:0").fill_(1)
    b = torch.empty(G, dtype=torch.uint8, device="cuda:1")
    c = torch.empty(G, dtype=torch.uint8, device="cuda:1").fill_(2)
    d = torch.empty(G, dtype=torch.uint8, device="cuda:0")
    ref["ce_uni"] = G / timed(lambda: b.copy_(a, non_blocking=True), [0, 1]) / 1e9
    # Both directions at once: each copy gets its own pair of current streams so they overlap.
    s = {k: torch.cuda.Stream(device=dev) for k, dev in (("a0", 0), ("a1", 1), ("b0", 0), ("b1", 1))}
    def both():
        with torch.cuda.stream(s["a0"]), torch.cuda.stream(s["a1"]):
            b.copy_(a, non_blocking=True)
        with torch.cuda.stream(s["b1"]), torch.cuda.stream(s["b0"]):
            d.copy_(c, non_blocking=True)
    ref["ce_bi"] = 2 * G / timed(both, [0, 1]) / 1e9
    h = torch.empty(G, dtype=torch.uint8, pin_memory=True).fill_(3)
    h2 = torch.empty(G, dtype=torch.uint8, pin_memory=True)
    ref["h2d"] = G / timed(lambda: d.copy_(h, non_blocking=True), [0]) / 1e9
    ref["d2h"] = G / timed(lambda: h2.copy_(a, non_blocking=True), [0]) / 1e9
    return ref

ref = reference()
rows = [
    ("GPU0->GPU1 CE write uni", "p2p/ce/write/uni/src:0/dst:1/bytes:1073741824", "ce_uni"),
    ("GPU0->GPU1 CE read uni", "p2p/ce/read/uni/src:0/dst:1/bytes:1073741824", "ce_uni"),
    ("GPU0<->GPU1 CE write bi", "p2p/ce/write/bi/src:0/dst:1/bytes:1073741824", "ce_bi"),
    ("GPU0<->GPU1 CE read bi", "p2p/ce/read/bi/src:0/dst:1/bytes:1073741824", "ce_bi"),
    ("GPU0->GPU1 SM write uni", "p2p/sm/write/uni/src:0/dst:1/bytes:1073741824", "ce_uni"),
    ("GPU0->GPU1 SM read uni", "p2p/sm/read/uni/src:0/dst:1/bytes:1073741824", "ce_uni"),
    ("GPU0<->GPU1 SM write bi", "p2p/sm/write/bi/src:0/dst:1/bytes:1073741824", "ce_bi"),
    ("H2D pinned GPU0", "hostcopy/cuda/h2d/pinned/gpu:0/bytes:1073741824", "h2d"),
    ("D2H pinned GPU0", "hostcopy/cuda/d2h/pinned/gpu:0/bytes:1073741824", "d2h"),
]
gated = {"ce_uni", "ce_bi", "h2d", "d2h"}
bad = 0
print(f"\n{'1 GiB copy':28} {'fabricgate GB/s':>16} {'torch GB/s':>11} {'ratio':>7}")
for name, key, rk in rows:
    v, why = fg(key)
    if v is None:
        print(f"{name:28} {'-':>16} {ref[rk]:11.1f}  {why}")
        bad += key.startswith("p2p/ce") or "hostcopy" in key
        continue
    ratio = v / ref[rk]
    gate = "CE" in name or "pinned" in name
    flag = "" if not gate else ("  ok" if ratio >= 0.98 else "  BELOW 0.98")
    bad += gate and ratio < 0.98
    print(f"{name:28} {v:16.1f} {ref[rk]:11.1f} {ratio:7.3f}{flag}")
print("\nnotes (% of spec, P16):")
for key in [r[1] for r in rows]:
    for n in records.get(key, {}).get("notes", []):
        print(f"  {key}: [{n['id']} {n['level']}] {n['text']}")
print("\nlatency (median time_us):")
for key, r in sorted(records.items()):
    if "latency" in key or key.endswith("/bytes:8"):
        t = r["time_us"] if r["status"] == "ok" else None
        print(f"  {key:48} {'%.2f us' % t if t is not None else r['status'] + ': ' + r['message']}")
others = [k for k, r in records.items() if r["status"] not in ("ok",)]
if others:
    print("\nnot ok:", *[f"  {k}: {records[k]['status']} {records[k]['message']}" for k in others], sep="\n")
sys.exit(1 if bad else 0)
PY
