#!/usr/bin/env bash
# Builds fabricgate on the GPU machine (Ubuntu image: CUDA 13 + NCCL in system paths, no libfabric
# headers, maybe no nlohmann/CLI11 headers: those travel as extracted Debian packages in .deps/).
set -euo pipefail
cd "$(dirname "$0")/../.."
export CUDAHOSTCXX=${CUDAHOSTCXX:-/opt/gcc/bin/g++}
if ! command -v g++ >/dev/null && [[ -x /opt/gcc/bin/g++ ]]; then export CXX=/opt/gcc/bin/g++ CC=/opt/gcc/bin/gcc; fi
prefix=()
[[ -d .deps/root/usr ]] && prefix=(-DCMAKE_PREFIX_PATH="$PWD/.deps/root/usr")
# libsqlite3-dev (the results store) may be missing too: its extracted .pc points into .deps/.
[[ -d .deps/root/usr/lib/x86_64-linux-gnu/pkgconfig ]] &&
  export PKG_CONFIG_PATH="$PWD/.deps/root/usr/lib/x86_64-linux-gnu/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
# libssl-dev (the store rows' HMAC seal) may be missing too: its headers travel in .deps/ (the
# multiarch configuration.h beside them) and link against the image's own libcrypto.so.3.
openssl=()
if [[ ! -e /usr/include/openssl/hmac.h && -e .deps/root/usr/include/openssl/hmac.h ]]; then
  crypto=$(ls /usr/lib/x86_64-linux-gnu/libcrypto.so /usr/lib/x86_64-linux-gnu/libcrypto.so.3 2>/dev/null | head -1)
  openssl=(-DOPENSSL_INCLUDE_DIR="$PWD/.deps/root/usr/include" -DOPENSSL_CRYPTO_LIBRARY="$crypto"
    -DCMAKE_CXX_FLAGS="-isystem $PWD/.deps/root/usr/include/x86_64-linux-gnu")
  echo "build.sh: OpenSSL headers from .deps/, library $crypto"
fi
cmake -S . -B build/device -G Ninja -DCMAKE_BUILD_TYPE=Release -DFABRICGATE_BUILD_TESTS=OFF \
  -DCMAKE_CUDA_HOST_COMPILER="$CUDAHOSTCXX" "${prefix[@]}" "${openssl[@]}" 2>&1 | grep -E -A3 "fabricgate|  [A-Z]+=|NCCL headers|Error|error|not found" || true
# Only the last lines on success; every error line when the build fails.
if ! cmake --build build/device -j "$(nproc)" --target fabricgate fabricgate-bench -- -k 0 >build/device/build.log 2>&1; then
  grep -E -A12 "FAILED|error" build/device/build.log | head -150
  exit 1
fi
tail -3 build/device/build.log
