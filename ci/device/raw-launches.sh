#!/usr/bin/env bash
# Raw launches on a one-GPU H200 for calibration: N launches of the p2p suite with no gate, then
# launches with a second process copying to and from the same GPU (a real host-copy regression).
# Everything lands in $OUT/raw (runs under results/, summary.txt). NVLink multicast stays off.
#   ci/device/raw-launches.sh LAUNCHES INJECTED DEADLINE_S
set -uo pipefail
cd "$(dirname "$0")/../.."
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
n=${1:-20} injected=${2:-3} deadline=${3:-400}
ev="${OUT:-/tmp/out}/raw"; mkdir -p "$ev"
fg=build/device/harness/cli/fabricgate
summary="$ev/summary.txt"
say() { echo "$*" | tee -a "$summary"; }
launch() {  # launch LABEL: one p2p launch without a gate, its exit code and duration recorded
  local t0=$SECONDS
  NO_COLOR=1 "$fg" run --suite p2p --no-compare --results-dir "$ev/results" --lock /tmp/fg.lock >"$ev/$1.log" 2>&1
  say "$1: exit $? in $((SECONDS - t0)) s"
}
start=$SECONDS
for ((i = 1; i <= n; i++)); do
  ((SECONDS - start < deadline)) || { say "stopped at launch $i: deadline ${deadline}s"; break; }
  launch "aa-$i"
done
# The interference: pinned 1 GiB copies both ways on the same GPU for the whole launch (bounded).
for ((i = 1; i <= injected; i++)); do
  timeout 60 python3 ci/device/hostcopy-load.py 40 1024 &
  copier=$!
  sleep 3
  launch "inject-copier-$i"
  kill $copier 2>/dev/null; wait $copier 2>/dev/null
done
