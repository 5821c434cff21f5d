#!/usr/bin/env bash
# STRAGGLER and hang forensics at 3 and 4 MPI ranks on the GPU machine's 16 CPU cores (the GPU is
# not used): the CI kind has 2 cores, so more than 2 ranks there would share cores and every
# "clean" launch would hold a real straggler (a rank that shares its core). After
# ci/device/build.sh built build/device.
#   ci/device/rank-faults.sh PART     PART: quota4 (4 ranks, rank 2 under a CPU quota, plus a
#                                     4-rank hang campaign) or busy3 (3 ranks, rank 1 beside a busy
#                                     process pinned to its core, plus a 3-rank hang campaign)
# Falls back from the quota to the busy process when this machine's cgroups are read-only.
# Output: $OUT/rank-faults/<part>/ (tables, per-launch summaries, raw run.json.gz).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
export NCCL_NVLS_ENABLE=0 NO_COLOR=1
part=${1:?quota4 or busy3}
out="${OUT:-/tmp}/rank-faults/$part"
rm -rf "$out" && mkdir -p "$out"
build=build/device
case $part in
  quota4)
    ranks=4 slow=2
    if ! timeout 400 tools/straggler_campaign.sh "$build" "$out/stragglers" 10 $ranks $slow 10 >"$out/stragglers.log" 2>&1; then
      echo "quota campaign failed (cgroups?): $(tail -3 "$out/stragglers.log")"
      rm -rf "$out/stragglers"
      STRAGGLER_CAUSE=busy timeout 400 tools/straggler_campaign.sh "$build" "$out/stragglers" 10 $ranks $slow >"$out/stragglers.log" 2>&1
    fi
    ;;
  busy3)
    ranks=3 slow=1
    STRAGGLER_CAUSE=busy timeout 400 tools/straggler_campaign.sh "$build" "$out/stragglers" 10 $ranks $slow >"$out/stragglers.log" 2>&1
    ;;
  *) echo "PART must be quota4 or busy3, not '$part'"; exit 2 ;;
esac
echo "straggler campaign: exit $?"
head -4 "$out/stragglers/table.md" 2>/dev/null
timeout 200 tools/hang_campaign.py "$build" "$out/hang" 4 $ranks $((ranks - 1)) 25 >"$out/hang.log" 2>&1
echo "hang campaign: exit $?"
head -4 "$out/hang/table.md" 2>/dev/null || tail -5 "$out/hang.log"
