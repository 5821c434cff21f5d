#!/usr/bin/env bash
# One session on one fresh one-GPU H200 for the session noise model (harness/gate/README.md):
# A/A launches of the p2p suite spread over the call, then injected host-copy losses of measured
# size: a fixed-rate background pinned copy (hostcopy-rate.py) whose cost on a foreground pinned
# 1 GiB copy PyTorch measures in the same call (pinned-bw.py), alone and under the load, next to
# fabricgate launches under the same load. Raw launches only (no gate here): they are judged
# afterwards by `fabricgate compare` against baselines that never saw this session.
#   ci/device/session-campaign.sh AA_LAUNCHES "RATES_GBPS" LAUNCHES_PER_RATE BUDGET_S
# After ci/device/build.sh. Everything lands in $OUT/session (tarred by the caller).
set -uo pipefail
cd "$(dirname "$0")/../.."
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 NO_COLOR=1
aa=${1:-20} rates=${2:-"1 2 3 4"} per_rate=${3:-2} budget=${4:-480}
fg=${FG:-build/device/harness/cli/fabricgate}
dir="${OUT:-/tmp/out}/session"; mkdir -p "$dir/results"
summary="$dir/summary.txt"
say() { echo "$*" | tee -a "$summary"; }
left() { echo $((budget - SECONDS)); }
launch() {  # launch LABEL: one p2p launch without a gate
  local t0=$SECONDS
  timeout 90 "$fg" run --suite p2p --no-compare --store none --results-dir "$dir/results" \
    --lock /tmp/fg-session.lock >"$dir/$1.log" 2>&1
  say "$1: exit $? in $((SECONDS - t0)) s, run $(ls -td "$dir"/results/*/*-p2p-* | head -1 | xargs basename)"
}
say "session on $(nvidia-smi --query-gpu=uuid,name,pci.bus_id --format=csv,noheader) at $(date -u +%FT%TZ)"
for ((i = 1; i <= aa; i++)); do
  (($(left) > 150)) || { say "A/A stopped after $((i - 1)) launches (budget)"; break; }
  launch "aa-$i"
  sleep 3  # spread the launches over the call; the confirmation replay uses later launches
done
say "reference alone: $(timeout 60 python3 ci/device/pinned-bw.py 10)"
for r in $rates; do
  (($(left) > 40)) || { say "injection stopped before ${r} GB/s (budget)"; break; }
  timeout $((20 + 20 * per_rate)) python3 ci/device/hostcopy-rate.py "$r" $((15 + 16 * per_rate)) >"$dir/load-$r.log" 2>&1 &
  load=$!
  sleep 3
  say "reference under ${r} GB/s: $(timeout 60 python3 ci/device/pinned-bw.py 10)"
  for ((j = 1; j <= per_rate; j++)); do launch "inject-${r}-$j"; done
  wait "$load"; say "load ${r}: $(cat "$dir/load-$r.log")"
  say "reference after ${r} GB/s: $(timeout 60 python3 ci/device/pinned-bw.py 10)"
done
