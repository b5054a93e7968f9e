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
    // GPU: threads per block; threads to aim for (lines x chunks); the fewest
    // rows per chunk; the most chunks per line (the carries run serially over them).
    Halide::GeneratorParam<int> gpu_threads{"gpu_threads", 128};
    Halide::GeneratorParam<int> gpu_target_threads{"gpu_target_threads", 270336};
    Halide::GeneratorParam<int> gpu_min_chunk{"gpu_min_chunk", 16};
    Halide::GeneratorParam<int> gpu_max_chunks{"gpu_max_chunks", 4096};
};

// Whether lines are cut into chunks. CPU: the outer layout, by chunk_rows; the
// inner layout keeps a line whole (its lines are the parallel work). GPU: both
// layouts, so that lines x chunks fill the GPU.
inline bool scan_is_chunked(Layout layout, const Halide::Target &target) {
    return layout == Layout::Outer || target.has_gpu_feature();
}

// Rows per chunk of the blocked scan, from the line length `extent` and the number of lines.
inline Halide::Expr scan_chunk_rows(Layout layout, const Halide::Expr &extent, const Halide::Expr &lines,
                                    const ScanTuning &p, const Halide::Target &target) {
    using namespace Halide;
    if (target.has_gpu_feature()) {
        const Expr wanted = clamp(((int)p.gpu_target_threads + lines - 1) / lines, 1, (int)p.gpu_max_chunks);
        return clamp((extent + wanted - 1) / wanted, min((int)p.gpu_min_chunk, extent), extent);
    }
    return layout == Layout::Outer ? min(extent, (int)p.chunk_rows) : extent;
}

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

// GPU: both layouts run the chunked scan, so the GPU sees lines x chunks
// independent threads (a thread per line alone leaves it idle for few long
// lines), in three kernels plus the output copy:
//   chunk totals and the in-chunk scans: a thread per (i, chunk, o);
//   carries: a thread per (i, o), serially over the line's chunks.
// Outer layout: consecutive threads take consecutive i (coalesced). Inner
// layout (i is 1): a thread per (chunk, line), fused.
inline void schedule_scan_gpu(ScanStages &s, const ScanTuning &p) {
    using namespace Halide;
    const int threads = p.gpu_threads;
    // With one chunk, carry's update reads no chunk total: an empty buffer,
    // which Halide's CUDA runtime refuses to allocate. The chunk totals and the
    // carries span every chunk.
    s.carry.bound(s.c, 0, s.chunks);
    // A thread per (x, y, z), x being i. Outer layout: i split into the block's
    // threads (coalesced, and each thread's i is its own loop variable, so a
    // Func computed per thread covers one i), y and z fused into the blocks.
    // Inner layout (i is 1): all fused, then split into blocks of threads.
    // Fused indices stay within int32 (the runtime cuts kernels at 2^31 elements).
    auto per_thread = [&](Stage st, Var x, Var y, Var z) {
        Var xb("xb"), xz("xz"), xy("xy"), xyz("xyz"), b("b"), t("t");
        if (s.layout == Layout::Outer) {
            st.split(x, xb, t, threads, TailStrategy::GuardWithIf).reorder(t, xb, z, y).fuse(xb, z, xz).fuse(xz, y, b);
        } else {
            st.fuse(x, y, xy).fuse(xy, z, xyz).split(xyz, b, t, threads, TailStrategy::GuardWithIf);
        }
        st.gpu_blocks(b).gpu_threads(t);
    };
    // Chunk totals accumulate in a register (inside a thread of the wrapper that stores them).
    Func totals = s.chunk_total.in();
    totals.compute_root().bound(s.c, 0, s.chunks);
    per_thread(totals, s.i, s.c, s.o);
    s.chunk_total.compute_at(totals, Var("t"));
    s.carry.compute_root();
    per_thread(s.carry, s.i, s.c, s.o);
    Var io("io"), b("b"), t("t");
    s.carry.update().fuse(s.i, s.o, io).split(io, b, t, threads, TailStrategy::GuardWithIf).gpu_blocks(b).gpu_threads(t);
    s.scan.compute_root();
    Var kc("kc");
    // The scan's pure stage (a copy of the input) is element-parallel.
    s.scan.fuse(s.k, s.c, kc);
    per_thread(s.scan, s.i, kc, s.o);
    per_thread(s.scan.update(0), s.i, s.c, s.o);
    per_thread(s.scan.update(1), s.i, s.c, s.o);
    per_thread(s.output, s.i, s.r, s.o);
}

inline void schedule_scan(ScanStages &s, const ScanTuning &p, const Halide::Target &target) {
    if (target.has_gpu_feature()) {
        schedule_scan_gpu(s, p);
    } else {
        schedule_scan_cpu(s, p, target);
    }
}

}  // namespace hdml
