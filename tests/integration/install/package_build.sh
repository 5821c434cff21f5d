#!/usr/bin/env bash
# Builds the Debian package from the existing build tree (cpack -G DEB, no rebuild) into OUT_DIR
# and checks what it holds and declares. The ctest fixture that package_install.sh and the action
# test install. Usage: package_build.sh BUILD_DIR OUT_DIR   (exit 77: a packaging tool is missing)
set -euo pipefail
build=$1
out=$2
for tool in cpack dpkg-deb dpkg-shlibdeps file; do
  command -v "$tool" >/dev/null || { echo "SKIP: $tool not installed (ci/bootstrap installs dpkg-dev and file)"; exit 77; }
done
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$out"
mkdir -p "$out"
start=$SECONDS
cpack --config "$build/CPackConfig.cmake" -G DEB -B "$out" >"$out/cpack.log" 2>&1 || { cat "$out/cpack.log"; fail "cpack -G DEB failed"; }
rm -rf "$out/_CPack_Packages"
debs=("$out"/fabricgate_*.deb)
[[ ${#debs[@]} -eq 1 && -f ${debs[0]} ]] || fail "expected one fabricgate_*.deb in $out, found: ${debs[*]}"
deb=${debs[0]}
echo "built $(basename "$deb") ($(du -h "$deb" | cut -f1)) in $((SECONDS - start)) s"

contents=$(dpkg-deb -c "$deb" | awk '{ print $NF }' | sed 's|^\./|/|')
for f in /usr/bin/fabricgate /usr/bin/fabricgate-bench /usr/share/fabricgate/suites/smoke-mpi.json \
  /usr/share/fabricgate/suites/quick.json /usr/share/man/man1/fabricgate.1.gz \
  /usr/share/bash-completion/completions/fabricgate /usr/share/doc/fabricgate/README.md \
  /usr/share/doc/fabricgate/INSTALL.md; do
  grep -qxF "$f" <<<"$contents" || fail "$(basename "$deb") lacks $f"
done
# Every document the console, reports and --help point to (docs/*.md) ships with the package.
source_dir=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt")
for doc in "$source_dir"/docs/*.md; do
  f=/usr/share/doc/fabricgate/$(basename "$doc")
  grep -qxF "$f" <<<"$contents" || fail "$(basename "$deb") lacks $f, which the tool names"
done
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
# From dpkg-shlibdeps over the binaries, plus mpirun, which nothing links.
for lib in libbenchmark libcurl libsqlite3 libpq libstdc++6 openmpi-bin; do
  grep -q "$lib" <<<"$depends" || fail "Depends does not name $lib: $depends"
done
grep -q "libfabric" <<<"$depends" || ! grep -Eq '^FABRICGATE_WITH_LIBFABRIC:BOOL=(1|ON)$' "$build/CMakeCache.txt" ||
  fail "Depends does not name libfabric though the build has it: $depends"
[[ $(dpkg-deb -f "$deb" Package) == fabricgate ]] || fail "package name is not fabricgate"
echo "ok: $(grep -c . <<<"$contents") paths, $(tr ',' '\n' <<<"$depends" | grep -c .) dependencies"
