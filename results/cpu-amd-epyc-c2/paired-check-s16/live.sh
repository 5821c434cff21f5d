#!/usr/bin/env bash
# Issue 51 acceptance, live on this CPU box: the README's main job (`fabricgate run --suite cpu`,
# committed baselines) on an EMPTY store for every launch (a fresh runner), with a harmless setting
# (NCCL_DEBUG=WARN, OMPI_MCA_btl_base_verbose=0: what the default already does), unchanged, and
# with Open MPI forced onto TCP. Exit and change line per launch in summary.tsv.
# Usage: live.sh FABRICGATE OUTDIR   (run from the repository root)
set -uo pipefail
fg=$1; out=$2; mkdir -p "$out"
printf 'launch\tsetting\texit\tended_utc\theadline\tchange\n' > "$out/summary.tsv"
launch() {  # name setting...
  local name=$1; shift
  rm -rf "$out/work"; mkdir -p "$out/work"
  env "$@" "$fg" run --suite cpu --results-dir "$out/work/results" \
    --store "sqlite:$out/work/store.sqlite" --heartbeat 0 > "$out/$name.log" 2>&1
  local rc=$?
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "${*:-none}" "$rc" "$(date -u +%H:%M:%S)" \
    "$(grep -m1 -E '^(PASS|FAIL|RUNNER|NOT|BELOW|AMBIG|NO BASE)' "$out/$name.log" | cut -c1-160)" \
    "$(grep -m1 '^Change:' "$out/$name.log" | cut -c1-400)" >> "$out/summary.tsv"
  # Keep the paired check's decision and the comparison of the TCP launches.
  if compgen -G "$out/work/results/*/*/paired-check.json" > /dev/null; then
    mkdir -p "$out/kept/$name"; cp "$out"/work/results/*/*/paired-check.json "$out/kept/$name/"
    cp "$out"/work/results/*/*/paired/ab.json "$out/kept/$name/" 2>/dev/null
  fi
}
for i in 1 2 3; do launch "unchanged-$i"; done
for i in $(seq 1 10); do launch "nccl-debug-warn-$i" NCCL_DEBUG=WARN; done
for i in $(seq 1 10); do launch "btl-verbose-0-$i" OMPI_MCA_btl_base_verbose=0; done
for i in 1 2 3; do launch "tcp-$i" OMPI_MCA_btl=tcp,self; done
rm -rf "$out/work"
cut -f1-5 "$out/summary.tsv"
