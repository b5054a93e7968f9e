// Schedules of the scan kernel (see generators/scan_generator.cpp).
#pragma once

#include "Halide.h"
#include "generators/common.h"

namespace hdml {

struct ScanStages {
    Halide::Func output;       // (i, r, o)
    Halide::Func scan;         // (i, k, c, o): running totals inside chunk c
    Halide::Func carry;        // (i, c, o): total before chunk c
    Halide::Func chunk_total;  // (i, c, o)
    Halide::Var i, r, o, k, c;
    Halide::RDom step;         // k = 1 .. chunk - 1 of scan's serial update
    Halide::RDom later_chunk;  // c = 1 .. chunks - 1 of carry's serial update
    Halide::Expr extent;       // of r
    Halide::Expr chunks;       // number of chunks along r (1 for the inner layout)
    Halide::Expr dense;        // the vectorised dim is unit-stride in input and output
    Halide::Expr inclusive;    // the runtime exclusive flag is 0
    Layout layout;
    Halide::Type type;
};

struct ScanTuning {
    // Outer layout: rows per chunk of the blocked scan (the parallel unit along r).
    Halide::GeneratorParam<int> chunk_rows{"chunk_rows", 32};
    // Outer layout: vectors of i per block (block x chunk_rows totals stay in L2).
    Halide::GeneratorParam<int> block_vectors{"block_vectors", 32};
    // Inner layout: lines scanned together, interleaved: independent dependency
    // chains that hide the latency of the serial add/multiply.
    Halide::GeneratorParam<int> lines_per_block{"lines_per_block", 8};
    // GPU: threads per block.
    Halide::GeneratorParam<int> gpu_threads{"gpu_threads", 128};
};

inline void schedule_scan_cpu(ScanStages &s, const ScanTuning &p, const Halide::Target &target) {
    using namespace Halide;
    const int lanes = target.natural_vector_size(s.type.bits() > 32 ? s.type : Float(32));
    Var ob("ob"), oi("oi"), ib("ib"), ii("ii"), t("t");
    if (s.layout == Layout::Inner) {
        // A block of lines per task; the serial update steps through the block's
        // lines in the innermost (unrolled) loop, the loads and stores around it are vectors.
        s.output.split(s.o, ob, oi, p.lines_per_block, TailStrategy::GuardWithIf)
            .parallel(ob)
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
    // Phase 2: carries, one serial pass over the chunk totals.
    s.carry.compute_root().vectorize(s.i, lanes, TailStrategy::GuardWithIf);
    s.carry.update().reorder(s.i, s.later_chunk).vectorize(s.i, lanes, TailStrategy::GuardWithIf).parallel(s.o);
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

inline void schedule_scan_gpu(ScanStages &s, const ScanTuning &p) {
    using namespace Halide;
    // A thread per (i, chunk, o); the CUDA issue replaces this with warp-level scans.
    Var bo("bo"), to("to"), bi("bi"), ti("ti");
    // With one chunk, carry's update reads no chunk total: an empty buffer,
    // which Halide's CUDA runtime refuses to allocate. Both span every chunk.
    s.chunk_total.bound(s.c, 0, s.chunks);
    s.carry.bound(s.c, 0, s.chunks);
    s.chunk_total.compute_root().gpu_tile(s.i, s.c, bi, bo, ti, to, p.gpu_threads, 1, TailStrategy::GuardWithIf);
    s.chunk_total.update().gpu_tile(s.i, s.c, bi, bo, ti, to, p.gpu_threads, 1, TailStrategy::GuardWithIf);
    s.carry.compute_root().gpu_tile(s.i, s.o, bi, bo, ti, to, p.gpu_threads, 1, TailStrategy::GuardWithIf);
    s.carry.update().gpu_tile(s.i, s.o, bi, bo, ti, to, p.gpu_threads, 1, TailStrategy::GuardWithIf);
    s.scan.compute_root().gpu_tile(s.i, s.c, bi, bo, ti, to, p.gpu_threads, 1, TailStrategy::GuardWithIf);
    s.scan.update(0).gpu_tile(s.i, s.c, bi, bo, ti, to, p.gpu_threads, 1, TailStrategy::GuardWithIf);
    s.scan.update(1).gpu_tile(s.i, s.c, bi, bo, ti, to, p.gpu_threads, 1, TailStrategy::GuardWithIf);
    s.output.gpu_tile(s.i, s.r, bi, bo, ti, to, p.gpu_threads, 1, TailStrategy::GuardWithIf);
}

inline void schedule_scan(ScanStages &s, const ScanTuning &p, const Halide::Target &target) {
    if (target.has_gpu_feature()) {
        schedule_scan_gpu(s, p);
    } else {
        schedule_scan_cpu(s, p, target);
    }
}

}  // namespace hdml
