#!/usr/bin/env bash
# Out-of-sample check of a calibrated GPU baseline on a one-GPU H200, after ci/device/build.sh:
#   ci/device/verify-p2p.sh BASELINE [N]
# N (20) fresh A/A launches of --suite p2p against BASELINE with the live gate (confirmation on),
# then one launch with a second process copying pinned host<->device on the same GPU (bounded).
# Everything lands in $OUT/verify; summary.txt has the counts and the failing keys.
set -uo pipefail
cd "$(dirname "$0")/../.."
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 NO_COLOR=1
base=${1:?usage: ci/device/verify-p2p.sh BASELINE [N]}
n=${2:-20}
OUT=${OUT:-/tmp/out}
dir="$OUT/verify"
res="$dir/results"
mkdir -p "$res"
fg=${FG:-build/device/harness/cli/fabricgate}
summary="$dir/summary.txt"
say() { echo "$*" | tee -a "$summary"; }
cp "$base" "$dir/baseline.json"
say "verify-p2p on $(hostname) $(date -u +%FT%TZ) against $base: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)"
printf 'launch\texit\n' >"$dir/aa.tsv"
fails=0
for i in $(seq 1 "$n"); do
  timeout 60 "$fg" run --suite p2p --results-dir "$res" --lock /tmp/fg-verify.lock --baseline "$dir/baseline.json" \
    --report json >"$dir/aa-$i.log" 2>&1
  rc=$?
  printf '%s\t%s\n' "$i" "$rc" >>"$dir/aa.tsv"
  [ "$rc" = 1 ] && { fails=$((fails + 1)); grep -E "^(REGRESSION|DRIFT|AMBIGUOUS)" "$dir/aa-$i.log" | head -4 >>"$summary"; }
done
say "fresh A/A against the calibrated baseline: $fails of $n launches failed (exit 1), confirmation on"
timeout 150 python3 ci/device/hostcopy-load.py 100 >"$dir/noise-copier.log" 2>&1 &
copier=$!
sleep 5
timeout 90 "$fg" run --suite p2p --results-dir "$res" --lock /tmp/fg-verify.lock --baseline "$dir/baseline.json" \
  --report json >"$dir/inject-hostcopy.log" 2>&1
say "injected host-copy load (second process) against the calibrated baseline: exit $?"
kill "$copier" 2>/dev/null
wait "$copier" 2>/dev/null
grep -E "^(REGRESSION|AMBIGUOUS|NOISY|UNSTABLE)|re-measured" "$dir/inject-hostcopy.log" | head -14 | tee -a "$summary"
