// CPU schedule of the reducing family (Reduce, ArgReduce).
#pragma once

#include "Halide.h"
#include "generators/reduce_chunking.h"
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

// The output of rows=whole and rows=vectors: vectors of rows (the rows'
// loop vectorised), in parallel tasks of granules_per_task vectors; the last
// vector shifts back over rows already done (ShiftInwards), so calls need at
// least a vector of rows (kVectorOfRows in runtime/variants/reduce_variants.cpp).
// i (extent 1, or rows=whole's few columns taken as rows) inside a vector of
// rows, whose lines its columns share. Returns the loop over a vector of
// rows' columns, where the reductions go.
inline Halide::Var split_vectors_of_rows(ReduceStages &s, const ReduceTuning &p, int lanes) {
    using namespace Halide;
    Var oo("oo"), oi("oi"), ov("ov");
    if (s.word) s.output.reorder(s.i, s.o, *s.word);  // outermost: 64-bit indices' words are passes of their own
    s.output.split(s.o, oi, ov, lanes, TailStrategy::ShiftInwards)
        .vectorize(ov)
        .split(oi, oo, oi, granules_per_task(s, p, lanes), TailStrategy::GuardWithIf)
        .reorder(ov, s.i, oi, oo)
        .parallel(oo);
    // A vector of rows' values between reductions, computed once for it: in
    // rows=whole's dense rows of a vector, LOG_SUM_EXP's shift took a select
    // of 16 vectors where it needs one.
    for (Func f : s.row_values) f.compute_at(s.output, s.i).bound_extent(s.o, lanes).vectorize(s.o);
    return s.i;
}

// Float SUM's zero_sum_signs, where defined: inside the output's loop `at`
// (a row, a vector of rows, a task of `task_columns` columns), each walk a
// vector at a time: a row's elements (inner layout), a block's columns
// (outer). Where `few_rows` holds (the inner layout's all-axes case), a row's
// walk is cut into kWalkTasks parallel tasks: on one core it ran 20x slower
// than the sum. Halide puts the walk's condition around the tasks' launch, so
// a row that needs no walk launches none. Every buffer has a constant size,
// so it lives on the stack: a heap buffer a row cost float16 SUM 17%.
inline void compute_zero_sum_signs_at(ReduceStages &s, Halide::Var at, int lanes,
                                      const Halide::Expr &few_rows = Halide::Expr(), int task_columns = 0) {
    using namespace Halide;
    constexpr int kWalkTasks = 16;
    if (!s.zero_sum_signs) return;
    ZeroSumSigns &z = *s.zero_sum_signs;
    z.signs.compute_at(s.output, at);
    if (z.blocks.defined()) {
        // A task's columns span at most one block more than they fill: the
        // storage's bound (on the stack), while only the blocks the task's
        // columns touch are walked (all 5 held SUM over 64 columns of 64 rows
        // to 0.66-0.74x MAX's GB/s on the VM and 16 Xeon threads).
        const int task_blocks = task_columns / z.columns + 1;
        z.blocks.compute_at(s.output, at).bound_storage(z.b, task_blocks);
        z.signs.bound_storage(z.b, task_blocks).vectorize(z.k);
        z.signs.update().reorder(z.k, z.rest.x, z.b).vectorize(z.k);
        return;
    }
    Stage walk = z.signs.update();
    if (few_rows.defined()) {
        RVar rb("rb"), ri("ri"), rio("rio"), rii("rii");
        Var block("block"), u("u");
        const Expr task_elements = (s.r_extent + kWalkTasks - 1) / kWalkTasks;  // rest has r_extent - 1
        // rfactor before any other directive on the stage: it rebuilds the stage's loops.
        Func blocks = walk.specialize(few_rows).split(z.rest.x, rb, ri, task_elements, TailStrategy::GuardWithIf).rfactor(rb, block);
        Func block_lanes = blocks.update().split(ri, rio, rii, lanes, TailStrategy::GuardWithIf).rfactor(rii, u);
        blocks.compute_at(s.output, at).bound_extent(block, kWalkTasks);
        blocks.update().parallel(block);
        block_lanes.compute_at(blocks, block).vectorize(u);
        Stage lanes_walk = block_lanes.update();
        lanes_walk.reorder(u, rio).vectorize(u);
        lanes_walk.specialize(s.r_stride == 1);  // dense vector loads
    }
    walk.atomic().vectorize(z.rest.x, lanes);
    walk.specialize(s.r_stride == 1);
}

