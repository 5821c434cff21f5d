#!/usr/bin/env bash
# "Judge the change, not the runner" live on a fresh one-GPU H200 (harness/gate/README.md "Two
# questions"): `fabricgate run --suite p2p --gate change` against the committed fleet baseline,
# with ONE results store for the whole call, so that the host builds a history of its own as it
# goes. Then an injected pinned-copy load whose cost PyTorch measures in the same call
# (pinned-bw.py alone and under the load), gated on this host that now has earlier launches in the
# store (expected: REGRESSION, exit 1), then launches after the load is gone (expected: pass, no
# DRIFT). Every launch's change and runner verdicts go to summary.tsv. After ci/device/build.sh.
#   ci/device/two-questions.sh AA_LAUNCHES BUDGET_S [RATE_GBPS:CHUNK_MIB] [AFTER_LAUNCHES]
# Everything lands in $OUT/twoq (the caller tars it).
set -uo pipefail
cd "$(dirname "$0")/../.."
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 NO_COLOR=1
aa=${1:-12} budget=${2:-420} load=${3:-3:4} after=${4:-3}
baseline=baselines/h200-x1/p2p.json
fg=${FG:-build/device/harness/cli/fabricgate}
dir="${OUT:-/tmp/out}/twoq"; mkdir -p "$dir/results"
store="sqlite:$dir/store.sqlite"
tsv="$dir/summary.tsv"
say() { echo "$*" | tee -a "$dir/summary.txt"; }
printf 'label\texit\tchange\trunner\tkeys_outside_fleet\thost_history_runs\tfailing\tdrift\theadline\n' >"$tsv"
gate() {  # gate LABEL: one live-gated launch
  local t0=$SECONDS run
  timeout 200 "$fg" run --suite p2p --baseline "$baseline" --gate change --store "$store" \
    --results-dir "$dir/results" --lock /tmp/fg-twoq.lock --confirm-gap 30 --report json \
    >"$dir/$1.log" 2>&1
  local rc=$?
  run=$(ls -td "$dir"/results/*/*-p2p-* | head -1)
  python3 - "$run/comparison.json" "$1" "$rc" >>"$tsv" <<'PY'
import json, sys
path, label, rc = sys.argv[1:4]
try:
    c = json.load(open(path))
except Exception:
    print(f"{label}\t{rc}\t-\t-\t-\t-\t-\t-\tno comparison.json"); sys.exit()
fails = [f"{k['verdict']} {k['key'].split('/')[2]}/{k['key'].split('/')[-1]} {k['judgement']['performance_ratio'] - 1:+.1%}"
         for k in c['keys'] if k['fails_gate'] and k.get('judgement')]
drift = sum(1 for k in c['keys'] if k['verdict'] == 'DRIFT')
print("\t".join([label, rc, c['change']['verdict'], c['runner']['verdict'],
                 str(c['runner']['keys_outside_fleet']), str(c['change']['host_history_runs']),
                 "; ".join(fails) or "-", str(drift), c['headline'][:120]]))
PY
  say "$1: exit $rc in $((SECONDS - t0)) s | $(tail -1 "$tsv" | cut -f3-8)"
}
say "two questions on $(nvidia-smi --query-gpu=uuid,name,pci.bus_id --format=csv,noheader) at $(date -u +%FT%TZ)"
say "GPU $(nvidia-smi --query-gpu=pstate,clocks.sm,temperature.gpu,power.draw --format=csv,noheader)"
reserve=$((230 + 20 * after))
for ((i = 1; i <= aa; i++)); do
  ((budget - SECONDS > reserve)) || { say "A/A stopped after $((i - 1)) launches (budget)"; break; }
  gate "aa-$i"
done
say "reference alone: $(timeout 60 python3 ci/device/pinned-bw.py 10)"
timeout 230 python3 ci/device/hostcopy-rate.py "${load%%:*}" 200 "${load##*:}" >"$dir/load.log" 2>&1 &
pid=$!
sleep 3
say "reference under ${load%%:*} GB/s (${load##*:} MiB chunks): $(timeout 60 python3 ci/device/pinned-bw.py 10)"
gate "inject-1"
gate "inject-2"
say "reference under the load, after the launches: $(timeout 60 python3 ci/device/pinned-bw.py 10)"
kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
say "load: $(cat "$dir/load.log")"
say "reference after the load: $(timeout 60 python3 ci/device/pinned-bw.py 10)"
for ((i = 1; i <= after; i++)); do
  ((budget - SECONDS > 20)) || { say "after-load launches stopped at $((i - 1)) (budget)"; break; }
  gate "after-$i"
done
say "done at $(date -u +%FT%TZ) after $SECONDS s"
column -t -s $'\t' "$tsv" | cut -c1-230
