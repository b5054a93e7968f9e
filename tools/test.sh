#!/usr/bin/env bash
# README command (2): the whole test suite.
#  1. the x86 build (with the CUDA kernels) and its ctest suite (default ISA,
#     forced-baseline ISA, ASan+UBSan, TSan for the concurrency suite, and the
#     .cuda variants of the suites and models, which skip visibly on a machine
#     without a GPU), then the two libFuzzer targets for 60 s each;
#  2. the aarch64 cross build (kernels from build/'s generator) and the same
#     ctest suite run under qemu-aarch64, hdml-dispatch's models included;
#  3. the x86-64 Windows cross build (MinGW-w64, kernels from build/'s
#     generator: the CPU's AVX2 variant, and D3D12's) and the same ctest
#     suite run under wine, models included; then the D3D12 tests again with wine's D3D12 on
#     Mesa's software Vulkan driver in a virtual X server (Xvfb), where the
#     device runs until wine's D3DCompile fails on hdml's HLSL;
#  4. a check that every static library of x86, cuda (built into libhdml)
#     and d3d12 exists, every D3D12 kernel's HLSL compiled by glslang
#     (tools/check-hlsl.py), and libhdml.so and hdml.dll exporting exactly
#     runtime/hdml.map's C API;
#  5. `cmake --install`, a separate consumer project built against it, and
#     the installed hdml-dispatch run from a moved prefix: on Linux, and for
#     the Windows package under wine.
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/common.sh
# Each stage's heading says when it started: CI's budget is 45 minutes.
stage() { printf '== %s  [at %dm%02ds]\n' "$1" $((SECONDS / 60)) $((SECONDS % 60)); }
hdml_install_packages

stage "x86 build"
hdml_configure_and_build build
stage "x86 tests"
(cd build && ctest --output-on-failure -j2) | tee build/ctest.log
# The .cuda suites skip (exit 77) on machines without a GPU: say why, visibly.
grep -h "^skipped: " build/Testing/Temporary/LastTest.log | sort | uniq -c || true
ctest_total=$(sed -n 's/.*tests failed out of \([0-9]*\).*/\1/p' build/ctest.log | tail -1)
ctest_skipped=$(grep -c "(Skipped)$" build/ctest.log || true)

stage "fuzzers, 60 s each (libFuzzer, ASan+UBSan, on build/'s CPU kernels)"
tools/fuzz.sh 60

stage "aarch64 build"
# (The sanitizer variants stay on x86: the C++ is the same, and ASan's shadow
# memory under qemu-user costs far more than it finds.)
# (Nor the benchmarks: timed on a board, never under qemu; x86 compiles their sources.)
hdml_configure_and_build build-arm -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake \
    -DHDML_HOST_BUILD=build -DHDML_SANITIZERS=OFF -DHDML_TSAN=OFF -DHDML_BUILD_BENCHMARKS=OFF
stage "aarch64 tests under qemu-aarch64"
(cd build-arm && ctest --output-on-failure -j2) | tee build-arm/ctest.log
arm_total=$(sed -n 's/.*tests failed out of \([0-9]*\).*/\1/p' build-arm/ctest.log | tail -1)

stage "Windows (x86-64, MinGW-w64) build"
# The AVX2 x86 variant alone, a quarter of the kernels' build time: every suite
# runs it here, where Linux runs AVX-512 and the baseline (and SSE4.1 and AVX2
# for special values). A Windows package built without the option has all four.
hdml_configure_and_build build-win -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/x86_64-w64-mingw32.cmake \
    -DHDML_HOST_BUILD=build -DHDML_X86_ISA=avx2
# No Mono, Gecko or GStreamer in the prefix: no test uses them, and a failing
# plugin scan is a known way for wine's first start to crash.
export WINEDEBUG=-all WINEPREFIX="$PWD/build-win/wineprefix" WINEDLLOVERRIDES="winegstreamer=;mscoree=;mshtml="
# wine's first start in the prefix (CI once saw it exit 53, kernel32.dll not
# loaded, with no output): its log on failure, and two more tries from a new prefix.
boot_wine() {  # log file
    local attempt rc
    for attempt in 1 2 3; do
        rc=0
        wineboot --init > "$1" 2>&1 || rc=$?
        [ "$rc" -ne 0 ] || return 0
        echo "wineboot --init failed (exit $rc, try $attempt of 3); $1 ends:"
        tail -n 20 "$1"
        wineserver -k 2>/dev/null || true
        wineserver -w
        rm -rf "$WINEPREFIX" && mkdir -p "$WINEPREFIX"
        wineserver -p
    done
    return 1
}
# One persistent wine server for every test, and wine's services started here
# with the prefix: a service started by a test would inherit ctest's output
# pipe and hold it open. Both stop when this script ends, however it ends.
mkdir -p "$WINEPREFIX"
wineserver -p
trap 'wineserver -k 2>/dev/null || true' EXIT
boot_wine build-win/wineboot.log
stage "Windows tests under wine"
(cd build-win && ctest --output-on-failure -j2) | tee build-win/ctest.log
win_total=$(sed -n 's/.*tests failed out of \([0-9]*\).*/\1/p' build-win/ctest.log | tail -1)
win_skipped=$(grep -c "(Skipped)$" build-win/ctest.log || true)
# Without a display wine has no D3D12 device, so the .d3d12 tests above skipped
# (and d3d12_device_test took its "no device" path). With one, the D3D12 tests
# again: the device is created on Mesa's lavapipe and each operator runs until
# wine's D3DCompile (which has no cs_5_1) fails; -V shows how far each got.
stage "the D3D12 device under wine (vkd3d on Mesa's lavapipe, in Xvfb)"
Xvfb :97 -screen 0 640x480x24 -nolisten tcp > build-win/xvfb.log 2>&1 &
xvfb_pid=$!
trap 'kill $xvfb_pid 2>/dev/null || true; wineserver -k 2>/dev/null || true' EXIT
# A wine session takes its display when it starts: a new one, on the X server.
wineserver -k
wineserver -w
wineserver -p
DISPLAY=:97 boot_wine build-win/wineboot-d3d12.log
(cd build-win && DISPLAY=:97 HDML_D3D12_COMPILER_FAILS=1 ctest -V -j2 -R "d3d12") > build-win/ctest-d3d12.log 2>&1 ||
    { tail -n 60 build-win/ctest-d3d12.log; exit 1; }
