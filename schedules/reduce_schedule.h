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
    // Strides of the input's i and r dimensions: schedules specialise the
    // unit-stride case, where loads become dense vector loads.
    Halide::Expr i_stride, r_stride;
    Halide::Expr r_extent, o_extent;
};

// Tunable numbers; members of the generator so Halide registers them as GeneratorParams.
struct ReduceTuning {
    // CPU, inner layout: independent vector accumulators, elements of a row per
    // parallel block, and (row, block) pairs per parallel task.
    Halide::GeneratorParam<int> accumulators{"accumulators", 4};
    Halide::GeneratorParam<int> block_elements{"block_elements", 16384};
    Halide::GeneratorParam<int> min_parallel_rows{"min_parallel_rows", 8};
    Halide::GeneratorParam<int> rows_per_task{"rows_per_task", 8};
    // CPU, outer layout: consecutive reduced rows accumulated per parallel block.
    Halide::GeneratorParam<int> rows_per_chunk{"rows_per_chunk", 64};
    // GPU: threads per block.
    Halide::GeneratorParam<int> gpu_threads{"gpu_threads", 128};
};

inline void schedule_reduce_cpu(ReduceStages &s, const ReduceTuning &p, const Halide::Target &target) {
    using namespace Halide;
    const int lanes = target.natural_vector_size(s.input_type.bits() > 32 ? s.input_type : Float(32));
    Var oo("oo"), oi("oi"), t("t"), u("u"), uo("uo"), ui("ui");

    if (s.layout == Layout::Inner) {
        // Rows are cut into blocks, (row, block) pairs spread over cores, so a
        // single long row (an all-axes reduction) uses every core as well as
        // many short rows do. Within a block, rfactor
        // vectorises along r with `accumulators` independent vector
        // accumulators; the per-block partials are then combined per row.
        Var c("c");
        s.output.split(s.o, oo, oi, p.rows_per_task, TailStrategy::GuardWithIf).parallel(oo);
        const int chunk = lanes * p.accumulators;
        for (Func f : s.reductions) {
            RVar rb("rb"), rr("rr"), ro("ro"), ri("ri");
            // Many rows: one block per row (rows alone keep the cores busy).
            // Few rows: blocks of block_elements, spread over the cores.
            const Expr block = select(s.o_extent >= p.min_parallel_rows, s.r_extent, min(s.r_extent, p.block_elements));
            Func blocks = f.update().split(s.r, rb, rr, block, TailStrategy::GuardWithIf).rfactor(rb, c);
            // rfactor before any other directive on the stage: it rebuilds the stage's loops.
            Func partial = blocks.update().split(rr, ro, ri, chunk, TailStrategy::GuardWithIf).rfactor(ri, u);
            blocks.compute_root();
            // Rows are spread over cores; blocks of a row too, when a row has
            // several (nested parallelism: a long single row uses every core).
            Stage row_blocks = blocks.update();
            row_blocks.reorder(ri, s.i, c, s.o).split(s.o, oo, oi, p.rows_per_task, TailStrategy::GuardWithIf).parallel(oo);
            const Expr several_blocks = s.o_extent < p.min_parallel_rows && s.r_extent > p.block_elements;
            row_blocks.specialize(s.r_stride == 1 && several_blocks).parallel(c);
            row_blocks.specialize(s.r_stride == 1);
            row_blocks.specialize(several_blocks).parallel(c);
            // The partial sums of one block live in `accumulators` vector registers.
            partial.compute_at(blocks, c).reorder_storage(u, s.i, s.o, c).vectorize(u, lanes);
            partial.update().split(u, uo, ui, lanes).reorder(ui, uo, ro).vectorize(ui).unroll(uo);
            // Per-row results (the merge of a row's blocks) are complete before
            // later reductions (LOG_SUM_EXP's sum reads the max) and the output.
            f.compute_root();
        }
    } else {
        // The input is walked in blocks of `rows_per_chunk` consecutive r rows,
        // each block read contiguously and accumulated into a partial result
        // per block (rfactor over the row blocks), blocks spread over cores;
        // then the partials are summed. Walking all of r per column tile
        // instead touches a new page every row and thrashes the TLB.
        Var c("c");
        s.output.vectorize(s.i, lanes, TailStrategy::GuardWithIf).parallel(s.o);
        s.output.specialize(s.i_stride == 1);
        for (Func f : s.reductions) {
            RVar ro("ro"), ri("ri");
            Func partial = f.update().split(s.r, ro, ri, p.rows_per_chunk, TailStrategy::GuardWithIf).rfactor(ro, c);
            partial.compute_root().vectorize(s.i, lanes, TailStrategy::GuardWithIf);
            partial.update()
                .reorder(s.i, ri, c, s.o)
                .fuse(c, s.o, t)
                .parallel(t)
                .vectorize(s.i, lanes, TailStrategy::GuardWithIf);
            f.compute_root().vectorize(s.i, lanes, TailStrategy::GuardWithIf);
            f.update().reorder(s.i, ro, s.o).vectorize(s.i, lanes, TailStrategy::GuardWithIf).parallel(s.o);
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
