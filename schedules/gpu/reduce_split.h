// GPU mapping of the rfactor trees, both layouts: a row (inner) or column
// (outer) is cut into chunks (generators/reduce_chunking.h), a first kernel
// reduces the chunks, the output kernel merges an output's chunk partials.
//  - inner: a GPU block per (chunk, row), each thread a coalesced strided run
//    in registers, the block's partials merged in shared memory (or in warps
//    through shuffles, then across warps);
//  - outer (split-K): a thread per (column, run), consecutive threads on
//    consecutive columns, its run walked in gpu_run_chains interleaved chains.
#pragma once

#include "Halide.h"
#include "schedules/gpu/lane_merge.h"
#include "schedules/reduce_params.h"
#include "schedules/reduce_stages.h"

namespace hdml {

// `f` (one of s.reductions) reduced in chunks; `consumer` merges them
// (merge_chunks), `merge_columns` columns per thread in the outer layout.
inline void schedule_split_reduction(const GpuLoops &g, ReduceStages &s, Halide::Func f, Halide::Func consumer,
                                     const GpuChunking &chunking, int merge_columns, const ReduceMapping &m,
                                     const ReduceTuning &p) {
    using namespace Halide;
    Var c("c"), t("t");
    RVar rc("rc"), rr("rr"), rk("rk"), rt("rt"), rko("rko"), rki("rki");
    Func part = f.update().split(s.r(), rc, rr, chunking.chunk, TailStrategy::GuardWithIf).rfactor(rc, c);
    // Accumulators must live in registers: a Func's storage follows its
    // compute level (global at root, shared memory at block level), so each
    // accumulating stage is computed inside a thread of a wrapper (`in()`)
    // that stores the finished value once.
    if (s.layout == Layout::Inner) {
        // A GPU block per (c, o) (o on grid x): each thread accumulates a
        // coalesced strided run in registers (lane), the block's partials
        // meet in shared memory (lanes), one thread merges them (part) and the
        // wrapper stores the block's result.
        Func lane = part.update().split(rr, rk, rt, g.threads, TailStrategy::GuardWithIf).rfactor(rt, t);
        Func block = part.in();
        // A row's partials side by side, for the warp that merges them.
        block.compute_root().reorder_storage(s.i, c, s.o);
        block.reorder(s.i, s.o, c).gpu_blocks(s.o, c).gpu_threads(s.i);
        // Unit-stride rows: loads at constant offsets from one address.
        block.specialize(s.r_stride == 1);
        part.compute_at(block, s.i);
        if (g.shuffles) {
            merge_block_in_shuffles(g, block, part, rt, lane, t);
        } else {
            Func lanes = lane.in();
            part.update().split(rt, rko, rki, 8).unroll(rki);
            lanes.compute_at(block, s.o).gpu_threads(t);
            lane.compute_at(lanes, t);
        }
        lane.update().split(rk, rko, rki, p.gpu_unroll, TailStrategy::GuardWithIf).unroll(rki);
    } else {
        // A thread per (i, c): consecutive threads on consecutive columns.
        Func runs = part.in();
        runs.compute_root();
        column_runs(g, runs, c, chunking.chunks, s.i_extent);
        // The runs' serial walk, in gpu_run_chains chains per thread: rows
        // k * chains + u accumulate into chain u (H100, [4M,64] outer
        // LOG_SUM_EXP: 0.59 ms with 1 chain, 0.40 ms with 4).
        const int chain_count = run_chains(p);
        if (chain_count == 1) {
            walk_run(g, runs, part, rr, p.gpu_unroll);
        } else {
            Var u("u");
            RVar ru("ru");
            Func chains = part.update().split(rr, rk, ru, chain_count, TailStrategy::GuardWithIf).rfactor(ru, u);
            walk_run_in_chains(g, runs, part, ru, chains, u, rk, p.gpu_unroll);
        }
    }
    merge_chunks(g, consumer, f, rc, s.i_extent, merge_columns, m, p);
}

}  // namespace hdml