grep -h -E "^[0-9]+: (attempted|skipped): |(REDUCE SUM|int64 indices) on D3D12|% tests passed" build-win/ctest-d3d12.log |
    sed -E 's/ +\(the system.s compiler.*//' | sort | uniq -c
# Every model must have reached the device (a missing device would skip them all).
attempted=$(grep -c -E "^[0-9]+: attempted: " build-win/ctest-d3d12.log || true)
models=$(ls models/*.json | wc -l)
[ "$attempted" -eq "$models" ] || { echo "only $attempted of $models models ran on wine's D3D12 device"; exit 1; }
d3d12_total=$(sed -n 's/.*tests failed out of \([0-9]*\).*/\1/p' build-win/ctest-d3d12.log | tail -1)
d3d12_skipped=$(grep -c "(Skipped)$" build-win/ctest-d3d12.log || true)

stage "kernel libraries, D3D12's HLSL, exports (cuda's kernels are in build/, inside libhdml)"
tools/check-kernels.sh build x86 cuda
tools/check-kernels.sh build-win x86 d3d12
tools/check-hlsl.py build-win  # every D3D12 kernel's HLSL through glslang (an independent HLSL front end)
tools/check-exports.sh build/runtime/libhdml.so build-win/bin/hdml.dll  # the C API only

stage "install and find_package(hdml) consumer"
rm -rf build/install build-consumer
cmake --install build --prefix build/install
cmake -S examples/consumer -B build-consumer -G Ninja -DCMAKE_PREFIX_PATH="$PWD/build/install"
cmake --build build-consumer
./build-consumer/consumer
./build-consumer/consumer_c
# The installed hdml-dispatch runs from its prefix (moved, to prove the RPATH is relative).
rm -rf build/install-moved && cp -r build/install build/install-moved
build/install-moved/bin/hdml-dispatch models/dml_reduce.json | tee build/installed-dispatch.log
grep -q "Resource 'output': 6, 15, 24" build/installed-dispatch.log
# ...and so does hdml-tune, reading the installed search spaces.
build/install-moved/bin/hdml-tune space --platform x86 | tail -n 1 | grep "the current numbers are legal"

stage "the Windows package: installed, a find_package(hdml) consumer and hdml-dispatch.exe under wine"
rm -rf build-win/install build-win/install-moved build-win-consumer
cmake --install build-win --prefix build-win/install
cmake -S examples/consumer -B build-win-consumer -G Ninja -DCMAKE_PREFIX_PATH="$PWD/build-win/install" \
    -DCMAKE_TOOLCHAIN_FILE="$PWD/cmake/toolchains/x86_64-w64-mingw32.cmake"
cmake --build build-win-consumer
WINEPATH="$PWD/build-win/install/bin" wine build-win-consumer/consumer.exe
WINEPATH="$PWD/build-win/install/bin" wine build-win-consumer/consumer_c.exe
# hdml.dll lies beside hdml-dispatch.exe: the moved prefix needs no path.
cp -r build-win/install build-win/install-moved
wine build-win/install-moved/bin/hdml-dispatch.exe models/dml_reduce.json | tee build-win/installed-dispatch.log
grep -q "Resource 'output': 6, 15, 24" build-win/installed-dispatch.log

# The four ctest runs plus the four checks above (fuzzers, kernel libraries
# with their HLSL and the exports, installed consumer and tools on Linux, the
# installed Windows package).
win_passed=$((win_total - win_skipped + d3d12_total - d3d12_skipped))
stage "done"
echo "hdml: $((ctest_total - ctest_skipped + arm_total + win_passed + 4)) passed, 0 failed," \
     "$((ctest_skipped + win_skipped + d3d12_skipped)) skipped (x86 $((ctest_total - ctest_skipped))," \
     "aarch64 under qemu $arm_total, x86-64 Windows under wine $win_passed with its D3D12 device on lavapipe;" \
     "skipped: the .cuda suites and models without a GPU, the .d3d12 ones without a D3D12 device or, under" \
     "wine with one, a compiler for hdml's HLSL)"
