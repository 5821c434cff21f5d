#!/usr/bin/env bash
# Evidence on a GPU machine (2x H200): what fabricgate measures and how the gate decides there.
#   ci/device/gpu-evidence.sh STAGE...   stages: fingerprint quick gate reference p2p controls ab overhead emulated
#                                        isolated agrs gpumem gatecheck
# Everything lands in $OUT/ev (the caller tars it). NVLink multicast stays off in every process.
set -uo pipefail
cd "$(dirname "$0")/../.."
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
OUT=${OUT:-/tmp/out}
ev="$OUT/ev"
mkdir -p "$ev"
fg=build/device/harness/cli/fabricgate
res="$ev/results"
summary="$ev/summary.txt"
say() { echo "$*" | tee -a "$summary"; }
run() {  # run LABEL ARGS...: a fabricgate run whose exit code is recorded
  local label=$1
  shift
  local t0=$SECONDS
  NO_COLOR=1 "$fg" run --results-dir "$res" --lock /tmp/fg.lock "$@" >"$ev/$label.log" 2>&1
  local rc=$?
  say "$label: exit $rc in $((SECONDS - t0)) s ($*)"
  grep -E "^(REGRESSION|ALGO-CHANGED|TRANSPORT-CHANGED|WRONG|INVALID|MISSING|AMBIGUOUS)" "$ev/$label.log" | head -12 | tee -a "$summary"
  return 0
}
ab() {  # ab LABEL ARGS...: a fabricgate ab whose exit code and headline are recorded
  local label=$1
  shift
  local t0=$SECONDS
  NO_COLOR=1 "$fg" ab --results-dir "$res" --lock /tmp/fg.lock "$@" >"$ev/$label.log" 2>&1
  say "$label: exit $? in $((SECONDS - t0)) s ($*)"
  grep -iE "verdict|FAIL|PASS|version|changed" "$ev/$label.log" | head -12 | tee -a "$summary"
  return 0
}
latest() { ls -td "$res"/*/*-"$1"-* 2>/dev/null | head -n "${2:-1}"; }

for stage in "$@"; do
  case $stage in
    fingerprint)
      "$fg" fingerprint --json >"$ev/fingerprint.json" 2>"$ev/fingerprint.err"
      say "fingerprint: exit $? platform $(python3 -c "import json;print(json.load(open('$ev/fingerprint.json'))['platform_key'])" 2>/dev/null)"
      nvidia-smi topo -m >"$ev/nvidia-smi-topo.txt" 2>&1
      ;;
    quick)
      run quick-1 --suite quick --no-compare ;;
    gate)
      run quick-2 --suite quick --no-compare
      run quick-3 --suite quick --no-compare
      mapfile -t three < <(latest quick 3)
      plat=$(basename "$(dirname "${three[0]}")")
      "$fg" baseline create $(printf -- '--from %s ' "${three[@]}") --out "$ev/baseline-$plat.json" >"$ev/baseline-create.log" 2>&1
      say "baseline create: exit $? -> baseline-$plat.json"
      run aa --suite quick --baseline "$ev/baseline-$plat.json"
      for inject in ${FG_INJECT:-NCCL_MAX_NCHANNELS=8}; do
        (export "$inject"; run "inject-${inject%%=*}" --suite quick --baseline "$ev/baseline-$plat.json")
      done
      (export NCCL_PROTO=LL128; run proto-LL128 --suite quick --baseline "$ev/baseline-$plat.json")
      (export NCCL_P2P_DISABLE=1; run p2p-disable --suite quick --baseline "$ev/baseline-$plat.json")
      ;;
    reference)
      run fabricgate-reference --suite nccl-reference --no-compare ;;
    p2p)
      run p2p --suite p2p --no-compare --ranks 1 ;;
    controls)
      # Every control scenario in a fresh process; the table shows what each really took (P13/P14/P19).
      run controls --suite controls --no-compare
      for d in $(ls -td "$res"/*/*-controls-* | tac); do
        python3 - "$d/run.json" <<'PY' | tee -a "$summary"
import json, statistics, sys
r = json.load(open(sys.argv[1]))
cap = r.get("capture", {})
ctl = cap.get("control") or {}
bw = {b["key"].split("/")[2] + "@" + b["key"].split("bytes:")[1].split("/")[0]: b.get("busbw_GBps", 0)
      for b in r["benchmarks"] if b.get("status") == "ok"}
