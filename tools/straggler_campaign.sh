#!/usr/bin/env bash
# STRAGGLER campaign (docs/STRAGGLERS.md): N launches with one rank slowed by a competing busy
# process pinned to its core, N clean launches, each judged by `fabricgate compare` (no baseline
# needed). Writes the raw launch summaries and a table under OUT.
#
#   tools/straggler_campaign.sh BUILD_DIR OUT [LAUNCHES=10] [RANKS=2] [SLOW_RANK=1]
#
# Every rank is pinned to core (rank mod nproc) by a wrapper around the bench, so the competitor
# shares exactly the slowed rank's core. The cause is measured first: a probe pinned to that core
# counts how much work it gets done in 2 s alone and with the competitor. Every busy loop is bounded
# by `timeout`; every process started here is ended by its own pid.
set -euo pipefail
build=${1:?build directory}
out=${2:?output directory}
launches=${3:-10}
ranks=${4:-2}
slow_rank=${5:-1}
cores=$(nproc)
slow_core=$((slow_rank % cores))
cli="$build/harness/fabricgate"
bench="$build/bench/fabricgate-bench"
[ -x "$cli" ] || cli=$(find "$build" -name fabricgate -type f -perm -u+x | head -1)
[ -x "$bench" ] || bench=$(find "$build" -name fabricgate-bench -type f -perm -u+x | head -1)
mkdir -p "$out"
work=$(mktemp -d)
competitor=""
cleanup() {
  if [ -n "$competitor" ]; then kill "$competitor" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# Ranks spin while they wait (Open MPI yields when oversubscribed, which turns every rank's run
# delay into the machine's load, docs/STRAGGLERS.md "What it cannot see").
export OMPI_MCA_mpi_yield_when_idle=0
cat >"$work/pinned-bench" <<WRAP
#!/bin/sh
exec taskset -c \$((\${OMPI_COMM_WORLD_RANK:-0} % $cores)) "$bench" "\$@"
WRAP
chmod +x "$work/pinned-bench"
cat >"$work/straggler.json" <<SUITE
{"schema": "fabricgate.suite/1", "name": "straggler", "ranks": $ranks,
 "defaults": {"repetitions": 40, "warmup": 3, "target_sample_ms": 20},
 "benchmarks": [{"family": "coll", "backend": "mpi", "ops": ["all_reduce"],
                 "sizes": {"list": [65536]}}]}
SUITE

start_competitor() {
  taskset -c "$slow_core" timeout 600 sh -c 'while :; do :; done' &
  competitor=$!
}
stop_competitor() {
  kill "$competitor" 2>/dev/null || true
  wait "$competitor" 2>/dev/null || true
  competitor=""
}

# The cause, measured: loop iterations a probe pinned to the slowed core completes in 2 s.
probe() {
  taskset -c "$slow_core" timeout 2 sh -c 'n=0; while :; do n=$((n+1)); echo $n > '"$work"'/probe; done' \
    >/dev/null 2>&1 || true
  cat "$work/probe"
}
alone=$(probe)
start_competitor
shared=$(probe)
stop_competitor
python3 - "$alone" "$shared" "$slow_core" >"$out/cause.json" <<'PY'
import json, sys
alone, shared, core = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
print(json.dumps({"probe_core": int(core), "iterations_alone_2s": alone,
                  "iterations_with_competitor_2s": shared,
                  "share_left": shared / alone if alone else None}, indent=1))
PY
echo "cause: probe on core $slow_core did $alone iterations alone, $shared with the competitor"

launch() {  # kind index
  local kind=$1 i=$2 results="$work/results-$1-$2"
  [ "$kind" = slowed ] && start_competitor
  local rc=0
  "$cli" run --suite "$work/straggler.json" --results-dir "$results" --lock "$work/lock" \
    --bench "$work/pinned-bench" --platform campaign --timeout 300 --no-compare \
    >"$work/run.log" 2>&1 || rc=$?
  [ "$kind" = slowed ] && stop_competitor
  local run_dir
  run_dir=$(ls -d "$results"/campaign/* | head -1)
  local crc=0
  "$cli" compare "$run_dir" --format json --store none >"$work/compare.json" 2>/dev/null || crc=$?
  python3 - "$kind" "$i" "$rc" "$crc" "$run_dir/run.json" "$work/compare.json" "$slow_rank" \
    >"$out/$kind-$(printf %02d "$i").json" <<'PY'
import json, sys
kind, i, rc, crc, run_path, cmp_path, slow = sys.argv[1:8]
run = json.load(open(run_path))
cmp = json.load(open(cmp_path))
stragglers = [f for f in cmp.get("cluster_findings", []) if f.get("id") == "STRAGGLER"]
keys = [{"key": b["key"], "ranks": b.get("ranks", [])} for b in run["benchmarks"]]
print(json.dumps({"kind": kind, "launch": int(i), "run_exit": int(rc), "compare_exit": int(crc),
                  "slowed_rank": int(slow) if kind == "slowed" else None,
                  "stragglers": stragglers, "keys": keys}, indent=1))
PY
}

for i in $(seq 1 "$launches"); do
  launch slowed "$i"
  launch clean "$i"
done

python3 - "$out" "$launches" "$slow_rank" >"$out/table.md" <<'PY'
import json, os, sys
out, n, slow = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rows, named = [], {"slowed": 0, "clean": 0}
right = 0
for kind in ("slowed", "clean"):
    for i in range(1, n + 1):
        d = json.load(open(os.path.join(out, f"{kind}-{i:02d}.json")))
        ranks = d["keys"][0]["ranks"] if d["keys"] else []
        found = [f["field"] for f in d["stragglers"]]
        named[kind] += bool(found)
        if kind == "slowed" and f"rank {slow}" in found:
            right += 1
        cells = " ".join(f"r{r['rank']}: {r['slowest']}/{r['count']} p50 {r['p50_us']:.0f} wait {r['wait_p50_us']:.0f}" for r in ranks)
        rows.append(f"| {kind} | {i} | {', '.join(found) or '-'} | {cells} |")
print(f"# STRAGGLER campaign: {n} slowed (rank {slow} shares its core with a busy loop) + {n} clean launches\n")
print(f"- slowed launches naming rank {slow}: **{right} of {n}** (any straggler named: {named['slowed']})")
print(f"- clean launches naming any rank: **{named['clean']} of {n}**\n")
print("| launch | # | STRAGGLER named | per rank: slowest/count, pace p50 us, run delay p50 us |")
print("|---|---|---|---|")
print("\n".join(rows))
PY
cat "$out/table.md"
