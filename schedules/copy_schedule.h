// Schedules of the strided copy kernel (see generators/copy_generator.cpp).
#pragma once

#include "Halide.h"

#include <algorithm>

namespace hdml {

struct CopyStages {
    Halide::Func output;  // (x, y, z)
    Halide::Var x, y, z;
    Halide::Expr x_dense;   // x has unit stride in both tensors
    Halide::Expr x_extent, z_extent;
};

// The copy kernel's numbers; the gather kernel's too (GatherTuning), which
// copies rows the same way.
struct CopyTuning {
    // CPU: rows (y, z pairs) per parallel task, and vector width in natural vectors.
    Halide::GeneratorParam<int> rows_per_task{"rows_per_task", 16};
    Halide::GeneratorParam<int> vectors{"vectors", 2};
    // GPU: threads per block (gpu_threads_x of them along x), and rows copied per thread.
    Halide::GeneratorParam<int> gpu_threads{"gpu_threads", 128};
    Halide::GeneratorParam<int> gpu_threads_x{"gpu_threads_x", 64};
    Halide::GeneratorParam<int> gpu_rows{"gpu_rows", 4};
};

// GPU: a thread copies one element of x in each of `rows` consecutive rows
// (y), unrolled, so several loads are in flight and the row addresses are the
// first row's plus multiples of y's stride. (Fusing y with z first, as this
// kernel once did, cost a 32-bit division per row: the H100 ran it at ~60%
// of copy speed, ALU-bound; now 98-100%, where 8- or 16-byte vector accesses
// gained nothing.) Blocks are 2-D, `threads_x` threads along x (coalesced)
// and the rest along y, so short rows (a SPLIT into many pieces) still fill
// them. Grid x is the (x, y) tiles, grid y is z; CUDA grids stop at 65535 in
// y, so a longer z is fused into grid x (a division per thread, not per row).
// The gather kernel maps its rows (x, j, y) the same way.
inline void schedule_rows_gpu(Halide::Func out, Halide::Var x, Halide::Var y, Halide::Var z,
                              const Halide::Expr &z_extent, int threads, int threads_x, int rows) {
    using namespace Halide;
    Var xo("xo"), xi("xi"), yo("yo"), yi("yi"), yt("yt"), b("b"), bz("bz");
    out.split(x, xo, xi, threads_x, TailStrategy::GuardWithIf)
        .split(y, yo, yi, rows, TailStrategy::GuardWithIf)
        .split(yo, yo, yt, std::max(1, threads / threads_x), TailStrategy::GuardWithIf)
        .reorder(yi, xi, yt, xo, yo, z)
        .fuse(xo, yo, b)
        .gpu_threads(xi, yt)
        .unroll(yi);
    out.specialize(z_extent <= 65535).gpu_blocks(b, z);
    out.fuse(b, z, bz).gpu_blocks(bz);
}

inline void schedule_copy(CopyStages &s, const CopyTuning &p, const Halide::Target &target) {
    using namespace Halide;
    Var t("t");
    if (target.has_gpu_feature()) {
        schedule_rows_gpu(s.output, s.x, s.y, s.z, s.z_extent, p.gpu_threads, p.gpu_threads_x, p.gpu_rows);
        return;
    }
    const int lanes = target.natural_vector_size(s.output.output_types()[0]) * p.vectors;
    s.output.specialize(s.x_dense && s.x_extent >= lanes)
        .vectorize(s.x, lanes, TailStrategy::GuardWithIf)
        .fuse(s.y, s.z, t)
        .parallel(t, p.rows_per_task, TailStrategy::GuardWithIf);
    s.output.fuse(s.y, s.z, t).parallel(t, p.rows_per_task, TailStrategy::GuardWithIf);
}

}  // namespace hdml
