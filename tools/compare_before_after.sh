#!/usr/bin/env bash
# Runs `fabricgate compare --format json` on every committed run under results/ with two builds
# (before and after a change) and reports any run whose output or exit code differs. Each run is
# compared twice: as committed (run.json), and as a crashed run that left only its records.jsonl
# (copied alone into a scratch results/<platform>/<run_id>/), which exercises the records reader.
# Usage: tools/compare_before_after.sh OLD_FABRICGATE NEW_FABRICGATE [SUMMARY_FILE]
# Run from the repository root. Exit 0 when every run is identical, 1 when one differs.
set -u
# No results store: compare would create fabricgate.sqlite files inside the committed results/
# tree, and the second binary would then see the first one's runs in its history (DRIFT).
export FABRICGATE_STORE=none
old=${1:?old fabricgate binary} new=${2:?new fabricgate binary} summary=${3:-/dev/stdout}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
runs=0 same=0 differ=0
declare -A codes=()
report=""
compare_one() {  # $1: run directory, $2: label in the report
  local dir=$1 label=$2 old_rc new_rc
  runs=$((runs + 1))
  "$old" compare "$dir" --format json >"$scratch/old.json" 2>"$scratch/old.err"; old_rc=$?
  "$new" compare "$dir" --format json >"$scratch/new.json" 2>"$scratch/new.err"; new_rc=$?
  codes[$old_rc]=$(( ${codes[$old_rc]:-0} + 1 ))
  if [[ $old_rc == "$new_rc" ]] && cmp -s "$scratch/old.json" "$scratch/new.json"; then
    same=$((same + 1))
  else
    differ=$((differ + 1))
    report+="DIFFERS: $label (exit $old_rc -> $new_rc)"$'\n'
    report+=$(diff <(head -c 20000 "$scratch/old.json") <(head -c 20000 "$scratch/new.json") | head -20)$'\n'
  fi
}
while IFS= read -r run; do
  compare_one "$(dirname "$run")" "$(dirname "$run")"
done < <(find results -name run.json | LC_ALL=C sort)
run_json_runs=$runs
n=0
while IFS= read -r records; do
  n=$((n + 1))
  # The platform is read from the path of a crashed run: keep <platform>/<run_id>.
  crashed="$scratch/crashed$n/$(basename "$(dirname "$(dirname "$records")")")/$(basename "$(dirname "$records")")"
  mkdir -p "$crashed" && cp "$records" "$crashed/records.jsonl"
  compare_one "$crashed" "$records (alone)"
done < <(find results -name records.jsonl | LC_ALL=C sort)
{
  echo "fabricgate compare --format json, before vs after, every committed run under results/"
  echo "before: $old ($(stat -c %y "$old" | cut -d. -f1))"
  echo "after:  $new ($(stat -c %y "$new" | cut -d. -f1))"
  echo "comparisons: $runs ($run_json_runs run.json, $((runs - run_json_runs)) records.jsonl alone)"
  echo "identical (stdout and exit code): $same  different: $differ"
  for rc in "${!codes[@]}"; do echo "  exit $rc: ${codes[$rc]} runs"; done | sort
  printf '%s' "$report"
} >"$summary"
[[ $differ == 0 ]]
