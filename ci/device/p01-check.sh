#!/usr/bin/env bash
# P01 on a node with fewer GPUs than ranks (two ranks on one GPU once sat > 75 s silent in NCCL
# initialisation). On the ONE-GPU machine (nvidia-h200), after ci/device/build.sh built build/device:
#   1. fabricgate run --suite quick            ("per-gpu" with min_ranks 2 -> 2 ranks on 1 GPU)
#   2. fabricgate run --suite quick --ranks 2
#   3. the bench alone under mpirun -np 2 (the bench's own check, for launches the harness cannot
#      see into: hostfiles, srun)
# each with a 30 s timeout. Expected: exit 2 within seconds, a P01 message naming the GPU UUID both
# ranks would use and that the node has 1 GPU. Exit code, seconds and output of each go to
# $OUT/p01/ (summary.txt, <step>.log). Exit 0 when every step was refused that way.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
export NCCL_NVLS_ENABLE=0
out="${OUT:-/tmp}/p01"
rm -rf "$out" && mkdir -p "$out"
fg=build/device/harness/cli/fabricgate
bench=build/device/bench/fabricgate-bench
[[ -x $fg && -x $bench ]] || { echo "no $fg / $bench: run ci/device/build.sh first"; exit 2; }
nvidia-smi -L >"$out/gpus.txt" 2>&1
failed=0

step() {  # step LABEL CMD...: 30 s at most; records exit code, seconds and output
  local label=$1
  shift
  local t0
  t0=$(date +%s%N)
  timeout 30 "$@" >"$out/$label.log" 2>&1
  local rc=$?
  local ms=$((($(date +%s%N) - t0) / 1000000))
  local secs="$((ms / 1000)).$(((ms % 1000) / 100))"
  local verdict=ok
  if [[ $rc -ne 2 ]] || ! grep -q "P01" "$out/$label.log" || ! grep -q "GPU-" "$out/$label.log"; then
    verdict=FAILED
    failed=1
  fi
  printf '%-14s exit %-3s %6s s  %s\n' "$label" "$rc" "$secs" "$verdict" | tee -a "$out/summary.txt"
  grep -m2 "P01" "$out/$label.log" | tee -a "$out/summary.txt"
}

common=(--bench "$bench" --no-compare --results-dir "$out/results" --lock "$out/runner.lock" --lock-timeout 5 --timeout 25)
step quick "$fg" run --suite quick "${common[@]}"
step quick-ranks2 "$fg" run --suite quick --ranks 2 "${common[@]}"
step bench-np2 mpirun --allow-run-as-root --oversubscribe -np 2 -x NCCL_NVLS_ENABLE "$bench" --suite suites/quick.json
exit $failed
