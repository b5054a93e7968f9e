// The one canonicalisation vocabulary: a tensor dim seen by every tensor of an
// operator at once, and the steps every family's planner shares (drop size-1
// dims, fuse neighbours whose strides chain, take the dim a kernel wants,
// walk the dims left to C++ loops).
#pragma once

#include "hdml/directml.h"

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace hdml {

enum class Role : uint8_t {
    kept,     // present in input and output
    reduced,  // reductions: present in the input only (out_stride 0)
    index,    // gather: moves through the indices (in_stride 0)
};

struct Dim {
    int64_t extent = 1;
    int64_t in_stride = 0;   // elements of the input
    int64_t out_stride = 0;  // elements of the output
    int64_t idx_stride = 0;  // elements of gather's normalised indices
    Role role = Role::kept;
};

// Whether the dim's extent and strides fit a kernel's int32 buffer dims.
bool fits_kernel(const Dim &d);

// Drops size-1 dims and merges neighbours (outer into inner) of one role whose
// strides chain in every tensor, up to kernel-sized extents. Dims outermost first.
std::vector<Dim> canonical_dims(const std::vector<Dim> &dims);

// The word that 8- and 16-bit data are moved (and, on CUDA, read) in.
constexpr uint32_t kWordBytes = 4;

// Data movement in words `factor` elements wide (16-bit elements moved as
// 32-bit words: GPUs load 16-bit elements one at a time, at 57-87% of the
// copy speed of 32-bit ones). The canonical dims of `dims` with the dim that
// is contiguous in input and output (stride 1 in both) `factor` times shorter
// and every other stride `factor` times smaller; false, `wide` untouched,
// where no dim is contiguous in both or an extent or stride does not divide.
// The caller checks that the bound addresses are aligned to a word.
bool widen_elements(const std::vector<Dim> &dims, int64_t factor, std::vector<Dim> *wide);

// Data movement in words `parts` to an element (64-bit elements moved as pairs
// of 32-bit words by devices whose kernels have no 64-bit types: D3D12): the
// canonical dims of `dims` with every element stride `parts` times larger and
// an innermost dim of the `parts` words (stride 1 in input and output; index
// strides count normalised indices and stay).
std::vector<Dim> split_elements(const std::vector<Dim> &dims, int64_t parts);

// Removes and returns the dim of `dims` that fits a kernel, passes `eligible`
// and that `better` prefers over every other such dim; a unit dim if none.
template <typename Eligible, typename Better>
Dim take_dim(std::vector<Dim> &dims, Eligible eligible, Better better) {
    int best = -1;
    for (size_t k = 0; k < dims.size(); ++k) {
        if (!fits_kernel(dims[k]) || !eligible(dims[k])) continue;
        if (best < 0 || better(dims[k], dims[best])) best = (int)k;
    }
    if (best < 0) return Dim{};
    const Dim d = dims[best];
    dims.erase(dims.begin() + best);
    return d;
}
inline bool any_dim(const Dim &) { return true; }
inline bool larger_extent(const Dim &a, const Dim &b) { return a.extent > b.extent; }

// Element offsets into each tensor of one C++ loop iteration.
struct Offsets {
    int64_t in = 0, out = 0, idx = 0;
};

// Moves `at` from the last index of `d` back to its first.
void rewind_offsets(const Dim &d, Offsets *at);

// One step of an N-D odometer over `loops` (outermost first): `index` and
// `at` move to the next index; false, both back at the first, after the last.
bool next_offsets(const std::vector<Dim> &loops, std::vector<int64_t> *index, Offsets *at);

// Calls fn(offsets) for every index of `loops` (outermost first); stops at
// and returns the first failure.
template <typename Fn>
HRESULT for_each_offset(const std::vector<Dim> &loops, Fn fn) {
    std::vector<int64_t> index(loops.size(), 0);
    Offsets at;
    do {
        const HRESULT hr = fn(at);
        if (FAILED(hr)) return hr;
    } while (next_offsets(loops, &index, &at));
    return S_OK;
}

// Whether one kernel call over `dims` suits a kernel built without
// large_buffers (Halide checks its 32-bit indexing at each call): fewer than
// 2^31 elements and a span under 2^31 bytes in the input (elements of
// `in_bytes`) and the output (of `out_bytes`).
bool fits_small_buffers(std::initializer_list<const Dim *> dims, int64_t in_bytes, int64_t out_bytes);

// "{extent x in_stride}" for logs.
std::string describe_dim(const Dim &d);

}  // namespace hdml
