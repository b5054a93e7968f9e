// Every size limit hdml enforces, in one place. DirectML's own limits come
// from its docs; the kernel limit from Halide's 32-bit buffer dims.
#pragma once

#include <cstdint>

namespace hdml {

constexpr uint32_t kMaxRank = 8;  // DML_TENSOR_DIMENSION_COUNT_MAX1

// A tensor's elements: DirectML counts them in UINT (2^32-1).
constexpr uint64_t kMaxTensorElements = UINT32_MAX;

// A tensor's span in bytes, so every int64 byte offset inside it fits.
constexpr uint64_t kMaxTensorSpanBytes = INT64_MAX;

// A binding's Offset + SizeInBytes: far below 2^64, so pointer arithmetic on
// Buffer + Offset cannot wrap (no real allocation comes near 2^56 bytes).
constexpr uint64_t kMaxBindingBytes = uint64_t(1) << 56;

// One kernel dim's extent or stride: halide_dimension_t holds int32.
constexpr int64_t kMaxKernelExtent = INT32_MAX;

// Kernels built without large_buffers index with int32: each buffer of a call
// must hold fewer elements, and span fewer bytes, than this.
constexpr int64_t kSmallBufferLimit = int64_t(1) << 31;

// The longest row (or, CPUs' outer layout, chunk of rows) an ARGMAX/ARGMIN
// kernel of 32-bit keys indexes: its index key has 16 bits. The generator
// builds to it, the runtime's choice of kernel keeps to it.
constexpr int64_t kNarrowKeyMaxRow = 65536;

}  // namespace hdml
