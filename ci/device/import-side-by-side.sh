#!/usr/bin/env bash
# One call on a one-GPU machine (nvidia-h200): nvbandwidth's host<->device copy-engine testcases and
# fabricgate's hostcopy keys at the same size (1 GiB, pinned), imported and printed side by side
# key by key; and, when NCCL_TESTS is given, a one-GPU nccl-tests output imported as the P01 error
# it is (exit 2). The tools are built on the machine beforehand (never committed); this only runs them.
#   NVBANDWIDTH=/path/nvbandwidth [NCCL_TESTS=/path/nccl-tests/build] ci/device/import-side-by-side.sh OUT
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: NVBANDWIDTH=... ci/device/import-side-by-side.sh OUTDIR}
nvb=${NVBANDWIDTH:?NVBANDWIDTH: path of an nvbandwidth binary built on this machine}
fg=build/device/harness/cli/fabricgate
mkdir -p "$out"
platform=$("$fg" fingerprint --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["platform_key"])')

cat > "$out/hostcopy-1g.json" <<'JSON'
{"schema": "fabricgate.suite/1", "name": "hostcopy-1g", "ranks": 1,
 "description": "host<->device pinned copies at nvbandwidth's size, for the side-by-side import check",
 "defaults": {"repetitions": 5, "warmup": 3, "target_sample_ms": 20},
 "benchmarks": [{"family": "devcopy", "directions": ["h2d", "d2h"], "memory": ["pinned"], "sizes": {"list": ["1G"]}}]}
JSON
"$fg" run --suite "$out/hostcopy-1g.json" --results-dir "$out/results" --no-compare > "$out/fabricgate-run.txt" 2>&1
native=$(ls -d "$out/results/$platform"/*-hostcopy-1g-default | tail -1)

"$nvb" -j -b 1024 -t host_to_device_memcpy_ce device_to_host_memcpy_ce > "$out/nvbandwidth.json"
"$fg" import nvbandwidth "$out/nvbandwidth.json" --buffer-size 1024 --platform "$platform" \
  --out "$out/results/$platform/import-nvbandwidth" 2>&1 | tee "$out/import-nvbandwidth.txt"

python3 - "$native/run.json" "$out/results/$platform/import-nvbandwidth/run.json" <<'PY' | tee "$out/side-by-side.txt"
import json, sys
native = {b["key"]: b for b in json.load(open(sys.argv[1]))["benchmarks"]}
imported = {b["key"]: b for b in json.load(open(sys.argv[2]))["benchmarks"]}
print(f"{'key':52} {'fabricgate GB/s':>16} {'nvbandwidth GB/s':>17} {'ratio':>7}")
for key in sorted(set(native) & set(imported)):
    a, b = native[key].get("algbw_GBps", 0), imported[key].get("algbw_GBps", 0)
    print(f"{key:52} {a:16.2f} {b:17.2f} {a / b if b else float('nan'):7.3f}")
print("keys only in one:", sorted(set(native) ^ set(imported)))
PY

if [[ -n "${NCCL_TESTS:-}" ]]; then
  "$NCCL_TESTS/all_reduce_perf" -b 8 -e 1M -f 4 -g 1 > "$out/nccl-tests-1gpu.txt" 2>&1
  set +e
  "$fg" import nccl-tests "$out/nccl-tests-1gpu.txt" --platform "$platform" --out "$out/results/$platform/import-1gpu" \
    > "$out/import-1gpu.txt" 2>&1
  echo "one-GPU nccl-tests import: exit $? (2 expected: P01)" | tee -a "$out/import-1gpu.txt"
  set -e
fi
