// Canonicalisation of reductions: any rank-1..8 DirectML reduction (any axis
// set, any element strides, zero strides included) becomes calls of a kernel
// over input(i, r, o) -> output(i, o), looped in C++ over leftover kept dims.
#pragma once

#include "runtime/tensor.h"

#include <string>
#include <vector>

namespace hdml {

struct ReduceDim {
    int64_t extent = 1;
    int64_t in_stride = 0;   // elements of the (possibly packed) input
    int64_t out_stride = 0;  // elements of the output (kept dims only)
    bool reduced = false;
};

struct ReduceShape {
    // Kernel dims. Layout "inner": i has extent 1 and r moves fastest in memory;
    // "outer": i is a kept dim moving faster than r (vectorised along i).
    bool outer_layout = false;
    ReduceDim i, r, o;
    // Kept dims the C++ side iterates over, outermost first.
    std::vector<ReduceDim> loops;
    // When the reduced dims cannot be expressed as one strided dim (several
    // reduced runs, or incompatible strides), the input is first copied into a
    // contiguous buffer ordered [kept dims..., reduced dims...] (DML order kept
    // within each group, so ArgMax's flattened index is unchanged).
    bool packed = false;
    std::vector<uint32_t> pack_order;  // DML dims in the packed buffer's order, outermost first

    std::string describe() const;
};

// `reduced_mask` bit d set = DML axis d (0 = outermost) is reduced.
// `reorder_reduced`: the function does not care about the order of reduced
// elements, so reduced dims may be permuted to fuse (false for ARGMAX/ARGMIN).
// `out_stride_scale` multiplies output strides (2 when 64-bit indices are
// written as the low halves of uint32 pairs).
ReduceShape plan_reduce(const Tensor &input, const Tensor &output, uint32_t reduced_mask, bool reorder_reduced,
                        int64_t out_stride_scale);

// The CUDA kernels' mapping for many short inner rows: a thread per row, which
// is what the outer kernel does when the rows are its columns (i = the rows,
// r = a row's elements). True when the shape qualifies and was remapped. The
// limits are schedules/params/cuda.json's "dispatch" numbers.
bool use_thread_per_row(ReduceShape *shape, int64_t max_row, int64_t min_rows);

// CUDA: whether the outer kernel's whole-columns variant serves the shape: at
// least `min_outputs` columns per call, the count at which the split-K kernel
// would give each column a single run (cuda.json's "dispatch").
bool use_whole_columns(const ReduceShape &shape, int64_t min_outputs);

// CUDA: whether the outer kernel's warp-merge variant serves the shape: at
// most `max_outputs` columns per call, which split-K cuts into many runs each
// (cuda.json's "dispatch").
bool use_warp_merge(const ReduceShape &shape, int64_t max_outputs);

// CUDA: whether the inner kernel's lanes variant serves the shape: rows of
// min_row to max_row elements, at least `min_rows` of them per call
// (cuda.json's "dispatch").
bool use_row_lanes(const ReduceShape &shape, int64_t min_row, int64_t max_row, int64_t min_rows);

// fits_small_buffers (runtime/halide_glue.h) for one call's i, r, o: the
// input's elements of `in_bytes`, the output's of `out_bytes`.
bool fits_small_buffers(const ReduceShape &shape, int64_t in_bytes, int64_t out_bytes);

}  // namespace hdml
