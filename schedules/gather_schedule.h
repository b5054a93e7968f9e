// Schedules of the gather kernel (see generators/gather_generator.cpp).
#pragma once

#include "Halide.h"
#include "schedules/copy_schedule.h"

namespace hdml {

struct GatherStages {
    Halide::Func output;  // (x, j, y)
    Halide::Var x, j, y;
    Halide::Expr x_stride, x_extent;  // output's x dim: vectorise when it is dense and long
    Halide::Expr input_x_stride;      // ...and dense in the input too
    // Gathering along the innermost axis is fastest when j is dense in the
    // output and the indices, and the gathered axis dense in the input.
    Halide::Expr j_dense;
    Halide::Expr y_extent;
};

// Gathered rows are copied as the copy kernel copies rows: the same numbers
// (rows are j values here).
using GatherTuning = CopyTuning;

inline void schedule_gather(GatherStages &s, const GatherTuning &p, const Halide::Target &target) {
    using namespace Halide;
    Var jo("jo"), ji("ji"), t("t");
    if (target.has_gpu_feature()) {
        // Along the innermost axis (x is 1): threads along j. Rows (x long):
        // copied as the copy kernel copies rows (schedule_rows_gpu), j for y.
        Var b("b");
        s.output.specialize(s.x_extent == 1)
            .split(s.j, jo, ji, p.gpu_threads, TailStrategy::GuardWithIf)
            .fuse(jo, s.y, b)
            .gpu_blocks(b)
            .gpu_threads(ji);
        schedule_rows_gpu(s.output, s.x, s.j, s.y, s.y_extent, p.gpu_threads, p.gpu_threads_x, p.gpu_rows);
        return;
    }
    const int lanes = target.natural_vector_size(s.output.output_types()[0]) * p.vectors;
    // Rows of a long, dense x dim are copies: vectorise along x. Gathering
    // along the innermost axis (x extent 1): loop over j.
    s.output.reorder(s.x, s.j, s.y);
    s.output.specialize(s.x_stride == 1 && s.input_x_stride == 1 && s.x_extent >= lanes)
        .vectorize(s.x, lanes, TailStrategy::GuardWithIf)
        .fuse(s.j, s.y, t)
        .parallel(t, p.rows_per_task, TailStrategy::GuardWithIf);
    // Dense j: scalar loads, unrolled. (Vector gathers lose to scalar loads on
    // Zen 4 and most x86 cores: 5 GB/s against 20 here.)
    s.output.specialize(s.x_extent == 1 && s.j_dense)
        .split(s.j, jo, ji, lanes, TailStrategy::GuardWithIf)
        .unroll(ji)
        .fuse(jo, s.y, t)
        .parallel(t, p.rows_per_task, TailStrategy::GuardWithIf);
    s.output.specialize(s.x_extent == 1)
        .split(s.j, jo, ji, lanes, TailStrategy::GuardWithIf)
        .vectorize(ji)
        .fuse(jo, s.y, t)
        .parallel(t, p.rows_per_task, TailStrategy::GuardWithIf);
    s.output.fuse(s.j, s.y, t).parallel(t, p.rows_per_task, TailStrategy::GuardWithIf);
}

}  // namespace hdml
