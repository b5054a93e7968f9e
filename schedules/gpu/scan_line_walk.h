// GPU mapping, inner layout, many long lines (staging=line_walk): a block per
// line walks along it, a segment of scan_staged_chunks chunks at a time (a
// serial loop inside the kernel), each segment scanned as the staged kernel
// does (schedule_segment_scans) and stored a thread per element. A segment's
// carry is the output element before it, which this block stored at the step
// before: Halide's barriers between the stages order that load after the
// store (allow_race_conditions lets the shared RVar map onto threads).
// Without large_buffers (32-bit indexing). Chunks of gpu_line_walk_chunk
// elements: with 32, a thread's staged loads spilled registers (H100,
// [16K,16K] float32: 1.24 ms; 0.76 ms with 8).
#pragma once

#include "Halide.h"
#include "generators/scan_chunking.h"
#include "schedules/gpu/scan_threads.h"
#include "schedules/scan_params.h"
#include "schedules/scan_stages.h"

namespace hdml {

inline void schedule_scan_line_walk(ScanStages &s, const ScanTuning &p, const Halide::Target &target) {
    using namespace Halide;
    _halide_user_assert(s.layout == Layout::Inner && target.has_feature(Target::CUDA) &&
                        !target.has_feature(Target::LargeBuffers))
        << "scan staging=line_walk is a CUDA kernel of the inner layout, built without large_buffers";
    const int threads = scan_staged_chunks(p, s.type);
    // The pure definition is undef (no code), but a host loop nest for it would
    // make Halide require the output's host pointer.
    s.output.gpu_blocks(s.o).gpu_threads(s.i);
    Stage walk = s.output.update(0);
    walk.reorder(s.i, s.walk_pass, s.walk_lane, s.walk_segment, s.o)
        .allow_race_conditions()
        .gpu_blocks(s.o)
        .gpu_threads(s.walk_lane)
        .unroll(s.walk_pass, 8);
    walk.specialize(s.inclusive);  // no select on the carry
    schedule_segment_scans(s, LoopLevel(s.output, s.walk_segment), threads);
}

}  // namespace hdml
