// CPU schedule of the reducing family (Reduce, ArgReduce).
#pragma once

#include "Halide.h"
#include "schedules/reduce_params.h"
#include "schedules/reduce_stages.h"

#include <algorithm>

namespace hdml {

// Parallel tasks of an inner-layout call, in granules of `granule` rows: at
// least task_bytes of input each, and no more than about task_count of them,
// since a task's dispatch and buffers cost ~0.5 us: 32 KiB tasks ran SUM f32
// [64K,1024] at 29 GB/s on 2 cores, 512 KiB tasks at 53.
inline Halide::Expr granules_per_task(const ReduceStages &s, const ReduceTuning &p, int granule) {
    using namespace Halide;
    _halide_user_assert(p.task_bytes >= 1 && p.task_count >= 1) << "task_bytes and task_count must be at least 1";
    const Expr row_bytes = clamp(s.r_extent, 1, p.task_bytes) * s.input_type.bytes();  // no int32 overflow
    const Expr by_bytes = p.task_bytes / row_bytes / granule;
    const Expr by_count = (max(s.o_extent, 1) - 1) / (granule * p.task_count) + 1;  // ceil, without overflow
    return max(by_bytes, by_count, 1);
}

// Many short rows (RowMapping::Whole, inner layout): a row's blocks, chunks
// and horizontal sums would cost more than its elements, so each row gets a
// vector lane of its own and walks its elements (one strided load per lane
// and step), its result in a register. Rows go to parallel tasks
// (granules_per_task, in vectors of rows); the last vector of rows shifts back over rows already
// done, so calls need at least a vector of rows (kWholeRowsMinRows in
// runtime/variants/reduce_variants.cpp).
inline void schedule_whole_rows_cpu(ReduceStages &s, const ReduceTuning &p, int lanes) {
    using namespace Halide;
    _halide_user_assert(s.layout == Layout::Inner) << "rows=whole is built for the inner layout only";
    Var oo("oo"), oi("oi"), ov("ov");
    const Expr vectors_per_task = granules_per_task(s, p, lanes);
    // i has extent 1 in the inner layout: outside, so the rows' loop is the innermost.
    s.output.reorder(s.o, s.i);
    if (s.word) s.output.reorder(s.o, s.i, *s.word);  // outermost: 64-bit indices' words are passes of their own
    s.output.split(s.o, oi, ov, lanes, TailStrategy::ShiftInwards)
        .vectorize(ov)
        .split(oi, oo, oi, vectors_per_task, TailStrategy::GuardWithIf)
        .parallel(oo);
    for (Func f : s.reductions) {
        f.compute_at(s.output, oi).bound_extent(s.o, lanes).vectorize(s.o);
        f.update().reorder(s.o, s.i, s.r().x).vectorize(s.o);
    }
}

inline void schedule_reduce_cpu(ReduceStages &s, const ReduceMapping &m, const ReduceTuning &p,
                                const Halide::Target &target) {
    using namespace Halide;
    const int lanes = target.natural_vector_size(s.input_type.bits() > 32 ? s.input_type : Float(32));
    _halide_user_assert(m.rows != RowMapping::Lanes && m.columns == ColumnMapping::Split && m.vector_bytes == 0 &&
                        m.lane_merge == LaneMerge::Shared)
        << "rows=lanes, columns=, vector_bytes and lane_merge are GPU mappings";
    if (m.rows == RowMapping::Whole) return schedule_whole_rows_cpu(s, p, lanes);
    Var oo("oo"), oi("oi"), t("t"), u("u"), uo("uo"), ui("ui");

    if (s.layout == Layout::Inner) {
        // A row is walked in full chunks of `accumulators` vectors (the row
        // domain's first part: lane, step), then its remaining elements (the
        // second: a short scalar loop), so the vector loop has no tail (see
        // RowDomain). Rows go to parallel tasks (granules_per_task), each
        // task taking its rows end to end (blocks, merge, remaining
        // elements): a serial merge after parallel blocks held 16 cores to a
        // quarter of the bandwidth. Fewer than min_parallel_rows rows: steps
        // are cut into blocks of block_elements, a row's blocks spread over
        // cores (nested in the row's task), so a single long row (all axes)
        // uses every core. Within a block, rfactor turns the lanes into
        // `accumulators` vector registers; blocks merge a vector at a time.
        _halide_user_assert(s.row.chunk == lanes * p.accumulators && s.row.parts.size() == 2)
            << "the inner layout's rows are walked in chunks of lanes x accumulators (row_domain)";
        Var c("c");
        // ARGMAX/ARGMIN's words (innermost, the default) are written by the task that found the index.
        s.output.split(s.o, oo, oi, granules_per_task(s, p, 1), TailStrategy::GuardWithIf).parallel(oo);
        const int chunk = s.row.chunk;
        const RVar lane = s.row.parts[0].x, step = s.row.parts[0].y;
        const Expr steps = s.r_extent / chunk;
        const int block_steps = std::max(1, (int)p.block_elements / chunk);
        for (Func f : s.reductions) {
            RVar rb("rb"), rs("rs"), rio("rio"), rii("rii");
            const Expr block = max(1, select(s.o_extent >= p.min_parallel_rows, steps, min(steps, block_steps)));
            Func blocks = f.update(0).split(step, rb, rs, block, TailStrategy::GuardWithIf).rfactor(rb, c);
            // rfactor before any other directive on the stage: it rebuilds the stage's loops.
            Func partial = blocks.update().rfactor(lane, u);
            // At least one block: rows shorter than a chunk have none, and bounds
            // inference over an empty range of blocks would reach below the row.
            blocks.compute_at(s.output, oo).bound(c, 0, max(1, (steps + block - 1) / block));
            Stage row_blocks = blocks.update();
            row_blocks.split(lane, rio, rii, lanes).atomic().vectorize(rii).reorder(rii, rio, s.i, c, s.o);
            const Expr several_blocks = s.o_extent < p.min_parallel_rows && steps > block_steps;
            row_blocks.specialize(s.r_stride == 1 && several_blocks).parallel(c);
            row_blocks.specialize(s.r_stride == 1);
            row_blocks.specialize(several_blocks).parallel(c);
            // The partial sums of one block live in `accumulators` vector registers.
            partial.compute_at(blocks, c).reorder_storage(u, s.i, s.o, c).vectorize(u, lanes);
            partial.update().split(u, uo, ui, lanes).reorder(ui, uo, rs).vectorize(ui).unroll(uo);
            // A task's rows are complete (blocks merged, remaining elements
            // added) before later reductions read them (LOG_SUM_EXP's sum reads
            // the max) and before the output.
            f.compute_at(s.output, oo);
            f.update(1).unscheduled();
        }
    } else {
        // The input is walked in blocks of `rows_per_chunk` consecutive r rows,
        // each block read contiguously and accumulated into a partial result
        // per block (rfactor over the row blocks), blocks spread over cores;
        // then the partials are summed. Walking all of r per column tile
        // instead touches a new page every row and thrashes the TLB.
        Var c("c");
        if (s.word) s.output.reorder(s.i, s.o, *s.word);  // outermost: the words are the loops below, twice
        s.output.vectorize(s.i, lanes, TailStrategy::GuardWithIf).parallel(s.o);
        s.output.specialize(s.i_stride == 1);
        for (Func f : s.reductions) {
            RVar ro("ro"), ri("ri");
            Func partial = f.update().split(s.r(), ro, ri, p.rows_per_chunk, TailStrategy::GuardWithIf).rfactor(ro, c);
            partial.compute_root().vectorize(s.i, lanes, TailStrategy::GuardWithIf);
            partial.update()
                .reorder(s.i, ri, c, s.o)
                .fuse(c, s.o, t)
                .parallel(t)
                .vectorize(s.i, lanes, TailStrategy::GuardWithIf);
            // Dense vector loads where columns are contiguous, not gathers.
            partial.update().specialize(s.i_stride == 1);
            f.compute_root().vectorize(s.i, lanes, TailStrategy::GuardWithIf);
            f.update().reorder(s.i, ro, s.o).vectorize(s.i, lanes, TailStrategy::GuardWithIf).parallel(s.o);
        }
    }
}

}  // namespace hdml
