// GPU mapping, inner layout, long lines (staging=shared), after the carries
// (scan_carries.h, taken per segment): a block per segment of one line, a
// thread per chunk of it. The segment's input is staged in shared memory
// (coalesced); a thread per chunk then reduces or scans its chunk in
// registers from there.
//   segment totals: the chunk totals in shared memory, merged by a warp;
//   output: the chunk scans, then the chunks' carries inside the segment (the
//   doubling prefix, a thread per chunk, in shared memory) joined with the
//   segment's carry; the scanned segment goes back through shared memory,
//   consecutive threads on consecutive elements again.
#pragma once

#include "Halide.h"
#include "generators/scan_chunking.h"
#include "schedules/gpu/scan_threads.h"
#include "schedules/scan_params.h"
#include "schedules/scan_stages.h"

namespace hdml {

inline void schedule_scan_segments(ScanStages &s, const ScanTuning &p, const Halide::Target &target) {
    using namespace Halide;
    _halide_user_assert(s.layout == Layout::Inner && target.has_feature(Target::CUDA))
        << "scan staging=shared is a CUDA kernel of the inner layout";
    const int threads = scan_segment_chunks(s.staging, p, s.type), chunk = s.gpu_chunk;
    Var blk("blk");
    // Segment totals.
    Func segment_totals = s.segment_total.in();
    segment_totals.compute_root().fuse(s.n, s.o, blk).gpu_blocks(blk).gpu_threads(s.i);
    scan_total_by_warp(s.segment_total, s.in_segment.x, segment_totals, blk, s.i);
    Func chunk_totals = s.chunk_total.in();
    chunk_totals.compute_at(segment_totals, blk).bound(s.i, 0, 1).bound_extent(s.c, threads).gpu_threads(s.c);
    s.chunk_total.compute_at(chunk_totals, s.c).update().unroll(s.in_chunk.x);
    Func totals_input = s.tile.in(s.chunk_total);
    stage_chunks(s, totals_input, LoopLevel(segment_totals, blk), s.c, threads, chunk);
    coalesce_chunks(s, totals_input, s.c, threads);
    // The output: a thread per element of the block's segment.
    Var rb("rb"), rt("rt"), ru("ru"), rtt("rtt");
    s.output.split(s.r, rb, rt, threads * chunk, TailStrategy::GuardWithIf)
        .split(rt, ru, rtt, threads)
        .reorder(s.i, ru, rtt, rb, s.o)
        .fuse(rb, s.o, blk)
        .gpu_blocks(blk)
        .gpu_threads(rtt)
        .unroll(ru, 8);
    // The chunks' carries, a thread per chunk, in shared memory.
    s.chunk_carry.compute_at(s.output, blk).bound(s.i, 0, 1).bound_extent(s.c, threads).gpu_threads(s.c);
    schedule_segment_scans(s, LoopLevel(s.output, blk), threads);
}

}  // namespace hdml
