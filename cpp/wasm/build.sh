#!/usr/bin/env bash
# Builds manila.wasm from the engine's own sources (cpp/src) and the C ABI of
# cpp/wasm/entry.cpp, with the toolchain .ci/wasm-toolchain installs.
#   cpp/wasm/build.sh [OUT_DIR]     (default: python/manila/server/web, beside the page)
# CMake calls it when the toolchain is there, so the wheel ships the .wasm.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${1:-$root/python/manila/server/web}"
llvm="${MANILA_WASM_LLVM:-16}"
cxx="${MANILA_WASM_CXX:-clang++-$llvm}"
libcxx="/usr/lib/llvm-$llvm"
command -v "$cxx" >/dev/null || {
    echo "build.sh: $cxx not found; install the toolchain with .ci/wasm-toolchain" >&2
    exit 1
}
[ -d "$libcxx/include/wasm32-wasi/c++/v1" ] || {
    echo "build.sh: libc++ for wasm32-wasi missing ($libcxx); run .ci/wasm-toolchain" >&2
    exit 1
}

# The standard library is built without exceptions: -fexceptions lets the engine's `throw`
# compile into calls to entry.cpp's __cxa_throw, which reports and traps (see entry.cpp).
# No catch ever runs. -O3: the evaluator's inner loops decide the page's speed.
flags=(--target=wasm32-wasi --sysroot=/usr -nostdinc++ -isystem "$libcxx/include/wasm32-wasi/c++/v1"
       -std=c++17 -O3 -fexceptions -DNDEBUG -I"$root/cpp/include"
       -Wall -Wextra -Wpedantic -Wconversion -Wno-sign-conversion -Werror)  # as gcc builds it
# The placement search recurses through the evaluator: a stack of lld's default 64 KiB
# overflows into the heap without a word, so give it 8 MiB.
link=(-mexec-model=reactor -fuse-ld=lld -Wl,-z,stack-size=8388608 -L"$libcxx/lib/wasm32-wasi" -Wl,--gc-sections -Wl,--strip-all)

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
sources=("$root"/cpp/src/*.cpp "$here/entry.cpp")
pids=()
for src in "${sources[@]}"; do
    "$cxx" "${flags[@]}" -c "$src" -o "$work/$(basename "$src" .cpp).o" &
    pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid"; done
mkdir -p "$out"
"$cxx" --target=wasm32-wasi --sysroot=/usr "${link[@]}" "$work"/*.o -o "$work/manila.wasm"
mv "$work/manila.wasm" "$out/manila.wasm"
echo "build.sh: $out/manila.wasm ($(stat -c %s "$out/manila.wasm") bytes, $("$cxx" --version | head -1))"
