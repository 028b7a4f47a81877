#!/usr/bin/env bash
# Builds the fuzz targets (cpp/fuzz/CMakeLists.txt) with clang into build/fuzz/ (or OUT_DIR):
# build/fuzz/fuzz_<name>. Needs clang 16 and its sanitizer runtimes (Debian: clang-16
# libclang-rt-16-dev; .ci/fuzz installs them), cmake and ninja.
#   cpp/fuzz/build.sh [OUT_DIR]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${1:-$root/build/fuzz}"
cxx="${MANILA_FUZZ_CXX:-clang++-16}"
command -v "$cxx" >/dev/null || {
    echo "build.sh: $cxx not found; .ci/fuzz installs it" >&2
    exit 1
}
cmake -S "$here" -B "$out" -G Ninja -DCMAKE_CXX_COMPILER="$cxx" >/dev/null
cmake --build "$out"
