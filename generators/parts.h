// What copy_parts (JOIN) and split_parts (SPLIT) share: up to kPiecesPerLaunch
// pieces alike (sizes and strides) in one span buffer of a device's address
// space, piece k's first element at piece_offsets[k].
#pragma once

#include "Halide.h"

#include <vector>

namespace hdml {

// Pieces per launch: runtime/kernels.h's kCopyPartsPerLaunch, as many offsets
// as copy_parts_fn and split_parts_fn take.
constexpr int kPiecesPerLaunch = 16;

// The span element that holds piece k's element (x, y, z); strides in span elements.
template <typename Offsets>
Halide::Expr span_index(const Offsets &piece_offsets, const Halide::Expr &k, const Halide::Expr &x,
                        const Halide::Expr &y, const Halide::Expr &z, const Halide::Expr &x_stride,
                        const Halide::Expr &y_stride, const Halide::Expr &z_stride) {
    std::vector<Halide::Expr> offsets;
    for (size_t p = 0; p < piece_offsets.size(); ++p) offsets.push_back(piece_offsets[p]);
    return Halide::mux(k, offsets) + x * x_stride + y * y_stride + z * z_stride;
}

}  // namespace hdml
