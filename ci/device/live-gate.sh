#!/usr/bin/env bash
# The live gate on a fresh one-GPU H200 that no baseline has seen (harness/gate/README.md,
# "Sessions and hosts"): A/A launches of `fabricgate run --suite p2p` against the committed
# session baseline with confirmations on (two later launches, the second after --confirm-gap),
# then an injected host-copy load whose cost PyTorch measures in the same call (pinned-bw.py alone
# and under the load) with live gate launches under the same load. After ci/device/build.sh.
#   ci/device/live-gate.sh BASELINE AA_LAUNCHES BUDGET_S
# Everything lands in $OUT/live (summary.txt has the table).
set -uo pipefail
cd "$(dirname "$0")/../.."
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 NO_COLOR=1
baseline=${1:?baseline} aa=${2:-16} budget=${3:-330}
fg=${FG:-build/device/harness/cli/fabricgate}
dir="${OUT:-/tmp/out}/live"; mkdir -p "$dir/results"
summary="$dir/summary.txt"
say() { echo "$*" | tee -a "$summary"; }
gate() {  # gate LABEL: one live-gated launch; exit code, failing keys and confirmations recorded
  local t0=$SECONDS
  timeout 200 "$fg" run --suite p2p --baseline "$baseline" --store none --results-dir "$dir/results" \
    --lock /tmp/fg-live.lock --confirm-gap 30 --report json >"$dir/$1.log" 2>&1
  local rc=$? run
  run=$(ls -td "$dir"/results/*/*-p2p-* | head -1)
  say "$1: exit $rc in $((SECONDS - t0)) s, $(python3 - "$run/comparison.json" <<'PY'
import json, sys
try:
    c = json.load(open(sys.argv[1]))
except Exception as e:
    print("no comparison.json"); sys.exit()
fails = [f"{k['verdict']} {k['key']} {k['judgement']['performance_ratio'] - 1:+.1%}" if k.get('judgement') else k['key']
         for k in c['keys'] if k['fails_gate']]
amb = [k['key'] for k in c['keys'] if k['verdict'] == 'AMBIGUOUS']
print(f"{c['headline'][:90]} | failing: {'; '.join(fails) or '-'} | ambiguous: {len(amb)}")
PY
)"
}
say "live gate on $(nvidia-smi --query-gpu=uuid,name --format=csv,noheader) at $(date -u +%FT%TZ), baseline $baseline"
for ((i = 1; i <= aa; i++)); do
  ((budget - SECONDS > 110)) || { say "A/A stopped after $((i - 1)) launches (budget)"; break; }
  gate "aa-$i"
done
say "reference alone: $(timeout 60 python3 ci/device/pinned-bw.py 10)"
timeout 100 python3 ci/device/hostcopy-load.py 80 1024 >"$dir/load.log" 2>&1 &
load=$!
sleep 3
say "reference under the load: $(timeout 60 python3 ci/device/pinned-bw.py 10)"
gate "inject-1"
wait "$load"
say "reference after the load: $(timeout 60 python3 ci/device/pinned-bw.py 10)"
