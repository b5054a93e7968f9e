# Shared by tools/setup.sh and tools/test.sh: the Debian packages hdml needs,
# installed with apt-get when missing.
HDML_PACKAGES=(
    cmake ninja-build g++ pkg-config
    libhalide14-0-dev llvm-14-dev        # Halide 14 AOT generators (LLVM for find_package(Halide))
    catch2 libbenchmark-dev              # tests and benchmarks
    libdnnl-dev libeigen3-dev            # benchmark peers
    g++-aarch64-linux-gnu qemu-user      # ARM cross toolchain, and qemu-aarch64 to run its tests
    libbenchmark-dev:arm64               # the benchmarks, cross-built for aarch64 (Debian multiarch)
    g++-mingw-w64-x86-64                 # Windows cross toolchain (x86-64 CPU kernels, D3D12)
    wine wine64                          # runs the Windows tests, models and package checks
    xvfb mesa-vulkan-drivers             # wine's D3D12 (vkd3d) on Mesa's software Vulkan, in a virtual X server
    glslang-tools                        # compiles the D3D12 kernels' HLSL (tools/check-hlsl.py)
    nlohmann-json3-dev                   # hdml-dispatch (JSON models)
    clang libclang-rt-14-dev             # the libFuzzer targets (tools/fuzz.sh: libFuzzer, ASan, UBSan)
)

hdml_install_packages() {
    local missing=()
    for package in "${HDML_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
    if [ ${#missing[@]} -eq 0 ]; then
        return 0
    fi
    echo "hdml: installing ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    # arm64 packages install beside the host's through Debian multiarch.
    if [ "$(dpkg --print-architecture)" != arm64 ] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
        $sudo dpkg --add-architecture arm64
    fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

hdml_configure_and_build() {  # build-dir, extra cmake args...
    local dir="$1"
    shift
    cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@"
    cmake --build "$dir"
}
