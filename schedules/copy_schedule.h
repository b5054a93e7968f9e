// Schedules of the strided copy kernel (see generators/copy_generator.cpp).
#pragma once

#include "Halide.h"

namespace hdml {

struct CopyStages {
    Halide::Func output;  // (x, y, z)
    Halide::Var x, y, z;
    Halide::Expr x_dense;   // x has unit stride in both tensors
    Halide::Expr x_extent;
};

struct CopyTuning {
    // CPU: rows (y, z pairs) per parallel task, and vector width in natural vectors.
    Halide::GeneratorParam<int> rows_per_task{"rows_per_task", 16};
    Halide::GeneratorParam<int> vectors{"vectors", 2};
    // GPU: threads per block, and rows copied per thread.
    Halide::GeneratorParam<int> gpu_threads{"gpu_threads", 128};
    Halide::GeneratorParam<int> gpu_rows{"gpu_rows", 4};
};

inline void schedule_copy(CopyStages &s, const CopyTuning &p, const Halide::Target &target) {
    using namespace Halide;
    Var xo("xo"), xi("xi"), yo("yo"), yi("yi"), t("t");
    if (target.has_gpu_feature()) {
        // Threads along x (coalesced); each thread copies gpu_rows rows (y, z
        // fused) at its x, unrolled: independent loads in flight. The block
        // index is one fused dim, since CUDA grids stop at 65535 in y and z.
        Var b("b");
        s.output.fuse(s.y, s.z, t)
            .split(s.x, xo, xi, p.gpu_threads, TailStrategy::GuardWithIf)
            .split(t, yo, yi, p.gpu_rows, TailStrategy::GuardWithIf)
            .reorder(xi, yi, xo, yo)
            .fuse(xo, yo, b)
            .gpu_blocks(b)
            .gpu_threads(xi)
            .unroll(yi);
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
