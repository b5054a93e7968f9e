#!/usr/bin/env bash
# README command (2): the whole test suite.
#  1. the x86 build and its ctest suite (default ISA, forced-baseline ISA, ASan+UBSan);
#  2. the REDUCE kernels generated for arm-64-linux, x86-64-linux-cuda and
#     x86-64-windows-d3d12compute, and a check that every static library exists;
#  3. `cmake --install` and a separate consumer project built against it.
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/common.sh
hdml_install_packages

echo "== x86 build and tests"
hdml_configure_and_build build
(cd build && ctest --output-on-failure -j2) | tee build/ctest.log
ctest_total=$(sed -n 's/.*tests failed out of \([0-9]*\).*/\1/p' build/ctest.log | tail -1)

echo "== kernels for arm, cuda and d3d12"
hdml_configure_and_build build-cross -DHDML_PLATFORMS="arm;cuda;d3d12"
tools/check-kernels.sh build-cross arm cuda d3d12

echo "== install and find_package(hdml) consumer"
rm -rf build/install build-consumer
cmake --install build --prefix build/install
cmake -S examples/consumer -B build-consumer -G Ninja -DCMAKE_PREFIX_PATH="$PWD/build/install"
cmake --build build-consumer
./build-consumer/consumer
./build-consumer/consumer_c
# ctest's suites plus the two checks above (kernel libraries, installed consumer).
echo "hdml: $((ctest_total + 2)) passed, 0 failed"
