#!/usr/bin/env bash
# Real A/As and a measured regression for the upgrade gate on one GPU machine (issue 57 item 3).
# After ci/device/build.sh:
#   1. PyTorch's pinned 1 GiB copies (pinned-bw.py) alone, then under the paced pinned-copy load
#      (hostcopy-rate.py RATE GB/s in CHUNK MiB pieces): the reference cost of the load.
#   2. `fabricgate ab` of the hostcopy suite with side B wrapped in with-load.sh (the same load
#      beside B's ranks only): expected FAIL on the keys the reference saw slowed.
#   3. The reference under the load again, then plain A/As (both sides the same build, expected
#      never FAIL), each started while the script has run less than SECONDS; logs tarred in $OUT.
#   ci/device/ab-campaign.sh RATE_GBPS:CHUNK_MIB SECONDS [MAX_PAIRS]
#   ci/device/ab-campaign.sh aa SECONDS [MAX_PAIRS]   steps 1 and 2 left out: A/As only (a second
#                                                     machine, once the load was measured on one)
set -uo pipefail
cd "$(dirname "$0")/../.."
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 NO_COLOR=1
load=${1:-3.5:4} budget=${2:-300} max_pairs=${3:-12}
rate=${load%%:*} chunk=${load##*:}
fg=${FG:-build/device/harness/cli/fabricgate}
suite=ci/device/suites/hostcopy.json
out="${OUT:-/tmp/out}"
dir="$out/ab-campaign"
mkdir -p "$dir"
# The summary sorts first among what comes back from the device (a limited number of files).
say() { echo "$*" | tee -a "$out/0-summary.txt"; }
[[ -x "$fg" ]] || { say "no $fg: the build failed"; exit 1; }
verdict() { grep -m1 -E '^(PASS|FAIL|UNDECIDED|NOISY|BIMODAL|TWO-STATES|NOT JUDGED)' "$1" | cut -c1-220; }
ab() {  # ab NAME SECONDS ARGS...: one `fabricgate ab`, its line in the table
  local name=$1 limit=$2 t0=$SECONDS rc
  shift 2
  timeout "$limit" "$fg" ab --suite "$suite" --max-pairs "$max_pairs" --results-dir "$dir/$name" \
    --a label=plain "$@" >"$dir/$name.log" 2>&1
  rc=$?
  say "| $name | $rc | $((SECONDS - t0)) | $(verdict "$dir/$name.log") |"
  # The launches so far come back even when the device call ends at its limit mid-campaign.
  tar -C "$dir" -czf "$out/ab-campaign.tgz" .
  return "$rc"
}
say "ab campaign on $(nvidia-smi --query-gpu=uuid,name --format=csv,noheader) host $(hostname) at $(date -u +%FT%TZ)"
say "reference alone: $(timeout 60 python3 ci/device/pinned-bw.py 10)"
say "| side B | exit | s | verdict |"
say "|---|---|---|---|"
if [[ $load != aa ]]; then
  timeout 40 python3 ci/device/hostcopy-rate.py "$rate" 25 "$chunk" >/dev/null 2>&1 &
  sleep 3
  say "reference under $rate GB/s ($chunk MiB chunks): $(timeout 30 python3 ci/device/pinned-bw.py 10)"
  wait
  ab load 240 --b "wrap=$PWD/ci/device/with-load.sh $rate $chunk" --b label=loaded
  grep -E '^ *(FAIL|PASS|UNDECIDED|NOISY|TWO-STATES|BIMODAL) ' "$dir/load.log" | cut -c1-200 | tee -a "$out/0-summary.txt"
  timeout 40 python3 ci/device/hostcopy-rate.py "$rate" 25 "$chunk" >/dev/null 2>&1 &
  sleep 3
  say "reference under $rate GB/s, after: $(timeout 30 python3 ci/device/pinned-bw.py 10)"
  wait
fi
i=0
while ((SECONDS < budget)); do
  i=$((i + 1))
  ab "aa-$i" 120 --b label=plain-again
  case $? in 0 | 1 | 3) ;; *) say "aa-$i did not judge (see its log): stopping"; break ;; esac
done
say "A/As: $i, exits: $(grep -c '^| aa-[0-9]* | 0 |' "$out/0-summary.txt") exit 0, $(grep -c '^| aa-[0-9]* | 1 |' "$out/0-summary.txt") exit 1, $(grep -c '^| aa-[0-9]* | 3 |' "$out/0-summary.txt") exit 3"
say "reference alone, at the end: $(timeout 60 python3 ci/device/pinned-bw.py 10)"
tar -C "$dir" -czf "$out/ab-campaign.tgz" . && rm -rf "$dir"
