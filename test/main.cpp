// Catch2's main, compiled once for every test executable. Under
// HDML_TEST_DEVICE=cuda (the `.cuda` ctest variants) a machine without a CUDA
// GPU skips the whole suite visibly, with exit code 77 (ctest: "Skipped").
#define CATCH_CONFIG_RUNNER
#include "catch.hpp"
#include "test_device.h"
#include "tools/cuda_host.h"

#include <cstdio>

int main(int argc, char **argv) {
    if (hdml_test::test_on_cuda()) {
        std::string why;
        if (!hdml_cuda::CudaHost::get(&why)) {
            std::printf("skipped: no CUDA device (%s)\n", why.c_str());
            return 77;
        }
    }
    return Catch::Session().run(argc, argv);
}
