#!/usr/bin/env bash
# The GPU runner image and ci/bootstrap cannot drift apart: ci/container/Dockerfile's
# RUNTIME_PACKAGES is exactly `ci/bootstrap --list runtime`; the runtime set holds none of the
# test-only packages (a runner never gets a database server, a Pushgateway or a browser); and the
# image installs the .deb it built. Usage: container_packages.sh REPO_ROOT
set -euo pipefail
root=$1
dockerfile=$root/ci/container/Dockerfile
fail() { echo "FAIL: $*"; exit 1; }

# ARG RUNTIME_PACKAGES="..." (continuation lines joined first).
listed=$(sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$dockerfile" |
  sed -n 's/^ARG RUNTIME_PACKAGES="\([^"]*\)".*/\1/p' | tr -s ' \t' '\n' | sed '/^$/d' | sort)
[[ -n $listed ]] || fail "$dockerfile: no ARG RUNTIME_PACKAGES=\"...\" line"
runtime=$("$root/ci/bootstrap" --list runtime | sort)
test_only=$("$root/ci/bootstrap" --list test | sort)
if [[ $listed != "$runtime" ]]; then
  echo "Dockerfile only:  $(comm -23 <(echo "$listed") <(echo "$runtime") | tr '\n' ' ')"
  echo "bootstrap only:   $(comm -13 <(echo "$listed") <(echo "$runtime") | tr '\n' ' ')"
  fail "ci/container/Dockerfile RUNTIME_PACKAGES differs from ci/bootstrap --list runtime"
fi
both=$(comm -12 <(echo "$runtime") <(echo "$test_only") | tr '\n' ' ')
[[ -z $both ]] || fail "in both the runtime and the test set: $both"
for p in postgresql prometheus-pushgateway chromium libgtest-dev python3-yaml slurmd; do
  grep -qxF "$p" <<<"$runtime" && fail "test-only package $p is in the runtime set"
  grep -qxF "$p" <<<"$("$root/ci/bootstrap" --list test; "$root/ci/bootstrap" --list optional; "$root/ci/bootstrap" --list slurm)" ||
    fail "$p is in no bootstrap set (the check above would pass vacuously)"
done
grep -q '^FROM .*nvidia/cuda:.*devel' "$dockerfile" || grep -q '^ARG CUDA_IMAGE=nvidia/cuda:.*devel' "$dockerfile" ||
  fail "$dockerfile: the base is not an NVIDIA CUDA devel image"
grep -q 'apt-get install.*\${RUNTIME_PACKAGES}.*fabricgate_\*\.deb' "$dockerfile" ||
  fail "$dockerfile: the final stage does not install RUNTIME_PACKAGES and the built .deb"
echo "ok: $(wc -l <<<"$runtime") runtime packages, identical in ci/bootstrap and ci/container/Dockerfile"
