// Canonicalisation of an N-D strided copy onto the copy kernel
// output(x, y, z) = input(x, y, z): size-1 dims dropped, chaining dims fused,
// x the densest output dim, y and z the largest others, the rest C++ loops.
#pragma once

#include "hdml/directml.h"
#include "runtime/device.h"
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

// Drops size-1 dims and merges neighbours whose strides chain in both tensors
// (dims outermost first; strides in elements).
std::vector<CopyDim> fuse_copy_dims(const std::vector<CopyDim> &dims);

// Dims outermost first; strides in elements.
CopyPlan plan_copy(const std::vector<CopyDim> &dims);

// Calls fn(in_offset, out_offset) for every index of `loops` (an N-D odometer);
// stops at and returns the first failure.
template <typename Fn>
HRESULT for_each_loop_offset(const std::vector<CopyDim> &loops, Fn fn) {
    std::vector<int64_t> index(loops.size(), 0);
    int64_t in = 0, out = 0;
    while (true) {
        const HRESULT hr = fn(in, out);
        if (FAILED(hr)) return hr;
        size_t d = loops.size();
        while (d-- > 0) {
            if (++index[d] < loops[d].extent) {
                in += loops[d].in_stride, out += loops[d].out_stride;
                break;
            }
            in -= loops[d].in_stride * (loops[d].extent - 1);
            out -= loops[d].out_stride * (loops[d].extent - 1);
            index[d] = 0;
        }
        if (d == (size_t)-1) return S_OK;
    }
}

// Runs the plan with `kernel` (a copy kernel for `element_size`-byte elements)
// on memory of `device`.
HRESULT run_copy(const hdml_device &device, const KernelEntry *kernel, const CopyPlan &plan, const uint8_t *input,
                 uint8_t *output, uint32_t element_size);

}  // namespace hdml
