// Reductions: any rank-1..8 DirectML reduction (any axis set, any element
// strides, zero strides included) becomes calls of a kernel over
// input(i, r, o) -> output(i, o), looped in C++ over leftover kept dims.
#pragma once

#include "runtime/shape/dims.h"
#include "runtime/tensor.h"

#include <string>
#include <vector>

namespace hdml {

struct ReduceShape {
    // Layout "inner": i has extent 1 and r moves fastest in memory; "outer":
    // i is a kept dim moving faster than r (vectorised along i).
    bool outer_layout = false;
    Dim i, r, o;
    std::vector<Dim> loops;  // kept dims the C++ side iterates over, outermost first
    // When the reduced dims cannot be expressed as one strided dim (several
    // reduced runs, or incompatible strides), the input is first copied into a
    // contiguous buffer ordered [kept dims..., reduced dims...] (DML order kept
    // within each group, so ArgMax's flattened index is unchanged).
    bool packed = false;
    std::vector<uint32_t> pack_order;  // DML dims in the packed buffer's order, outermost first
    // Set when a run of reduced elements exceeds a kernel extent (2^31-1).
    bool too_long = false;

    // The rows (r the reduced run, o the rows) seen as the outer layout's
    // columns, a kernel thread per row: i = the rows.
    ReduceShape rows_as_columns() const;
    // The outer layout's few columns over short rows seen as rows (a row per
    // column and o, each o a vector lane): the inner layout with i kept.
    ReduceShape columns_as_rows() const;
    int64_t outputs_per_call() const { return i.extent * o.extent; }
    // When packed: the copy of `input` into the contiguous buffer (plan_copy's dims).
    std::vector<Dim> packing_dims(const Tensor &input) const;
    std::string describe() const;
};

// `reduced_mask` bit d set = DML axis d (0 = outermost) is reduced.
// `reorder_reduced`: the function does not care about the order of reduced
// elements, so reduced dims may be permuted to fuse (false for ARGMAX/ARGMIN).
// `out_stride_scale` multiplies output strides (2 when 64-bit indices are
// written as the low halves of uint32 pairs).
ReduceShape plan_reduce(const Tensor &input, const Tensor &output, uint32_t reduced_mask, bool reorder_reduced,
                        int64_t out_stride_scale);

}  // namespace hdml
