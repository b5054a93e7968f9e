#!/usr/bin/env bash
# Builds the libFuzzer targets (test/fuzz/, clang, ASan+UBSan) against the CPU
# kernels of the x86 build in build/, and runs each for a fixed time from its
# seed corpus (new inputs go to a scratch copy, not into the tree).
#   tools/fuzz.sh [seconds per fuzzer, default 60] [-- extra libFuzzer flags]
# Exits non-zero when a fuzzer finds a crash, a sanitizer report or a broken
# invariant; the input that did it is left in build-fuzz/ (crash-*).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true
[ "${1:-}" = "--" ] && shift
cmake -S test/fuzz -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_CXX_COMPILER=clang++ -DHDML_BUILD="$PWD/build" > /dev/null
cmake --build build-fuzz
extra=("$@")
run() {  # fuzzer, seed directories...
    local fuzzer="$1"
    shift
    mkdir -p "build-fuzz/corpus-$fuzzer"
    echo "== $fuzzer: ${seconds} s"
    (cd build-fuzz && HL_NUM_THREADS=1 ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
        "./$fuzzer" -max_total_time="$seconds" -print_final_stats=1 -timeout=20 "${extra[@]}" \
        "corpus-$fuzzer" "$@" > "$fuzzer.log" 2>&1) || true
    grep -E "^#[0-9]+ +(INITED|DONE)|^stat::number_of_executed_units|^Done|ERROR|invariant|SUMMARY" \
        "build-fuzz/$fuzzer.log" || true
    grep -q "^Done [0-9]* runs" "build-fuzz/$fuzzer.log"  # libFuzzer's line for a run that found nothing
}
run descriptor_fuzzer "$PWD/test/fuzz/corpus/descriptor"
run model_fuzzer "$PWD/test/fuzz/corpus/model" "$PWD/models"
