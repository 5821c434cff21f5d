#!/usr/bin/env bash
# The Debian package as a runner gets it: `dpkg -i`, then from PATH `fabricgate --version`,
# `fabricgate run --suite smoke-mpi` (real mpirun ranks; the suite and fabricgate-bench found in
# the installed tree, from a directory with no suites/), `man fabricgate` and bash completion;
# `dpkg -r` at the end, whatever happened. Needs root and dpkg (exit 77 otherwise) and leaves a
# fabricgate package installed by someone else alone (exit 77).
# Usage: package_install.sh PACKAGE_DIR
set -euo pipefail
pkgdir=$1
[[ $(id -u) -eq 0 ]] || { echo "SKIP: needs root to dpkg -i (CI runs as root)"; exit 77; }
command -v dpkg >/dev/null || { echo "SKIP: dpkg not installed"; exit 77; }
if dpkg-query -W -f='${Status}' fabricgate 2>/dev/null | grep -q "install ok installed"; then
  echo "SKIP: a fabricgate package is already installed here; this test installs and removes its own"
  exit 77
fi
debs=("$pkgdir"/fabricgate_*.deb)
[[ -f ${debs[0]} ]] || { echo "FAIL: no fabricgate_*.deb in $pkgdir (the package_build fixture makes it)"; exit 1; }
deb=${debs[0]}
fail() { echo "FAIL: $*"; exit 1; }
work=$(mktemp -d /tmp/fabricgate-install-test.XXXXXX)
cleanup() {
  dpkg -r fabricgate >/dev/null 2>&1 || echo "WARNING: dpkg -r fabricgate failed"
  rm -rf "$work"
}
trap cleanup EXIT
dpkg -i "$deb" >"$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log"; fail "dpkg -i $(basename "$deb")"; }
hash -r

[[ $(command -v fabricgate) == /usr/bin/fabricgate ]] || fail "fabricgate from PATH is $(command -v fabricgate), not /usr/bin/fabricgate"
version=$(fabricgate --version)
want=$(dpkg-deb -f "$deb" Version)
[[ $version == "fabricgate $want"* ]] || fail "fabricgate --version printed '$version', the package is $want"
echo "ok: $version"

# From a directory without suites/: only the installed suite and bench can serve this run.
cd "$work"
code=0
fabricgate run --suite smoke-mpi --results-dir "$work/results" --lock "$work/lock" --platform install-test \
  --store none >"$work/run.log" 2>&1 || code=$?
[[ $code -eq 0 ]] || { cat "$work/run.log"; fail "fabricgate run --suite smoke-mpi exited $code"; }
runs=("$work"/results/install-test/*/run.json)
[[ -f ${runs[0]} ]] || { cat "$work/run.log"; fail "no run.json under $work/results/install-test"; }
# launch.json holds the launched command line: the installed bench and the installed suite.
launch=$(dirname "${runs[0]}")/launch.json
for want in '"/usr/bin/fabricgate-bench"' '"/usr/share/fabricgate/suites/smoke-mpi.json"'; do
  grep -qF "$want" "$launch" || { cat "$launch"; fail "$launch does not name $want"; }
done
grep -q '"coll/mpi/' "${runs[0]}" || fail "run.json holds no MPI collective key"
echo "ok: run --suite smoke-mpi from the installed files: $(dirname "${runs[0]}")"

[[ $(man -w fabricgate) == /usr/share/man/man1/fabricgate.1* ]] || fail "man -w fabricgate: $(man -w fabricgate 2>&1)"
page=$(MANPAGER=cat MANWIDTH=100 man fabricgate 2>/dev/null)
for want in "COMMANDS" "fabricgate run" "fabricgate baseline create" "EXIT STATUS" "Example"; do
  grep -qF "$want" <<<"$page" || fail "man fabricgate lacks '$want'"
done
echo "ok: man fabricgate ($(wc -l <<<"$page") lines)"

completion=/usr/share/bash-completion/completions/fabricgate
got=$(bash -c 'source "$1"; COMP_WORDS=(fabricgate run --suite smoke-); COMP_CWORD=3; _fabricgate; echo "${COMPREPLY[*]}"' _ "$completion")
[[ $got == smoke-mpi ]] || fail "completing 'fabricgate run --suite smoke-' offered '$got', not the installed smoke-mpi"
echo "ok: bash completion offers the installed suites"
