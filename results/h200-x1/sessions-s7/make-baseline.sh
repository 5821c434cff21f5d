#!/usr/bin/env bash
# Rebuilds baselines/h200-x1/p2p.json from the committed A/A launches of five sessions on five
# one-GPU H200 machines (each fresh device start is another machine), and lists the launches used.
# Injected-load launches are left out by run id (they are the last launches of each call).
#   results/h200-x1/sessions-s7/make-baseline.sh FABRICGATE OUT.json [SESSION...]
# SESSION names which machines to use (A B C D E G H, default all; G and H are the live-gated
# machines of ../sessions-s8, judged live against the A-E baseline before they joined it): leave-one-session-out baselines
# are made by naming the other four. With MODE=calibrate the same launches go to
# `fabricgate calibrate --by-session` instead and OUT is its table; with MODE=extract OUT is a
# directory that receives each machine's A/A run directories as OUT/<machine>/<run-id>/ (for
# replays such as tools/drift_replay.py).
set -euo pipefail
fg=${1:?fabricgate binary} out=${2:?output baseline}
shift 2
sessions=("$@")
((${#sessions[@]})) || sessions=(A B C D E G H)
here=$(cd "$(dirname "$0")" && pwd)
x1=$(cd "$here/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar -xzf "$x1/trust-session5/results.tar.gz" -C "$tmp" --one-top-level=B
mkdir -p "$tmp/C" "$tmp/D" "$tmp/E"
tar -xzf "$x1/trust-session6/trust-call3.tgz" -C "$tmp/C"
tar -xzf "$x1/trust-session6/verify-call4.tgz" -C "$tmp/C"
tar -xzf "$here/machine-d/session.tgz" -C "$tmp/D"
tar -xzf "$here/machine-e/session.tgz" -C "$tmp/E"
mkdir -p "$tmp/G" "$tmp/H"
tar -xzf "$x1/sessions-s8/machine-g/live.tgz" -C "$tmp/G"
tar -xzf "$x1/sessions-s8/machine-h/live.tgz" -C "$tmp/H"
injected='20261201T08(4949|5007|5025)Z|20261201T101041Z|20261201T122623Z|20261201T123322Z|20261201T19(1001|1012|1058|1112)Z|20261201T193(224|238|327|341)Z|20261201T221823Z|20261201T2227(16)Z|20261201T222905Z'
runs_of() {  # runs_of MACHINE: its A/A run directories, oldest first
  case $1 in
    A) find "$x1" -maxdepth 1 -name '20261201T08*-p2p-default' ;;
    *) find "$tmp/$1" -name run.json -path '*-p2p-default/run.json' ! -path '*/confirm*' -printf '%h\n' ;;
  esac | grep -vE "$injected" | sort
}
args=()
for s in "${sessions[@]}"; do
  mapfile -t r < <(runs_of "$s")
  echo "machine $s: ${#r[@]} A/A launches" >&2
  for d in "${r[@]}"; do args+=(--from "$d"); done
done
if [[ ${MODE:-baseline} == extract ]]; then
  for s in "${sessions[@]}"; do
    mkdir -p "$out/$s"
    mapfile -t r < <(runs_of "$s")
    cp -r "${r[@]}" "$out/$s/"
  done
  exit 0
fi
if [[ ${MODE:-baseline} == calibrate ]]; then
  "$fg" calibrate "${args[@]}" --by-session --out "$out"
else
  "$fg" baseline create "${args[@]}" --out "$out"
fi
