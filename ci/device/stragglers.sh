#!/usr/bin/env bash
# Per-rank timings and hang forensics on the ONE-GPU machine (nvidia-h200), after
# ci/device/build.sh built build/device. One GPU means one NCCL rank: this can only show that the
# NCCL path records the per-rank fields where there are ranks to compare (it does not for one
# rank: nothing to compare, no "ranks" field) and that the RAS capture is taken or skipped with a
# reason. A STRAGGLER on GPUs needs >= 2 GPUs (nvidia-h200-x2) and a real cause.
#   1. fabricgate run --suite quick --ranks 1 (NCCL all_reduce etc.): per-key "ranks" fields
#   2. MPI host collectives at 2 ranks on the same machine: the per-rank table (host, CPU set,
#      GPU index) filled
#   3. ncclras -f json: captured or the reason it is skipped (NCCL >= 2.28.7 ships ncclras)
# Output: $OUT/stragglers/summary.txt (a table), the run directories and logs.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
export NCCL_NVLS_ENABLE=0
out="${OUT:-/tmp}/stragglers"
rm -rf "$out" && mkdir -p "$out"
fg=build/device/harness/cli/fabricgate
bench=build/device/bench/fabricgate-bench
[[ -x $fg && -x $bench ]] || { echo "no $fg / $bench: run ci/device/build.sh first"; exit 2; }
common=(--bench "$bench" --no-compare --results-dir "$out/results" --lock "$out/runner.lock" --timeout 300)

timeout 320 "$fg" run --suite quick --ranks 1 "${common[@]}" >"$out/nccl-1rank.log" 2>&1
echo "nccl 1 rank: exit $?" | tee "$out/summary.txt"
cat >"$out/mpi2.json" <<'SUITE'
{"schema": "fabricgate.suite/1", "name": "mpi2", "ranks": 2,
 "defaults": {"repetitions": 20, "warmup": 2, "target_sample_ms": 10},
 "benchmarks": [{"family": "coll", "backend": "mpi", "ops": ["all_reduce"], "sizes": {"list": [65536, 1048576]}}]}
SUITE
timeout 320 "$fg" run --suite "$out/mpi2.json" "${common[@]}" >"$out/mpi-2ranks.log" 2>&1
echo "mpi 2 ranks: exit $?" | tee -a "$out/summary.txt"
if command -v ncclras >/dev/null; then
  timeout 15 ncclras -f json >"$out/ncclras.json" 2>&1
  echo "ncclras -f json: exit $? ($(head -c 200 "$out/ncclras.json"))" | tee -a "$out/summary.txt"
else
  echo "ncclras: not in PATH (NCCL < 2.28.7 or not installed): RAS capture skipped" | tee -a "$out/summary.txt"
fi
python3 - "$out/results" <<'PY' | tee -a "$out/summary.txt"
import glob, json, sys
print(f"{'key':58} {'rank':>4} {'host':12} {'cpus':8} {'gpu':>3} {'p50 us':>9} {'p99 us':>9} {'slowest':>8}")
for path in sorted(glob.glob(sys.argv[1] + "/*/*/run.json")):
    run = json.load(open(path))
    for b in run["benchmarks"]:
        if b.get("status") != "ok":
            continue
        if not b.get("ranks"):
            print(f"{b['key'][:58]:58} {'-':>4} (one rank: no per-rank fields)")
            continue
        for r in b["ranks"]:
            print(f"{b['key'][:58]:58} {r['rank']:>4} {r['host'][:12]:12} {r['cpu_set'][:8]:8} {r['gpu']:>3} "
                  f"{r['p50_us']:>9.1f} {r['p99_us']:>9.1f} {r['slowest']:>4}/{r['count']}")
PY
