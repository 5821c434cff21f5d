#!/usr/bin/env bash
# Roofline check on a one-GPU H200, after ci/device/build.sh:
#   ci/device/roofline.sh
# 1. `fabricgate run --suite p2p` with no baseline: the first run on a platform is judged against
#    the roofline (policies/roofline.json) and must pass (exit 0) with "% of roofline" shown;
# 2. the same run with its fingerprint edited to a PCIe link trained at Gen5 x8 (maximum Gen5 x16)
#    and the host-copy rates halved, judged by `fabricgate compare`: must exit 1 BELOW-ROOFLINE
#    naming the link.
# Everything lands in $OUT/roofline; the table is printed at the end.
set -uo pipefail
cd "$(dirname "$0")/../.."
export NCCL_NVLS_ENABLE=0 NO_COLOR=1
OUT=${OUT:-/tmp/out}
dir="$OUT/roofline"
mkdir -p "$dir/results" "$dir/no-baselines"
fg=${FG:-build/device/harness/cli/fabricgate}
timeout 240 "$fg" run --suite p2p --results-dir "$dir/results" --baselines-dir "$dir/no-baselines" \
  --lock /tmp/fg-roofline.lock >"$dir/run.log" 2>&1
echo "first run (no baseline): exit $?"
run=$(find "$dir/results" -name run.json -printf '%h\n' | grep -v /confirm | sort | tail -1)
[ -n "$run" ] || { echo "no run directory"; tail -40 "$dir/run.log"; exit 1; }
sed -n '/^roofline (/,/^$/p' "$dir/run.log"
grep -E "^(NO BASELINE|FAIL|PASS)|judged|baseline create|session" "$dir/run.log" | head -8
"$fg" compare "$run" --baselines-dir "$dir/no-baselines" --format json --out "$dir/first-run.json"
python3 - "$dir/first-run.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
print(f"{'key':58} {'tier':16} {'measured':>9} {'ceiling':>8} {'%roof':>6} {'floor':>5} status")
for k in c["keys"]:
    r = k.get("roofline")
    if not r or "ceiling_GBps" not in r:
        continue
    floor = "-" if r["floor"] is None else f"{100 * r['floor']:.0f}%"
    print(f"{k['key'][:58]:58} {r['tier'][:16]:16} {r['measured_GBps']:9.1f} {r['ceiling_GBps']:8.1f} "
          f"{r['percent_of_roofline']:6.1f} {floor:>5} {r['status']}{' DIP' if r['dip'] else ''}")
print("exit", c["exit_code"], "|", c["headline"])
PY
# The variant: a link trained at Gen5 x8 and host copies at half rate, judged without a baseline.
variant="$dir/variant-gen5x8"
rm -rf "$variant" && mkdir -p "$variant"
python3 - "$run/run.json" "$variant/run.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for d in doc["fingerprint"]["gpus"]["devices"]:
    d["pcie"].update(current_gen=5, current_width=8, downtrained=True)
for b in doc["benchmarks"]:
    if b["family"] != "hostcopy" or b["status"] != "ok":
        continue
    b["algbw_GBps"] /= 2
    b["samples"]["algbw_GBps"] = [v / 2 for v in b["samples"]["algbw_GBps"]]
    b["time_us"] *= 2
    b["samples"]["time_us"] = [v * 2 for v in b["samples"]["time_us"]]
    b["warmup_us"] = b.get("warmup_us", 0) * 2
    b["notes"] = []
json.dump(doc, open(sys.argv[2], "w"))
PY
"$fg" compare "$variant" --baselines-dir "$dir/no-baselines" >"$dir/variant.log" 2>&1
echo "Gen5 x8 variant with halved host copies: exit $? (expected 1)"
grep -E "^BELOW-ROOFLINE" -A1 "$dir/variant.log" | head -6
