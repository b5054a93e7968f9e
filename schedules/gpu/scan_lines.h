// GPU mapping, inner layout, short lines (staging=lines; the kernel requires
// a line of at most max_line elements): one kernel, no carries. A block takes
// scan_lines_per_block whole lines; their input is staged in shared memory
// (coalesced), a thread per line scans it in registers, and the scanned lines
// go back through shared memory to coalesced stores. Staging reads max_line
// elements per line (past a shorter line's end, its last element again), so the
// runtime takes the smallest max_line that holds the line.
#pragma once

#include "Halide.h"
#include "generators/scan_chunking.h"
#include "schedules/gpu/scan_threads.h"
#include "schedules/scan_params.h"
#include "schedules/scan_stages.h"

#include <algorithm>

namespace hdml {

inline void schedule_scan_lines(ScanStages &s, const ScanTuning &p, const Halide::Target &target) {
    using namespace Halide;
    _halide_user_assert(s.layout == Layout::Inner && target.has_feature(Target::CUDA))
        << "scan staging=lines is a CUDA kernel of the inner layout";
    const int chunk = s.gpu_chunk, threads = scan_lines_per_block(p, s.type, chunk);
    // The output: the block's lines, a thread per element of a chunk; each
    // thread stores `chunk` elements, unrolled by up to 8 but never by more than
    // chunk (a longer unroll would step past the block's lines).
    Var ob("ob"), ot("ot"), rc("rc"), rk("rk"), kt("kt"), ku("ku"), kth("kth"), blk("blk");
    s.output.split(s.o, ob, ot, threads, TailStrategy::GuardWithIf)
        .split(s.r, rc, rk, chunk, TailStrategy::GuardWithIf)
        .reorder(s.i, rk, ot, rc, ob)
        .fuse(rk, ot, kt)
        .split(kt, ku, kth, threads)
        .reorder(s.i, ku, kth, rc, ob)
        .fuse(rc, ob, blk)
        .gpu_blocks(blk)
        .gpu_threads(kth)
        .unroll(ku, std::min(8, chunk));
    Func line_input = s.tile.in(s.scan);
    stage_chunks(s, line_input, LoopLevel(s.output, blk), s.o, threads, chunk);
    line_input.bound(s.c, 0, 1);
    coalesce_chunks(s, line_input, s.o, threads);
    Func scanned = s.scan.in(s.output);
    stage_chunks(s, scanned, LoopLevel(s.output, blk), s.o, threads, chunk);
    scanned.bound(s.c, 0, 1).reorder(s.i, s.k, s.c, s.o).gpu_threads(s.o).unroll(s.k);
    s.scan.compute_at(scanned, s.o).bound(s.k, 0, chunk).unroll(s.k);
    s.scan.update(0).unscheduled();
    s.scan.update(1).unroll(s.step.x);
}

}  // namespace hdml
