#!/usr/bin/env bash
# NCCL measurement modes and hang handling on a machine with 2 GPUs, after
# ci/device/build.sh has built build/device. One call, about a minute:
#   1. one process per GPU: all_reduce, alltoall, gather, scatter (grouped send/recv) plus all_reduce
#      in CUDA-graph mode: data checked, keys of the graph mode end in /graph and params say so;
#   2. one process driving both GPUs (gpus_per_process 2, P02): nranks 2, keys and records say gpp:2,
#      also in graph mode;
#   3. a real NCCL hang (the two ranks disagree on reduce's root, so both wait to receive): the
#      bench aborts the communicator at --hang-timeout, names the benchmark, skips the rest, exits 3;
#   4. through the harness: a baseline of 3 one-process-per-GPU runs, then an in-process run
#      against it is refused with exit 2 naming P02.
# Prints a compact table; logs, suites and records go to $OUT/nccl-modes (or /tmp/nccl-modes).
# Exit 0 when every check passed.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
export NCCL_NVLS_ENABLE=0  # NVLink multicast stays off on the shared machine
out="${OUT:-/tmp}/nccl-modes"
rm -rf "$out" && mkdir -p "$out"
bench=build/device/bench/fabricgate-bench
fg=build/device/harness/cli/fabricgate
[[ -x $bench ]] || { echo "no $bench: run ci/device/build.sh first"; exit 2; }
mpi=(mpirun --allow-run-as-root --oversubscribe -x NCCL_NVLS_ENABLE)
failed=0

suite() {  # suite NAME JSON-OF-EXTRA-FIELDS: writes $out/NAME.json
  python3 - "$out/$1.json" "$1" "$2" <<'PY'
import json, sys
path, name, extra = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
doc = {"schema": "fabricgate.suite/1", "name": name, "env": {"NCCL_NVLS_ENABLE": "0"},
       "defaults": {"repetitions": 3, "warmup": 3, "target_sample_ms": 5}}
doc.update(extra)
json.dump(doc, open(path, "w"), indent=1)
PY
}
step() {  # step LABEL EXPECTED-EXIT CMD...: runs, records exit code and seconds
  local label=$1 want=$2
  shift 2
  local t0=$SECONDS
  timeout "${STEP_TIMEOUT:-90}" "$@" >"$out/$label.log" 2>&1
  local rc=$?
  printf '%-10s exit %-3s (want %s) %3d s\n' "$label" "$rc" "$want" $((SECONDS - t0))
  [[ $rc == "$want" ]] || { failed=1; tail -5 "$out/$label.log"; }
}
check() {  # check LABEL RECORDS PYTHON-ASSERTIONS: table of the records + assertions
  python3 - "$1" "$2" "$3" <<'PY' || failed=1
import json, sys
label, path, code = sys.argv[1:]
lines = [json.loads(l) for l in open(path)]
recs = [l for l in lines if l["type"] == "benchmark"]
header = next((l for l in lines if l["type"] == "header"), {})
footer = next((l for l in lines if l["type"] == "footer"), {})
for r in recs:
    t = f'{r["time_us"]:9.1f} us {r.get("busbw_GBps", 0):7.2f} GB/s' if r["status"] == "ok" else r["message"][:70]
    print(f'  {r["key"]:<66} {r["status"]:<7} {t}')
bad = []
def expect(cond, what):
    if not cond: bad.append(what)
exec(code)
print(f"  {label}: " + ("all checks passed" if not bad else "FAILED: " + "; ".join(bad)))
sys.exit(1 if bad else 0)
PY
}

# 1. One process per GPU.
suite per-gpu '{"benchmarks": [
  {"family": "coll", "backend": "nccl", "ops": ["all_reduce", "alltoall", "gather", "scatter"], "root": 1,
   "sizes": {"list": [8192, 1048576, 67108864]}},
  {"family": "coll", "backend": "nccl", "ops": ["all_reduce"], "graph": true, "sizes": {"list": [8192, 1048576, 67108864]}}]}'
step per-gpu 0 "${mpi[@]}" -np 2 "$bench" --suite "$out/per-gpu.json" --records "$out/per-gpu.jsonl"
check per-gpu "$out/per-gpu.jsonl" '
expect(len(recs) == 15, f"15 records, found {len(recs)}")
expect(all(r["status"] == "ok" and r["wrong_elements"] == 0 for r in recs), "every benchmark ok with correct data")
graph = [r for r in recs if r["key"].endswith("/graph")]
expect(len(graph) == 3 and all(r["params"].get("graph") is True for r in graph), "3 graph records labelled in params")
plain = {r["key"] for r in recs if not r["key"].endswith("/graph")}
expect(all(r["key"][:-len("/graph")] in plain for r in graph), "each graph key has a stream-launched twin with another key")
for op in ("gather", "scatter"):
    rs = [r for r in recs if r["op"] == op]
    expect(len(rs) == 3 and all(r["busbw_factor"] == 0.5 and "/root:1/" in r["key"] for r in rs), f"{op}: busbw factor (n-1)/n, root 1")
expect(all(r["gpus_per_process"] == 1 and r["nranks"] == 2 for r in recs), "one GPU per process, 2 ranks")
'

