// Canonicalisation of an N-D strided copy onto the copy kernel
// output(x, y, z) = input(x, y, z): size-1 dims dropped, chaining dims fused,
// x the densest output dim, y and z the largest others, the rest C++ loops.
#pragma once

#include "hdml/directml.h"
#include "runtime/kernels.h"

#include <cstdint>
#include <string>
#include <vector>

namespace hdml {

struct CopyDim {
    int64_t extent = 1;
    int64_t in_stride = 0;
    int64_t out_stride = 0;
};

struct CopyPlan {
    CopyDim x, y, z;
    std::vector<CopyDim> loops;
    std::string describe() const;
};

// Dims outermost first; strides in elements.
CopyPlan plan_copy(const std::vector<CopyDim> &dims);

// Runs the plan with `kernel` (a copy kernel for `element_size`-byte elements).
HRESULT run_copy(const KernelEntry *kernel, const CopyPlan &plan, const uint8_t *input, uint8_t *output,
                 uint32_t element_size);

}  // namespace hdml
