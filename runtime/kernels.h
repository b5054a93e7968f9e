// The table of generated kernels linked into this build, each with its family
// and the typed parameters ops.cmake built it with.
#pragma once

#include "hdml/directml.h"
#include "runtime/kernel_params.h"

#include <cstdint>
#include <string>
#include <utility>

struct halide_buffer_t;
struct hdml_device;

namespace hdml {

// One signature per kernel family; the generated table is checked against these at compile time.
using reduce_fn = int (*)(const void *user_context, halide_buffer_t *input, int32_t element_map, int32_t finish,
                          halide_buffer_t *output);
using arg_reduce_fn = int (*)(const void *user_context, halide_buffer_t *input, int32_t find_min, int32_t last_index,
                              halide_buffer_t *output);

using gather_fn = int (*)(const void *user_context, halide_buffer_t *input, halide_buffer_t *indices,
                          halide_buffer_t *output);

using normalize_indices_fn = int (*)(const void *user_context, halide_buffer_t *input, int32_t extent,
                                     halide_buffer_t *output);

using copy_fn = int (*)(const void *user_context, halide_buffer_t *input, halide_buffer_t *output);

// copy_parts (JOIN: span read) and split_parts (SPLIT: span written): up to
// kCopyPartsPerLaunch pieces, piece k at piece_offsets[k] in span, the whole
// seen as (x, y, z, k). The generators' kPiecesPerLaunch (generators/parts.h).
constexpr size_t kCopyPartsPerLaunch = 16;
template <typename T, size_t>
using Repeat = T;
template <size_t... K>
auto copy_parts_signature(std::index_sequence<K...>)
    -> int (*)(const void *user_context, halide_buffer_t *span, int32_t x_stride, int32_t y_stride, int32_t z_stride,
               Repeat<int32_t, K>... piece_offsets, halide_buffer_t *whole);
template <size_t... K>
auto split_parts_signature(std::index_sequence<K...>)
    -> int (*)(const void *user_context, halide_buffer_t *whole, int32_t x_stride, int32_t y_stride, int32_t z_stride,
               Repeat<int32_t, K>... piece_offsets, halide_buffer_t *span);
using copy_parts_fn = decltype(copy_parts_signature(std::make_index_sequence<kCopyPartsPerLaunch>()));
using split_parts_fn = decltype(split_parts_signature(std::make_index_sequence<kCopyPartsPerLaunch>()));

using scan_fn = int (*)(const void *user_context, halide_buffer_t *input, int32_t exclusive, halide_buffer_t *output);
// The row walk whose running totals are wider than the data (float16): `carry`
// holds them, one row per (i, o), its r dim of stride 0 (generators/scan_generator.cpp).
using scan_carry_row_fn = int (*)(const void *user_context, halide_buffer_t *input, int32_t exclusive,
                                  halide_buffer_t *output, halide_buffer_t *carry);

using ErasedKernel = void (*)();

struct KernelEntry {
    Family family;
    KernelParams params;
    const char *name;
    ErasedKernel fn;
};

// The kernel of `family` built with exactly `params` for the device's platform
// (the CPU platform of this build, cuda or d3d12), or nullptr when this build has none.
const KernelEntry *find_kernel(const hdml_device &device, Family family, const KernelParams &params);

// The platform name of the device's kernels, for messages ("x86", "arm", "cuda", "d3d12").
const char *kernel_platform(const hdml_device &device);

// Why no kernel serves `params`: E_INVALIDARG "<what>: no <platform> kernel
// '<family>' (<params>) was built into this hdml.", or on D3D12, for 64-bit
// types, DXGI_ERROR_UNSUPPORTED (as DirectML reports a data type a device lacks).
HRESULT no_kernel(const hdml_device &device, Family family, const KernelParams &params, const std::string &what);

// find_kernel into *kernel, or no_kernel's error.
HRESULT require_kernel(const hdml_device &device, Family family, const KernelParams &params, const std::string &what,
                       const KernelEntry **kernel);

template <typename Fn>
Fn kernel_fn(const KernelEntry *entry) {
    return reinterpret_cast<Fn>(entry->fn);
}

}  // namespace hdml
