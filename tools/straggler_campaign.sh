#!/usr/bin/env bash
# STRAGGLER campaign (docs/STRAGGLERS.md): N launches with one rank slowed by a CPU quota (a cgroup
# that only that rank's process is moved into), N clean launches, interleaved, each judged by
# `fabricgate compare` (no baseline needed). Writes per launch a summary and the compressed raw
# run.json, and a table, under OUT.
#
#   tools/straggler_campaign.sh BUILD_DIR OUT [LAUNCHES=10] [RANKS=2] [SLOW_RANK=1] [QUOTA_PCT=10]
#   STRAGGLER_CAUSE=busy tools/straggler_campaign.sh ...   (a competing process instead of a quota)
#
# Every rank is pinned to core (rank mod nproc) by a wrapper around the bench; the wrapper of the
# slowed rank first writes its own pid into the cgroup (cgroup v2 `cpu.max`, or v1
# `cpu.cfs_quota_us`), then execs the bench, so the quota holds that rank's process and nothing
# else. Quota 10 % of a core by default: a quota only slows a process that would otherwise get more
# than it, and on a loaded shared runner a spinning process gets a quarter of a core or less
# (measured: 0.25 CPU s per wall s at load 17), so a 50 % quota slowed nothing there. Period 10 ms
# (the cgroup v1 minimum quota is 1 ms) and a fixed 400 operations per sample (about 10 ms of CPU
# work, so about 100 ms under the quota): every sample spans many throttled periods. Samples sized
# from the warm-up were a few operations long under the quota, most of them fitted inside one
# period's allowance, and the quota showed as rare long stalls (p99), not as a slower rank. The cause is
# measured first: a probe spinning on the slowed core for 2 s reports CPU seconds per wall second,
# outside and inside the cgroup. Needs root (cgroup files). Every loop is bounded by time; the
# cgroup is removed at exit. STRAGGLER_CAUSE=busy slows the rank with the other real cause instead:
# a busy process pinned to the slowed rank's core for the whole slowed launch (no cgroup; the probe
# then measures the core's share with and without that competitor).
set -euo pipefail
build=${1:?build directory}
out=${2:?output directory}
launches=${3:-10}
ranks=${4:-2}
slow_rank=${5:-1}
quota_pct=${6:-10}
cause=${STRAGGLER_CAUSE:-quota}
[[ $cause == quota || $cause == busy ]] || { echo "STRAGGLER_CAUSE must be quota or busy, not '$cause'" >&2; exit 2; }
cores=$(nproc)
slow_core=$((slow_rank % cores))
period_us=10000
quota_us=$((period_us * quota_pct / 100))
cli="$build/harness/fabricgate"
bench="$build/bench/fabricgate-bench"
[ -x "$cli" ] || cli=$(find "$build" -name fabricgate -type f -perm -u+x | head -1)
[ -x "$bench" ] || bench=$(find "$build" -name fabricgate-bench -type f -perm -u+x | head -1)
mkdir -p "$out/launches"
work=$(mktemp -d)

competitor=""
start_competitor() {  # a busy process on the slowed rank's core, bounded by time
  timeout 600 taskset -c "$slow_core" sh -c 'while :; do :; done' &
  competitor=$!
}
stop_competitor() {
  [ -z "$competitor" ] || { kill "$competitor" 2>/dev/null || true; wait "$competitor" 2>/dev/null || true; }
  competitor=""
}
cg=""
if [ "$cause" = busy ]; then
  :
elif [ -f /sys/fs/cgroup/cgroup.controllers ]; then
  cg=/sys/fs/cgroup/fabricgate-straggler-$$
  mkdir "$cg"
  echo "$quota_us $period_us" >"$cg/cpu.max"
else
  cg=/sys/fs/cgroup/cpu/fabricgate-straggler-$$
  mkdir "$cg"
  echo "$period_us" >"$cg/cpu.cfs_period_us"
  echo "$quota_us" >"$cg/cpu.cfs_quota_us"
