# Cross-compiles hdml for aarch64 Linux on a Debian x86-64 host with Debian's
# g++-aarch64-linux-gnu. Target libraries come from Debian multiarch
# (/usr/lib/aarch64-linux-gnu, e.g. libbenchmark-dev:arm64); header-only
# dependencies (Catch2, nlohmann-json, Eigen) are shared with the host.
#
#   cmake -S . -B build-arm -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake \
#         -DHDML_HOST_BUILD=build
#
# HDML_HOST_BUILD names a host (x86-64) build of hdml: its Halide generator
# generates the arm-64-linux kernels (Halide's two-stage cross flow).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

# ctest runs the aarch64 tests and tools through qemu user-mode emulation
# (Debian qemu-user). -L / takes the dynamic loader and every library from one
# glibc, Debian multiarch's arm64 one (/lib/ld-linux-aarch64.so.1 and
# /lib/aarch64-linux-gnu, installed with libbenchmark-dev:arm64). With -L
# /usr/aarch64-linux-gnu the loader came from the cross sysroot but libc from
# multiarch, two glibc builds whose private interface differs: the first
# thread a program created hung.
find_program(HDML_QEMU_AARCH64 qemu-aarch64)
if (HDML_QEMU_AARCH64)
    set(CMAKE_CROSSCOMPILING_EMULATOR "${HDML_QEMU_AARCH64};-L;/")
endif ()
