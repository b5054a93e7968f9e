// GPU, blocked scans (chunked and staging=shared): the carries into the
// chunks (or segments), in two levels so no serial pass is long:
//   group totals: a thread per (i, group, o) (staged kernel: a warp per group);
//   carries into groups: a thread per (i, o), serially over the groups;
//   carries into segments: a thread per (i, group, o), serially inside the group.
// Accumulating stages run inside a thread of a wrapper that stores their
// result once, so the running value lives in a register.
#pragma once

#include "Halide.h"
#include "schedules/gpu/scan_threads.h"
#include "schedules/scan_params.h"
#include "schedules/scan_stages.h"

namespace hdml {

inline void schedule_scan_carries(ScanStages &s, const ScanTuning &p) {
    using namespace Halide;
    const int threads = p.gpu_threads;
    Var t("t");
    // Group totals. Long inner lines (the staged kernel): a warp per group, its
    // lanes reading consecutive segment totals (a 2^28-element line has groups
    // of 256 segments). Otherwise a thread per (i, group): coalesced over i
    // (outer layout), or short groups (a short line's few chunks).
    // With one group, the carries into groups read no group total: an empty
    // buffer, which Halide's CUDA runtime refuses to allocate (hence the bound).
    Func group_totals = s.group_total.in();
    group_totals.compute_root().bound(s.g, 0, s.groups);
    if (s.staging == ScanStaging::Shared) {
        Var go("go");
        group_totals.fuse(s.g, s.o, go).gpu_blocks(go).gpu_threads(s.i);
        scan_total_by_warp(s.group_total, s.in_group.x, group_totals, go, s.i);
    } else {
        thread_per_element(s.layout, threads, group_totals, s.i, s.g, s.o);
        s.group_total.compute_at(group_totals, t);
    }
    s.group_carry.compute_root();
    thread_per_element(s.layout, threads, s.group_carry, s.i, s.g, s.o);
    Var io("io"), b("b");
    s.group_carry.update().fuse(s.i, s.o, io).split(io, b, t, threads, TailStrategy::GuardWithIf).gpu_blocks(b).gpu_threads(t);
    s.carry.compute_root();
    Var jg("jg");
    s.carry.fuse(s.j, s.g, jg);
    thread_per_element(s.layout, threads, s.carry, s.i, jg, s.o);
    thread_per_element(s.layout, threads, s.carry.update(), s.i, s.g, s.o);
}

}  // namespace hdml
