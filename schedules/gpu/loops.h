// GPU loop shapes shared by the reduction mappings (reduce_*.h beside this
// file): thread tiles, split-K runs, the output kernel's merge tiles.
#pragma once

#include "Halide.h"
#include "generators/common.h"
#include "generators/reduce_chunking.h"

namespace hdml {

// What every GPU reduction mapping knows: layout, threads per block, the
// output's dims, and the thread and block loops the helpers create.
struct GpuLoops {
    Layout layout;
    int threads;
    Halide::Var i, o;
    // Whether the lanes that share an output merge through warp shuffles
    // (merge_in_shuffles) rather than shared memory: LaneMerge.
    bool shuffles = false;
    // Outer layout: adjacent columns a thread of the runs takes, read from one
    // word (columns_per_word: 2 for loads=column_words).
    int column_pair = 1;
    // The thread's x of `tile`; the thread and block of `merge_tiles`.
    Halide::Var xt{"xt"}, ot{"ot"}, ob{"ob"};
};

// Threads over (x, y) tiles; the x tiles fused with `z` into grid x, since
// CUDA grids stop at 65535 in y and z (rows and columns can be millions).
inline void tile(const GpuLoops &g, Halide::Stage st, Halide::Var x, Halide::Var y, int tx, int ty, Halide::Var z) {
    using namespace Halide;
    Var xb("xb"), yb("yb"), yt("yt"), xz("xz");
    st.split(x, xb, g.xt, tx, TailStrategy::GuardWithIf).split(y, yb, yt, ty, TailStrategy::GuardWithIf);
    st.reorder(g.xt, yt, xb, z, yb).fuse(xb, z, xz).gpu_blocks(xz, yb).gpu_threads(g.xt, yt);
}

// Outer layout, a thread per (column i, run c): a block spans `threads`
// columns of one run when there are that many columns (or few runs);
// otherwise a warp's 32 columns of several runs (H100, [16K,16K]: 99% of copy
// against 69% for 32 x 8 tiles).
// Under column_pair, a thread takes that many adjacent columns (innermost,
// unrolled), the tiles are of such groups.
inline void column_runs(const GpuLoops &g, Halide::Func f, Halide::Var c, const Halide::Expr &runs,
                        const Halide::Expr &columns) {
    if (g.column_pair > 1) {
        const Halide::Var pair("pair");
        f.split(g.i, g.i, pair, g.column_pair, Halide::TailStrategy::RoundUp).unroll(pair);
    }
    tile(g, f.specialize(runs < 8 || columns >= g.threads * g.column_pair), g.i, c, g.threads, 1, g.o);
    tile(g, f, g.i, c, 32, g.threads / 32, g.o);
}

// Inner layout: `lanes` threads per row, threads / lanes rows per block. The
// consumer's thread (i, ot) merges row ot's lanes. Thread x is i (extent 1)
// and y the row, as in the lanes' (lane, o), so a block stays lanes x rows
// threads. Under `shuffles`, x is a warp-lane loop of the consumer.
inline void row_tiles(const GpuLoops &g, Halide::Func consumer, int lanes) {
    consumer.split(g.o, g.ob, g.ot, g.threads / lanes, Halide::TailStrategy::GuardWithIf).gpu_blocks(g.ob);
    if (g.shuffles) {
        consumer.gpu_threads(g.ot).gpu_lanes(g.i);
    } else {
        consumer.gpu_threads(g.i, g.ot);
    }
}

// The output kernel's loops, which merge the chunk partials:
//  - inner: a warp (kMergeLanes) per row, `threads` / 32 rows per block;
//  - outer: a thread per `columns` adjacent columns (per column when there
//    are fewer than a block's worth), their merges interleaved so that
//    `columns` loads are in flight (H100, [16,16M]: 0.8 TB/s with 1 column
//    per thread, 1.4 TB/s with 4). ARGMAX/ARGMIN keep a column per thread:
//    their two index words per column made stores 8 per 32-byte sector.
//    `adjacent`: whether a thread's columns lie side by side in what it reads.
inline void merge_tiles(const GpuLoops &g, Halide::Func consumer, const Halide::Expr &i_extent, int columns,
                        const Halide::Expr &adjacent = Halide::cast<bool>(1)) {
    using namespace Halide;
    if (g.layout == Layout::Inner) return row_tiles(g, consumer, kMergeLanes);
    Var ib("ib"), ii("ii"), ik("ik");
    if (columns > 1) {
        // Column tiles shifted inwards at the right edge (pure stages: a
        // column computed twice is written twice with the same value).
        consumer.specialize(adjacent && i_extent >= g.threads * columns)
            .split(g.i, ib, ii, g.threads * columns, TailStrategy::ShiftInwards)
            .split(ii, g.ot, ik, columns)
            .reorder(ik, g.ot, ib, g.o)
            .fuse(ib, g.o, g.ob)
            .gpu_blocks(g.ob)
            .gpu_threads(g.ot)
            .unroll(ik);
    }
    // A thread per column, the column tiles fused with o.
    consumer.split(g.i, ib, g.ot, g.threads, TailStrategy::GuardWithIf).fuse(ib, g.o, g.ob).gpu_blocks(g.ob).gpu_threads(g.ot);
}

// Outer layout, ColumnMapping::WarpMerge: a warp per column (merge_in_lanes),
// threads / 32 columns per block; the consumer's thread ot merges column ot's
// lanes (ot on x: its 8 fit in the lanes' 32, so a block stays 32 x 8).
inline void column_warps(const GpuLoops &g, Halide::Func consumer) {
    Halide::Var ib("ib");
    consumer.split(g.i, ib, g.ot, g.threads / kMergeLanes, Halide::TailStrategy::GuardWithIf)
        .fuse(ib, g.o, g.ob)
        .gpu_blocks(g.ob)
        .gpu_threads(g.ot);
}

// Outer layout: `f` merges its columns' chunks over `chunk_r` (or, whole
// columns, reduces its columns' elements over r), the columns innermost so
// that their loads are independent.
inline void merge_in_columns(const GpuLoops &g, Halide::Func consumer, Halide::Func f, Halide::RVar chunk_r,
                             int unroll) {
    using namespace Halide;
    RVar rko("rko"), rki("rki");
    f.compute_at(consumer, g.ot).unroll(g.i);
    f.update().split(chunk_r, rko, rki, unroll, TailStrategy::GuardWithIf).reorder(g.i, rki, rko, g.o);
    f.update().unroll(g.i).unroll(rki);
}

// Outer layout: a split-K thread's serial walk of its run: `f`, computed per
// thread of `runs`, accumulates over `walk`, unrolled so that `unroll` loads
// are in flight.
// Under column_pair, the thread's columns are innermost at each step, so
// their loads of one word are one load.
inline void walk_run(const GpuLoops &g, Halide::Func runs, Halide::Func f, Halide::RVar walk, int unroll) {
    using namespace Halide;
    RVar rko("rko"), rki("rki");
    f.compute_at(runs, g.xt);
    f.update().split(walk, rko, rki, unroll, TailStrategy::GuardWithIf).unroll(rki);
    if (g.column_pair > 1) {
        f.unroll(g.i);
        f.update().reorder(g.i, rki, rko).unroll(g.i);
    }
}

// walk_run in chains (gpu_run_chains): `chains`(chain, ...) holds the
// thread's independent accumulators, which take turns along `walk`
// (interleaved in registers), and `f` merges them over `chain_r`.
inline void walk_run_in_chains(const GpuLoops &g, Halide::Func runs, Halide::Func f, Halide::RVar chain_r,
                               Halide::Func chains, Halide::Var chain, Halide::RVar walk, int unroll) {
    using namespace Halide;
    RVar rko("rko"), rki("rki");
    f.compute_at(runs, g.xt);
    f.update().unroll(chain_r);
    chains.compute_at(runs, g.xt).unroll(chain);
    chains.update()
        .reorder(chain, walk)
        .split(walk, rko, rki, unroll, TailStrategy::GuardWithIf)
        .unroll(chain)
        .unroll(rki);
    if (g.column_pair > 1) {  // as in walk_run
        for (Func stage : {f, chains}) stage.unroll(g.i);
        f.update().unroll(g.i);
        chains.update().reorder(g.i, chain, rki, rko).unroll(g.i);
    }
}

}  // namespace hdml
