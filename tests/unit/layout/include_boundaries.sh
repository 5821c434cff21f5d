#!/usr/bin/env bash
# Fails when an #include crosses the layer boundaries of docs/DESIGN.md ("Layout"):
#   core/    includes neither bench/ nor harness/ (it is the bottom of the tree);
#   bench/   includes no harness/ header except the node-facts probe the bench runs on every node;
#   harness/ includes nothing from bench/;
#   inside harness/, the judging layers only include downwards:
#     stats/ (pure numbers), roofline/ (what the hardware should do: model only)
#     < verdict/ (result data) < cluster/ < gate/ (the per-key verdict)
#     < baseline/, ab/ (built on the gate) — stats/ includes nothing of harness/ at all;
#   no two files of core/ or the judging layers include each other.
# Usage: include_boundaries.sh SOURCE_ROOT. Prints every offending line; exit 1 if there is one.
set -u
root=${1:?source root}
allowed_bench_to_harness='#include "harness/fingerprint/node_facts.hpp"'
status=0
report() {  # $1: rule; stdin: grep -n lines (not a pipe: status must survive)
  local rule=$1 line
  while IFS= read -r line; do
    echo "forbidden include ($rule): $line"
    status=1
  done
}
cd "$root" || exit 2
for d in core bench harness; do
  [[ -d $d ]] || { echo "include_boundaries: $root/$d is not a directory"; exit 2; }
done
# -I: skip binary files; includes may be indented or use spaces after '#'.
report "core/ depends on nothing of ours" \
  < <(grep -rnIE '^[[:space:]]*#[[:space:]]*include[[:space:]]+"(bench|harness)/' core)
report "bench/ may include only $allowed_bench_to_harness" \
  < <(grep -rnIE '^[[:space:]]*#[[:space:]]*include[[:space:]]+"harness/' bench | grep -vF "$allowed_bench_to_harness")
report "harness/ never includes bench/" \
  < <(grep -rnIE '^[[:space:]]*#[[:space:]]*include[[:space:]]+"bench/' harness)
# Layers inside harness/: each folder may include only the folders listed for it (and itself).
layer_rule() {  # $1: folder, $2: folders it may include (regex alternation), $3: rule text
  local dir=$1 allowed=$2
  [[ -d harness/$dir ]] || return 0
  report "$3" < <(grep -rnIE '^[[:space:]]*#[[:space:]]*include[[:space:]]+"harness/' "harness/$dir" |
    grep -vE "#[[:space:]]*include[[:space:]]+\"harness/($dir|$allowed)/")
}
layer_rule stats 'stats' "harness/stats/ is pure statistics: it includes nothing of harness/"
layer_rule roofline 'model' "harness/roofline/ knows the hardware, not the gate: model only"
layer_rule verdict 'model|stats|roofline' "harness/verdict/ (result data) sits below cluster/, gate/, baseline/, ab/"
layer_rule cluster 'model|stats|roofline|verdict' "harness/cluster/ sits below gate/"
# counters/: the runner's counter record and its no-baseline rules (data under model/, which reads
# it); the gate judges with them (runner_evidence), never with the readers beside them.
layer_rule gate 'model|stats|roofline|verdict|cluster|counters' "harness/gate/ never includes baseline/, ab/ or anything above it"
# Mutual includes in core/ and the judging layers: a.x includes b.hpp while b.x includes a.hpp
# (any extension: a .cpp that needs the other module while that one needs it back is a cycle).
judging='harness/stats harness/roofline harness/verdict harness/cluster harness/gate harness/baseline harness/ab'
# shellcheck disable=SC2086
mutual=$(grep -rnIoE '^[[:space:]]*#[[:space:]]*include[[:space:]]+"(core|bench|harness)/[^"]+\.hpp"' core $judging |
  sed -E 's#^([^:]+)\.[a-z]+:[0-9]+:.*"([^"]+)\.hpp"#\1 \2#' | sort -u | awk '$1 != $2' |
  awk '{ pair[$1 " " $2] = 1 } END { for (p in pair) { split(p, a, " "); if ((a[2] " " a[1]) in pair && a[1] < a[2]) print a[1] " <-> " a[2] } }')
[[ -z $mutual ]] || report "no two files include each other" <<<"$mutual"
exit $status