// rows=whole's columns taken as rows where a dense vector holds whole rows of
// all the columns (whole_rows_are_periodic_vectors, a middle axis of 2 to 16
// columns of float32 or float16): a vector of rows' columns are reduced
// together, a dense load of an o's rows at a time, folded across its rows by
// shuffles (atomic), where a column at a time took a gather per element and
// column. Each column count a specialisation of its own, its accumulators a
// constant size (registers), and o's of whole vectors one apart from those
// with rows past the last vector (their guard cost 8 rows of 2 columns
// 15-25%). The first cases of the output, so the reductions' periodic walks
// never run where the output takes one column.
inline void schedule_periodic_columns_cpu(ReduceStages &s, int lanes) {
    using namespace Halide;
    if (!s.input_type.is_float() || s.input_type.bits() > 32) return;  // others: rare, and each case costs build time
    for (int columns : {2, 4, 8, 16}) {
        if (columns > lanes) continue;
        const int rows_a_vector = lanes / columns;
        const Expr periodic =
            whole_rows_are_periodic_vectors(s.i_extent, s.i_stride, s.r_extent, s.r_stride, columns, lanes);
        std::vector<Expr> cases = {periodic && s.r_extent % rows_a_vector == 0};
        if (rows_a_vector > 1) cases.push_back(periodic);
        for (const Expr &rows : cases) {
            Var column("column");
            // The outer part keeps i's name: the reductions are computed at it, over all the columns.
            s.output_cases.push_back(s.output.specialize(rows).split(s.i, s.i, column, columns));
            for (Func f : s.reductions) {
                RVar group("group"), in_group("in_group");
                f.update()
                    .specialize(rows)
                    .split(s.r().x, group, in_group, rows_a_vector, TailStrategy::GuardWithIf)
                    .reorder(s.i, in_group, s.o, group)
                    .atomic()
                    .vectorize(s.i)
                    .vectorize(in_group)
                    .unroll(s.o);
            }
        }
    }
}

// Many short rows (RowMapping::Whole, inner layout): a row's blocks, chunks
// and horizontal sums would cost more than its elements, so each row gets a
// vector lane of its own and walks its elements (one strided load per lane
// and step), its result in a register. Rows go to tasks (split_vectors_of_rows).
inline void schedule_whole_rows_cpu(ReduceStages &s, const ReduceTuning &p, int lanes) {
    using namespace Halide;
    _halide_user_assert(s.layout == Layout::Inner) << "rows=whole is built for the inner layout only";
    const Var at = split_vectors_of_rows(s, p, lanes);
    schedule_periodic_columns_cpu(s, lanes);
    // Contiguous results (the usual case): a vector store per vector of rows,
    // where an unknown stride stored each lane alone (with SUM's -0.0 start,
    // rows of 16 1.07-1.31x on 16 Xeon threads; in rows=vectors, SUM over rows
    // of 64 ran 0.83-0.98x on the VM: left out there).
    const OutputImageParam results = s.output.output_buffer();
    s.output_cases.push_back(s.output.specialize(results.dim(results.dimensions() - 1).stride() == 1));
    for (Func f : s.reductions) {
        f.compute_at(s.output, at).bound_extent(s.o, lanes).vectorize(s.o);
        Stage update = f.update();
        // Dense rows of exactly a vector: a vector of rows is one dense load
        // per row, reduced across its lanes by a tree of shuffles.
        update.specialize(whole_rows_are_dense_vectors(s.r_extent, s.r_stride, s.o_stride, lanes))
            .reorder(s.r().x, s.o, s.i)
            .atomic()
            .vectorize(s.r().x)
            .vectorize(s.o);
        update.reorder(s.o, s.i, s.r().x).vectorize(s.o);
    }
}

