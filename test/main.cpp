// Catch2's main, compiled once for every test executable. Under
// HDML_TEST_DEVICE=cuda (the `.cuda` ctest variants) a machine without a CUDA
// GPU skips the whole suite visibly, with exit code 77 (ctest: "Skipped"); so
// does HDML_TEST_DEVICE=d3d12 without a D3D12 device whose shader compiler
// takes hdml's HLSL (wine's does not).
#define CATCH_CONFIG_RUNNER
#include "catch.hpp"
#include "test_device.h"
#include "tools/cuda_host.h"
#include "tools/d3d12_host.h"

#include <cstdio>

int main(int argc, char **argv) {
    if (hdml_test::test_on_cuda()) {
        std::string why;
        if (!hdml_cuda::CudaHost::get(&why)) {
            std::printf("skipped: no CUDA device (%s)\n", why.c_str());
            return 77;
        }
    }
    if (hdml_test::test_on_d3d12()) {
#ifdef _WIN32
        std::string why;
        hdml_d3d12::D3d12Host *host = hdml_d3d12::D3d12Host::get(&why);
        if (!host) {
            std::printf("skipped: no D3D12 device (%s)\n", why.c_str());
            return 77;
        }
        if (!host->compiles_kernels(&why)) {
            std::printf("skipped: no D3D12 shader compiler for hdml's kernels (%s)\n", why.c_str());
            return 77;
        }
#else
        std::printf("skipped: no D3D12 device (D3D12 runs on Windows only)\n");
        return 77;
#endif
    }
    return Catch::Session().run(argc, argv);
}
