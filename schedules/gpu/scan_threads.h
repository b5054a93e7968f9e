// GPU helpers shared by the scan mappings (scan_*.h beside this file):
// threads over three dims, warp-merged totals, chunks staged in shared memory.
#pragma once

#include "Halide.h"
#include "schedules/scan_stages.h"

namespace hdml {

// A thread per (x, y, z) of `st`, thread loop "t", x being i. Outer layout: i
// split into the block's threads (coalesced, and each thread's i is its own
// loop variable, so a Func computed per thread covers one i), y and z fused
// into the blocks. Inner layout (i is 1): all fused, then split into blocks
// of threads. Fused indices stay within int32 (the runtime cuts kernels at
// 2^31 elements).
inline void thread_per_element(Layout layout, int threads, Halide::Stage st, Halide::Var x, Halide::Var y,
                               Halide::Var z) {
    using namespace Halide;
    Var t("t"), xb("xb"), xz("xz"), xy("xy"), xyz("xyz"), b("b");
    if (layout == Layout::Outer) {
        st.split(x, xb, t, threads, TailStrategy::GuardWithIf).reorder(t, xb, z, y).fuse(xb, z, xz).fuse(xz, y, b);
    } else {
        st.fuse(x, y, xy).fuse(xy, z, xyz).split(xyz, b, t, threads, TailStrategy::GuardWithIf);
    }
    st.gpu_blocks(b).gpu_threads(t);
}

// A reduction taken once per GPU block by a warp: lane u takes terms u, u + 32,
// .. of `over` (consecutive lanes on consecutive terms), then one thread of
// `totals` (the reduction's compute_root wrapper, scheduled a block per total
// and a thread over `thread`, of extent 1) merges the 32 lane totals.
inline void scan_total_by_warp(Halide::Func total, Halide::RVar over, Halide::Func totals, Halide::Var block,
                               Halide::Var thread) {
    using namespace Halide;
    Var u("u");
    RVar terms("terms"), lane("lane");
    Func lanes = total.update().split(over, terms, lane, 32, TailStrategy::GuardWithIf).rfactor(lane, u);
    total.compute_at(totals, thread);
    Func lane_totals = lanes.in();
    lane_totals.compute_at(totals, block).gpu_threads(u);
    lanes.compute_at(lane_totals, u);
}

// Staged kernels keep a block's chunks in shared memory, chunk after chunk,
// each stored in chunk + 1 elements so that a thread per chunk and a thread
// per element both hit distinct banks. Only the chunk's own elements are
// computed: the pad is storage alone (align_storage), where computing it cost
// every staged element an index divided by chunk + 1 and a clamped load (the
// lines kernels 1.12-1.61x on the H200). `chunks` is the dim that numbers the
// block's chunks: c in a segment of one line, o for whole lines.
inline void stage_chunks(ScanStages &s, Halide::Func f, const Halide::LoopLevel &at, Halide::Var chunks, int count,
                         int chunk) {
    f.compute_at(at).bound(s.i, 0, 1).bound(s.k, 0, chunk).align_storage(s.k, chunk + 1).bound_extent(chunks, count);
}

// Staged chunks move between global and shared memory with consecutive threads
// on consecutive elements (coalesced).
inline void coalesce_chunks(ScanStages &s, Halide::Func staged, Halide::Var chunks, int threads) {
    using namespace Halide;
    Var kc("kc"), kco("kco"), kct("kct");
    staged.reorder(s.i, s.k, chunks)
        .fuse(s.k, chunks, kc)
        .split(kc, kco, kct, threads)
        .reorder(s.i, kco, kct)
        .gpu_threads(kct)
        .unroll(kco);
}

// A segment of `threads` chunks of one line, scanned inside a block computed
// at `at`: the input staged in shared memory (coalesced); a thread per chunk
// scans it in registers; the chunks' carries inside the segment (the doubling
// prefix over the scans' totals, a thread per chunk, in shared memory); the
// scans staged again, for the output's thread per element.
inline void schedule_segment_scans(ScanStages &s, const Halide::LoopLevel &at, int threads) {
    using namespace Halide;
    const int chunk = s.gpu_chunk;
    for (Func prefix : s.in_segment_prefix) {
        prefix.compute_at(at).bound(s.i, 0, 1).bound(s.nth, 0, threads).bound_extent(s.n, 1).gpu_threads(s.nth);
    }
    const Func scan_totals = s.in_segment_prefix.front();  // reads the chunks' last scans and elements
    Func scan_input = s.tile.in({s.scan, scan_totals});
    stage_chunks(s, scan_input, at, s.c, threads, chunk);
    coalesce_chunks(s, scan_input, s.c, threads);
    Func scanned = s.scan.in({s.output, scan_totals});
    stage_chunks(s, scanned, at, s.c, threads, chunk);
    scanned.reorder(s.i, s.k, s.c, s.o).gpu_threads(s.c).unroll(s.k);
    s.scan.compute_at(scanned, s.c).bound(s.k, 0, chunk).bound_extent(s.c, 1).unroll(s.k);
    s.scan.update(0).unscheduled();
    s.scan.update(1).unroll(s.step.x);
}

}  // namespace hdml