// rows=vectors_prefetched, the row in two parts (row_domain): its whole
// vectors, whose loads carry the prefetch, reduced into the partials as in
// rows=vectors (below), the rows of a vector unrolled so each row's partials
// stay in a register through its walk; then its partial last vector, an
// element of every row of the vector at a time. In one masked walk the
// prefetch made Halide take the last vector a scalar at a time, and the
// partials lived on the stack.
inline void schedule_row_vectors_in_two_parts_cpu(ReduceStages &s, const Halide::Var &at, const Halide::Var &u,
                                                  int lanes) {
    using namespace Halide;
    const RVar lane = s.row.parts[0].x, step = s.row.parts[0].y, last = s.row.parts[1].x;
    for (Func f : s.reductions) {
        // rfactor before any other directive on the stage: it rebuilds the stage's loops.
        Func partial = f.update(0).rfactor(lane, u);
        f.compute_at(s.output, at).bound_extent(s.o, lanes).vectorize(s.o);
        f.update(0).reorder(lane, s.o, s.i).atomic().vectorize(lane).vectorize(s.o);
        f.update(1).reorder(s.o, last, s.i).vectorize(s.o);
        partial.compute_at(s.output, at).reorder_storage(u, s.o, s.i).vectorize(u).unroll(s.o);
        Stage walk = partial.update();
        walk.specialize(s.r_stride == 1).reorder(u, step, s.o, s.i).vectorize(u).unroll(s.o);
        walk.reorder(u, step, s.o, s.i).vectorize(u).unroll(s.o);  // other strides: correct, gathers
    }
}

// Many rows of several vectors (RowMapping::Vectors, inner layout; the
// runtime passes contiguous rows): each row's elements are first reduced into
// `lanes` partials (partial(u, o): elements u, u + lanes, ... of row o), a
// row at a time and a dense vector load per step, then a vector of rows'
// partials across u at once: one tree of shuffles per vector of rows, where
// the plain kernel merges each row's vectors alone. Rows go to tasks
// (split_vectors_of_rows). A kernel of its own: rows=whole's lane walk
// (vectors across rows) would read and write these lanes-innermost partials
// with a stride, on the stack. The row is one domain (a partial last vector
// masked inside the walk) or, in rows=vectors_prefetched, two
// (schedule_row_vectors_in_two_parts_cpu).
inline void schedule_row_vectors_cpu(ReduceStages &s, const ReduceTuning &p, int lanes) {
    using namespace Halide;
    _halide_user_assert(s.layout == Layout::Inner) << "rows=vectors is built for the inner layout only";
    const Var at = split_vectors_of_rows(s, p, lanes);
    compute_zero_sum_signs_at(s, at, lanes);
    Var u("u");
    if (s.row.parts.size() == 2) {
        schedule_row_vectors_in_two_parts_cpu(s, at, u, lanes);
        return;
    }
    for (Func f : s.reductions) {
        RVar step("step"), lane("lane");
        // rfactor before any other directive on the stage: it rebuilds the stage's loops.
        Func partial = f.update().split(s.r().x, step, lane, lanes, TailStrategy::GuardWithIf).rfactor(lane, u);
        f.compute_at(s.output, at).bound_extent(s.o, lanes).vectorize(s.o);
        f.update().reorder(lane, s.o, s.i).atomic().vectorize(lane).vectorize(s.o);
        partial.compute_at(s.output, at).reorder_storage(u, s.o, s.i).vectorize(u);
        Stage walk = partial.update();
        walk.specialize(s.r_stride == 1).reorder(u, step, s.o, s.i).vectorize(u);
        walk.reorder(u, step, s.o, s.i).vectorize(u);  // other strides: correct, gathers
    }
}

