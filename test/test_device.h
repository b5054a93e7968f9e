// Which device the suites run on: HDML_TEST_DEVICE=cuda (the `.cuda` ctest
// variants) runs them on a CUDA device through tools/cuda_host.h, and
// HDML_TEST_DEVICE=d3d12 (the `.d3d12` variants of Windows builds) on a D3D12
// device through tools/d3d12_host.h.
#pragma once

#include <cstdlib>
#include <cstring>

namespace hdml_test {

inline bool test_on_cuda() {
    const char *device = std::getenv("HDML_TEST_DEVICE");
    return device && std::strcmp(device, "cuda") == 0;
}

inline bool test_on_d3d12() {
    const char *device = std::getenv("HDML_TEST_DEVICE");
    return device && std::strcmp(device, "d3d12") == 0;
}

inline bool test_on_gpu() {
    return test_on_cuda() || test_on_d3d12();
}

// Whether the suite's device moves 64-bit elements (GATHER, SPLIT, JOIN) as
// pairs of 32-bit words: D3D12 does; any device created under
// HDML_64BIT_MOVES=word_pairs (the `.word_pairs` ctest variants) does too.
inline bool test_moves_64bit_in_words() {
    const char *moves = std::getenv("HDML_64BIT_MOVES");
    return test_on_d3d12() || (moves && std::strcmp(moves, "word_pairs") == 0);
}

}  // namespace hdml_test
