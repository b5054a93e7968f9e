// Which device the suites run on: HDML_TEST_DEVICE=cuda (the `.cuda` ctest
// variants) runs them on a CUDA device through tools/cuda_host.h.
#pragma once

#include <cstdlib>
#include <cstring>

namespace hdml_test {

inline bool test_on_cuda() {
    const char *device = std::getenv("HDML_TEST_DEVICE");
    return device && std::strcmp(device, "cuda") == 0;
}

}  // namespace hdml_test
