// GPU: lanes that share an output (a warp per row, a few lanes per short
// row, a warp per column) and how their partial results merge: in shared
// memory, or through a warp-shuffle butterfly (LaneMerge).
#pragma once

#include "Halide.h"
#include "schedules/gpu/loops.h"

#include <string>

namespace hdml {

// `streams`(i, lane, o) merges the items lane, lane + lanes, ... of an output
// over `item_r` (a row's chunk partials or elements; a column's runs); `f`
// then merges the output's streams over `lane_r` from shared memory. The
// block's threads: (lane, row o) after row_tiles (inner layout), (lane,
// column i) after column_warps (outer). Each thread accumulates its stream in
// registers and stores it once to the block's shared buffer (its wrapper).
inline void merge_in_lanes(const GpuLoops &g, Halide::Func consumer, Halide::Func f, Halide::RVar lane_r,
                           Halide::Func streams, Halide::Var lane, Halide::RVar item_r, int unroll) {
    using namespace Halide;
    RVar rko("rko"), rki("rki");
    const bool inner = g.layout == Layout::Inner;
    const Var across = inner ? g.o : g.i;
    f.compute_at(consumer, inner ? g.i : g.ot);
    f.update().unroll(lane_r);
    Func shared_streams = streams.in(f);
    shared_streams.compute_at(consumer, g.ob);
    if (inner) {
        shared_streams.reorder(g.i, lane, g.o);
    } else {
        shared_streams.reorder(lane, g.i, g.o);
    }
    shared_streams.gpu_threads(lane, across);
    streams.compute_at(shared_streams, inner ? g.i : lane);
    streams.update().split(item_r, rko, rki, unroll, TailStrategy::GuardWithIf).unroll(rki);
}

// The levels of a shuffle butterfly over `f`'s merge of `lanes` streams (over
// lane_r): level `half` merges lane h with lane h + half (shfl.sync.down),
// halves from lanes / 2 down to 2, each an rfactor of f's merge computed per
// warp lane at `at`'s loop `thread`. Returns the RVar of f's own merge, left
// with the last two lanes' values (shfl.sync.idx).
inline Halide::RVar butterfly(Halide::Func f, Halide::RVar lane_r, int lanes, Halide::Func at, Halide::Var thread) {
    using namespace Halide;
    _halide_user_assert(lanes >= 2 && lanes <= 32 && (lanes & (lanes - 1)) == 0)
        << "a shuffle butterfly needs a power-of-two number of lanes, 2 to 32; got " << lanes;
    RVar merging = lane_r;
    for (int half = lanes / 2; half >= 2; half /= 2) {
        const std::string n = std::to_string(half);
        RVar pair("pair" + n), rest("rest" + n);
        Var h("h" + n);
        Func level = f.update().split(merging, pair, rest, half).rfactor(rest, h);
        level.compute_at(at, thread).gpu_lanes(h);
        level.update().gpu_lanes(h).unroll(pair);
        merging = rest;
    }
    return merging;
}

// merge_in_lanes under shuffles: the streams merge in registers through the
// butterfly, the consumer's lane 0 merging the last two; no shared memory, no
// barrier. Every Func with a lane dimension is computed per warp-lane loop;
// `f` inside the consumer's lane loop (row_tiles), where its storage is the
// lane's own. Inner layout only.
inline void merge_in_shuffles(const GpuLoops &g, Halide::Func consumer, Halide::Func f, Halide::RVar lane_r,
                              Halide::Func streams, Halide::Var lane, Halide::RVar item_r, int lanes, int unroll) {
    using namespace Halide;
    RVar rko("rko"), rki("rki");
    streams.compute_at(consumer, g.ot).gpu_lanes(lane);
    streams.update().gpu_lanes(lane).split(item_r, rko, rki, unroll, TailStrategy::GuardWithIf).unroll(rki);
    const RVar last = butterfly(f, lane_r, lanes, consumer, g.ot);
    f.compute_at(consumer, g.i);
    f.update().unroll(last);
}

// `f` reduced over `r` by `lanes` threads per output (row_tiles or
// column_warps): lane l takes r = l, l + lanes, ... (adjacent lanes on
// adjacent items: coalesced for rows), then the lanes merge.
inline void reduce_in_lanes(const GpuLoops &g, Halide::Func consumer, Halide::Func f, Halide::RVar r, int lanes,
                            int unroll) {
    using namespace Halide;
    Var lane("lane");
    RVar ro("ro"), rl("rl");
    Func streams = f.update().split(r, ro, rl, lanes, TailStrategy::GuardWithIf).rfactor(rl, lane);
    if (g.shuffles) {
        merge_in_shuffles(g, consumer, f, rl, streams, lane, ro, lanes, unroll);
    } else {
        merge_in_lanes(g, consumer, f, rl, streams, lane, ro, unroll);
    }
}

// The split kernel's GPU block under shuffles: its `threads` lanes (`lane`(i,
// t, c, o), `part` merging them over lane_r) merge in two steps, as CUB's
// block reduce does: each warp's 32 through a butterfly (`warp`, an rfactor of
// part's merge per warp w), then one thread merges the threads / 32 warps'
// results from shared memory (`warps`, the block-level wrapper).
inline void merge_block_in_shuffles(const GpuLoops &g, Halide::Func block, Halide::Func part, Halide::RVar lane_r,
                                    Halide::Func lane, Halide::Var t) {
    using namespace Halide;
    _halide_user_assert(g.threads % kMergeLanes == 0)
        << "a block merged in warps needs gpu_threads a multiple of " << kMergeLanes << "; got " << g.threads;
    Var w("w");
    RVar rw("rw"), rl("rl");
    Func warp = part.update().split(lane_r, rw, rl, kMergeLanes).rfactor(rw, w);
    Func warps = warp.in();
    warps.compute_at(block, g.o).gpu_threads(w).gpu_lanes(g.i);
    lane.compute_at(warps, w).gpu_lanes(t);
    lane.update().gpu_lanes(t);
    const RVar last = butterfly(warp, rl, kMergeLanes, warps, w);
    warp.compute_at(warps, g.i);
    warp.update().unroll(last);
    part.update().unroll(rw);
}

// The output kernel's loops for merging chunk partials: a warp per row
// (inner), a warp per column (outer, ColumnMapping::WarpMerge) or a thread per
// `columns` columns (outer, merge_tiles). Returns merges_in_lanes.
inline bool merge_loops(const GpuLoops &g, Halide::Func consumer, const Halide::Expr &i_extent, int columns,
                        const ReduceMapping &m) {
    if (g.layout == Layout::Outer && m.columns == ColumnMapping::WarpMerge) {
        column_warps(g, consumer);
    } else {
        merge_tiles(g, consumer, i_extent, columns);
    }
    return merges_in_lanes(g.layout, m);
}

// The merge of the partials `f` reads over rc (f(i, o) = merge(f(i, o),
// partial(i, rc, o))), on merge_loops.
inline void merge_chunks(const GpuLoops &g, Halide::Func consumer, Halide::Func f, Halide::RVar rc,
                         const Halide::Expr &i_extent, int columns, const ReduceMapping &m, const ReduceTuning &p) {
    if (merge_loops(g, consumer, i_extent, columns, m)) {
        reduce_in_lanes(g, consumer, f, rc, kMergeLanes, p.gpu_merge_unroll);
    } else {
        merge_in_columns(g, consumer, f, rc, p.gpu_merge_unroll);
    }
}

}  // namespace hdml
