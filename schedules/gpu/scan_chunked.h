// GPU mapping of the chunked scan (staging=none), both layouts, after the
// carries (scan_carries.h): chunk totals a thread per (i, chunk, o), then the
// output, a thread per chunk scanning it in registers (unrolled) and joining
// its carry. Outer layout: consecutive threads on consecutive i (coalesced).
#pragma once

#include "Halide.h"
#include "schedules/gpu/scan_threads.h"
#include "schedules/scan_params.h"
#include "schedules/scan_stages.h"

namespace hdml {

inline void schedule_scan_chunks(ScanStages &s, const ScanTuning &p, const Halide::Target &target) {
    using namespace Halide;
    const int threads = p.gpu_threads;
    Var t("t");
    Func chunk_totals = s.chunk_total.in();
    chunk_totals.compute_root();
    thread_per_element(s.layout, threads, chunk_totals, s.i, s.c, s.o);
    s.chunk_total.compute_at(chunk_totals, t).update().unroll(s.in_chunk.x);
    if (target.has_feature(Target::D3D12Compute)) {
        // D3D12 kernels cannot raise errors, so no bounds checks inside a
        // thread (the register path's bound_extent needs one): the in-chunk
        // scans go through a root buffer, a thread per chunk, then the output.
        Var kc("kc");
        s.scan.compute_root().fuse(s.k, s.c, kc);
        thread_per_element(s.layout, threads, s.scan, s.i, kc, s.o);
        thread_per_element(s.layout, threads, s.scan.update(0), s.i, s.c, s.o);
        thread_per_element(s.layout, threads, s.scan.update(1), s.i, s.c, s.o);
        thread_per_element(s.layout, threads, s.output, s.i, s.r, s.o);
        return;
    }
    // The output: a thread per chunk; the chunk's scan in registers.
    Var rc("rc"), rk("rk");
    s.output.split(s.r, rc, rk, s.gpu_chunk, TailStrategy::GuardWithIf).reorder(rk, s.i, rc, s.o);
    thread_per_element(s.layout, threads, s.output, s.i, rc, s.o);
    s.output.unroll(rk);
    // One chunk per thread (bounds inference cannot prove it past the tail guard).
    s.scan.compute_at(s.output, t).bound(s.k, 0, s.gpu_chunk).bound_extent(s.c, 1).unroll(s.k);
    s.scan.update(0).unscheduled();
    s.scan.update(1).unroll(s.step.x);
}

}  // namespace hdml
