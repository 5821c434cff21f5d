#!/usr/bin/env bash
# What the runner was doing (docs/COUNTERS.md), live on a one-GPU H200: A/A launches of
# `fabricgate run --suite p2p --gate change` with the counter snapshot on (none may be flagged
# busy; run.json runner_counters holds the deltas and snapshot_ms), then launches while a foreign
# bf16 GEMM process computes on the same GPU (expected: exit 3, RUNNER BUSY naming the process).
# After ci/device/build.sh.   ci/device/runner-evidence.sh AA_LAUNCHES GEMM_LAUNCHES
set -uo pipefail
cd "$(dirname "$0")/../.."
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 NO_COLOR=1
aa=${1:-8} gemm=${2:-10}
baseline=baselines/h200-x1/p2p.json
fg=${FG:-build/device/harness/cli/fabricgate}
dir="${OUT:-/tmp/out}/evidence"; mkdir -p "$dir/results"
tsv="$dir/summary.tsv"
say() { echo "$*" | tee -a "$dir/summary.txt"; }
printf 'label\texit\tchange\tforeign_processes\tsnapshot_ms\tunread\theadline\n' >"$tsv"
launch() {  # launch LABEL EXTRA_ARGS...
  local label=$1 run rc
  shift
  timeout 200 "$fg" run --suite p2p --baseline "$baseline" --gate change \
    --store "sqlite:$dir/store.sqlite" --results-dir "$dir/results" --lock /tmp/fg-ev.lock \
    --report json "$@" >"$dir/$label.log" 2>&1
  rc=$?
  run=$(ls -td "$dir"/results/*/*-p2p-* | head -1)
  python3 - "$run" "$label" "$rc" >>"$tsv" <<'PY'
import json, sys
run, label, rc = sys.argv[1:4]
c = json.load(open(run + "/comparison.json"))
r = json.load(open(run + "/run.json")).get("runner_counters", {})
fp = r.get("foreign_processes", [])
names = ",".join(f"{p.get('pid')}:{p.get('name')}" for p in fp) or "-"
print("\t".join([label, rc, c["change"]["verdict"], names, str(r.get("snapshot_ms", "-")),
                 str(len(r.get("unread", []))), c["headline"][:170]]))
PY
  say "$label: $(tail -1 "$tsv" | cut -f2-7)"
}
say "runner evidence on $(nvidia-smi --query-gpu=uuid,name --format=csv,noheader) at $(date -u +%FT%TZ)"
for ((i = 1; i <= aa; i++)); do launch "aa-$i"; done
timeout 400 python3 ci/device/gemm-load.py 380 >"$dir/gemm.log" 2>&1 &
pid=$!
sleep 5
say "gemm load pid $pid: $(nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv,noheader | tr '\n' ' ')"
for ((i = 1; i <= gemm; i++)); do launch "gemm-$i" --no-confirm; done
kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
say "gemm: $(cat "$dir/gemm.log")"
latest=$(ls -td "$dir"/results/*/*-p2p-* | tail -1)
python3 - "$latest/run.json" >"$dir/first-run-counters.json" <<'PY'
import json, sys
print(json.dumps(json.load(open(sys.argv[1])).get("runner_counters", {}), indent=1)[:20000])
PY
