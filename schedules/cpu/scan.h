// CPU schedule of the scan kernel.
#pragma once

#include "Halide.h"
#include "schedules/scan_params.h"
#include "schedules/scan_stages.h"

namespace hdml {

// The blocked scan's phase 2 (also the chunk walk's): the carries, one serial
// pass over the chunk totals (one group: group_carry is the identity,
// inlined), parallel over blocks of `block` columns.
inline void schedule_carries_cpu(ScanStages &s, int lanes, const Halide::Expr &block) {
    using namespace Halide;
    Var ib("ib"), ii("ii"), t("t");
    s.carry.compute_root().vectorize(s.i, lanes, TailStrategy::GuardWithIf);
    s.carry.update()
        .split(s.i, ib, ii, block, TailStrategy::GuardWithIf)
        .reorder(ii, s.later_in_group, s.g, ib, s.o)  // one group on CPUs: g's extent is 1
        .fuse(ib, s.o, t)
        .parallel(t)
        .vectorize(ii, lanes, TailStrategy::GuardWithIf);
}

// The chunk walk of float16 (ChunkWalk::totals): a task per (chunk, o), in
// blocks of `block` columns, walks each block's rows into float32 totals (a
// buffer of chunk rows x block, allocated once per task), then narrows them.
inline void schedule_chunk_rows_widened_cpu(ScanStages &s, int lanes, const Halide::Expr &block) {
    using namespace Halide;
    const ChunkWalk &w = s.chunk_walk;
    RVar task("task");
    Var ib("ib"), ii("ii");
    Stage narrowed = s.output.update(0);
    narrowed.allow_race_conditions()  // (tasks write their own chunk's rows)
        .split(s.i, ib, ii, block, TailStrategy::GuardWithIf)
        .reorder(ii, w.row, ib, w.chunk, w.line)
        .fuse(w.chunk, w.line, task)
        .parallel(task)
        .vectorize(ii, lanes, TailStrategy::GuardWithIf);
    narrowed.specialize(s.dense);
    Func totals = w.totals;
    totals.store_at(s.output, task).compute_at(s.output, ib);
    totals.update(0).vectorize(s.i, lanes, TailStrategy::GuardWithIf);
    totals.update(1).reorder(s.i, w.total_row).vectorize(s.i, lanes, TailStrategy::GuardWithIf);
    totals.update(1).specialize(s.dense && s.inclusive);  // dense vectors, no select
    totals.update(1).specialize(s.dense);
}

// staging=chunk_walk (outer layout, too few columns for the row walk): a task
// per (chunk, o) totals the chunk's rows; the carries as in the blocked scan;
// then a task per (chunk, o) walks the chunk's rows whole (vectors across the
// row, the row before read back from L1 or L2; float16 above). `lanes` and the carries'
// `block` of columns are the blocked scan's (schedule_scan_cpu).
inline void schedule_chunk_walk_cpu(ScanStages &s, int lanes, const Halide::Expr &block) {
    using namespace Halide;
    _halide_user_assert(s.layout == Layout::Outer) << "staging=chunk_walk walks the outer layout";
    Var t("t");
    s.chunk_total.compute_root().vectorize(s.i, lanes, TailStrategy::GuardWithIf).fuse(s.c, s.o, t).parallel(t);
    s.chunk_total.update()
        .reorder(s.i, s.in_chunk.x, s.c, s.o)
        .fuse(s.c, s.o, t)
        .parallel(t)
        .vectorize(s.i, lanes, TailStrategy::GuardWithIf);
    s.chunk_total.update().specialize(s.dense);
    schedule_carries_cpu(s, lanes, block);
    if (s.chunk_walk.totals.defined()) return schedule_chunk_rows_widened_cpu(s, lanes, block);
    const ChunkWalk &w = s.chunk_walk;
    RVar task("task");
    s.output.update(0).vectorize(s.i, lanes, TailStrategy::GuardWithIf).specialize(s.dense);  // the chunks' first rows
    Stage walk = s.output.update(1);
    // A chunk's first rows read the row before, which the same task stored.
    walk.allow_race_conditions()
        .reorder(s.i, w.row, w.chunk, w.line)
        .fuse(w.chunk, w.line, task)
        .parallel(task)
        .vectorize(s.i, lanes, TailStrategy::GuardWithIf);
    walk.specialize(s.dense && s.inclusive);  // dense vectors, no select
    walk.specialize(s.dense);
}

inline void schedule_scan_cpu(ScanStages &s, const ScanTuning &p, const Halide::Target &target) {
    using namespace Halide;
    Var ob("ob"), oi("oi"), ib("ib"), ii("ii"), t("t");
    if (s.layout == Layout::Inner) {
        // Blocks of lines, about task_bytes of them per task. A block's vector
        // scans (define_vector_scan) go to a buffer, then its carries pass
        // interleaves the block's lines (independent chains that hide the
        // latency of the serial combine), then the output joins the two.
        _halide_user_assert(p.task_bytes >= 1 && p.lines_per_block >= 1)
            << "task_bytes and lines_per_block must be at least 1";
        Var task("task"), rv("rv"), rl("rl");
        const VectorScan &v = s.vector;
        const int vector = v.lanes;
        const Expr block_bytes = clamp(s.extent, 1, p.task_bytes) * s.type.bytes() * p.lines_per_block;
        s.output.split(s.o, ob, oi, p.lines_per_block, TailStrategy::GuardWithIf)
            .split(ob, task, ob, max(p.task_bytes / block_bytes, 1), TailStrategy::GuardWithIf)
            .parallel(task)
            .split(s.r, rv, rl, vector, TailStrategy::GuardWithIf)
            .vectorize(rl);
        // Buffers allocated once per task (a heap allocation per block of lines
        // of 16 cost more than the block's scan).
        Func prefix = v.steps.back();
        prefix.store_at(s.output, task).compute_at(s.output, ob).bound(v.lane, 0, vector).vectorize(v.lane);
        // The steps before live in registers: LLVM turns the lanes they read
        // back into shuffles.
        for (size_t k = 0; k + 1 < v.steps.size(); ++k) {
            Func step = v.steps[k];
            step.compute_at(prefix, v.vec).bound(v.lane, 0, vector).vectorize(v.lane);
        }
        Func carry = v.carry;
        carry.store_at(s.output, task).compute_at(s.output, ob);
        carry.update()
            .split(s.o, ob, oi, p.lines_per_block, TailStrategy::GuardWithIf)
            .reorder(oi, v.later.x, ob)
            .unroll(oi);
        // Large inputs prefetch ahead of the loads (VectorScan::prefetching), smaller ones not.
        // Then dense vector loads and stores (strided tensors gather/scatter); no select in the steps.
        if (v.prefetching.defined()) {
            Stage large = s.output.specialize(v.prefetching);
            large.specialize(s.dense && s.inclusive);
            large.specialize(s.dense);
        }
        s.output.specialize(s.dense && s.inclusive);
        s.output.specialize(s.dense);
        return;
    }
    const int lanes = target.natural_vector_size(s.type.bits() > 32 ? s.type : Float(32));
    // Blocks of block_vectors vectors of i, fewer where the rows are shorter:
    // a guarded vector past the row's end still costs its masked loads (rows
    // of 64 in blocks of 512 ran 28 of every 32 vectors empty).
    const Expr block = lanes * min((s.columns + lanes - 1) / lanes, (int)p.block_vectors);
    if (s.staging == ScanStaging::ChunkWalk) return schedule_chunk_walk_cpu(s, lanes, block);
    // Phase 1: chunk totals, parallel over chunks; each chunk's rows streamed
    // in order, vectors across i (i innermost: a row is one contiguous run).
    s.chunk_total.compute_root().vectorize(s.i, lanes, TailStrategy::GuardWithIf).parallel(s.c);
    s.chunk_total.update()
        .reorder(s.i, s.in_chunk.x, s.c)
        .vectorize(s.i, lanes, TailStrategy::GuardWithIf)
        .parallel(s.c);
    // Dense vector loads for unit-stride columns (the general loop scales each
    // column by input.stride.0: gathers).
    s.chunk_total.update().specialize(s.dense);
    // Phase 2: carries (schedule_carries_cpu).
    schedule_carries_cpu(s, lanes, block);
    // Phase 3: per (chunk, block of i) task, scan the chunk's rows from the carry.
    Var rc("rc"), rk("rk");
    s.output.split(s.i, ib, ii, block, TailStrategy::GuardWithIf)
        .split(s.r, rc, rk, p.chunk_rows, TailStrategy::GuardWithIf)
        .reorder(ii, rk, ib, rc, s.o)
        .fuse(rc, s.o, t)
        .parallel(t)
        .vectorize(ii, lanes, TailStrategy::GuardWithIf);
    s.scan.store_at(s.output, t).compute_at(s.output, ib).vectorize(s.i, lanes, TailStrategy::GuardWithIf);
    s.scan.update(0).vectorize(s.i, lanes, TailStrategy::GuardWithIf);
    s.scan.update(1).reorder(s.i, s.step).vectorize(s.i, lanes, TailStrategy::GuardWithIf);
    // Inclusive scans drop the exclusive select, whose other side read the
    // input again in every step.
    s.output.specialize(s.dense && s.inclusive);
    s.output.specialize(s.dense);
}

// The line chunks' totals (staging=chunk_walk, inner layout): a task per
// (chunk, line) combines the chunk's vectors lane by lane; the carries, a
// vector per chunk, in one serial pass over the chunks.
inline void schedule_line_chunks_cpu(VectorWalk &w) {
    using namespace Halide;
    Var t("t");
    const Var lane = w.step_lane;
    w.vector_total.compute_root().bound(lane, 0, w.lanes).vectorize(lane);
    Var chunk = w.vector_total.args()[2], line = w.vector_total.args()[3];
    w.vector_total.fuse(chunk, line, t).parallel(t);
    Stage totals = w.vector_total.update();
    totals.reorder(lane, w.in_chunk, w.i, chunk, line).fuse(chunk, line, t).parallel(t).vectorize(lane);
    totals.specialize(w.dense);  // dense vectors
    w.chunk_total.compute_root();
    w.scan_carry.compute_root();
    w.chunk_carry.compute_root().bound(lane, 0, w.lanes).vectorize(lane);
}

// staging=line_walk (inner layout): tasks of about task_bytes of lines, a
// line at a time (four lines interleaved ran 0.7-0.9x in a C++ model: more
// streams), its vectors in order, each one's steps in registers. The lines'
// rests (fewer elements than a vector) go in a second pass over the lines
// (Halide 14 refuses compute_with between stages of one Func): the runtime
// sends this kernel lines of a multiple of scan_line_walk_multiple (16),
// which have none. staging=chunk_walk (inner layout): a task per (chunk,
// line) instead, the chunks' carries first (schedule_line_chunks_cpu).
// float16: the walk's float32 line computed per line of the narrowing output;
// in chunks, per (chunk, line) task.
inline void schedule_vector_walk_cpu(VectorWalk &w, const ScanTuning &p, const Halide::Target &target) {
    using namespace Halide;
    _halide_user_assert(!target.has_gpu_feature()) << "schedule_vector_walk_cpu schedules a CPU kernel";
    _halide_user_assert(p.task_bytes >= 1) << "task_bytes must be at least 1";
    Var task("task"), line("line");
    const Expr line_bytes = clamp(w.extent, 1, p.task_bytes) * w.type.bytes();
    const Expr lines_per_task = max(p.task_bytes / line_bytes, 1);
    Stage walk = w.output.update(0);
    // A vector's lanes read the element before the vector, which the vector before stored.
    walk.allow_race_conditions();
    if (w.chunk_elements > 0) {
        // float16 in chunks: a task per (chunk, line) walks the chunk's
        // float32 totals (in L2), then narrows them.
        schedule_line_chunks_cpu(w);
        Var chunk("chunk"), element("element");
        w.narrowed.split(w.r, chunk, element, w.chunk_elements, TailStrategy::GuardWithIf)
            .reorder(w.i, element, chunk, w.o)
            .fuse(chunk, w.o, task)
            .parallel(task)
            .vectorize(element, w.lanes, TailStrategy::GuardWithIf);
        w.narrowed.specialize(w.dense);  // dense stores
        w.output.compute_at(w.narrowed, task);
    } else if (w.narrowed.defined()) {
        // float16: a task's lines one at a time, each walked whole into a
        // float32 line (in the caches) that the output then narrows.
        w.narrowed.split(w.o, task, line, lines_per_task, TailStrategy::GuardWithIf)
            .reorder(w.i, w.r, line, task)
            .parallel(task)
            .vectorize(w.r, w.lanes, TailStrategy::GuardWithIf);
        w.narrowed.specialize(w.dense);  // dense stores
        // One line's storage, allocated once per task (a task's lines side by
        // side left the cache: lines of 1024 ran 0.71x the vector scan).
        w.output.store_at(w.narrowed, task).compute_at(w.narrowed, line).fold_storage(w.o, 1);
    } else if (w.chunk_carry.defined()) {
        schedule_line_chunks_cpu(w);
        RVar chunk_task("chunk_task");  // a task per (chunk, line); a chunk's first vector reads its carry
        walk.reorder(w.lane, w.vec, w.i, w.chunk, w.line).fuse(w.chunk, w.line, chunk_task).parallel(chunk_task);
    } else {
        walk.split(w.o, task, line, lines_per_task, TailStrategy::GuardWithIf)
            .reorder(w.lane, w.vec, w.i, line, task)
            .parallel(task);
    }
    walk.vectorize(w.lane);
    // The lines' rests (float16 chunks have none): float16's inside the output's line.
    if (w.output.num_update_definitions() > 1) {
        Stage rest = w.output.update(1);
        if (w.narrowed.defined()) {
            rest.unscheduled();
        } else {
            rest.split(w.o, task, line, lines_per_task, TailStrategy::GuardWithIf).parallel(task);
        }
    }
    for (Func step : w.steps) {
        step.compute_at(w.output, w.vec).bound(w.step_lane, 0, w.lanes).vectorize(w.step_lane);
    }
    walk.specialize(w.dense && w.inclusive);  // dense vectors, no select
    walk.specialize(w.dense);
}

// staging=columns (outer layout, many columns): a task per walk_columns
// columns walks every row, vectors across its columns, each row's running
// totals combined with the row it stored before (one pass over the input).
// Where a task's columns of one o are short, a task takes several o's (at
// least task_bytes): a task an o ran CUMSUM over [256K, 16, 16] along 16 at
// 4.3 GB/s on 2 Zen 4 cores, 5.3 so.
inline void schedule_row_walk_cpu(RowWalk &w, const ScanTuning &p, const Halide::Target &target) {
    using namespace Halide;
    _halide_user_assert(!target.has_gpu_feature()) << "schedule_row_walk_cpu schedules a CPU kernel";
    // Vectors of the widest value the walk stores (float16's float32 totals:
    // 32 float16 lanes made LLVM store the narrowed row an element at a time).
    Halide::Type widest = w.output.output_types()[0];
    for (const Halide::Type &t : w.output.output_types()) widest = t.bits() > widest.bits() ? t : widest;
    const int lanes = target.natural_vector_size(widest), columns = p.walk_columns;
    _halide_user_assert(columns >= lanes && columns % lanes == 0)
        << "walk_columns (" << columns << ") must be a multiple of the vector, " << lanes << " elements";
    Var ib("ib"), ii("ii"), iv("iv"), task("task"), oo("oo"), oi("oi");
    // o's per task: `rows` rows of a task's columns each (factors clamped: no int32 overflow).
    auto os_per_task = [&](const Expr &rows) {
        const Expr o_bytes = clamp(w.i_extent, 1, columns) * clamp(rows, 1, p.task_bytes) * widest.bytes();
        return max(p.task_bytes / min(o_bytes, p.task_bytes), 1);
    };
    Stage walk = w.output.update(0);
    // Rows narrower than a block: a task's o's one after another, each row's
    // vectors in a loop as long as the row (the unrolled block's empty vectors
    // each cost a guarded, masked row: 16 float32 columns in blocks of 128 ran
    // 6.5 GB/s on 2 Zen 4 cores, 26.7 so).
    Stage narrow = walk.specialize(w.i_extent < columns);
    narrow.split(w.i, iv, ii, lanes, TailStrategy::GuardWithIf)
        .split(w.o, oo, oi, os_per_task(w.r_extent), TailStrategy::GuardWithIf)
        .reorder(ii, iv, w.row, oi, oo)
        .parallel(oo)
        .vectorize(ii);
    narrow.specialize(w.dense && w.inclusive);
    narrow.specialize(w.dense);
    if (w.output.outputs() > 1) {
        // float16's carry row (a second output): vectors first, then blocks of
        // them, so a block past the row's end skips its empty vectors (a branch
        // each). Masked, the carry row's next loads waited on their masked stores
        // at every row (64 columns in tasks of 128 ran 0.21x the chunk walk on
        // the Xeon); the own-width walks ran 0.83-1.15x this way at 2 Xeon threads,
        // most cases below 0.95x, so they keep blocks first.
        walk.split(w.i, iv, ii, lanes, TailStrategy::GuardWithIf)
            .split(iv, ib, iv, columns / lanes, TailStrategy::GuardWithIf);
    } else {
        walk.split(w.i, ib, ii, columns, TailStrategy::GuardWithIf).split(ii, iv, ii, lanes, TailStrategy::GuardWithIf);
    }
    walk.split(w.o, oo, oi, os_per_task(w.r_extent), TailStrategy::GuardWithIf)
        .reorder(ii, iv, w.row, oi, ib, oo)
        .fuse(ib, oo, task)
        .parallel(task)
        .vectorize(ii)
        .unroll(iv);
    walk.specialize(w.dense && w.inclusive);  // dense vectors, no select
    walk.specialize(w.dense);
}

}  // namespace hdml
