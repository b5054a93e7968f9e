// Schedules of the strided copy kernel (generators/copy_generator.cpp), its
// several-pieces twins (copy_parts_generator.cpp, split_parts_generator.cpp)
// and the gather kernel (generators/gather_generator.cpp), by target:
// cpu/copy.h, cpu/gather.h, gpu/rows.h.
#pragma once

#include "Halide.h"
#include "schedules/copy_params.h"
#include "schedules/cpu/copy.h"
#include "schedules/cpu/gather.h"
#include "schedules/gpu/rows.h"

namespace hdml {

inline void schedule_copy(CopyStages &s, const CopyTuning &p, const Halide::Target &target) {
    if (target.has_gpu_feature()) {
        schedule_rows_gpu(s.output, s.x, s.y, s.z, s.z_extent, p.gpu_threads, p.gpu_threads_x, p.gpu_rows);
    } else {
        schedule_copy_cpu(s, p, target);
    }
}

// CUDA only: the pieces share one address space nowhere else.
inline void schedule_copy_parts(CopyStages &s, const Halide::Var &k, const CopyTuning &p,
                                const Halide::Target &target) {
    _halide_user_assert(target.has_feature(Halide::Target::CUDA)) << "copy_parts is a CUDA kernel";
    schedule_parts_gpu(s.output, s.x, s.y, s.z, k, s.z_extent, p.gpu_threads, p.gpu_threads_x, p.gpu_rows);
}

// CUDA only, as copy_parts: the update that scatters the pieces.
inline void schedule_split_parts(Halide::Func span, const Halide::RDom &r, const Halide::Expr &z_extent,
                                 const ScatterTuning &p, const Halide::Target &target) {
    _halide_user_assert(target.has_feature(Halide::Target::CUDA)) << "split_parts is a CUDA kernel";
    schedule_parts_scatter_gpu(span, r, z_extent, p.gpu_threads);
}

inline void schedule_gather(GatherStages &s, const GatherTuning &p, const Halide::Target &target) {
    if (target.has_gpu_feature()) {
        schedule_gather_gpu(s, p);
    } else {
        schedule_gather_cpu(s, p, target);
    }
}

}  // namespace hdml
