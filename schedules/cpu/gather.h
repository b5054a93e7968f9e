// CPU schedule of the gather kernel.
#pragma once

#include "Halide.h"
#include "schedules/copy_params.h"

namespace hdml {

inline void schedule_gather_cpu(GatherStages &s, const GatherTuning &p, const Halide::Target &target) {
    using namespace Halide;
    Var jo("jo"), ji("ji"), t("t");
    const int lanes = copy_vector_lanes(s.output.output_types()[0], p, target);
    // Rows of a long, dense x dim are copies: vectorise along x. Gathering
    // along the innermost axis (x extent 1): loop over j.
    s.output.reorder(s.x, s.j, s.y);
    s.output.specialize(s.x_stride == 1 && s.input_x_stride == 1 && s.x_extent >= lanes)
        .vectorize(s.x, lanes, TailStrategy::GuardWithIf)
        .fuse(s.j, s.y, t)
        .parallel(t, p.rows_per_task, TailStrategy::GuardWithIf);
    // Dense j: scalar loads, unrolled (vector gathers lose to scalar loads on
    // most x86 cores: 5 GB/s against 20 on Zen 4). At least a vector of j: the
    // last block shifts inwards (rewriting a few elements with the same values),
    // where a guard would wrap every unrolled element in its own branch.
    // Many rows: tasks of whole rows (no fused index to divide per block).
    s.output.specialize(s.x_extent == 1 && s.j_dense && s.j_extent >= lanes && s.y_extent >= 4 * p.rows_per_task)
        .split(s.j, jo, ji, lanes, TailStrategy::ShiftInwards)
        .unroll(ji)
        .parallel(s.y, p.rows_per_task, TailStrategy::GuardWithIf);
    s.output.specialize(s.x_extent == 1 && s.j_dense && s.j_extent >= lanes)
        .split(s.j, jo, ji, lanes, TailStrategy::ShiftInwards)
        .unroll(ji)
        .fuse(jo, s.y, t)
        .parallel(t, p.rows_per_task, TailStrategy::GuardWithIf);
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
