#!/usr/bin/env bash
# Shows that include_boundaries.sh can fail: in a scratch tree it must pass clean files and the
# allowed node-facts include, and fail (exit 1, naming the file) on each forbidden include.
# Usage: include_boundaries_selftest.sh PATH_TO_include_boundaries.sh
set -u
check=${1:?include_boundaries.sh}
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
mkdir -p "$tree/core" "$tree/bench/engine" "$tree/harness/gate" "$tree/harness/stats" "$tree/harness/baseline"
reset_tree() {
  printf '#include <string>\n#include "core/errors.hpp"\n' >"$tree/core/a.hpp"
  printf '#include "core/json_file.hpp"\n#include "harness/fingerprint/node_facts.hpp"\n' >"$tree/bench/engine/b.cpp"
  printf '#include "core/suite.hpp"\n#include "harness/model/baseline.hpp"\n' >"$tree/harness/gate/c.cpp"
  printf '#include <cmath>\n' >"$tree/harness/stats/s.cpp"
  printf '#include "harness/gate/c.hpp"\n' >"$tree/harness/baseline/d.cpp"
  printf '#include "harness/stats/s.hpp"\n' >"$tree/harness/gate/e.cpp"
}
failures=0
expect() {  # $1: expected exit, $2: text the output must contain ("" for none), $3: label
  local out rc
  out=$(bash "$check" "$tree" 2>&1); rc=$?
  if [[ $rc != "$1" ]] || [[ -n $2 && $out != *"$2"* ]]; then
    echo "FAIL: $3: exit $rc (want $1), output: $out"
    failures=$((failures + 1))
  else
    echo "ok: $3"
  fi
}
reset_tree
expect 0 "" "clean tree with the allowed node-facts include passes"
reset_tree; printf '#include "harness/model/baseline.hpp"\n' >>"$tree/core/a.hpp"
expect 1 "core/a.hpp:3" "core including harness/ is caught"
reset_tree; printf '  #  include "bench/engine/record.hpp"\n' >>"$tree/core/a.hpp"
expect 1 "core/a.hpp:3" "core including bench/ (indented) is caught"
reset_tree; printf '#include "harness/analysis/capture_json.hpp"\n' >>"$tree/bench/engine/b.cpp"
expect 1 "bench/engine/b.cpp:3" "bench including harness/ other than node facts is caught"
reset_tree; printf '#include "bench/capture/profiler_plugin.hpp"\n' >>"$tree/harness/gate/c.cpp"
expect 1 "harness/gate/c.cpp:3" "harness including bench/ is caught"
reset_tree; printf '#include "harness/baseline/d.hpp"\n' >>"$tree/harness/gate/c.cpp"
expect 1 "harness/gate/c.cpp:3" "the gate including baseline/ (a layer above it) is caught"
reset_tree; printf '#include "harness/model/baseline.hpp"\n' >>"$tree/harness/stats/s.cpp"
expect 1 "harness/stats/s.cpp:2" "pure statistics including harness/ is caught"
reset_tree; printf '#include "harness/gate/e.hpp"\n' >"$tree/harness/stats/s.cpp"
expect 1 "harness/stats/s.cpp:1" "statistics including the gate is caught"
reset_tree; printf '#include "harness/gate/c.hpp"\n' >"$tree/harness/gate/e.hpp"; printf '#include "harness/gate/e.hpp"\n' >>"$tree/harness/gate/c.cpp"
expect 1 "harness/gate/c <-> harness/gate/e" "two files that include each other are caught"
[[ $failures == 0 ]]