// The o's of one outer-layout task where a task's columns of one o are short
// (few columns, or few rows): at least task_bytes of input a task (`rows` rows
// of at most `columns` columns each o), and no more than about task_count
// tasks of o's, as granules_per_task. A task an o ran SUM over [4M, 8, 2]
// along 8 at 0.17 GB/s (16 elements a task).
inline Halide::Expr outer_os_per_task(const ReduceStages &s, const ReduceTuning &p, const Halide::Expr &rows,
                                      int columns) {
    using namespace Halide;
    _halide_user_assert(p.task_bytes >= 1 && p.task_count >= 1) << "task_bytes and task_count must be at least 1";
    // (Each factor clamped first: no int32 overflow.)
    const Expr o_bytes = clamp(s.i_extent, 1, columns) * clamp(rows, 1, p.task_bytes) * s.input_type.bytes();
    const Expr by_bytes = p.task_bytes / min(o_bytes, p.task_bytes);
    const Expr by_count = (max(s.o_extent, 1) - 1) / p.task_count + 1;  // ceil, without overflow
    return max(by_bytes, by_count, 1);
}

// Outer layout (columns i contiguous, rows r reduced): rows are cut into
// chunks of rows_per_chunk (at most max_row_chunks of them) and columns into
// tiles of tile_columns; a task accumulates one (chunk, tile, o) into a
// partial row that stays in L1 while the chunk's rows stream past. The
// output's tasks, a few vectors of columns each, then merge their columns'
// chunks. Every pass is parallel: the serial merge and zero fills of the
// partials held 16 cores to 0.43-0.87x PyTorch.
inline void schedule_outer_cpu(ReduceStages &s, const ReduceTuning &p, int lanes) {
    using namespace Halide;
    _halide_user_assert(p.tile_columns >= lanes && p.tile_columns % lanes == 0 && p.rows_per_chunk >= 1 &&
                        p.max_row_chunks >= 1)
        << "tile_columns must be a multiple of the vector's lanes; rows_per_chunk and max_row_chunks at least 1";
    const int tile = p.tile_columns, merge_tile = lanes * 16;
    const Expr chunk_rows = cpu_outer_row_chunks(s.r_extent, p).rows;
    // The output's columns per task: merge_tile, or the row's vectors where
    // fewer (a task's guarded vectors past the row each ran the whole merge, masked).
    const Expr output_tile = (min(s.i_extent, merge_tile) + lanes - 1) / lanes * lanes;
    Var it("it"), ii("ii"), itc("itc"), t("t"), oo("oo"), oi("oi");
    // The output's tasks: output_tile columns of outer_os_per_task o's (and, for
    // ARGMAX/ARGMIN's 64-bit indices, one word: outermost, a pass each). 4
    // vectors a task made 1024 tasks of [16, 65536], half the speed of 16
    // vectors on 16 cores.
    if (s.word) s.output.reorder(s.i, s.o, *s.word);
    s.output.split(s.i, it, ii, output_tile, TailStrategy::GuardWithIf)
        .split(s.o, oo, oi, outer_os_per_task(s, p, s.r_extent, merge_tile), TailStrategy::GuardWithIf)
        .reorder(ii, oi, it, oo)
        .fuse(it, oo, t)
        .parallel(t)
        .vectorize(ii, lanes, TailStrategy::GuardWithIf);
    s.output.specialize(s.i_stride == 1);
    compute_zero_sum_signs_at(s, oi, lanes, Expr(), merge_tile);
    // A chunk task's o's (one tile of columns each).
    const Expr chunk_os = outer_os_per_task(s, p, chunk_rows, tile);
    // The tasks of a Func over (i, c, o), a chunk's columns each: in tiles
    // only where a row has more than one (a guarded split past a short row
    // still walks a tile).
    auto schedule_chunk_tasks = [&](Func partial, Var c) {
        partial.compute_root();
        // Where the loads prefetch (outer_prefetch_bytes; the algorithm then
        // starts the buffers' columns at 0), the partials' columns from 0 too,
        // so each vector's prefetch is one call: SUM's zero-sum signs widened
        // the bounds past what Halide proves aligned (a call a lane: 0.2-0.4x).
        if (s.outer_prefetching.defined()) partial.bound(s.i, 0, s.i_extent);
        partial.specialize(s.i_extent <= tile)
            .split(s.o, oo, oi, chunk_os, TailStrategy::GuardWithIf)
            .reorder(s.i, oi, c, oo)
            .fuse(c, oo, t)
            .parallel(t)
            .vectorize(s.i, lanes, TailStrategy::GuardWithIf);
        partial.split(s.i, it, ii, tile, TailStrategy::GuardWithIf)
            .fuse(it, c, itc)
            .fuse(itc, s.o, t)
            .parallel(t)
            .vectorize(ii, lanes, TailStrategy::GuardWithIf);
    };
    // A chunk's rows (ri) accumulated in the same tasks; dense vector loads
    // where columns are contiguous.
    auto schedule_tiles = [&](Stage accumulate, Var c, RVar ri) {
        Stage one_tile = accumulate.specialize(s.i_extent <= tile);
        one_tile.split(s.o, oo, oi, chunk_os, TailStrategy::GuardWithIf)
            .reorder(s.i, ri, oi, c, oo)
            .fuse(c, oo, t)
            .parallel(t)
            .vectorize(s.i, lanes, TailStrategy::GuardWithIf);
        one_tile.specialize(s.i_stride == 1);
        accumulate.split(s.i, it, ii, tile, TailStrategy::GuardWithIf)
            .reorder(ii, ri, it, c, s.o)
            .fuse(it, c, itc)
            .fuse(itc, s.o, t)
            .parallel(t)
            .vectorize(ii, lanes, TailStrategy::GuardWithIf);
        accumulate.specialize(s.i_stride == 1);
    };
    // Where the loads may prefetch, the prefetching case apart: there its
    // guard folds away (a select of the call across the vectors made a call a
    // lane: two tiles of columns 0.36-0.6x).
    auto schedule_accumulate = [&](Stage accumulate, Var c, RVar ri) {
        if (s.outer_prefetching.defined()) schedule_tiles(accumulate.specialize(s.outer_prefetching), c, ri);
        schedule_tiles(accumulate, c, ri);
    };
    // The merge of a reduction's chunks: the last reduction's in the
    // output's task; an earlier one's (LOG_SUM_EXP's max, which the sum's
    // merge reads) in tasks of its own before them.
    auto schedule_merge = [&](Func f, RVar ro) {
        if (f.name() == s.reductions.back().name()) {
            f.compute_at(s.output, oi).vectorize(s.i, lanes, TailStrategy::GuardWithIf);
            f.update().reorder(s.i, ro).vectorize(s.i, lanes, TailStrategy::GuardWithIf);
            return;
        }
        const Expr os = outer_os_per_task(s, p, s.r_extent, merge_tile);
        f.compute_root()
            .split(s.i, it, ii, output_tile, TailStrategy::GuardWithIf)
            .split(s.o, oo, oi, os, TailStrategy::GuardWithIf)
            .reorder(ii, oi, it, oo)
            .fuse(it, oo, t)
            .parallel(t)
            .vectorize(ii, lanes, TailStrategy::GuardWithIf);
        f.update()
            .split(s.i, it, ii, output_tile, TailStrategy::GuardWithIf)
            .split(s.o, oo, oi, os, TailStrategy::GuardWithIf)
            .reorder(ii, ro, oi, it, oo)
            .fuse(it, oo, t)
            .parallel(t)
            .vectorize(ii, lanes, TailStrategy::GuardWithIf);
    };
    if (s.chunk_partials && !s.chunk_partials->in_task.empty()) {
        // LOG_SUM_EXP's pairs: a chunk's sub-pieces one after the other in
        // its task, each sub-piece's reductions over the tile's rows (the
        // second from cache), then merged into the chunk's pair.
        ChunkPartials chunks = *s.chunk_partials;
        _halide_user_assert(chunks.subs.defined()) << "the outer layout's LOG_SUM_EXP chunks come in sub-pieces";
        schedule_chunk_tasks(chunks.partial, chunks.c);
        schedule_tiles(chunks.partial.update(), chunks.c, chunks.subs.x);  // (its own prefetches: no guard)
        for (Func f : chunks.in_task) {
            f.compute_at(chunks.partial, chunks.subs.x).vectorize(s.i, lanes, TailStrategy::GuardWithIf);
            if (!f.has_update_definition()) continue;  // the shifts
            Stage rows = f.update();
            rows.reorder(s.i, chunks.in_chunk.x).vectorize(s.i, lanes, TailStrategy::GuardWithIf);
            rows.specialize(s.i_stride == 1);
        }
        for (Func f : s.reductions) schedule_merge(f, s.r().x);
        return;
    }
    for (Func f : s.reductions) {
        RVar ro("ro"), ri("ri");
        Var c("c");
        Func partial;
        if (s.chunk_partials && f.name() == s.reductions.back().name()) {
            partial = s.chunk_partials->partial;  // the algorithm's own chunks
            c = s.chunk_partials->c;
            ro = s.r().x;
            ri = s.chunk_partials->in_chunk.x;
        } else {
            partial = f.update().split(s.r(), ro, ri, chunk_rows, TailStrategy::GuardWithIf).rfactor(ro, c);
        }
        schedule_chunk_tasks(partial, c);
        // Computed at root, outside the output's specialisation on plain_terms:
        // its own, checked first.
        if (s.plain_terms.defined()) schedule_accumulate(partial.update().specialize(s.plain_terms), c, ri);
        schedule_accumulate(partial.update(), c, ri);
        schedule_merge(f, ro);
    }
}

