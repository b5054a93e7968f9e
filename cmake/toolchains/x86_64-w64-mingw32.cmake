# Cross-compiles hdml for x86-64 Windows on a Debian x86-64 host with Debian's
# MinGW-w64 (g++-mingw-w64-x86-64, its posix thread model: std::thread and
# std::mutex need it in GCC 12). ctest runs the Windows executables under
# Debian's wine.
#
#   cmake -S . -B build-win -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/x86_64-w64-mingw32.cmake \
#         -DHDML_HOST_BUILD=build
#
# HDML_HOST_BUILD names a host (x86-64 Linux) build of hdml: its Halide
# generator generates the x86-64-windows kernels (Halide's two-stage cross flow).
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR AMD64)
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc-posix)
set(CMAKE_CXX_COMPILER x86_64-w64-mingw32-g++-posix)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
# Header-only dependencies (Catch2, nlohmann-json) are shared with the host.
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)

# GCC's runtime (libgcc, libstdc++, winpthread) linked statically: hdml.dll and
# the executables need no MinGW DLLs beside them on a Windows machine.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-static")

find_program(HDML_WINE NAMES wine64 wine)
if (HDML_WINE)
    set(CMAKE_CROSSCOMPILING_EMULATOR "${HDML_WINE}")
endif ()
