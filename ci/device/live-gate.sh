#!/usr/bin/env bash
# The live gate on a fresh one-GPU H200 that no baseline has seen (harness/gate/README.md,
# "Sessions and hosts"): A/A launches of `fabricgate run --suite p2p` against the committed
# session baseline with confirmations on (two later launches, the second after --confirm-gap),
# then injected host-copy loads whose cost PyTorch measures in the same call (pinned-bw.py alone
# and under the load) with live gate launches under the same load. After ci/device/build.sh.
#   ci/device/live-gate.sh BASELINE AA_LAUNCHES BUDGET_S [LOADS]
# LOADS: "full" (an unpaced copier, the default), "none" (A/A only) or paced loads "RATE_GBPS:CHUNK_MIB ..." for
# hostcopy-rate.py; small chunks spread the load evenly so that fabricgate and the reference see
# the same cost. The A/A launches stop early enough to leave about 130 s per load.
# Everything lands in $OUT/live (summary.txt has the table).
set -uo pipefail
cd "$(dirname "$0")/../.."
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 NO_COLOR=1
baseline=${1:?baseline} aa=${2:-16} budget=${3:-330} loads=${4:-full}
read -ra load_list <<<"$loads"
[[ $loads == none ]] && load_list=()  # A/A launches only
load_s=${LOAD_S:-100}  # each load lasts this long: references before and after the gated launch
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
p = c.get('host_cpu_pressure')
print(f"{c['headline'][:90]} | failing: {'; '.join(fails) or '-'} | ambiguous: {len(amb)} | "
      f"host CPU pressure {'-' if p is None else f'{100 * p:.1f} %'}")
PY
)"
}
say "live gate on $(nvidia-smi --query-gpu=uuid,name --format=csv,noheader) at $(date -u +%FT%TZ), baseline $baseline"
reserve=$((130 * ${#load_list[@]}))
say "load average $(cut -d' ' -f1-3 /proc/loadavg), GPU $(nvidia-smi --query-gpu=pstate,clocks.sm,temperature.gpu,power.draw --format=csv,noheader)"
for ((i = 1; i <= aa; i++)); do
  ((budget - SECONDS > reserve + 20)) || { say "A/A stopped after $((i - 1)) launches (budget)"; break; }
  gate "aa-$i"
done
n=0
for load in "${load_list[@]}"; do
  n=$((n + 1)) tag="$n-$load"
  ((budget - SECONDS > 110)) || { say "load $load not run (budget)"; break; }
  say "reference alone: $(timeout 60 python3 ci/device/pinned-bw.py 10)"
  if [[ $load == full ]]; then
    timeout $((load_s + 15)) python3 ci/device/hostcopy-load.py "$load_s" 1024 >"$dir/load-$tag.log" 2>&1 &
  else
    timeout $((load_s + 15)) python3 ci/device/hostcopy-rate.py "${load%%:*}" "$load_s" "${load##*:}" >"$dir/load-$tag.log" 2>&1 &
  fi
  pid=$!
  sleep 3
  say "reference under load $load: $(timeout 60 python3 ci/device/pinned-bw.py 10)"
  gate "inject-$tag"
  say "reference under load $load, after the launch: $(timeout 60 python3 ci/device/pinned-bw.py 10)"
  wait "$pid"
  say "load $load: $(cat "$dir/load-$tag.log")"
done
