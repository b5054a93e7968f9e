// Schedules for the reducing families (Reduce, ArgReduce), one function per
// target family. The generators describe *what* is computed and hand their
// Funcs over in a ReduceStages; these functions decide *how*. The tunable
// numbers are GeneratorParams (ReduceTuning) whose values come from
// schedules/params/<platform>.json at build time.
#pragma once

#include "Halide.h"
#include "generators/common.h"

#include <vector>

namespace hdml {

// The Funcs of a reducing pipeline. Every reduction is defined as
//   f(i, o) = init;  f(i, o) = combine(f(i, o), g(input(i, r, o)))
// and later reductions may read earlier ones at (i, o) (LOG_SUM_EXP reads the max).
struct ReduceStages {
    Halide::Func output;  // (i, o), pure
    std::vector<Halide::Func> reductions;
    Halide::Var i, o;
    Halide::RDom r;
    Layout layout;
    Halide::Type input_type;
};

// Tunable numbers; members of the generator so Halide registers them as GeneratorParams.
struct ReduceTuning {
    // CPU, inner layout: independent vector accumulators per row, and rows per parallel task.
    Halide::GeneratorParam<int> accumulators{"accumulators", 4};
    Halide::GeneratorParam<int> rows_per_task{"rows_per_task", 8};
    // CPU, outer layout: vectors of the kept inner dimension accumulated per tile.
    Halide::GeneratorParam<int> tile_vectors{"tile_vectors", 4};
    // GPU: threads per block.
    Halide::GeneratorParam<int> gpu_threads{"gpu_threads", 128};
};

inline void schedule_reduce_cpu(ReduceStages &s, const ReduceTuning &p, const Halide::Target &target) {
    using namespace Halide;
    const int lanes = target.natural_vector_size(s.input_type.bits() > 32 ? s.input_type : Float(32));
    Var oo("oo"), oi("oi"), io("io"), ii("ii"), t("t"), u("u"), uo("uo"), ui("ui"), vo("vo"), vi("vi");

    if (s.layout == Layout::Inner) {
        // One row per o; rows are distributed over cores, the row itself is
        // vectorised through rfactor with several independent accumulators.
        s.output.split(s.o, oo, oi, p.rows_per_task, TailStrategy::GuardWithIf).parallel(oo);
        const int chunk = lanes * p.accumulators;
        for (Func f : s.reductions) {
            f.compute_at(s.output, oi);
            RVar ro("ro"), ri("ri");
            Func partial = f.update().split(s.r, ro, ri, chunk, TailStrategy::GuardWithIf).rfactor(ri, u);
            partial.compute_at(s.output, oi).vectorize(u, lanes);
            partial.update().split(u, uo, ui, lanes).reorder(ui, uo, ro).vectorize(ui).unroll(uo);
        }
    } else {
        // Tiles of the kept inner dimension, a full walk over r per tile: each
        // input row segment is read once, contiguously.
        const int tile = lanes * p.tile_vectors;
        s.output.split(s.i, io, ii, tile, TailStrategy::GuardWithIf)
            .reorder(ii, io, s.o)
            .fuse(io, s.o, t)
            .parallel(t)
            .vectorize(ii, lanes, TailStrategy::GuardWithIf);
        for (Func f : s.reductions) {
            f.compute_at(s.output, t).vectorize(s.i, lanes, TailStrategy::GuardWithIf);
            f.update()
                .reorder(s.i, s.r)
                .split(s.i, vo, vi, lanes, TailStrategy::GuardWithIf)
                .vectorize(vi)
                .unroll(vo, p.tile_vectors, TailStrategy::GuardWithIf);
        }
    }
}

// A simple, correct GPU mapping: one thread per output element, serial walk
// over r. (Warp/block trees and split-K come with the CUDA issue.)
inline void schedule_reduce_gpu(ReduceStages &s, const ReduceTuning &p, const Halide::Target &) {
    using namespace Halide;
    Var bo("bo"), to("to");
    if (s.layout == Layout::Inner) {
        s.output.split(s.o, bo, to, p.gpu_threads, TailStrategy::GuardWithIf).gpu_blocks(bo).gpu_threads(to);
    } else {
        s.output.split(s.i, bo, to, p.gpu_threads, TailStrategy::GuardWithIf).gpu_blocks(bo, s.o).gpu_threads(to);
    }
    for (Func f : s.reductions) f.compute_at(s.output, to);
}

inline void schedule_reduce(ReduceStages &s, const ReduceTuning &p, const Halide::Target &target) {
    if (target.has_gpu_feature()) {
        schedule_reduce_gpu(s, p, target);
    } else {
        schedule_reduce_cpu(s, p, target);
    }
}

}  // namespace hdml
