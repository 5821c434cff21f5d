#!/usr/bin/env bash
# The paired check on the GPU ("judge the change, not the runner", and the sequential `ab`):
# `fabricgate ab --suite p2p` on this one runner, A/A first (both sides plain: expected PASS or
# undecided, never FAIL), then side B wrapped in ci/device/with-load.sh (a paced pinned-copy
# load running beside that side's ranks only) whose cost PyTorch measures in the same call
# (expected: FAIL on the pinned keys). Then plain A/A launches of `fabricgate run --gate change`
# with the counter snapshot on (none may be flagged busy). After ci/device/build.sh.
#   ci/device/paired-gpu.sh RATE_GBPS:CHUNK_MIB MAX_PAIRS AA_LAUNCHES
set -uo pipefail
cd "$(dirname "$0")/../.."
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 NO_COLOR=1
load=${1:-3.5:4} max_pairs=${2:-6} aa=${3:-8}
fg=${FG:-build/device/harness/cli/fabricgate}
dir="${OUT:-/tmp/out}/paired"; mkdir -p "$dir"
say() { echo "$*" | tee -a "$dir/summary.txt"; }
say "paired check on $(nvidia-smi --query-gpu=uuid,name --format=csv,noheader) at $(date -u +%FT%TZ)"
t0=$SECONDS
timeout 280 "$fg" ab --suite p2p --min-pairs 3 --max-pairs "$max_pairs" --results-dir "$dir/ab-aa" \
  --a label=plain --b label=plain-again >"$dir/ab-aa.log" 2>&1
say "ab A/A: exit $? in $((SECONDS - t0)) s: $(grep -m1 -E '^(PASS|FAIL|UNDECIDED|BIMODAL|TWO-STATES)' "$dir/ab-aa.log" | cut -c1-200)"
say "reference alone: $(timeout 60 python3 ci/device/pinned-bw.py 10)"
timeout 60 python3 ci/device/hostcopy-rate.py "${load%%:*}" 25 "${load##*:}" >/dev/null 2>&1 &
sleep 3
say "reference under ${load%%:*} GB/s (${load##*:} MiB chunks): $(timeout 60 python3 ci/device/pinned-bw.py 10)"
wait
t0=$SECONDS
timeout 280 "$fg" ab --suite p2p --min-pairs 3 --max-pairs "$max_pairs" --results-dir "$dir/ab-load" \
  --a label=plain --b "wrap=$PWD/ci/device/with-load.sh ${load%%:*} ${load##*:}" --b label=loaded \
  >"$dir/ab-load.log" 2>&1
say "ab loaded B: exit $? in $((SECONDS - t0)) s: $(grep -m1 -E '^(PASS|FAIL|UNDECIDED|BIMODAL|TWO-STATES)' "$dir/ab-load.log" | cut -c1-200)"
grep -E '^(FAIL|BIMODAL)' "$dir/ab-load.log" | grep -v '^FAIL:' | cut -c1-170 | tee -a "$dir/summary.txt"
for ((i = 1; i <= aa; i++)); do
  timeout 120 "$fg" run --suite p2p --baseline baselines/h200-x1/p2p.json --gate change \
    --store "sqlite:$dir/store.sqlite" --results-dir "$dir/results" --lock /tmp/fg-paired.lock \
    --report json >"$dir/aa-$i.log" 2>&1
  rc=$?
  run=$(ls -td "$dir"/results/*/*-p2p-* | head -1)
  say "aa-$i: exit $rc $(python3 -c "
import json,sys; r=json.load(open('$run/run.json')).get('runner_counters',{}); c=json.load(open('$run/comparison.json'))
print(c['change']['verdict'], 'foreign', len(r.get('foreign_processes',[])), 'snapshot_ms', round(r.get('snapshot_ms',0),1))")"
done
