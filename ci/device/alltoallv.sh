#!/usr/bin/env bash
# alltoallv on a machine with 2 GPUs (NCCL grouped ncclSend/ncclRecv with uneven per-peer blocks),
# after ci/device/build.sh has built build/device. One call, under two minutes:
#   1. one process per GPU, float32 and bfloat16, 8 B - 1 GiB: every record ok with 0 wrong
#      elements (the receive buffers are checked on the host), busbw factor 2/3 (S = 3 units);
#   2. alltoall over the same sizes in the same launch, for the side-by-side figure;
#   3. in place is skipped with the collective's own reason.
# Prints a table (time, busbw) and writes records and logs to $OUT/alltoallv (or /tmp/alltoallv).
# Exit 0 when every check passed.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
export NCCL_NVLS_ENABLE=0  # NVLink multicast stays off on the shared machine
out="${OUT:-/tmp}/alltoallv"
rm -rf "$out" && mkdir -p "$out"
bench=build/device/bench/fabricgate-bench
[[ -x $bench ]] || { echo "no $bench: run ci/device/build.sh first"; exit 2; }
cp ci/device/suites/alltoallv.json "$out/suite.json"
timeout 300 mpirun --allow-run-as-root --oversubscribe -np 2 -x NCCL_NVLS_ENABLE \
  "$bench" --suite "$out/suite.json" --records "$out/records.jsonl" --gbench-json "$out/bench.json" \
  --nccl-log-dir "$out/nccl" >"$out/bench.log" 2>&1
rc=$?
echo "bench exit $rc"
python3 - "$out/records.jsonl" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
recs = [r for r in recs if r["type"] == "benchmark"]
bad = []
for r in recs:
    t = f'{r["time_us"]:10.1f} us {r.get("busbw_GBps", 0):8.2f} GB/s' if r["status"] == "ok" else r["message"][:60]
    print(f'  {r["key"]:<58} {r["status"]:<7} {t}')
    if r["params"].get("inplace"):
        if r["status"] != "skipped" or "in-place" not in r["message"]: bad.append("in place not skipped: " + r["key"])
        continue
    if r["status"] != "ok" or r["wrong_elements"] != 0: bad.append("not ok: " + r["key"])
    if r["op"] == "alltoallv" and abs(r["busbw_factor"] - 2 / 3) > 1e-12: bad.append("factor: " + r["key"])
if not any(r["op"] == "alltoallv" and r["status"] == "ok" for r in recs): bad.append("no alltoallv measured")
print("alltoallv: " + ("all checks passed" if not bad else "FAILED: " + "; ".join(bad)))
sys.exit(1 if bad else 0)
PY
checks=$?
[[ $rc == 0 && $checks == 0 ]]
