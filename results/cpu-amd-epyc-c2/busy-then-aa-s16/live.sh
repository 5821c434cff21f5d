#!/usr/bin/env bash
# Issue 50 acceptance, live: on a fresh store, one busy launch (two competing busy processes,
# bounded by timeout), then ten quiet main-job A/A launches; exit and headline per launch.
# Usage: live.sh FABRICGATE OUTDIR   (run from the repository root)
set -uo pipefail
fg=$1; out=$2; mkdir -p "$out/results"
store="sqlite:$out/results/fabricgate.sqlite"
launch() {  # name
  "$fg" run --suite cpu --results-dir "$out/results" --store "$store" > "$out/$1.log" 2>&1
  local rc=$?
  printf '%s\t%s\t%s\t%s\n' "$1" "$rc" "$(date -u +%H:%M:%S)" \
    "$(grep -m1 -E '^(PASS|FAIL|RUNNER|NOT|BELOW|AMBIG)' "$out/$1.log" | tr '\t' ' ')" >> "$out/summary.tsv"
}
printf 'launch\texit\tended_utc\theadline\n' > "$out/summary.tsv"
timeout 120 sh -c 'while :; do :; done' & b1=$!
timeout 120 sh -c 'while :; do :; done' & b2=$!
sleep 2
launch busy-1
kill "$b1" "$b2" 2>/dev/null; wait "$b1" "$b2" 2>/dev/null
sleep 5
for i in $(seq 1 10); do launch "aa-$i"; done
cat "$out/summary.tsv"
