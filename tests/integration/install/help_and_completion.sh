#!/usr/bin/env bash
# Every command's --help ends with an example; the man page built from --help (help2man) has a
# section per subcommand; the bash completion, which reads --help at completion time, completes
# subcommands, nested subcommands, options, CLI11 choice lists and suite names.
# Usage: help_and_completion.sh FABRICGATE COMPLETION_SCRIPT MAN_PAGE_GZ REPO_ROOT
set -euo pipefail
fg=$1
completion=$2
manpage=$3
root=$4
fail() { echo "FAIL: $*"; exit 1; }

subcommands() {
  "$fg" "$@" --help | awk 'tolower($0) ~ /^subcommands:/ { inside = 1; next }
                           inside && /^[ \t]+[a-z][a-z0-9-]*/ { print $1; next }
                           inside && NF { inside = 0 }'
}
checked=0
check_examples() {
  local text sub
  text=$("$fg" "$@" --help)
  grep -Eq '^Examples?:' <<<"$text" || fail "fabricgate $* --help has no Example"
  grep -Eq "^  fabricgate $1( |$)" <<<"$text" || fail "fabricgate $* --help: the example does not start with 'fabricgate $1'"
  checked=$((checked + 1))
  for sub in $(subcommands "$@"); do check_examples "$@" "$sub"; done
}
top=$(subcommands)
[[ $(wc -w <<<"$top") -ge 10 ]] || fail "fabricgate --help lists too few subcommands: $top"
for sub in $top; do check_examples "$sub"; done
echo "ok: $checked commands and subcommands show an example in --help"

if [[ -f $manpage ]] && command -v man >/dev/null; then
  page=$(MANWIDTH=100 man -l "$manpage" 2>/dev/null | cat)
  for sub in $top; do
    grep -qF "fabricgate $sub" <<<"$page" || fail "the man page has no section for fabricgate $sub"
  done
  grep -qF "EXIT STATUS" <<<"$page" || fail "the man page has no EXIT STATUS"
  # Usage lines name the command, not the binary it was generated from (a build-tree path).
  if grep -qE "Usage: /|/harness/cli/fabricgate" <<<"$page"; then
    fail "the man page prints a build-tree path: $(grep -m1 -E 'Usage: /|/harness/cli/' <<<"$page")"
  fi
  echo "ok: man page $(basename "$manpage"): $(wc -l <<<"$page") lines, a section per subcommand"
else
  echo "note: man page not checked ($manpage absent or man not installed)"
fi

# complete WORD... : what TAB offers after the words (the last one is being completed).
complete_words() {
  (cd "$root" && bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _fabricgate; printf "%s\n" "${COMPREPLY[@]}"' _ "$completion" "$fg" "$@" | sort | tr '\n' ' ' | sed 's/ $//')
}
# expect "WANT..." WORD...: every word of WANT is offered, and nothing that does not start with
# the word being completed (new subcommands elsewhere do not break it).
expect() {
  local want=$1
  shift
  local got w prefix=${*: -1}
  got=$(complete_words "$@")
  for w in $want; do
    grep -qxF -- "$w" <<<"${got// /$'\n'}" || fail "completing 'fabricgate $*' offered '$got', without '$w'"
  done
  for w in $got; do
    [[ $w == "$prefix"* ]] || fail "completing 'fabricgate $*' offered '$w'"
  done
}
expect "report run" r
expect "create update" baseline ""
expect "nccl-tests nvbandwidth" import ""
expect "--suite --suites-dir" run --sui
expect "html" report results/x --format ht
expect "smoke-mpi" run --suite smoke-
expect "mpirun" run --launcher mp
[[ -z $(complete_words fingerprint --json --zz) ]] || fail "completing an unknown option prefix offered something"
got=$(complete_words run --baselines-dir ci/boot)
[[ $got == ci/bootstrap ]] || fail "completing a path after --baselines-dir offered '$got'"
echo "ok: bash completion (subcommands, nested subcommands, options, choices, suites, files)"
