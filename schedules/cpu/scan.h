// CPU schedule of the scan kernel.
#pragma once

#include "Halide.h"
#include "schedules/scan_params.h"
#include "schedules/scan_stages.h"

namespace hdml {

inline void schedule_scan_cpu(ScanStages &s, const ScanTuning &p, const Halide::Target &target) {
    using namespace Halide;
    const int lanes = target.natural_vector_size(s.type.bits() > 32 ? s.type : Float(32));
    Var ob("ob"), oi("oi"), ib("ib"), ii("ii"), t("t");
    if (s.layout == Layout::Inner) {
        // Blocks of lines, about task_bytes of them per task; the serial update
        // steps through a block's lines in the innermost (unrolled) loop, the
        // loads and stores around it are vectors.
        _halide_user_assert(p.task_bytes >= 1 && p.lines_per_block >= 1)
            << "task_bytes and lines_per_block must be at least 1";
        Var task("task");
        const Expr block_bytes = clamp(s.extent, 1, p.task_bytes) * s.type.bytes() * p.lines_per_block;
        s.output.split(s.o, ob, oi, p.lines_per_block, TailStrategy::GuardWithIf)
            .split(ob, task, ob, max(p.task_bytes / block_bytes, 1), TailStrategy::GuardWithIf)
            .parallel(task)
            .vectorize(s.r, lanes, TailStrategy::GuardWithIf);
        // Lines of the block 4 KiB apart in the buffer would alias in the load/store
        // unit (every chain waiting on the others): pad such line lengths by a vector.
        const Expr line = (s.extent + lanes - 1) / lanes * lanes;
        s.scan.compute_at(s.output, ob)
            .bound(s.k, 0, select(line % 256 == 0, line + lanes, line))
            .vectorize(s.k, lanes, TailStrategy::GuardWithIf);
        s.scan.update(0).unscheduled();
        s.scan.update(1).reorder(s.o, s.step).unroll(s.o);
        s.scan.update(1).specialize(s.inclusive);  // no select in the serial loop
        // One chunk per line: carry is the identity and chunk_total is never needed.
        s.carry.compute_at(s.output, ob);
        s.chunk_total.compute_root();
        s.output.specialize(s.dense);  // dense vector loads and stores; strided tensors gather/scatter
        return;
    }
    // Phase 1: chunk totals, each chunk's rows streamed whole (vectors across i).
    s.chunk_total.compute_root().vectorize(s.i, lanes, TailStrategy::GuardWithIf).parallel(s.c);
    s.chunk_total.update().reorder(s.i, s.c).vectorize(s.i, lanes, TailStrategy::GuardWithIf).parallel(s.c);
    // Phase 2: carries, one serial pass over the chunk totals (one group: the
    // group levels are the identity).
    for (Func f : {s.group_total, s.group_carry}) {
        f.compute_root().vectorize(s.i, lanes, TailStrategy::GuardWithIf);
        f.update().vectorize(s.i, lanes, TailStrategy::GuardWithIf);
    }
    s.carry.compute_root().vectorize(s.i, lanes, TailStrategy::GuardWithIf);
    s.carry.update()
        .reorder(s.i, s.later_in_group)
        .vectorize(s.i, lanes, TailStrategy::GuardWithIf)
        .parallel(s.o);
    // Phase 3: per (chunk, block of i) task, scan the chunk's rows from the carry.
    Var rc("rc"), rk("rk");
    s.output.split(s.i, ib, ii, lanes * p.block_vectors, TailStrategy::GuardWithIf)
        .split(s.r, rc, rk, p.chunk_rows, TailStrategy::GuardWithIf)
        .reorder(ii, rk, ib, rc, s.o)
        .fuse(rc, s.o, t)
        .parallel(t)
        .vectorize(ii, lanes, TailStrategy::GuardWithIf);
    s.scan.store_at(s.output, t).compute_at(s.output, ib).vectorize(s.i, lanes, TailStrategy::GuardWithIf);
    s.scan.update(0).vectorize(s.i, lanes, TailStrategy::GuardWithIf);
    s.scan.update(1).reorder(s.i, s.step).vectorize(s.i, lanes, TailStrategy::GuardWithIf);
    s.output.specialize(s.dense);
}

}  // namespace hdml
