// CPU schedule of the strided copy kernel.
#pragma once

#include "Halide.h"
#include "schedules/copy_params.h"

namespace hdml {

inline void schedule_copy_cpu(CopyStages &s, const CopyTuning &p, const Halide::Target &target) {
    using namespace Halide;
    Var t("t");
    const int lanes = copy_vector_lanes(s.output.output_types()[0], p, target);
    s.output.specialize(s.x_dense && s.x_extent >= lanes)
        .vectorize(s.x, lanes, TailStrategy::GuardWithIf)
        .fuse(s.y, s.z, t)
        .parallel(t, p.rows_per_task, TailStrategy::GuardWithIf);
    s.output.fuse(s.y, s.z, t).parallel(t, p.rows_per_task, TailStrategy::GuardWithIf);
}

}  // namespace hdml
