#!/usr/bin/env bash
# fi_pingpong's per-transfer time as a function of its iteration count (-I), beside fabricgate's
# warm pingpong, on loopback tcp;ofi_rxm at 64 KiB, both pinned to CPUs 2 and 4: shows how much of
# fi_pingpong's default (-I 10) figure is its untimed-warm-up cold start (results/rdma/README.md).
# Run on the GPU host from the repository root after ci/device/build.sh:
#   bash ci/device/fi_pingpong_iterations.sh [BUILD_DIR]
# Prints one table row per -I and one for fabricgate; bounded (every command under `timeout`).
set -euo pipefail
build=${1:-build/ci}
bench="$build/bench/fabricgate-bench"
command -v fi_pingpong >/dev/null || { echo "fi_pingpong not found (apt-get install libfabric-bin)"; exit 3; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "| tool | iterations | usec/xfer | MB/s |"
echo "|---|---:|---:|---:|"
for iters in 10 100 1000 10000 100000; do
  port=$((47900 + RANDOM % 500))
  timeout 300 taskset -c 2 fi_pingpong -p tcp -e rdm -S 65536 -I "$iters" -B "$port" >"$work/srv" 2>&1 &
  sleep 0.5
  line=$(timeout 300 taskset -c 4 fi_pingpong -p tcp -e rdm -S 65536 -I "$iters" -P "$port" 127.0.0.1 | tail -1)
  wait
  read -r _ _ _ _ _ mbs usec _ <<<"$line"
  echo "| fi_pingpong | $iters | $usec | $mbs |"
done
cat >"$work/suite.json" <<'JSON'
{"schema": "fabricgate.suite/1", "name": "fi-compare", "ranks": 2,
 "defaults": {"repetitions": 10, "warmup": 100, "target_sample_ms": 50},
 "benchmarks": [{"family": "rdma", "backend": "libfabric", "providers": ["tcp"], "domain": "lo",
                 "ops": ["pingpong"], "sizes": {"list": [65536]}}]}
JSON
timeout 300 mpirun --allow-run-as-root -np 2 --cpu-set 2,4 --bind-to core \
  "$bench" --suite "$work/suite.json" --records "$work/rec.jsonl" >"$work/bench.out" 2>&1
python3 - "$work/rec.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("status") == "ok":
        print(f"| fabricgate (warm, median) | {r['iterations']} per sample | {r['time_us']:.1f} | {r['algbw_GBps'] * 1000:.1f} |")
PY