print(f"{r['scenario']:>14}: transports={','.join(cap.get('transports', []))} network={cap.get('network') or '-'} "
      f"control_ok={ctl.get('ok', '-')} | {ctl.get('message', '')}")
print(" " * 16 + "busbw GB/s " + " ".join(f"{k}={v:.1f}" for k, v in sorted(bw.items())))
PY
      done ;;
    ab)
      # Issue 9: NCCL 2.28.3 (system) vs the 2.28.9 inside PyTorch's wheel, interleaved, and an A/A.
      nccl_b=$(python3 -c "import nvidia.nccl, os; print(os.path.join(list(nvidia.nccl.__path__)[0], 'lib'))" 2>/dev/null)
      say "candidate NCCL: ${nccl_b:-none found} ($(ls "$nccl_b" 2>/dev/null | tr '\n' ' '))"
      ab ab-upgrade --suite ab-nccl --a label=nccl-system --b label=nccl-pytorch --b "nccl=$nccl_b"
      ab ab-aa --suite ab-nccl --a label=first --b label=second
      # A side that names one library but loads another is an input error (exit 2), not a result.
      sys_nccl=$(ldconfig -p | awk '/libnccl.so.2 /{print $NF; exit}')
      ab ab-wrong-library --suite ab-nccl --pairs 1 --b "nccl=$nccl_b" --b "LD_PRELOAD=$sys_nccl" ;;
    overhead)
      # Issue 4: what the profiler plugin costs at 8 B (B = no profiler: NCCL cannot load the name).
      ab ab-capture-overhead --suite capture-overhead --a label=capture-on --b label=capture-off \
        --b NCCL_PROFILER_PLUGIN=/nonexistent/fabricgate-no-profiler.so ;;
    emulated)
      # Issue 10: NCCL_HOSTID per rank makes one host look like 2 nodes (NET/Socket between them).
      run emulated --suite multinode-emulated --no-compare ;;
    isolated)
      # The all_gather/reduce_scatter 4 GiB gap to nccl-tests: the same sizes in a fresh process.
      run isolated --suite ci/device/suites/ag-rs-isolated.json --no-compare ;;
    agrs)
      # The same gap, three ways in fresh processes: as measured (profiler + NCCL INFO log), with
      # neither (what nccl-tests runs with), and with nccl-tests' operation counts (20 per sample).
      run agrs-default --suite ci/device/suites/ag-rs-isolated.json --no-compare
      (export NCCL_PROFILER_PLUGIN=/nonexistent/fabricgate-no-profiler.so NCCL_DEBUG=WARN
       run agrs-nocapture --suite ci/device/suites/ag-rs-isolated.json --no-compare)
      run agrs-iter20 --suite ci/device/suites/ag-rs-iter20.json --no-compare ;;
    agrs-iter20-only)
      run agrs-iter20 --suite ci/device/suites/ag-rs-iter20.json --no-compare ;;
    gpumem)
      # MPI and libfabric on GPU memory, when the libraries offer it; what they say of themselves.
      { ompi_info --parsable --all 2>&1 | grep -E "built_with_cuda_support:value|mpi_ext" | head -5
        ompi_info 2>&1 | grep -iE "^ +(Open MPI|Package):|pml|ucx" | head -8
        command -v ucx_info >/dev/null && ucx_info -v 2>&1 | head -3 && ucx_info -d 2>&1 | grep -E "Transport: *cuda" | sort -u
        for l in $(ldconfig -p | awk '/libfabric.so.1 /{print $NF}'); do
          echo "$l -> $(readlink -f "$l"): CUDA symbols referenced: $(strings "$l" | grep -cE '^cu(Mem|Pointer|Init|Ipc)')"
        done; } >"$ev/gpumem-libraries.txt" 2>&1
      say "gpumem libraries: $(grep -h 'built_with_cuda_support:value' "$ev/gpumem-libraries.txt" | tr '\n' ' ')"
      run gpumem --suite ci/device/suites/gpu-memory.json --no-compare
      python3 - "$(latest gpu-memory)/run.json" <<'PY' | tee -a "$summary"
import json, sys
for b in json.load(open(sys.argv[1]))["benchmarks"]:
    rate = f"{b['algbw_GBps']:.2f} GB/s algbw" if b.get("status") == "ok" else b.get("message", "")[:150]
    print(f"  {b['key']:<68} {b.get('status'):<8} {rate}")
PY
      ;;
    gatecheck)
      # The quick suite against the committed baseline with the code under test (gate on).
      run gatecheck --suite quick ;;
    *) say "unknown stage $stage" ;;
  esac
done
