#!/usr/bin/env bash
# A runner outside the fleet, live (harness/gate/README.md "Two questions"): the same machine with
# a constant paced pinned-copy load (hostcopy-rate.py, cost measured by pinned-bw.py in the same
# call) stands in for a machine whose copies sit under the fleet. `fabricgate run --suite p2p
# --gate change` with a fresh results store: the first launches have no history of this host
# (expected: RUNNER-DIFFERS, exit 3, never 1), later ones are judged against the host's own level
# (expected: pass, HOST-OUTLIER named); each launch is also judged with --gate fleet (expected:
# exit 1, HOST-OUTLIER). After ci/device/build.sh.
#   ci/device/outlier-standin.sh LAUNCHES RATE_GBPS:CHUNK_MIB
set -uo pipefail
cd "$(dirname "$0")/../.."
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 NO_COLOR=1
n=${1:-5} load=${2:-3.5:4}
baseline=baselines/h200-x1/p2p.json
fg=${FG:-build/device/harness/cli/fabricgate}
dir="${OUT:-/tmp/out}/outlier"; mkdir -p "$dir/results"
store="sqlite:$dir/store.sqlite"
tsv="$dir/summary.tsv"
say() { echo "$*" | tee -a "$dir/summary.txt"; }
row() {  # row LABEL RC COMPARISON.JSON FLEET_RC
  python3 - "$3" "$1" "$2" "$4" <<'PY'
import json, sys
path, label, rc, fleet_rc = sys.argv[1:5]
c = json.load(open(path))
rd = [k["key"].split("/")[2] + "/" + k["key"].split("/")[-1] for k in c["keys"] if k["verdict"] == "RUNNER-DIFFERS"]
print("\t".join([label, rc, c["change"]["verdict"], c["runner"]["verdict"], fleet_rc,
                 str(c["change"]["host_history_runs"]), ",".join(rd) or "-", c["runner"]["line"][:170]]))
PY
}
printf 'label\texit_change\tchange\trunner\texit_fleet\thost_history_runs\trunner_differs\trunner_line\n' >"$tsv"
say "outlier stand-in on $(nvidia-smi --query-gpu=uuid --format=csv,noheader) at $(date -u +%FT%TZ), load ${load}"
say "reference alone: $(timeout 60 python3 ci/device/pinned-bw.py 10)"
timeout 600 python3 ci/device/hostcopy-rate.py "${load%%:*}" 580 "${load##*:}" >"$dir/load.log" 2>&1 &
pid=$!
sleep 3
say "reference under the load: $(timeout 60 python3 ci/device/pinned-bw.py 10)"
for ((i = 1; i <= n; i++)); do
  timeout 200 "$fg" run --suite p2p --baseline "$baseline" --gate change --store "$store" \
    --results-dir "$dir/results" --lock /tmp/fg-outlier.lock --confirm-gap 10 --report json \
    >"$dir/slow-$i.log" 2>&1
  rc=$?
  run=$(ls -td "$dir"/results/*/*-p2p-* | head -1)
  "$fg" compare "$run" --baseline "$baseline" --gate fleet --store none --format json \
    >"$dir/slow-$i-fleet.json" 2>/dev/null
  frc=$?
  row "slow-$i" "$rc" "$run/comparison.json" "$frc" >>"$tsv"
  say "slow-$i: $(tail -1 "$tsv" | cut -f2-7)"
done
say "reference under the load, at the end: $(timeout 60 python3 ci/device/pinned-bw.py 10)"
kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
