// Schedules of the scan kernel (see generators/scan_generator.cpp).
#pragma once

#include "Halide.h"
#include "generators/common.h"

namespace hdml {

// How a GPU kernel reads its lines. Inner layout:
//  - none: a thread per chunk reads the chunk's elements itself (short lines:
//    a warp spans many lines);
//  - shared: a block takes a segment of one line (gpu_threads chunks), staged
//    through shared memory so every global load and store is coalesced (long
//    lines; chosen at run time by cuda.json's scan_staged_min_line);
//  - lines: a block takes whole lines of at most max_line elements (a line is
//    one chunk: no carries, one kernel), staged through shared memory the same
//    way (short lines; ops.cmake builds several max_line, the runtime takes the
//    smallest that holds the line).
//  - line_walk: a block per line walks along it, a segment (as staging=shared
//    stages, in smaller chunks) at a time, in one kernel: one pass over the
//    input from memory (many lines of 128 or more elements; chosen at run time
//    by cuda.json's scan_line_walk_min_line and scan_line_walk_min_lines).
// Outer layout:
//  - none: the chunked scan, a thread per (column, chunk);
//  - columns: a block per 32 columns walks down them, tile after tile of
//    chunks, in one kernel (many columns: chosen at run time by cuda.json's
//    scan_columns_min_columns).
enum class ScanStaging { None, Shared, Lines, LineWalk, Columns };

inline const std::map<std::string, ScanStaging> &scan_staging_names() {
    static const std::map<std::string, ScanStaging> names = {{"none", ScanStaging::None},
                                                             {"shared", ScanStaging::Shared},
                                                             {"lines", ScanStaging::Lines},
                                                             {"line_walk", ScanStaging::LineWalk},
                                                             {"columns", ScanStaging::Columns}};
    return names;
}

struct ScanStages {
    Halide::Func output;       // (i, r, o)
    Halide::Func scan;         // (i, k, c, o): running totals inside chunk c
    Halide::Func tile;         // (i, k, c, o): input element k of chunk c
    Halide::Func chunk_carry;  // (i, c, o): total before chunk c (carry, flat)
    Halide::Func carry;        // (i, j, g, o): total before segment g * group + j
    Halide::Func group_carry;  // (i, g, o): total before group g
    Halide::Func group_total;  // (i, g, o)
    Halide::Func segment_total;  // (i, n, o); chunk_total itself when a segment is one chunk
    Halide::Func chunk_total;    // (i, c, o)
    // Staged kernel: (i, nth, n, o) the total of up to 1, 2, 4, .. chunks
    // before chunk nth of segment n, inside the segment; empty elsewhere.
    std::vector<Halide::Func> in_segment_prefix;
    Halide::Var i, r, o, k, c, n, nth, g, j;
    Halide::RDom in_chunk;        // chunk_total's reduction over a chunk
    Halide::RDom in_segment;      // segment_total's reduction over a segment's chunks
    Halide::RDom in_group;        // group_total's reduction over a group's segments
    Halide::RDom later_in_group;  // j = 1 .. group - 1 of carry's serial update
    Halide::RDom step;            // k = 1 .. chunk - 1 of scan's serial update
    Halide::Expr extent;          // of r
    Halide::Expr groups;          // number of groups of segments (1 on CPUs)
    Halide::Expr dense;           // the vectorised dim is unit-stride in input and output
    Halide::Expr inclusive;       // the runtime exclusive flag is 0
    Layout layout;
    ScanStaging staging;
    Halide::Type type;
    int gpu_chunk;  // GPU: rows per chunk (scan_gpu_chunk)
    // staging=line_walk: the output's reduction, element pass * segment chunks
    // + lane of segment walk_segment.
    Halide::RVar walk_pass{}, walk_lane{}, walk_segment{};
};

struct ScanTuning {
    // Outer layout: rows per chunk of the blocked scan (the parallel unit along r).
    Halide::GeneratorParam<int> chunk_rows{"chunk_rows", 32};
    // Outer layout: vectors of i per block (block x chunk_rows totals stay in L2).
    Halide::GeneratorParam<int> block_vectors{"block_vectors", 32};
    // Inner layout: lines scanned together, interleaved: independent dependency
    // chains that hide the latency of the serial add/multiply.
    Halide::GeneratorParam<int> lines_per_block{"lines_per_block", 8};
    // GPU: threads per block; rows per chunk (a thread scans a chunk in registers).
    Halide::GeneratorParam<int> gpu_threads{"gpu_threads", 128};
    Halide::GeneratorParam<int> gpu_chunk{"gpu_chunk", 32};
    // GPU, staging=columns: rows per chunk, and chunks per tile of a column walk's block (a thread each).
    Halide::GeneratorParam<int> gpu_column_rows{"gpu_column_rows", 16};
    Halide::GeneratorParam<int> gpu_column_chunks{"gpu_column_chunks", 16};
    // GPU, staging=line_walk: elements per chunk (a thread's, scanned in registers);
    // a segment is gpu_threads chunks (half for 64-bit types).
    Halide::GeneratorParam<int> gpu_line_walk_chunk{"gpu_line_walk_chunk", 8};
};

// GPU rows per chunk: gpu_chunk, the walks' gpu_column_rows and
// gpu_line_walk_chunk, or the lines kernel's max_line (its lines are one chunk
// each). A constant, so a chunk's running totals fit registers.
inline int scan_gpu_chunk(ScanStaging staging, int max_line, const ScanTuning &p) {
    if (staging == ScanStaging::Columns) return p.gpu_column_rows;
    if (staging == ScanStaging::LineWalk) return p.gpu_line_walk_chunk;
    if (staging != ScanStaging::Lines) return p.gpu_chunk;
    _halide_user_assert(max_line >= 1) << "scan staging=lines needs max_line >= 1";
    return max_line;
}

// Whether lines are cut into chunks. CPU: the outer layout, by chunk_rows; the
// inner layout keeps a line whole (its lines are the parallel work). GPU: both
// layouts, in chunks a thread scans in registers, but for the lines kernel,
// whose lines are one chunk each.
inline bool scan_is_chunked(Layout layout, ScanStaging staging, const Halide::Target &target) {
    return layout == Layout::Outer || (target.has_gpu_feature() && staging != ScanStaging::Lines);
}

// Rows per chunk. GPU: gpu_chunk, a constant (the lines kernel requires a line
// to fit); rows past the line's end read clamped input and are never stored.
// CPU: chunk_rows rows of a chunked line; a whole line otherwise.
inline Halide::Expr scan_chunk_rows(const Halide::Expr &extent, bool chunked, int gpu_chunk, const ScanTuning &p,
                                    const Halide::Target &target) {
    using namespace Halide;
    if (target.has_gpu_feature()) return Expr(gpu_chunk);
    return chunked ? min(extent, (int)p.chunk_rows) : extent;
}

// Chunks a staged kernel's block holds in shared memory: gpu_threads, half of
// them for 64-bit totals (the two staged buffers must fit the 48 KiB of static
// shared memory).
inline int scan_staged_chunks(const ScanTuning &p, const Halide::Type &type) {
    return type.bits() > 32 ? p.gpu_threads / 2 : (int)p.gpu_threads;
}

// Chunks per segment, the unit the carries are taken over: the staged kernel's
// block (staging=shared), the line walk's step; one chunk elsewhere.
inline int scan_segment_chunks(ScanStaging staging, const ScanTuning &p, const Halide::Type &type) {
    const bool staged = staging == ScanStaging::Shared || staging == ScanStaging::LineWalk;
    return staged ? scan_staged_chunks(p, type) : 1;
}

// Segments per group of the two-level carries. GPU: about sqrt(segments), so
// both serial passes (over groups, and inside a group) stay short on long
// lines; the staged kernel takes at least 256 (up to the line's segments): its
// group totals take a warp per group. CPU: one group (the carry pass is one
// vectorised sweep per line).
inline Halide::Expr scan_group_segments(const Halide::Expr &segments, ScanStaging staging,
                                        const Halide::Target &target) {
    using namespace Halide;
    if (!target.has_gpu_feature()) return segments;
    const Expr balanced = max(1, cast<int>(ceil(sqrt(cast<float>(segments)))));
    return staging == ScanStaging::Shared ? min(segments, max(balanced, 256)) : balanced;
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
// each padded to a chunk + 1 elements so that a thread per chunk and a thread
// per element both hit distinct banks. `chunks` is the dim that numbers the
// block's chunks: c in a segment of one line, o for whole lines.
inline void stage_chunks(ScanStages &s, Halide::Func f, const Halide::LoopLevel &at, Halide::Var chunks, int count,
                         int chunk) {
    f.compute_at(at).bound(s.i, 0, 1).bound(s.k, 0, chunk + 1).bound_extent(chunks, count);
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
    s.scan.compute_at(scanned, s.c).bound(s.k, 0, chunk + 1).bound_extent(s.c, 1).unroll(s.k);
    s.scan.update(0).unscheduled();
    s.scan.update(1).unroll(s.step.x);
}

// GPU, inner layout, long lines (staging=shared): a block per segment of one
// line, a thread per chunk of it. The segment's input is staged in shared
// memory (coalesced); a thread per chunk then reduces or scans its chunk in
// registers from there.
//   segment totals: the chunk totals in shared memory, merged by a warp;
//   output: the chunk scans, then the chunks' carries inside the segment (the
//   doubling prefix over the scans' totals, a thread per chunk, in shared
//   memory) joined with the segment's carry; the scanned segment goes back
//   through shared memory, consecutive threads on consecutive elements again.
inline void schedule_scan_gpu_staged(ScanStages &s, const ScanTuning &p, const Halide::Target &target) {
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

// GPU, inner layout, many long lines (staging=line_walk): a block per line
// walks along it, a segment of scan_staged_chunks chunks at a time (a serial
// loop inside the kernel), each segment scanned as the staged kernel does
// (schedule_segment_scans) and stored a thread per element. A segment's carry
// is the output element before it, which this block stored at the step
// before: Halide's barriers between the stages order that load after the
// store (allow_race_conditions lets the shared RVar map onto threads). Without
// large_buffers (32-bit indexing), as the column walk. Chunks of
// gpu_line_walk_chunk = 8 elements (a segment of 1024 float32): with the staged
// kernel's 32, a thread's 33 staged loads, unrolled, took 167 registers
// against Halide's JIT limit of 64 and spilled (H100, [16K,16K] float32: 1.24
// ms; chunks of 16 0.76 ms, of 8 0.76 ms, int64 4% faster than 16).
inline void schedule_scan_gpu_line_walk(ScanStages &s, const ScanTuning &p, const Halide::Target &target) {
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

// GPU, inner layout, short lines (staging=lines; the kernel requires a line of
// at most max_line elements): one kernel, no carries. A block takes
// scan_staged_chunks whole lines; their input is staged in shared memory
// (coalesced), a thread per line scans it in registers, and the scanned lines
// go back through shared memory to coalesced stores. Staging reads max_line + 1
// elements per line (past its end: its last one again, from cache), so the
// runtime takes the smallest max_line that holds the line.
inline void schedule_scan_gpu_lines(ScanStages &s, const ScanTuning &p, const Halide::Target &target) {
    using namespace Halide;
    _halide_user_assert(s.layout == Layout::Inner && target.has_feature(Target::CUDA))
        << "scan staging=lines is a CUDA kernel of the inner layout";
    const int threads = scan_staged_chunks(p, s.type), chunk = s.gpu_chunk;
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
    s.scan.compute_at(scanned, s.o).bound(s.k, 0, chunk + 1).unroll(s.k);
    s.scan.update(0).unscheduled();
    s.scan.update(1).unroll(s.step.x);
}

// GPU: both layouts run the chunked scan with chunks of gpu_chunk rows:
//   chunk totals: a thread per (i, chunk, o), accumulating in a register;
//   group totals: a thread per (i, group, o) (staged kernel: a warp per group);
//   carries into groups: a thread per (i, o), serially over the groups;
//   carries into chunks: a thread per (i, group, o), serially inside the group;
//   output: a thread per (i, chunk, o) scans its chunk in registers (unrolled)
//   and joins the carry.
// Long inner lines (staging=shared) carry per segment of chunks instead (the
// group levels above walk segment totals), and run the totals and the output
// through shared memory (schedule_scan_gpu_staged).
// Outer layout: consecutive threads take consecutive i (coalesced).
inline void schedule_scan_gpu(ScanStages &s, const ScanTuning &p, const Halide::Target &target) {
    using namespace Halide;
    if (s.staging == ScanStaging::Lines) {
        schedule_scan_gpu_lines(s, p, target);
        return;
    }
    if (s.staging == ScanStaging::LineWalk) {
        schedule_scan_gpu_line_walk(s, p, target);
        return;
    }
    const int threads = p.gpu_threads;
    // A thread per (x, y, z), x being i. Outer layout: i split into the block's
    // threads (coalesced, and each thread's i is its own loop variable, so a
    // Func computed per thread covers one i), y and z fused into the blocks.
    // Inner layout (i is 1): all fused, then split into blocks of threads.
    // Fused indices stay within int32 (the runtime cuts kernels at 2^31 elements).
    Var t("t");
    auto per_thread = [&](Stage st, Var x, Var y, Var z) {
        Var xb("xb"), xz("xz"), xy("xy"), xyz("xyz"), b("b");
        if (s.layout == Layout::Outer) {
            st.split(x, xb, t, threads, TailStrategy::GuardWithIf).reorder(t, xb, z, y).fuse(xb, z, xz).fuse(xz, y, b);
        } else {
            st.fuse(x, y, xy).fuse(xy, z, xyz).split(xyz, b, t, threads, TailStrategy::GuardWithIf);
        }
        st.gpu_blocks(b).gpu_threads(t);
    };
    // Accumulating stages run inside a thread of a wrapper that stores their
    // result once, so the running value lives in a register.
    // Group totals. Long inner lines (the staged kernel): a warp per group, its
    // lanes reading consecutive segment totals (a 2^28-element line has groups
    // of 256 segments, long for one thread's serial walk). Otherwise a thread
    // per (i, group): coalesced over i (outer layout), or short groups (a short
    // line's few chunks, where a warp per group would idle).
    // With one group, the carries into groups read no group total: an empty
    // buffer, which Halide's CUDA runtime refuses to allocate (hence the bound).
    Func group_totals = s.group_total.in();
    group_totals.compute_root().bound(s.g, 0, s.groups);
    if (s.staging == ScanStaging::Shared) {
        Var go("go");
        group_totals.fuse(s.g, s.o, go).gpu_blocks(go).gpu_threads(s.i);
        scan_total_by_warp(s.group_total, s.in_group.x, group_totals, go, s.i);
    } else {
        per_thread(group_totals, s.i, s.g, s.o);
        s.group_total.compute_at(group_totals, t);
    }
    s.group_carry.compute_root();
    per_thread(s.group_carry, s.i, s.g, s.o);
    Var io("io"), b("b");
    s.group_carry.update().fuse(s.i, s.o, io).split(io, b, t, threads, TailStrategy::GuardWithIf).gpu_blocks(b).gpu_threads(t);
    s.carry.compute_root();
    Var jg("jg");
    s.carry.fuse(s.j, s.g, jg);
    per_thread(s.carry, s.i, jg, s.o);
    per_thread(s.carry.update(), s.i, s.g, s.o);
    if (s.staging == ScanStaging::Shared) {
        schedule_scan_gpu_staged(s, p, target);
        return;
    }
    Func chunk_totals = s.chunk_total.in();
    chunk_totals.compute_root();
    per_thread(chunk_totals, s.i, s.c, s.o);
    s.chunk_total.compute_at(chunk_totals, t).update().unroll(s.in_chunk.x);
    if (target.has_feature(Target::D3D12Compute)) {
        // D3D12 kernels cannot raise errors, so no bounds checks inside a
        // thread (the register path's bound_extent needs one): the in-chunk
        // scans go through a root buffer, a thread per chunk, then the output.
        Var kc("kc");
        s.scan.compute_root().fuse(s.k, s.c, kc);
        per_thread(s.scan, s.i, kc, s.o);
        per_thread(s.scan.update(0), s.i, s.c, s.o);
        per_thread(s.scan.update(1), s.i, s.c, s.o);
        per_thread(s.output, s.i, s.r, s.o);
        return;
    }
    // The output: a thread per chunk; the chunk's scan in registers.
    Var rc("rc"), rk("rk");
    s.output.split(s.r, rc, rk, s.gpu_chunk, TailStrategy::GuardWithIf).reorder(rk, s.i, rc, s.o);
    per_thread(s.output, s.i, rc, s.o);
    s.output.unroll(rk);
    // One chunk per thread (bounds inference cannot prove it past the tail guard).
    s.scan.compute_at(s.output, t).bound(s.k, 0, s.gpu_chunk).bound_extent(s.c, 1).unroll(s.k);
    s.scan.update(0).unscheduled();
    s.scan.update(1).unroll(s.step.x);
}

// The column walk's stages (staging=columns; see define_column_walk).
struct ColumnWalk {
    Halide::Func output;       // (i, r, o): undef, then update 0 over (in_chunk_row, nth, tile)
    Halide::Func chunk_total;  // (i, c, o)
    Halide::Func scan;         // (i, k, c, o): running totals inside chunk c
    Halide::Var i, o, k, c;
    Halide::RVar in_chunk_row, nth, tile;  // the output's reduction: row of chunk nth of a tile
    Halide::RVar in_chunk, step;           // chunk_total's and scan's reductions
    int chunk;                             // rows per chunk
    Halide::Expr inclusive;
};

// GPU, outer layout, many columns (staging=columns): a block per warp of
// columns (consecutive threads on consecutive columns: coalesced), walking the
// line tile after tile (a serial loop inside the kernel) of gpu_column_chunks
// chunks, a thread per (column, chunk). The tile's chunk totals go to shared
// memory, a thread each; then each thread scans its chunk in registers and
// stores it. The threads of a tile read the row before it, which other threads
// of the block stored at the tile before: Halide's barrier between the stages
// orders them (hence allow_race_conditions, which the shared RVar needs).
// A thread's rows are one vector (its carry one scalar; the stores are per
// row). Without large_buffers (32-bit indexing: ~half the address arithmetic).
// Halide's CUDA runtime JITs with at most 64 registers per thread: chunks of
// gpu_column_rows = 16 take 47-60 (ptxas -v), 32 made int64's spill.
inline void schedule_scan_gpu_columns(ColumnWalk &w, const ScanTuning &p, const Halide::Target &target) {
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

inline void schedule_scan(ScanStages &s, const ScanTuning &p, const Halide::Target &target) {
    if (target.has_gpu_feature()) {
        schedule_scan_gpu(s, p, target);
    } else {
        schedule_scan_cpu(s, p, target);
    }
}

}  // namespace hdml
