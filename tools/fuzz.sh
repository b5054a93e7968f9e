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
# The two fuzzers run side by side: each is one thread (HL_NUM_THREADS=1), so
# on CI's two cores they take the time of one.
start() {  # fuzzer, seed directories...
    local fuzzer="$1"
    shift
    mkdir -p "build-fuzz/corpus-$fuzzer"
    (cd build-fuzz && HL_NUM_THREADS=1 ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
        "./$fuzzer" -max_total_time="$seconds" -print_final_stats=1 -timeout=20 "${extra[@]}" \
        "corpus-$fuzzer" "$@" > "$fuzzer.log" 2>&1) &
}
report() {  # fuzzer
    echo "== $1: ${seconds} s"
    grep -E "^#[0-9]+ +(INITED|DONE)|^stat::number_of_executed_units|^Done|ERROR|invariant|SUMMARY" \
        "build-fuzz/$1.log" || true
    grep -q "^Done [0-9]* runs" "build-fuzz/$1.log"  # libFuzzer's line for a run that found nothing
}
start descriptor_fuzzer "$PWD/test/fuzz/corpus/descriptor"
start model_fuzzer "$PWD/test/fuzz/corpus/model" "$PWD/models"
wait  # (their exit codes: a finding shows in the log, as a missing "Done" line)
status=0
report descriptor_fuzzer || status=1
report model_fuzzer || status=1
exit $status
