// Canonicalisation of an N-D strided copy onto the copy kernel
// output(x, y, z) = input(x, y, z): size-1 dims dropped, chaining dims fused,
// x the densest output dim, y and z the largest others, the rest C++ loops.
#pragma once

#include "hdml/directml.h"
#include "runtime/checked.h"
#include "runtime/device.h"
#include "runtime/halide_glue.h"
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
            in -= must_mul(loops[d].in_stride, loops[d].extent - 1);
            out -= must_mul(loops[d].out_stride, loops[d].extent - 1);
            index[d] = 0;
        }
        if (d == (size_t)-1) return S_OK;
    }
}

// Runs a kernel of the copy shape over the plan, on memory of `device`: for each
// offset of the C++ loops, rank-3 buffers (x, y, z) over `input` and `output`
// with elements of the given types, and `launch(call, in_buf, out_buf)` returns
// the kernel's Halide result.
template <typename Launch>
HRESULT run_plan(const hdml_device &device, const CopyPlan &plan, const void *input, halide_type_t in_type,
                 void *output, halide_type_t out_type, const char *kernel_name, Launch launch) {
    return for_each_loop_offset(plan.loops, [&](int64_t in, int64_t out) {
        auto *in_at = const_cast<uint8_t *>(static_cast<const uint8_t *>(input)) + must_mul<int64_t>(in, in_type.bytes());
        KernelBuffer<3> in_buf(in_at, in_type, device);
        KernelBuffer<3> out_buf(static_cast<uint8_t *>(output) + must_mul<int64_t>(out, out_type.bytes()), out_type,
                                device);
        const CopyDim *dims[3] = {&plan.x, &plan.y, &plan.z};
        for (int d = 0; d < 3; ++d) {
            in_buf.set_dim(d, (int32_t)dims[d]->extent, (int32_t)dims[d]->in_stride);
            out_buf.set_dim(d, (int32_t)dims[d]->extent, (int32_t)dims[d]->out_stride);
        }
        KernelCall call(device);
        return check_kernel(launch(&call, &in_buf.buf, &out_buf.buf), call, kernel_name);
    });
}

// Runs the plan with `kernel` (a copy kernel for `element_size`-byte elements)
// on memory of `device`.
HRESULT run_copy(const hdml_device &device, const KernelEntry *kernel, const CopyPlan &plan, const uint8_t *input,
                 uint8_t *output, uint32_t element_size);

}  // namespace hdml
