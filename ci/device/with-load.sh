#!/usr/bin/env bash
# ci/device/with-load.sh RATE_GBPS CHUNK_MIB CMD...: runs CMD while a paced pinned host<->device
# copier (hostcopy-rate.py) loads the same GPU, and stops the copier when CMD ends. A wrapper for
# one side of `fabricgate ab` (--b wrap=...): that side's ranks carry a load whose cost PyTorch
# measures separately (pinned-bw.py), so the paired check can be shown to fail on a measured loss.
set -uo pipefail
rate=${1:?RATE_GBPS} chunk=${2:?CHUNK_MIB}
shift 2
here=$(cd "$(dirname "$0")" && pwd)
timeout 600 python3 "$here/hostcopy-rate.py" "$rate" 590 "$chunk" >/dev/null 2>&1 &
load=$!
sleep 2  # the copier's CUDA context is up before the measurement starts
"$@"
rc=$?
kill "$load" 2>/dev/null
wait "$load" 2>/dev/null
exit "$rc"