fi
cleanup() {
  stop_competitor
  # The cgroup is empty once its processes exited; rmdir refuses otherwise (and is retried).
  if [ -n "$cg" ]; then
    for _ in 1 2 3 4 5; do rmdir "$cg" 2>/dev/null && break; sleep 1; done
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# Ranks spin while they wait (Open MPI yields when oversubscribed, docs/STRAGGLERS.md).
export OMPI_MCA_mpi_yield_when_idle=0
cat >"$work/pinned-bench" <<WRAP
#!/bin/sh
rank=\${OMPI_COMM_WORLD_RANK:-0}
if [ -n "\${STRAGGLER_CGROUP:-}" ] && [ "\$rank" = "$slow_rank" ]; then
  echo \$\$ >"\$STRAGGLER_CGROUP/cgroup.procs"
fi
exec taskset -c \$((rank % $cores)) "$bench" "\$@"
WRAP
chmod +x "$work/pinned-bench"
cat >"$work/straggler.json" <<SUITE
{"schema": "fabricgate.suite/1", "name": "straggler", "ranks": $ranks,
 "defaults": {"repetitions": 30, "warmup": 3},
 "benchmarks": [{"family": "coll", "backend": "mpi", "ops": ["all_reduce"], "iterations": 400,
                 "sizes": {"list": [65536]}}]}
SUITE

# The cause, measured: CPU seconds per wall second of a probe spinning on the slowed core for 2 s.
probe() {  # [cgroup]
  python3 - "${1:-}" "$slow_core" <<'PY'
import os, sys, time
cg, core = sys.argv[1], int(sys.argv[2])
os.sched_setaffinity(0, {core})
if cg:
    open(os.path.join(cg, "cgroup.procs"), "w").write(str(os.getpid()))
w0, c0 = time.monotonic(), time.thread_time()
while time.monotonic() - w0 < 2.0:
    pass
print(f"{(time.thread_time() - c0) / (time.monotonic() - w0):.3f}")
PY
}
alone=$(probe)
if [ "$cause" = busy ]; then
  start_competitor
  slowed_share=$(probe)
  stop_competitor
  python3 - "$alone" "$slowed_share" "$slow_core" >"$out/cause.json" <<'PY'
import json, sys
alone, busy, core = sys.argv[1:4]
print(json.dumps({"cause": "a busy process pinned to the slowed rank's core",
                  "probe_core": int(core), "probe_seconds": 2.0,
                  "cpu_per_wall_alone": float(alone),
                  "cpu_per_wall_with_competitor": float(busy)}, indent=1))
PY
  echo "cause: a probe spinning on core $slow_core got $alone CPU s per wall s alone, $slowed_share beside the competitor"
else
  quota=$(probe "$cg")
  python3 - "$alone" "$quota" "$slow_core" "$quota_us" "$period_us" "$cg" >"$out/cause.json" <<'PY'
import json, sys
alone, quota, core, q, p, cg = sys.argv[1:7]
print(json.dumps({"cause": "CPU quota (cgroup) on the slowed rank's process",
                  "cgroup": cg, "quota_us": int(q), "period_us": int(p),
                  "probe_core": int(core), "probe_seconds": 2.0,
                  "cpu_per_wall_outside_cgroup": float(alone),
                  "cpu_per_wall_inside_cgroup": float(quota)}, indent=1))
PY
  echo "cause: a probe spinning on core $slow_core got $alone CPU s per wall s outside the cgroup, $quota inside"
fi

launch() {  # kind index
  local kind=$1 i=$2 results="$work/results-$1-$2"
  local load
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  local rc=0
  if [ "$kind" = slowed ] && [ -n "$cg" ]; then export STRAGGLER_CGROUP=$cg; else unset STRAGGLER_CGROUP; fi
  [ "$kind" != slowed ] || [ "$cause" != busy ] || start_competitor
  timeout 300 "$cli" run --suite "$work/straggler.json" --results-dir "$results" \
    --lock "$work/lock" --bench "$work/pinned-bench" --platform campaign --timeout 240 \
    --no-compare >"$work/run.log" 2>&1 || rc=$?
  stop_competitor
  unset STRAGGLER_CGROUP
  local run_dir
  run_dir=$(ls -d "$results"/campaign/* | head -1)
  local crc=0
  timeout 120 "$cli" compare "$run_dir" --format json --store none >"$work/compare.json" \
    2>/dev/null || crc=$?
  local name
  name=$kind-$(printf %02d "$i")
  gzip -9 -c "$run_dir/run.json" >"$out/launches/$name.run.json.gz"
  python3 - "$kind" "$i" "$rc" "$crc" "$run_dir/run.json" "$work/compare.json" "$slow_rank" \
    "$load" >"$out/launches/$name.json" <<'PY'
import json, sys
kind, i, rc, crc, run_path, cmp_path, slow, load = sys.argv[1:9]
run = json.load(open(run_path))
cmp = json.load(open(cmp_path))
stragglers = [f for f in cmp.get("cluster_findings", []) if f.get("id") == "STRAGGLER"]
keys = [{"key": b["key"], "ranks": b.get("ranks", [])} for b in run["benchmarks"]]
print(json.dumps({"kind": kind, "launch": int(i), "run_exit": int(rc), "compare_exit": int(crc),
                  "loadavg_1_5_15": [float(x) for x in load.split()],
                  "slowed_rank": int(slow) if kind == "slowed" else None,
                  "stragglers": stragglers, "keys": keys}, indent=1))
PY
  echo "$name: run exit $rc, compare exit $crc, load $load"
}

for i in $(seq 1 "$launches"); do
  launch slowed "$i"
  launch clean "$i"
done

python3 - "$out" "$launches" "$slow_rank" "$ranks" >"$out/table.md" <<'PY'
import json, os, socket, sys
out, n, slow, ranks = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
cause = json.load(open(os.path.join(out, "cause.json")))
rows, named, right = [], {"slowed": 0, "clean": 0}, 0
for kind in ("slowed", "clean"):
    for i in range(1, n + 1):
        d = json.load(open(os.path.join(out, "launches", f"{kind}-{i:02d}.json")))
        ranks_t = d["keys"][0]["ranks"] if d["keys"] else []
        found = [f["field"] for f in d["stragglers"]]
        named[kind] += bool(found)
        host = ranks_t[slow]["host"] if len(ranks_t) > slow else "?"
        if kind == "slowed" and found == [f"rank {slow}"] and \
                any(f"host {host}" in f["text"] for f in d["stragglers"]):
            right += 1
        cells = "<br>".join(f"r{r['rank']} {r['host']} CPUs {r['cpu_set']}: slowest {r['slowest']}/{r['count']}, "
                            f"pace p50 {r['p50_us']:.1f}, p99 {r['p99_us']:.1f}, off-CPU p50 {r['wait_p50_us']:.1f}"
                            for r in ranks_t)
        load = " ".join(f"{x:.2f}" for x in d["loadavg_1_5_15"])
        rows.append(f"| {kind} | {i} | {load} | {', '.join(found) or '-'} | {cells} |")
# Clean launches naming none: exact one-sided 95 % upper bound on the false-naming rate.
k = named["clean"]
if k == 0:
    upper = 1 - 0.05 ** (1 / n)
else:
    from math import comb
    lo, hi = k / n, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        tail = sum(comb(n, j) * mid**j * (1 - mid)**(n - j) for j in range(k + 1))
        lo, hi = (mid, hi) if tail > 0.05 else (lo, mid)
    upper = hi
if "quota_us" in cause:
    how = f"under a {cause['quota_us']}/{cause['period_us']} us CPU quota"
    measured = (f"{cause['cpu_per_wall_outside_cgroup']:.3f} CPU s per wall s outside the cgroup, "
                f"{cause['cpu_per_wall_inside_cgroup']:.3f} inside")
else:
    how = "beside a busy process pinned to its core"
    measured = (f"{cause['cpu_per_wall_alone']:.3f} CPU s per wall s alone, "
                f"{cause['cpu_per_wall_with_competitor']:.3f} beside the competitor")
print(f"# STRAGGLER campaign: {ranks} MPI ranks on {os.cpu_count()} cores, {n} launches with "
      f"rank {slow} {how} + {n} clean launches\n")
print(f"- cause measured first: a probe on core {cause['probe_core']} got {measured}")
print(f"- slowed launches naming rank {slow} and its host (and no other rank): **{right} of {n}** "
      f"(any straggler named: {named['slowed']})")
print(f"- clean launches naming any rank: **{k} of {n}**; exact one-sided 95 % upper bound on the "
      f"false-naming rate: {upper:.3f}\n")
print("| launch | # | load avg 1/5/15 min | STRAGGLER named | per rank (times in us per operation) |")
print("|---|---|---|---|---|")
print("\n".join(rows))
PY
cat "$out/table.md"
