// GPU mappings of the data-movement kernels: rows of copies (copy; gather's
// rows) and gathering along the innermost axis.
#pragma once

#include "Halide.h"
#include "schedules/copy_params.h"

#include <algorithm>

namespace hdml {

// A thread copies one element of x in each of `rows` consecutive rows (y),
// unrolled, so several loads are in flight and the row addresses are the
// first row's plus multiples of y's stride (fusing y with z first cost a
// 32-bit division per row: ~60% of copy speed on the H100, now 98-100%).
// Blocks are 2-D, `threads_x` threads along x (coalesced) and the rest along
// y, so short rows still fill them. Grid x is the (x, y) tiles, grid y is z;
// CUDA grids stop at 65535 in y, so a longer z is fused into grid x.
// The threads' part of it: returns the var of the (x, y) tiles, b.
inline Halide::Var split_rows_gpu(Halide::Func out, Halide::Var x, Halide::Var y, int threads, int threads_x,
                                  int rows) {
    using namespace Halide;
    Var xo("xo"), xi("xi"), yo("yo"), yi("yi"), yt("yt"), b("b");
    out.split(x, xo, xi, threads_x, TailStrategy::GuardWithIf)
        .split(y, yo, yi, rows, TailStrategy::GuardWithIf)
        .split(yo, yo, yt, std::max(1, threads / threads_x), TailStrategy::GuardWithIf)
        .reorder(yi, xi, yt, xo, yo)
        .fuse(xo, yo, b)
        .gpu_threads(xi, yt)
        .unroll(yi);
    return b;
}

inline void schedule_rows_gpu(Halide::Func out, Halide::Var x, Halide::Var y, Halide::Var z,
                              const Halide::Expr &z_extent, int threads, int threads_x, int rows) {
    using namespace Halide;
    Var b = split_rows_gpu(out, x, y, threads, threads_x, rows), bz("bz");
    out.specialize(z_extent <= 65535).gpu_blocks(b, z);
    out.fuse(b, z, bz).gpu_blocks(bz);
}

// Several pieces' rows per launch (copy_parts): as above, each piece k a
// block index of its own (grid z). The pieces innermost in grid x instead,
// so the blocks in flight wrote the same rows of 16 pieces, ran 3-5% slower
// on the H200 (bench/results/2026-11-28-gpu-join-parts/).
inline void schedule_parts_gpu(Halide::Func out, Halide::Var x, Halide::Var y, Halide::Var z, Halide::Var k,
                               const Halide::Expr &z_extent, int threads, int threads_x, int rows) {
    using namespace Halide;
    Var b = split_rows_gpu(out, x, y, threads, threads_x, rows), bz("bz");
    out.specialize(z_extent <= 65535).gpu_blocks(b, z, k);
    out.fuse(b, z, bz).gpu_blocks(bz, k);
}

// SPLIT's pieces alike written through one span (split_parts): the update
// over r = (row of a group, x, group of rows, z, k). Halide keeps an
// update's loops in r's order (it reorders no reduction vars), so the rows a
// thread copies (unrolled, their loads in flight together) are r's innermost
// dimension; a block is `threads` threads along x; grid x the groups of rows
// by the x blocks, grid y z (fused into grid x past 65535), grid z the pieces.
inline void schedule_parts_scatter_gpu(Halide::Func span, const Halide::RDom &r, const Halide::Expr &z_extent,
                                       int threads) {
    using namespace Halide;
    // The pure definition (undef) writes nothing, but left a host loop it would
    // have Halide ask for the span's host memory.
    Var i = span.args()[0], io("io"), ii("ii");
    span.split(i, io, ii, threads, TailStrategy::GuardWithIf).gpu_blocks(io).gpu_threads(ii);
    RVar xo("xo"), xi("xi"), b("b"), bz("bz");
    // The pieces never overlap: no two threads store to one element.
    Stage scatter = span.update().allow_race_conditions();
    scatter.split(r[1], xo, xi, threads, TailStrategy::GuardWithIf).fuse(xo, r[2], b).gpu_threads(xi).unroll(r[0]);
    scatter.specialize(z_extent <= 65535).gpu_blocks(b, r[3], r[4]);
    scatter.fuse(b, r[3], bz).gpu_blocks(bz, r[4]);
}

// Gather: along the innermost axis (x is 1), threads along j; rows (x long)
// copied as the copy kernel copies rows, j for y.
inline void schedule_gather_gpu(GatherStages &s, const GatherTuning &p) {
    using namespace Halide;
    Var jo("jo"), ji("ji"), b("b");
    s.output.specialize(s.x_extent == 1)
        .split(s.j, jo, ji, p.gpu_threads, TailStrategy::GuardWithIf)
        .fuse(jo, s.y, b)
        .gpu_blocks(b)
        .gpu_threads(ji);
    schedule_rows_gpu(s.output, s.x, s.j, s.y, s.y_extent, p.gpu_threads, p.gpu_threads_x, p.gpu_rows);
}

}  // namespace hdml
