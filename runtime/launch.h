// Calls of the kernels whose input and output share rank-3 dims (copy,
// normalize_indices, scan) over a canonical shape: one call per offset of
// the shape's C++ loops.
#pragma once

#include "runtime/checked.h"
#include "runtime/device.h"
#include "runtime/halide_glue.h"
#include "runtime/kernels.h"
#include "runtime/shape/copy.h"
#include "runtime/shape/dims.h"

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

namespace hdml {

// For each loop offset, rank-3 buffers (x, y, z) over `input` and `output`
// (memory of `device`, elements of the given types); `launch(call, in_buf,
// out_buf)` returns the kernel's Halide result. `words_per_input` > 1 reads
// each input element as that many consecutive `in_type` words, a leading input
// dim of its own (x, y, z strides and the offsets then count words).
template <typename Launch>
HRESULT run_xyz(const hdml_device &device, const Dim &x, const Dim &y, const Dim &z, const std::vector<Dim> &loops,
                const void *input, halide_type_t in_type, void *output, halide_type_t out_type,
                const char *kernel_name, Launch launch, int32_t words_per_input = 1) {
    const int lead = words_per_input > 1 ? 1 : 0;
    return for_each_offset(loops, [&](const Offsets &at) {
        auto *in_at = const_cast<uint8_t *>(static_cast<const uint8_t *>(input)) + must_mul<int64_t>(at.in, in_type.bytes());
        KernelBuffer<4> in_buf(in_at, in_type, device);
        in_buf.buf.dimensions = 3 + lead;
        if (lead) in_buf.set_dim(0, words_per_input, 1);
        KernelBuffer<3> out_buf(static_cast<uint8_t *>(output) + must_mul<int64_t>(at.out, out_type.bytes()), out_type,
                                device);
        const Dim *dims[3] = {&x, &y, &z};
        for (int d = 0; d < 3; ++d) {
            in_buf.set_dim(d + lead, (int32_t)dims[d]->extent, (int32_t)dims[d]->in_stride);
            out_buf.set_dim(d, (int32_t)dims[d]->extent, (int32_t)dims[d]->out_stride);
        }
        KernelCall call(device);
        return check_kernel(launch(&call, &in_buf.buf, &out_buf.buf), call, kernel_name);
    });
}

// Whether both addresses are multiples of `bytes` (a word kernel's elements).
inline bool aligned_to(uint32_t bytes, const void *a, const void *b) {
    return ((reinterpret_cast<uintptr_t>(a) | reinterpret_cast<uintptr_t>(b)) % bytes) == 0;
}

// The shape copied by `kernel` (a copy kernel for `element_size`-byte elements).
HRESULT run_copy(const hdml_device &device, const KernelEntry *kernel, const CopyShape &shape, const uint8_t *input,
                 uint8_t *output, uint32_t element_size);

// `pieces` (up to kCopyPartsPerLaunch) copies of `shape` between piece k, at
// span + piece_offsets[k] elements (span_extent elements hold them all), and
// the whole at whole + k * piece_step elements, by `kernel` (of
// `element_size`-byte elements): copy_parts reads the pieces (JOIN: the
// shape's input side is the pieces'), split_parts writes them (SPLIT: its
// output side is). A launch per offset of the shape's loops.
HRESULT run_parts(const hdml_device &device, const KernelEntry *kernel, const CopyShape &shape, uint8_t *span,
                  int32_t span_extent, const std::array<int32_t, kCopyPartsPerLaunch> &piece_offsets, int32_t pieces,
                  int32_t piece_step, uint8_t *whole, uint32_t element_size);

}  // namespace hdml
