#!/usr/bin/env bash
# Builds the fuzz targets (cpp/fuzz/fuzz_*.cpp) with clang's libFuzzer, AddressSanitizer and
# UBSan into build/fuzz/ (or OUT_DIR). The engine is compiled once for all of them.
#   cpp/fuzz/build.sh [OUT_DIR]
# Needs clang 16 and its sanitizer runtimes (Debian: clang-16 libclang-rt-16-dev; .ci/fuzz
# installs them).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${1:-$root/build/fuzz}"
cxx="${MANILA_FUZZ_CXX:-clang++-16}"
command -v "$cxx" >/dev/null || {
    echo "build.sh: $cxx not found; .ci/fuzz installs it" >&2
    exit 1
}
# -O1: fast enough to fuzz, quick to compile; every report stops the run.
flags=(-std=c++17 -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined
       -fno-sanitize-recover=all -I"$root/cpp/include" -I"$root/cpp/bindings")
mkdir -p "$out/engine"
pids=()
for src in "$root"/cpp/src/*.cpp; do
    obj="$out/engine/$(basename "$src" .cpp).o"
    # Rebuilt only when a source or header is newer than the object.
    if [ ! -f "$obj" ] || [ -n "$(find "$src" "$root/cpp/include" "$root/cpp/src" -newer "$obj" -name '*.?pp' -print -quit)" ]; then
        "$cxx" "${flags[@]}" -fsanitize=fuzzer-no-link -c "$src" -o "$obj" &
        pids+=($!)
    fi
    # Two compilers at a time: the machines this runs on have two cores.
    if [ "${#pids[@]}" -ge "${MANILA_FUZZ_JOBS:-2}" ]; then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
done
for pid in "${pids[@]}"; do wait "$pid"; done
for target in "$here"/fuzz_*.cpp; do
    name="$(basename "$target" .cpp)"
    "$cxx" "${flags[@]}" -fsanitize=fuzzer "$target" "$out"/engine/*.o -o "$out/$name" -lpthread
    echo "build.sh: $out/$name"
done
