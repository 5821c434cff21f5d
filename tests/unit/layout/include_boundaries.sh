#!/usr/bin/env bash
# Fails when an #include crosses the layer boundaries of docs/DESIGN.md ("Layout"):
#   core/    includes neither bench/ nor harness/ (it is the bottom of the tree);
#   bench/   includes no harness/ header except the node-facts probe the bench runs on every node;
#   harness/ includes nothing from bench/.
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
exit $status
