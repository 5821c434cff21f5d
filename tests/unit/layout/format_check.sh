#!/usr/bin/env bash
# Fails when a tracked C++ or CUDA file differs from what clang-format makes of it with the
# project's .clang-format, naming each file. Usage: format_check.sh SOURCE_ROOT
# Skipped (exit 0 with a reason) when clang-format or git is missing: the formatter is a tool of
# the development and CI machines, not a build dependency. results/ holds evidence, not product code.
set -u
root=${1:?source root}
cd "$root" || exit 2
command -v clang-format >/dev/null || { echo "format_check: clang-format not installed: skipped"; exit 0; }
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || { echo "format_check: not a git checkout: skipped"; exit 0; }
# One clang-format process per batch of files; each finding is "FILE:LINE:COL: error: ...".
out=$(git ls-files -z -- '*.cpp' '*.hpp' '*.cu' '*.cuh' '*.h' ':!results/' |
  xargs -0 -n 200 clang-format --dry-run -Werror --style=file 2>&1 >/dev/null)
files=$(grep -oE '^[^:]+:[0-9]+:[0-9]+: error' <<<"$out" | cut -d: -f1 | sort -u)
if [[ -n $files ]]; then
  while IFS= read -r f; do echo "not formatted: $f (clang-format -i $f)"; done <<<"$files"
  exit 1
fi
echo "format_check: $(git ls-files -- '*.cpp' '*.hpp' '*.cu' '*.cuh' '*.h' ':!results/' | wc -l) files as clang-format leaves them"