// LOG_SUM_EXP's blocks (ChunkPartials, inner layout): a row's blocks one
// after the other (in parallel where the call has fewer than
// min_parallel_rows rows), each block's maximum and then its sum in
// `accumulators` vector registers (rfactor over the lanes), so the sum reads
// the block from L1 or L2; then the merge of each row's blocks' pairs and
// remaining elements. Rows go to parallel tasks as in the plain kernel.
inline void schedule_inner_blocks_cpu(ReduceStages &s, const ReduceTuning &p, int lanes) {
    using namespace Halide;
    ChunkPartials &blocks = *s.chunk_partials;
    const int block_steps = cpu_block_steps(p, s.row.chunk);
    const Expr several_blocks = s.o_extent < p.min_parallel_rows && s.r_extent / s.row.chunk > block_steps;
    Var oo("oo"), oi("oi"), u("u"), uo("uo"), ui("ui");
    s.output.split(s.o, oo, oi, granules_per_task(s, p, 1), TailStrategy::GuardWithIf).parallel(oo);
    // Blocks in groups of rows of about block_elements (one row when it has
    // several blocks): a group's maxima, then its sums. One row at a time,
    // each 4 KiB row's maximum started cold from memory: rows of 1024 ran
    // 0.91x. At the task, not the group: its size is only known at run time,
    // and a heap allocation per row cost rows of 1024 15%.
    Var og("og"), oj("oj"), co("co"), ci("ci");
    const Expr group_rows = cpu_block_group_rows(s.r_extent, p);
    // A row's blocks in parallel go in tasks of consecutive blocks (about
    // task_count tasks), so the block a sum prefetches is its task's next.
    const Expr blocks_per_task = max(1, cpu_row_blocks(s.r_extent / s.row.chunk, block_steps) / p.task_count);
    // Rows innermost: the merges read a vector of rows' pairs at a time.
    blocks.partial.compute_at(s.output, oo)
        .reorder_storage(s.o, blocks.c, s.i)
        .split(s.o, og, oj, group_rows, TailStrategy::GuardWithIf)
        .split(blocks.c, co, ci, blocks_per_task, TailStrategy::GuardWithIf)
        .reorder(s.i, oj, ci, co, og);
    blocks.partial.specialize(s.r_stride == 1 && several_blocks).parallel(co);
    blocks.partial.specialize(s.r_stride == 1);  // dense loads in the stages computed inside
    blocks.partial.specialize(several_blocks).parallel(co);
    const RVar lane = blocks.in_chunk.x, step = blocks.in_chunk.y;
    for (Func f : blocks.in_task) {
        RVar rio("rio"), rii("rii");
        // rfactor before any other directive on the stage: it rebuilds the stage's loops.
        Func lane_partials = f.update().rfactor(lane, u);
        // Stored per task: a group's size is only known at run time (heap).
        f.compute_at(blocks.partial, ci).store_at(s.output, oo);
        f.update().split(lane, rio, rii, lanes).atomic().vectorize(rii);
        // A row's lanes at a time: a constant size, in registers.
        lane_partials.compute_at(f, s.o).vectorize(u, lanes);
        lane_partials.update().split(u, uo, ui, lanes).reorder(ui, uo, step).vectorize(ui).unroll(uo);
    }
    // The merges and the output a vector of rows at a time: per row, the
    // merge's exp and the output's log cost float16 rows of 1024 4%.
    s.output.vectorize(oi, lanes, TailStrategy::GuardWithIf);
    for (Func f : s.reductions) {
        f.compute_at(s.output, oo).vectorize(s.o, lanes, TailStrategy::GuardWithIf);
        for (size_t part = 0; part < s.row.parts.size(); ++part) {
            f.update(part).reorder(s.o, s.row.parts[part].x).vectorize(s.o, lanes, TailStrategy::GuardWithIf);
        }
    }
}

