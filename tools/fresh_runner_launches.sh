#!/usr/bin/env bash
# The README's main job as a fresh runner would run it (issue 51): N launches of `fabricgate run
# --suite cpu`, each with an empty results store of its own (an ephemeral runner, a new runner, a
# cleaned results directory), with one setting in the environment (or none). One TSV row per
# launch: label, setting, exit code, headline, Change: line; the runs stay under OUT/results.
#   tools/fresh_runner_launches.sh OUT LABEL N [NAME=VALUE]
set -euo pipefail
out=$1 label=$2 n=$3 setting=${4:-}
fg=${FABRICGATE:-build/ci/harness/cli/fabricgate}
mkdir -p "$out/results" "$out/stores"
tsv=$out/launches.tsv
[[ -f $tsv ]] || printf 'label\tsetting\tlaunch\texit\theadline\tchange\n' >"$tsv"
for i in $(seq 1 "$n"); do
  store=$out/stores/$label-$i.sqlite
  log=$out/$label-$i.log
  code=0
  if [[ -n $setting ]]; then
    env "$setting" "$fg" run --suite cpu --results-dir "$out/results" --store "sqlite:$store" >"$log" 2>&1 || code=$?
  else
    "$fg" run --suite cpu --results-dir "$out/results" --store "sqlite:$store" >"$log" 2>&1 || code=$?
  fi
  head_line=$(grep -m1 -E '^(PASS|FAIL|RUNNER|INCOMPLETE|NO BASELINE)' "$log" || true)
  change=$(grep -m1 '^Change:' "$log" || true)
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$label" "${setting:-none}" "$i" "$code" "$head_line" "$change" >>"$tsv"
  echo "fresh_runner_launches: $label $i/$n exit $code: ${head_line:0:100}"
done
