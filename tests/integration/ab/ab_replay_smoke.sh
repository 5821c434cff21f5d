#!/bin/sh
# ab_replay on one committed CPU session (30 launches): 20 A/As, every one judged, none failing
# beyond what the 95 % bound allows at this count; the tool's table has its "all" row.
set -eu
tool=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar -xzf "$src/results/cpu-amd-epyc-c2/sessions-s9/launches.tgz" -C "$tmp"
"$tool" --trials 20 --baseline "$src/baselines/cpu-amd-epyc-c2/cpu.json" "amd-s9=$tmp" >"$tmp/out.txt"
cat "$tmp/out.txt"
# "all" row: group launches A/As FAIL ...: 20 A/As judged, at most 1 false FAIL.
awk '$1 == "all" { if ($3 != 20 || $4 > 1) exit 1; found = 1 } END { exit found ? 0 : 1 }' "$tmp/out.txt"
