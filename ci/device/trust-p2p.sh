#!/usr/bin/env bash
# Does the gate cry wolf on a one-GPU H200 (nvidia-h200)? Run it after ci/device/build.sh:
#   ci/device/trust-p2p.sh            (binary: build/device/harness/cli/fabricgate)
# 5 launches of --suite p2p -> baseline; 20 A/A launches with the live gate (confirmation on);
# one launch with a real host-copy regression: a second process (python3 + torch) copying pinned
# host<->device on the same GPU for the run's duration (bounded); then `calibrate` over the A/A
# launches. Everything lands in $OUT/trust; summary.txt has the table. Budget: under 9 minutes
# (a p2p launch takes ~10-20 s on one GPU); each stage is skipped when the time is nearly spent.
set -uo pipefail
cd "$(dirname "$0")/../.."
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 NO_COLOR=1
OUT=${OUT:-/tmp/out}
dir="$OUT/trust"
res="$dir/results"
mkdir -p "$res"
fg=${FG:-build/device/harness/cli/fabricgate}
summary="$dir/summary.txt"
budget_s=${TRUST_BUDGET_S:-520}  # stop starting launches after this (the device call allows 600)
aa_launches=${TRUST_AA:-20}
say() { echo "$*" | tee -a "$summary"; }
left() { echo $((budget_s - SECONDS)); }
latest() { ls -td "$res"/*/*-p2p-default* 2>/dev/null | head -n "$1"; }

say "trust-p2p on $(hostname) $(date -u +%FT%TZ): $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"
for i in 1 2 3 4 5; do
  timeout 120 "$fg" run --suite p2p --results-dir "$res" --lock /tmp/fg-trust.lock --no-compare >"$dir/base-$i.log" 2>&1
  say "baseline launch $i: exit $? at ${SECONDS}s"
done
mapfile -t five < <(latest 5)
"$fg" baseline create $(printf -- '--from %s ' "${five[@]}") --out "$dir/baseline.json" >"$dir/baseline-create.log" 2>&1
say "baseline create from ${#five[@]} launches: exit $?"

printf 'launch\texit\tfirst-failing\tconfirmed\tnote\n' >"$dir/aa.tsv"
aa_fail=0
aa_done=0
aa_dirs=()
for i in $(seq 1 "$aa_launches"); do
  if [ "$(left)" -lt 90 ]; then say "A/A: stopped after $aa_done launches (time budget)"; break; fi
  timeout 120 "$fg" run --suite p2p --results-dir "$res" --lock /tmp/fg-trust.lock --baseline "$dir/baseline.json" \
    --report json >"$dir/aa-$i.log" 2>&1
  rc=$?
  aa_done=$i
  [ "$rc" = 1 ] && aa_fail=$((aa_fail + 1))
  run_dir=$(latest 1)
  aa_dirs+=("$run_dir")
  python3 - "$run_dir/comparison.json" "$i" "$rc" >>"$dir/aa.tsv" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
first = [k for k in c["keys"] if k.get("confirmation")]
fails = [k["key"] for k in c["keys"] if k["fails_gate"]]
print(f"{sys.argv[2]}\t{sys.argv[3]}\t{len(first)}\t{len(fails)}\t{c.get('confirmation_note', '')}")
PY
done
say "A/A: $aa_fail of $aa_done launches failed (exit 1), confirmation on"

# The injected regression: a second process copying to and from the same GPU for the whole run.
if [ "$(left)" -gt 60 ]; then
  timeout 150 python3 ci/device/hostcopy-load.py 140 >"$dir/noise-copier.log" 2>&1 &
  copier=$!
  sleep 5
  timeout 130 "$fg" run --suite p2p --results-dir "$res" --lock /tmp/fg-trust.lock --baseline "$dir/baseline.json" \
    --report json >"$dir/inject-hostcopy.log" 2>&1
  say "injected host-copy load (second process): exit $?"
  kill "$copier" 2>/dev/null
  wait "$copier" 2>/dev/null
  python3 - "$(latest 1)/comparison.json" <<'PY' | tee -a "$summary"
import json, sys
c = json.load(open(sys.argv[1]))
print("  " + c.get("confirmation_note", "no confirmation"))
for k in c["keys"]:
    if k["fails_gate"] or k.get("confirmation"):
        print(f"  {k['verdict']:<12} {k['key']}: {k['reason'][:160]}")
PY
fi

# What the gate can see here: the table from the A/A launches (their first launches, not confirm/).
if [ "${#aa_dirs[@]}" -ge 2 ]; then
  cp "$dir/baseline.json" "$dir/baseline-calibrated.json"
  "$fg" calibrate $(printf -- '--from %s ' "${aa_dirs[@]}") --baseline "$dir/baseline-calibrated.json" --write \
    --out "$dir/calibration.txt" >"$dir/calibrate.log" 2>&1
  say "calibrate --write over ${#aa_dirs[@]} A/A launches into baseline-calibrated.json: exit $?"
  sed -n '1,200p' "$dir/calibration.txt" >>"$summary"
fi

# Out of sample: fresh A/A launches against the calibrated bands, as many as the time allows.
verify_fail=0
verify_done=0
for i in $(seq 1 "${TRUST_VERIFY:-10}"); do
  [ -f "$dir/baseline-calibrated.json" ] || break
  if [ "$(left)" -lt 30 ]; then break; fi
  timeout 60 "$fg" run --suite p2p --results-dir "$res" --lock /tmp/fg-trust.lock \
    --baseline "$dir/baseline-calibrated.json" --report json >"$dir/verify-$i.log" 2>&1
  rc=$?
  verify_done=$i
  [ "$rc" = 1 ] && { verify_fail=$((verify_fail + 1)); grep -E "^(REGRESSION|DRIFT|AMBIGUOUS)" "$dir/verify-$i.log" | head -4 >>"$summary"; }
done
say "fresh A/A against the calibrated bands: $verify_fail of $verify_done launches failed (exit 1)"
say "done in ${SECONDS}s"
