// GPU mapping, outer layout, many columns (staging=columns): a block per warp
// of columns (consecutive threads on consecutive columns: coalesced), walking
// the line tile after tile (a serial loop inside the kernel) of
// gpu_column_chunks chunks, a thread per (column, chunk). The tile's chunk
// totals go to shared memory, a thread each; then each thread scans its chunk
// in registers and stores it. The threads of a tile read the row before it,
// which other threads of the block stored at the tile before: Halide's
// barrier between the stages orders them (hence allow_race_conditions, which
// the shared RVar needs). Without large_buffers (32-bit indexing). Chunks of
// gpu_column_rows = 16 take 47-60 registers (ptxas -v; Halide's CUDA runtime
// allows 64), 32 made int64's spill.
#pragma once

#include "Halide.h"
#include "schedules/scan_params.h"
#include "schedules/scan_stages.h"

namespace hdml {

inline void schedule_column_walk(ColumnWalk &w, const ScanTuning &p, const Halide::Target &target) {
    using namespace Halide;
    _halide_user_assert(target.has_feature(Target::CUDA) && !target.has_feature(Target::LargeBuffers))
        << "scan staging=columns is a CUDA kernel built without large_buffers";
    const int columns = 32, chunks = p.gpu_column_chunks;
    Var ib("ib"), it("it"), blk("blk");
    // The pure definition is undef (no code), but a host loop nest for it would
    // make Halide require the output's host pointer.
    w.output.split(w.i, ib, it, columns, TailStrategy::GuardWithIf).fuse(ib, w.o, blk).gpu_blocks(blk).gpu_threads(it);
    Stage walk = w.output.update(0);
    walk.split(w.i, ib, it, columns, TailStrategy::GuardWithIf)
        .reorder(w.in_chunk_row, it, w.nth, w.tile, ib, w.o)
        .fuse(ib, w.o, blk)
        .allow_race_conditions()
        .gpu_blocks(blk)
        .gpu_threads(it, w.nth)
        .vectorize(w.in_chunk_row);
    walk.specialize(w.inclusive);  // no select on the carry
    Func totals = w.chunk_total.in();
    totals.compute_at(w.output, w.tile).bound_extent(w.i, columns).bound_extent(w.c, chunks).gpu_threads(w.i, w.c);
    w.chunk_total.compute_at(totals, w.i).update().unroll(w.in_chunk);
    w.scan.compute_at(w.output, it).bound(w.k, 0, w.chunk).bound_extent(w.c, 1).unroll(w.k);
    w.scan.update(0).unscheduled();
    w.scan.update(1).unroll(w.step);
}

}  // namespace hdml