# 2. One process, two GPUs (P02 mode), stream-launched and graph.
suite in-process '{"ranks": 1, "gpus_per_process": 2, "benchmarks": [
  {"family": "coll", "backend": "nccl", "ops": ["all_reduce", "all_gather", "sendrecv", "gather", "scatter"],
   "sizes": {"list": [8192, 1048576, 67108864]}},
  {"family": "coll", "backend": "nccl", "ops": ["all_reduce"], "graph": true, "sizes": {"list": [8192, 67108864]}}]}'
step in-process 0 "${mpi[@]}" -np 1 "$bench" --suite "$out/in-process.json" --records "$out/in-process.jsonl"
check in-process "$out/in-process.jsonl" '
expect(len(recs) == 17, f"17 records, found {len(recs)}")
streams = [r for r in recs if not r["key"].endswith("/graph")]
graphs = [r for r in recs if r["key"].endswith("/graph")]
expect(all(r["status"] == "ok" and r["wrong_elements"] == 0 for r in streams), "every stream-launched benchmark ok with correct data")
# Capturing a multi-GPU group from one thread failed on 2x H200 ("operation not permitted when
# stream is capturing"): the bench refuses that combination with a reason instead.
expect(all(r["status"] == "skipped" and "CUDA-graph" in r.get("message", "") for r in graphs), "graph + gpp:2 skipped with a reason")
expect(all(r["gpus_per_process"] == 2 and r["nranks"] == 2 and "/ranks:2/gpp:2/" in r["key"] for r in recs), "labelled gpp:2, nranks 2")
expect(header.get("gpus_per_process") == 2, "header gpus_per_process 2")
expect(sum(r["key"].endswith("/graph") for r in recs) == 2, "2 graph records")
'

# 3. A real NCCL hang: rank 0 reduces to root 0, rank 1 to root 1 (MPMD: each reads its own suite),
# so both wait to receive for ever. The bench must abort at the 10 s deadline and exit 3.
for root in 0 1; do
  suite "hang-root$root" '{"benchmarks": [
    {"family": "coll", "backend": "nccl", "ops": ["reduce"], "root": '"$root"', "sizes": {"list": [1048576]}},
    {"family": "coll", "backend": "nccl", "ops": ["all_reduce"], "sizes": {"list": [1048576]}}]}'
done
t0=$SECONDS
step hang 3 "${mpi[@]}" -np 1 "$bench" --suite "$out/hang-root0.json" --records "$out/hang.jsonl" --hang-timeout 10 \
  : -np 1 "$bench" --suite "$out/hang-root1.json" --hang-timeout 10
hang_s=$((SECONDS - t0))
check hang "$out/hang.jsonl" '
expect(len(recs) == 2, f"2 records, found {len(recs)}")
expect(recs and recs[0]["status"] == "error" and recs[0]["message"].startswith("hung: " + recs[0]["key"] + " did not complete within its 10 s"), "the reduce is hung, named")
expect(len(recs) > 1 and recs[1]["status"] == "skipped" and "hung earlier" in recs[1]["message"], "the benchmark after it is not run")
expect(footer.get("complete") is False and footer.get("hung") == recs[0]["key"], "footer: incomplete, names the hung benchmark")
'
if ((hang_s > 60)); then echo "  hang: FAILED: took ${hang_s} s for a 10 s deadline"; failed=1; fi
grep -q "hung:" "$out/hang.log" && echo "  hang: stderr names it: $(grep -m1 'hung:' "$out/hang.log" | cut -c1-110)"


# 4. The gate never compares the two modes (P02): baseline from a one-process-per-GPU harness run,
# then an in-process run against it must be refused with exit 2.
if [[ -x $fg ]]; then
  suite gate-per-gpu '{"ranks": 2, "benchmarks": [{"family": "coll", "backend": "nccl", "ops": ["all_reduce"], "sizes": {"list": [1048576]}}]}'
  suite gate-in-process '{"ranks": 1, "gpus_per_process": 2, "benchmarks": [{"family": "coll", "backend": "nccl", "ops": ["all_reduce"], "sizes": {"list": [1048576]}}]}'
  for i in 1 2 3; do  # a baseline needs 3 runs
    step "gate-run$i" 0 "$fg" run --suite "$out/gate-per-gpu.json" --results-dir "$out/results" --lock /tmp/fg-modes.lock --no-compare --bench "$bench"
    sleep 1  # run ids carry the second
  done
  mapfile -t runs < <(ls -d "$out"/results/*/*-gate-per-gpu-*)
  from=()
  for r in "${runs[@]}"; do from+=(--from "$r"); done
  step gate-base 0 "$fg" baseline create "${from[@]}" --out "$out/baseline.json"
  step gate-p02 2 "$fg" run --suite "$out/gate-in-process.json" --results-dir "$out/results" --lock /tmp/fg-modes.lock --bench "$bench" --baseline "$out/baseline.json"
  grep -q "P02" "$out/gate-p02.log" && echo "  gate-p02: refusal names P02" || { echo "  gate-p02: FAILED: no P02 in the refusal"; failed=1; }
fi

echo "nccl-modes: $([[ $failed == 0 ]] && echo PASS || echo FAIL) (logs in $out)"
exit $failed
