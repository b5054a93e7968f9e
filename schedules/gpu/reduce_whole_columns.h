// GPU mapping, outer layout, ColumnMapping::Whole (many columns): the output
// kernel's threads reduce their columns over all rows themselves, one kernel,
// no partials. Also short inner rows run a thread per row (the runtime maps
// the rows onto columns).
#pragma once

#include "Halide.h"
#include "schedules/gpu/loops.h"
#include "schedules/reduce_params.h"

#include <vector>

namespace hdml {

// Whole columns that are rows of the input (vector_bytes kernels): a thread
// per column reduces `f` over its row `r`, `lanes` elements per load, loaded
// into registers by a wrapper of the input (H100, [16M,16] float32: 68-76% of
// copy element by element, 96-103% in 16-byte vectors). The walk is left to
// LLVM to unroll: Halide's guarded copies would keep each load behind a branch.
inline void whole_rows_in_vectors(const GpuLoops &g, Halide::Func consumer, Halide::Func f, Halide::Func input,
                                  Halide::RVar r, int lanes) {
    using namespace Halide;
    RVar rs("rs"), rv("rv");
    f.compute_at(consumer, g.ot).unroll(g.i);
    f.update().split(r, rs, rv, lanes).reorder(rv, rs, g.i, g.o).unroll(g.i).unroll(rv);
    Func vectors = input.in(f);
    const Var element = vectors.args()[1];
    vectors.compute_at(f, rs).bound_extent(element, lanes).vectorize(element).store_in(MemoryType::Register);
}

// The consumer's threads reduce their columns over the input's rows `r`,
// each of `reductions` in turn (a maximum before what reads it), a column
// read once per reduction (from cache after the first where it is a short
// row). Rows in vectors where built with vector_bytes, elements otherwise,
// `columns` per thread only where the input's columns are adjacent (i_stride
// 1): 4 short rows per thread spread a warp over 128 rows' cache lines.
inline void schedule_whole_columns(const GpuLoops &g, Halide::Func consumer, const std::vector<Halide::Func> &reductions,
                                   Halide::Func input, Halide::RVar r, const Halide::Expr &i_extent,
                                   const Halide::Expr &i_stride, const Halide::Type &input_type, int columns,
                                   int unroll, const ReduceMapping &m) {
    if (m.vector_bytes > 0) {
        merge_tiles(g, consumer, i_extent, 1);
        for (const Halide::Func &f : reductions) {
            whole_rows_in_vectors(g, consumer, f, input, r, vector_lanes(m, input_type));
        }
    } else {
        merge_tiles(g, consumer, i_extent, columns, i_stride == 1);
        for (const Halide::Func &f : reductions) merge_in_columns(g, consumer, f, r, unroll);
    }
}

}  // namespace hdml
