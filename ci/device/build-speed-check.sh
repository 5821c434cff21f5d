#!/usr/bin/env bash
# On the GPU machine: the build-speed settings (precompiled headers, unity builds; docs/BUILD.md)
# with its compiler and CUDA, then the checks that a build change cannot silently break there:
# every shipped suite registers the keys of tests/data/suite-keys/ (two ranks, as the test on the
# CPU box), and one `p2p` launch runs and is judged. Prints a table last; logs under $OUT.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
# Work files in $work; only logs.tgz and table.md go to $OUT (the device tool returns few files).
work=$(mktemp -d /tmp/build-speed-check.XXXXXX)
final=${OUT:-$work}
out=$work
export NCCL_NVLS_ENABLE=0
[[ -d .deps/root/usr/lib/x86_64-linux-gnu ]] &&
  export LD_LIBRARY_PATH="$PWD/.deps/root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
start=$(date +%s)
ci/device/build.sh >"$out/build.txt" 2>&1
build_rc=$?
build_s=$(($(date +%s) - start))
cp build/device/build.log "$out/build.log" 2>/dev/null
grep -c 'invalid-pch\|not used because' build/device/build.log >"$out/invalid-pch-count.txt" 2>/dev/null
rows=()
rows+=("build (Release, ${build_s} s wall, $(nproc) cores)|rc ${build_rc}, $(grep -c 'Unity/unity_' build/device/build.log 2>/dev/null) unity units, invalid-pch warnings $(cat "$out/invalid-pch-count.txt")")
bench=build/device/bench/fabricgate-bench
same=0 differ=0
for s in suites/*.json; do
  name=$(basename "$s" .json)
  rm -rf /tmp/fgk
  timeout 120 mpirun -np 2 --allow-run-as-root --oversubscribe -x NCCL_NVLS_ENABLE -x LD_LIBRARY_PATH \
    --output-filename /tmp/fgk "$bench" --suite "$s" --benchmark_list_tests=true >/dev/null 2>&1
  LC_ALL=C sort -u /tmp/fgk/1/rank.0/stdout 2>/dev/null | grep . >"$out/keys-$name.txt"
  if cmp -s "$out/keys-$name.txt" <(LC_ALL=C sort -u "tests/data/suite-keys/$name.txt"); then
    same=$((same + 1))
  else
    differ=$((differ + 1))
    echo "$name: $(wc -l <"$out/keys-$name.txt") keys here, $(wc -l <"tests/data/suite-keys/$name.txt") listed" >>"$out/keys-differ.txt"
  fi
done
rows+=("suites registering their listed keys|${same} same, ${differ} differ")
timeout 300 build/device/harness/cli/fabricgate run --suite p2p --results-dir "$out/results" --store none \
  >"$out/p2p-run.txt" 2>&1
run_rc=$?
rows+=("fabricgate run --suite p2p|exit ${run_rc}: $(grep -m1 -E 'PASS|FAIL|NOT JUDGED|NO BASELINE|RUNNER' "$out/p2p-run.txt" | cut -c1-110)")
{
  echo "| check | result |"
  echo "|---|---|"
  for r in "${rows[@]}"; do echo "| ${r%%|*} | ${r#*|} |"; done
} >"$out/table.md"
(cd "$out" && tar czf "$final/logs.tgz" . 2>/dev/null)
[[ $final == "$out" ]] || cp "$out/table.md" "$final/table.md"
echo
cat "$out/table.md"
