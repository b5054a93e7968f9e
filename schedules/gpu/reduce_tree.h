// GPU mappings of LOG_SUM_EXP's explicit tree (ReduceTreeStages), each as
// the rfactor trees' mapping of the same name: whole columns, row lanes, and
// the split (blocks per row chunk, or split-K runs) with its merge.
#pragma once

#include "Halide.h"
#include "schedules/gpu/lane_merge.h"
#include "schedules/gpu/reduce_whole_columns.h"
#include "schedules/reduce_params.h"
#include "schedules/reduce_stages.h"

namespace hdml {

// Unit-stride rows read at constant offsets from one address (as the rfactor
// trees'), and (where the generator defines it) rows cut in whole chunks
// without a clamp or a guard per element.
inline void specialize_reads(const ReduceTreeStages &s, Halide::Func reader) {
    Halide::Stage unit_stride = reader.specialize(s.r_stride == 1);
    if (s.whole_chunks.defined()) unit_stride.specialize(s.whole_chunks);
}

inline void schedule_reduce_tree_gpu(ReduceTreeStages &s, const ReduceMapping &m, const ReduceTuning &p,
                                     const Halide::Target &) {
    using namespace Halide;
    // The tree's merge is not an rfactor, which merge_in_shuffles builds its levels with.
    _halide_user_assert(m.lane_merge == LaneMerge::Shared) << "LOG_SUM_EXP's tree merges lanes in shared memory only";
    RVar so("so"), si("si");
    _halide_user_assert(m.loads != RowLoads::ColumnWords ||
                        (s.layout == Layout::Outer && m.columns != ColumnMapping::Whole))
        << "loads=column_words is built for the outer layout's split runs (merged by threads or warps)";
    const GpuLoops loops{s.layout, p.gpu_threads, s.i, s.o, false, columns_per_word(m)};
    if (s.layout == Layout::Outer && m.columns == ColumnMapping::Whole) {
        // Whole columns: the output's threads reduce their columns' elements
        // (chunk_acc: a column's one chunk, which is its one stream and its
        // result). (The vector_bytes kernel takes two passes instead: Reduce::generate.)
        schedule_whole_columns(loops, s.output, {s.chunk_acc}, s.input, s.steps.x, s.i_extent, s.i_stride,
                               s.input.value().type(), p.gpu_merge_columns, p.gpu_unroll, m);
        for (Func f : {s.stream_acc, s.row_acc}) {
            f.compute_at(s.output, loops.ot).unroll(s.i);
            f.update().unroll(s.i);
        }
        return;
    }
    if (s.layout == Layout::Inner && m.rows == RowMapping::Lanes) {
        // Row lanes: a row's lanes accumulate its elements (lane_acc, chunk c
        // innermost: the row's one chunk), one thread merges them (chunk_acc);
        // the row's one chunk is its one stream and its result.
        row_tiles(loops, s.output, p.gpu_row_lanes);
        s.lane_acc.reorder(s.c, s.i, s.lane, s.o);
        s.lane_acc.update().reorder(s.steps.x, s.c, s.i, s.lane, s.o);
        merge_in_lanes(loops, s.output, s.chunk_acc, s.lanes.x, s.lane_acc, s.lane, s.steps.x, p.gpu_unroll);
        s.stream_acc.compute_at(s.output, s.i);
        s.row_acc.compute_at(s.output, s.i);
        specialize_reads(s, s.output);
        return;
    }
    // Split: the output kernel merges the chunks ...
    if (merge_loops(loops, s.output, s.i_extent, p.gpu_merge_columns, m)) {
        merge_in_lanes(loops, s.output, s.row_acc, s.streams.x, s.stream_acc, s.stream_lane, s.stream.x,
                       p.gpu_merge_unroll);
    } else {
        // One stream per column: the row's merge is the stream's.
        merge_in_columns(loops, s.output, s.stream_acc, s.stream.x, p.gpu_merge_unroll);
        s.row_acc.compute_at(s.output, loops.ot).unroll(s.i);
        s.row_acc.update().unroll(s.i);
    }
    // ... that a first kernel reduces.
    Func chunk_accs = s.chunk_acc.in();
    chunk_accs.compute_root();
    if (s.layout == Layout::Inner) {
        // A GPU block per (c, o): lanes are its threads, their pairs meet in
        // shared memory and one thread merges them. A row's chunks side by
        // side, for the warp that merges them.
        chunk_accs.reorder_storage(s.i, s.c, s.o);
        chunk_accs.reorder(s.i, s.o, s.c).gpu_blocks(s.o, s.c).gpu_threads(s.i);
        specialize_reads(s, chunk_accs);
        s.chunk_acc.compute_at(chunk_accs, s.i);
        if (s.part_acc.defined()) {
            // The lanes' parts merged by a thread each, in parallel, then by one.
            s.chunk_acc.update().split(s.parts.x, so, si, 8, TailStrategy::GuardWithIf).unroll(si);
            Func part_accs = s.part_acc.in();
            part_accs.compute_at(chunk_accs, s.o).gpu_threads(s.part);
            s.part_acc.compute_at(part_accs, s.part);
            s.part_acc.update().unroll(s.part_lanes.x);
        } else {
            s.chunk_acc.update().split(s.lanes.x, so, si, 8).unroll(si);
        }
        Func lane_accs = s.lane_acc.in();
        lane_accs.compute_at(chunk_accs, s.o).gpu_threads(s.lane);
        s.lane_acc.compute_at(lane_accs, s.lane);
        s.lane_acc.update().split(s.steps.x, so, si, p.gpu_unroll, TailStrategy::GuardWithIf).unroll(si);
    } else {
        // A thread per (i, c), consecutive threads on consecutive columns; its
        // chains (lane_acc's lanes) interleaved in registers, then merged.
        column_runs(loops, chunk_accs, s.c, s.chunks, s.i_extent);
        if (run_chains(p) == 1) {  // no lane_acc: chunk_acc walks the run itself
            walk_run(loops, chunk_accs, s.chunk_acc, s.steps.x, p.gpu_unroll);
        } else {
            walk_run_in_chains(loops, chunk_accs, s.chunk_acc, s.lanes.x, s.lane_acc, s.lane, s.steps.x, p.gpu_unroll);
        }
    }
}

}  // namespace hdml
