#!/usr/bin/env bash
# "Judge the change, not the runner" on a 2-core CPU box (harness/gate/README.md "Two questions"):
# the README's main job (`fabricgate run --suite cpu`, --gate change, the committed baseline of
# this CPU kind found by `run` itself) LAUNCHES times with one results store, so that this box
# builds a history of its own; then the paired check (ci/paired-check, `fabricgate ab`) twice on
# the same box: an A/A pair of sides (both the job's environment) and MPI forced onto TCP loopback
# on side B (OMPI_MCA_btl=tcp,self). Run it on a quiet box (nothing else building).
#   tools/cpu_two_questions.sh OUT_DIR [LAUNCHES] [AB_SUITE]
# OUT_DIR/summary.tsv has one row per launch; the ab runs keep their own directories.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?OUT_DIR} launches=${2:-8} ab_suite=${3:-smoke-mpi}
fg=${FG:-build/ci/harness/cli/fabricgate}
mkdir -p "$out/results"
store="sqlite:$out/store.sqlite"
tsv="$out/summary.tsv"
printf 'label\texit\tchange\trunner\tkeys_outside_fleet\thost_history_runs\tgated\tcpu_pressure\theadline\n' >"$tsv"
for ((i = 1; i <= launches; i++)); do
  NO_COLOR=1 timeout 600 "$fg" run --suite cpu --gate change --results-dir "$out/results" \
    --store "$store" --lock "$out/lock" --report json >"$out/launch-$i.log" 2>&1
  rc=$?
  run=$(ls -td "$out"/results/*/*-cpu-default | head -1)
  python3 - "$run/comparison.json" "launch-$i" "$rc" >>"$tsv" <<'PY'
import json, sys
path, label, rc = sys.argv[1:4]
try:
    c = json.load(open(path))
except Exception:
    print(f"{label}\t{rc}\t-\t-\t-\t-\t-\t-\tno comparison.json"); sys.exit()
gated = sum(1 for k in c["keys"] if k["gated"])
p = c.get("host_cpu_pressure")
print("\t".join([label, rc, c["change"]["verdict"], c["runner"]["verdict"],
                 str(c["runner"]["keys_outside_fleet"]), str(c["change"]["host_history_runs"]),
                 str(gated), "-" if p is None else f"{100 * p:.1f} %", c["headline"][:160]]))
PY
  tail -1 "$tsv" | cut -f1-8
done
: >"$out/aa.env"
printf 'OMPI_MCA_btl=tcp,self\n' >"$out/tcp.env"
for side in aa tcp; do
  FABRICGATE=$fg NO_COLOR=1 timeout 900 ci/paired-check "$out/aa.env" "$out/$side.env" "$ab_suite" \
    --results-dir "$out/ab-$side" --lock "$out/lock" >"$out/ab-$side.log" 2>&1
  echo "paired check $side: exit $? ($(grep -m1 -E '^(PASS|FAIL|UNDECIDED|AMBIGUOUS)' "$out/ab-$side.log" | cut -c1-150))" | tee -a "$out/summary.txt"
done