inline void schedule_mapping_cpu(ReduceStages &s, const ReduceMapping &m, const ReduceTuning &p,
                                 const Halide::Target &target) {
    using namespace Halide;
    const int lanes = cpu_reduce_lanes(target, s.input_type);
    _halide_user_assert(m.rows != RowMapping::Lanes && m.columns == ColumnMapping::Split && m.vector_bytes == 0 &&
                        m.lane_merge == LaneMerge::Shared)
        << "rows=lanes, columns=, vector_bytes and lane_merge are GPU mappings";
    if (m.rows == RowMapping::Whole) return schedule_whole_rows_cpu(s, p, lanes);
    if (m.rows == RowMapping::Vectors || m.rows == RowMapping::VectorsPrefetched) {
        return schedule_row_vectors_cpu(s, p, lanes);
    }
    Var oo("oo"), oi("oi"), u("u"), uo("uo"), ui("ui");

    if (s.layout == Layout::Inner && s.chunk_partials) return schedule_inner_blocks_cpu(s, p, lanes);
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
        const int vector = s.vector_lanes > 0 ? s.vector_lanes : lanes;
        _halide_user_assert(s.row.chunk % vector == 0) << "vector_lanes must divide the row chunk";
        Var c("c");
        // ARGMAX/ARGMIN's words (innermost, the default) are written by the task that found the index.
        s.output.split(s.o, oo, oi, granules_per_task(s, p, 1), TailStrategy::GuardWithIf).parallel(oo);
        const int chunk = s.row.chunk;
        const Expr steps = s.r_extent / chunk;
        const int block_steps = cpu_block_steps(p, chunk);
        const Expr several_blocks = s.o_extent < p.min_parallel_rows && steps > block_steps;
        // A few long rows: blocks of block_steps, or 4 or 16 times as long
        // where the row still makes row_blocks of them (0: never), each size
        // a constant in a specialization of its own. Blocks of 64 KiB held
        // one row of 256 MiB to 0.64-0.99x of these (float16 lowest); blocks
        // sized at run time cost float32 SUM 4-15% on 2 Xeon threads.
        std::vector<int> long_blocks;
        if (p.row_blocks > 0) long_blocks = {16 * block_steps, 4 * block_steps};
        auto row_takes = [&](int block) { return steps >= block * p.row_blocks; };
        compute_zero_sum_signs_at(s, oi, lanes, several_blocks);
        // Reductions that read the row again (LOG_SUM_EXP's sum after its
        // max, 64-bit ARGMAX's index after its value) run over groups of
        // rows of about block_elements, so the second pass finds the rows in
        // L2: over a whole task (megabytes) it went back to L3 or memory.
        Var at = oo;
        if (s.reductions.size() > 1) {
            Var og("og");
            const Expr group_rows = cpu_block_group_rows(s.r_extent, p);
            s.output.split(oi, og, oi, group_rows, TailStrategy::GuardWithIf);
            at = og;
        }
        const RVar lane = s.row.parts[0].x, step = s.row.parts[0].y;
        Expr row_block = block_steps;
        for (auto b = long_blocks.rbegin(); b != long_blocks.rend(); ++b) {
            row_block = select(row_takes(*b), *b, row_block);
        }
        const Expr block = max(1, select(s.o_extent >= p.min_parallel_rows, steps, min(steps, row_block)));
        for (Func f : s.reductions) {
            RVar rb("rb"), rs("rs"), rio("rio"), rii("rii");
            Func blocks = f.update(0).split(step, rb, rs, block, TailStrategy::GuardWithIf).rfactor(rb, c);
            // rfactor before any other directive on the stage: it rebuilds the stage's loops.
            Func partial = blocks.update().rfactor(lane, u);
            // At least one block: rows shorter than a chunk have none, and bounds
            // inference over an empty range of blocks would reach below the row.
            blocks.compute_at(s.output, at).bound(c, 0, max(1, cpu_row_blocks(steps, block)));
            Stage row_blocks = blocks.update();
            row_blocks.split(lane, rio, rii, vector).atomic().vectorize(rii).reorder(rii, rio, s.i, c, s.o);
            for (int b : long_blocks) {
                row_blocks.specialize(s.r_stride == 1 && several_blocks && row_takes(b)).parallel(c);
            }
            row_blocks.specialize(s.r_stride == 1 && several_blocks).parallel(c);
            row_blocks.specialize(s.r_stride == 1);
            row_blocks.specialize(several_blocks).parallel(c);
            // The partial sums of one block live in `accumulators` vector registers.
            partial.compute_at(blocks, c).reorder_storage(u, s.i, s.o, c).vectorize(u, vector);
            partial.update().split(u, uo, ui, vector).reorder(ui, uo, rs).vectorize(ui).unroll(uo);
            // A task's rows are complete (blocks merged, remaining elements
            // added) before later reductions read them (LOG_SUM_EXP's sum reads
            // the max) and before the output.
            f.compute_at(s.output, at);
            f.update(1).unscheduled();
        }
    } else {
        schedule_outer_cpu(s, p, lanes);
    }
}

inline void schedule_reduce_cpu(ReduceStages &s, const ReduceMapping &m, const ReduceTuning &p,
                                const Halide::Target &target) {
    schedule_mapping_cpu(s, m, p, target);
    // Last, so it copies the output's whole schedule; stages computed inside
    // the output's loops see the condition and drop their selects; SUM's and
    // AVERAGE's finishes first (plain_finishes). (The outer layout's terms are
    // its partials', computed at root: they specialise on it themselves.)
    if (s.plain_terms.defined() && s.layout == Layout::Inner) {
        auto specialise = [&](Halide::Stage output) {
            for (const Halide::Expr &finish : s.plain_finishes) output.specialize(s.plain_terms && finish);
            output.specialize(s.plain_terms);
        };
        for (const Halide::Stage &output : s.output_cases) specialise(output);
        specialise(s.output);
    }
}

}  // namespace hdml
