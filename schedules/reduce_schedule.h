// Schedules for the reducing families (Reduce, ArgReduce), one function per
// target family. The generators describe *what* is computed and hand their
// Funcs over in a ReduceStages; these functions decide *how*. The tunable
// numbers are GeneratorParams (ReduceTuning) whose values come from
// schedules/params/<platform>.json at build time.
#pragma once

#include "Halide.h"
#include "generators/common.h"

#include <optional>
#include <vector>

namespace hdml {

// The Funcs of a reducing pipeline. Every reduction is defined as
//   f(i, o) = init;  f(i, o) = combine(f(i, o), g(input(i, r, o)))
// and later reductions may read earlier ones at (i, o) (LOG_SUM_EXP reads the max).
struct ReduceStages {
    Halide::Func output;  // (i, o), pure
    std::vector<Halide::Func> reductions;
    Halide::Func input;  // (i, r, o): the input buffer, whose loads a schedule may stage (`input.in(f)`)
    Halide::Var i, o;
    Halide::RDom r;
    Layout layout;
    Halide::Type input_type;
    // Strides of the input's i and r dimensions: schedules specialise the
    // unit-stride case, where loads become dense vector loads.
    Halide::Expr i_stride, r_stride;
    Halide::Expr i_extent, r_extent, o_extent;
    // ARGMAX/ARGMIN: output(word, i, o), words 0 and (64-bit indices) 1 of
    // an index. CPUs write them in separate passes; GPU threads write both.
    std::optional<Halide::Var> word;
};

// GPU, outer layout: how a column's reduction maps onto threads.
//  - split: the rows are cut into runs (split-K), a thread per (column, run),
//    and the output kernel merges a column's runs, a thread per column;
//  - warp_merge: the same runs, merged by a warp per column (lane l: runs l,
//    l + 32, ...). For few columns, whose runs are many (up to gpu_max_chunks)
//    and whose thread-per-column merge is one block of serial loops
//    (cuda.json's reduce_warp_merge_max_outputs);
//  - whole: a thread reduces whole columns in the output kernel: no runs, no
//    intermediate, one launch. The runtime takes it when the split would make
//    a single run per column anyway (cuda.json's reduce_whole_columns_min_outputs).
enum class ColumnMapping { Split, WarpMerge, Whole };

inline const std::map<std::string, ColumnMapping> &column_mapping_names() {
    static const std::map<std::string, ColumnMapping> names = {
        {"split", ColumnMapping::Split}, {"warp_merge", ColumnMapping::WarpMerge}, {"whole", ColumnMapping::Whole}};
    return names;
}

// GPU, inner layout: how a row's reduction maps onto threads.
//  - split: the row is cut into chunks, a GPU block per (row, chunk), and the
//    output kernel merges a row's chunk partials (a warp per row);
//  - lanes: gpu_row_lanes threads per row read the row itself in the output
//    kernel, several rows per block: one kernel, no partials. For many short
//    rows (cuda.json's reduce_row_lanes_* dispatch), where a block per row
//    leaves most of its threads idle and a thread per row reads uncoalesced:
//    on the H100, [4M,64] SUM moved 1045 GB/s a thread per row, 2695 GB/s
//    with 4 lanes per row (8 lanes: 2508, 16 lanes: 1578; fewer elements per
//    lane leave fewer loads in flight and more merging per element).
enum class RowMapping { Split, Lanes };

inline const std::map<std::string, RowMapping> &row_mapping_names() {
    static const std::map<std::string, RowMapping> names = {{"split", RowMapping::Split}, {"lanes", RowMapping::Lanes}};
    return names;
}

// GPU, inner layout: how the lanes that share a row (a warp per row, or a few
// lanes per short row: reduce_in_lanes) merge their partial results.
//  - shared: through shared memory, one thread merging the lanes' values;
//  - shuffles: through registers, a warp-shuffle butterfly
//    (GpuLoops::merge_in_shuffles). CUDA only, accumulators of at most 32
//    bits (Halide 14 has no 64-bit shuffles), and kernels built without
//    large_buffers: Halide 14's warp-shuffle lowering cannot read its 64-bit
//    indices (internal error "stride.defined()" in LowerWarpShuffles.cpp), so
//    such a kernel takes buffers of under 2 GiB and the runtime keeps the
//    shared kernel for larger ones.
enum class LaneMerge { Shared, Shuffles };

inline const std::map<std::string, LaneMerge> &lane_merge_names() {
    static const std::map<std::string, LaneMerge> names = {{"shared", LaneMerge::Shared},
                                                           {"shuffles", LaneMerge::Shuffles}};
    return names;
}

// Tunable numbers; members of the generator so Halide registers them as GeneratorParams.
struct ReduceTuning {
    // CPU, inner layout: independent vector accumulators, elements of a row per
    // parallel block, and (row, block) pairs per parallel task.
    Halide::GeneratorParam<int> accumulators{"accumulators", 4};
    Halide::GeneratorParam<int> block_elements{"block_elements", 16384};
    Halide::GeneratorParam<int> min_parallel_rows{"min_parallel_rows", 8};
    Halide::GeneratorParam<int> rows_per_task{"rows_per_task", 8};
    // CPU, outer layout: consecutive reduced rows accumulated per parallel block.
    Halide::GeneratorParam<int> rows_per_chunk{"rows_per_chunk", 64};
    // GPU (see schedule_reduce_gpu): threads per block; independent loads in
    // flight per thread; blocks (inner) or threads (outer) to aim for; most
    // blocks per row (inner) and runs per column (outer), since the output
    // kernel merges them (a warp per row, a thread per column).
    Halide::GeneratorParam<int> gpu_threads{"gpu_threads", 256};
    Halide::GeneratorParam<int> gpu_unroll{"gpu_unroll", 4};
    Halide::GeneratorParam<int> gpu_target_blocks{"gpu_target_blocks", 1056};
    Halide::GeneratorParam<int> gpu_target_threads{"gpu_target_threads", 270336};
    Halide::GeneratorParam<int> gpu_max_row_chunks{"gpu_max_row_chunks", 1056};
    Halide::GeneratorParam<int> gpu_max_chunks{"gpu_max_chunks", 512};
    // GPU output kernel: chunk partials merged per step of a merging loop
    // (independent loads in flight), and (outer layout) columns per thread.
    Halide::GeneratorParam<int> gpu_merge_unroll{"gpu_merge_unroll", 8};
    Halide::GeneratorParam<int> gpu_merge_columns{"gpu_merge_columns", 4};
    // GPU, RowMapping::Lanes: threads per row (a power of two up to a warp).
    Halide::GeneratorParam<int> gpu_row_lanes{"gpu_row_lanes", 4};
    // GPU, outer layout, split runs: independent accumulators (chains) per
    // thread, interleaved, merged at the end. A step of a chain waits on the
    // one before it (LOG_SUM_EXP's compare, exp and multiply-add: ~50 cycles;
    // ARGMAX's 64-bit key compare: several), so one chain per thread leaves the
    // loads idle where threads are few. [4M,64] outer's runs on the H100:
    // LOG_SUM_EXP 0.59 ms with one chain, 0.40 ms with 4 (1024 runs; 8 chains
    // ran 4x slower than 4); ARGMAX 0.415 -> 0.378 ms (2048 runs).
    Halide::GeneratorParam<int> gpu_run_chains{"gpu_run_chains", 4};
    // Not tuning numbers: kernel variants, set per kernel in ops.cmake.
    Halide::GeneratorParam<ColumnMapping> columns{"columns", ColumnMapping::Split, column_mapping_names()};
    Halide::GeneratorParam<RowMapping> rows{"rows", RowMapping::Split, row_mapping_names()};
    // CUDA, ColumnMapping::Whole: load the input's rows (a thread's columns,
    // when short rows go a thread per row) in vectors of vector_bytes bytes;
    // 0 loads elements one at a time. See GpuLoops::whole_rows_in_vectors for
    // what the kernel then requires of its input (apply_vector_row_contract).
    Halide::GeneratorParam<int> vector_bytes{"vector_bytes", 0};
    // GPU, inner layout: how a row's lanes merge (LaneMerge, merges_in_shuffles).
    Halide::GeneratorParam<LaneMerge> lane_merge{"lane_merge", LaneMerge::Shared, lane_merge_names()};
};

// Whether lanes merge in shuffles (lane_merge), checked against what the
// butterfly needs of the target and the accumulators.
inline bool merges_in_shuffles(const ReduceTuning &p, const Halide::Target &target, Layout layout,
                               const std::vector<Halide::Func> &reductions) {
    using namespace Halide;
    if (p.lane_merge != LaneMerge::Shuffles) return false;
    _halide_user_assert(target.has_feature(Target::CUDA)) << "lane_merge=shuffles needs a CUDA target";
    _halide_user_assert(layout == Layout::Inner) << "lane_merge=shuffles is built for the inner layout only";
    _halide_user_assert(!target.has_feature(Target::LargeBuffers))
        << "lane_merge=shuffles kernels must be built without large_buffers (Halide 14's warp shuffles take 32-bit indices)";
    for (const Func &f : reductions) {
        for (const Type &type : f.output_types()) {
            _halide_user_assert(type.bits() <= 32)
                << "lane_merge=shuffles needs accumulators of at most 32 bits; " << f.name() << " is " << type;
        }
    }
    return true;
}

// Elements per vector load of a vector_bytes kernel (ReduceTuning), checked:
// a whole number of elements, at least two.
inline int vector_lanes(const ReduceTuning &p, const Halide::Type &t) {
    const int lanes = p.vector_bytes / t.bytes();
    _halide_user_assert(lanes >= 2 && lanes * t.bytes() == p.vector_bytes)
        << "vector_bytes " << (int)p.vector_bytes << " must hold two or more " << t << " elements";
    _halide_user_assert(p.columns == ColumnMapping::Whole) << "vector_bytes needs columns=whole";
    return lanes;
}

// gpu_run_chains, checked: the rfactor runs and LOG_SUM_EXP's tree both read it.
inline int run_chains(const ReduceTuning &p) {
    _halide_user_assert(p.gpu_run_chains >= 1) << "gpu_run_chains must be at least 1";
    return p.gpu_run_chains;
}

inline void schedule_reduce_cpu(ReduceStages &s, const ReduceTuning &p, const Halide::Target &target) {
    using namespace Halide;
    const int lanes = target.natural_vector_size(s.input_type.bits() > 32 ? s.input_type : Float(32));
    Var oo("oo"), oi("oi"), t("t"), u("u"), uo("uo"), ui("ui");
    if (s.word) s.output.reorder(s.i, s.o, *s.word);  // outermost: the words are the loops below, twice

    if (s.layout == Layout::Inner) {
        // Rows are cut into blocks, (row, block) pairs spread over cores, so a
        // single long row (an all-axes reduction) uses every core as well as
        // many short rows do. Within a block, rfactor
        // vectorises along r with `accumulators` independent vector
        // accumulators; the per-block partials are then combined per row.
        Var c("c");
        s.output.split(s.o, oo, oi, p.rows_per_task, TailStrategy::GuardWithIf).parallel(oo);
        const int chunk = lanes * p.accumulators;
        for (Func f : s.reductions) {
            RVar rb("rb"), rr("rr"), ro("ro"), ri("ri");
            // Many rows: one block per row (rows alone keep the cores busy).
            // Few rows: blocks of block_elements, spread over the cores.
            const Expr block = select(s.o_extent >= p.min_parallel_rows, s.r_extent, min(s.r_extent, p.block_elements));
            Func blocks = f.update().split(s.r, rb, rr, block, TailStrategy::GuardWithIf).rfactor(rb, c);
            // rfactor before any other directive on the stage: it rebuilds the stage's loops.
            Func partial = blocks.update().split(rr, ro, ri, chunk, TailStrategy::GuardWithIf).rfactor(ri, u);
            blocks.compute_root();
            // Rows are spread over cores; blocks of a row too, when a row has
            // several (nested parallelism: a long single row uses every core).
            Stage row_blocks = blocks.update();
            row_blocks.reorder(ri, s.i, c, s.o).split(s.o, oo, oi, p.rows_per_task, TailStrategy::GuardWithIf).parallel(oo);
            const Expr several_blocks = s.o_extent < p.min_parallel_rows && s.r_extent > p.block_elements;
            row_blocks.specialize(s.r_stride == 1 && several_blocks).parallel(c);
            row_blocks.specialize(s.r_stride == 1);
            row_blocks.specialize(several_blocks).parallel(c);
            // The partial sums of one block live in `accumulators` vector registers.
            partial.compute_at(blocks, c).reorder_storage(u, s.i, s.o, c).vectorize(u, lanes);
            partial.update().split(u, uo, ui, lanes).reorder(ui, uo, ro).vectorize(ui).unroll(uo);
            // Per-row results (the merge of a row's blocks) are complete before
            // later reductions (LOG_SUM_EXP's sum reads the max) and the output.
            f.compute_root();
        }
    } else {
        // The input is walked in blocks of `rows_per_chunk` consecutive r rows,
        // each block read contiguously and accumulated into a partial result
        // per block (rfactor over the row blocks), blocks spread over cores;
        // then the partials are summed. Walking all of r per column tile
        // instead touches a new page every row and thrashes the TLB.
        Var c("c");
        s.output.vectorize(s.i, lanes, TailStrategy::GuardWithIf).parallel(s.o);
        s.output.specialize(s.i_stride == 1);
        for (Func f : s.reductions) {
            RVar ro("ro"), ri("ri");
            Func partial = f.update().split(s.r, ro, ri, p.rows_per_chunk, TailStrategy::GuardWithIf).rfactor(ro, c);
            partial.compute_root().vectorize(s.i, lanes, TailStrategy::GuardWithIf);
            partial.update()
                .reorder(s.i, ri, c, s.o)
                .fuse(c, s.o, t)
                .parallel(t)
                .vectorize(s.i, lanes, TailStrategy::GuardWithIf);
            f.compute_root().vectorize(s.i, lanes, TailStrategy::GuardWithIf);
            f.update().reorder(s.i, ro, s.o).vectorize(s.i, lanes, TailStrategy::GuardWithIf).parallel(s.o);
        }
    }
}

// GPU chunking of a reduction: `chunks` pieces of `chunk` elements per output
// (inner: blocks per row; outer: runs per column, capped so the final merge
// stays short). Run-time expressions of the shape, aimed at gpu_target_blocks
// blocks (inner) or gpu_target_threads threads (outer).
struct GpuChunking {
    Halide::Expr chunks, chunk;
};

inline GpuChunking gpu_reduce_chunking(Layout layout, const Halide::Expr &i_extent, const Halide::Expr &r_extent,
                                       const Halide::Expr &o_extent, const ReduceTuning &p) {
    using namespace Halide;
    auto ceil_div = [](const Expr &a, const Expr &b) { return (a + b - 1) / b; };
    const Expr most_row_chunks =
        min(Expr((int)p.gpu_max_row_chunks), ceil_div(r_extent, (int)p.gpu_threads * (int)p.gpu_unroll));
    const Expr chunks =
        layout == Layout::Inner
            ? clamp(ceil_div(Expr((int)p.gpu_target_blocks), o_extent), 1, most_row_chunks)
            : clamp(ceil_div(Expr((int)p.gpu_target_threads), i_extent * o_extent), 1,
                    min(Expr((int)p.gpu_max_chunks), r_extent));
    return {chunks, ceil_div(r_extent, chunks)};
}

// Threads that merge one row's chunk partials in the output kernel (inner
// layout): a warp on NVIDIA GPUs; on any GPU they meet through shared memory.
constexpr int kMergeLanes = 32;

// Whether the output kernel merges an output's chunk partials in kMergeLanes
// lanes (inner rows; outer columns under ColumnMapping::WarpMerge) rather than
// a thread per column.
inline bool merges_in_lanes(Layout layout, const ReduceTuning &p) {
    return layout == Layout::Inner || p.columns == ColumnMapping::WarpMerge;
}

// GPU loop shapes shared by the reduction schedules.
struct GpuLoops {
    Layout layout;
    int threads;
    Halide::Var i, o;
    // Whether the lanes that share an output (reduce_in_lanes) merge through
    // warp shuffles (merge_in_shuffles) rather than shared memory: LaneMerge.
    bool shuffles = false;
    // The thread's x of `tile`; the thread and block of `merge_tiles`.
    Halide::Var xt{"xt"}, ot{"ot"}, ob{"ob"};

    // Threads over (x, y) tiles; the x tiles fused with `z` into grid x, since
    // CUDA grids stop at 65535 in y and z (rows and columns can be millions).
    void tile(Halide::Stage st, Halide::Var x, Halide::Var y, int tx, int ty, Halide::Var z) const {
        using namespace Halide;
        Var xb("xb"), yb("yb"), yt("yt"), xz("xz");
        st.split(x, xb, xt, tx, TailStrategy::GuardWithIf).split(y, yb, yt, ty, TailStrategy::GuardWithIf);
        st.reorder(xt, yt, xb, z, yb).fuse(xb, z, xz).gpu_blocks(xz, yb).gpu_threads(xt, yt);
    }
    // Outer layout, a thread per (column i, run c): a block spans `threads`
    // columns of one run when there are that many columns (or few runs);
    // otherwise a warp's 32 columns of several runs. (On the H100 the wide
    // tile read [16K,16K] at 99% of copy speed, 32 x 8 tiles at 69%: each warp
    // walked 128-byte pieces of rows 64 KiB apart.)
    void column_runs(Halide::Func f, Halide::Var c, const Halide::Expr &runs, const Halide::Expr &columns) const {
        tile(f.specialize(runs < 8 || columns >= threads), i, c, threads, 1, o);
        tile(f, i, c, 32, threads / 32, o);
    }
    // The output kernel's loops, which merge the chunk partials:
    //  - inner: a warp (kMergeLanes) per row, `threads` / 32 rows per block.
    //    Lane l merges the row's chunks l, l + 32, ... (adjacent partials:
    //    coalesced), then one thread merges the 32 lanes' results from shared
    //    memory (see merge_in_lanes). A thread per row took ~60 us to merge
    //    the 1056 partials of one long row serially on the H100.
    //  - outer: a thread per `columns` adjacent columns (per column when there
    //    are fewer than a block's worth), their merges interleaved so that
    //    `columns` loads are in flight (see merge_in_columns). A block whose
    //    threads each load one partial and exit ends before its loads overlap:
    //    [16,16M]'s one-run merge moved 0.8 TB/s, 1.4 TB/s with 4 columns.
    //    The price is stores 4 words apart across a warp: ARGMAX/ARGMIN's two
    //    words per 64-bit index made that 8 partial writes per 32-byte sector
    //    (327 us against 217 us), so they keep a column per thread.
    //    `adjacent`: whether a thread's columns lie side by side in what it
    //    reads (whole columns read the input: see whole_columns).
    void merge_tiles(Halide::Func consumer, const Halide::Expr &i_extent, int columns,
                     const Halide::Expr &adjacent = Halide::cast<bool>(1)) const {
        using namespace Halide;
        if (layout == Layout::Inner) return row_tiles(consumer, kMergeLanes);
        Var ib("ib"), ii("ii"), ik("ik");
        if (columns > 1) {
            // Column tiles shifted inwards at the right edge (pure stages: a
            // column computed twice is written twice with the same value).
            consumer.specialize(adjacent && i_extent >= threads * columns)
                .split(i, ib, ii, threads * columns, TailStrategy::ShiftInwards)
                .split(ii, ot, ik, columns)
                .reorder(ik, ot, ib, o)
                .fuse(ib, o, ob)
                .gpu_blocks(ob)
                .gpu_threads(ot)
                .unroll(ik);
        }
        // A thread per column, the column tiles fused with o.
        consumer.split(i, ib, ot, threads, TailStrategy::GuardWithIf).fuse(ib, o, ob).gpu_blocks(ob).gpu_threads(ot);
    }
    // Inner layout: `lanes` threads per row, threads / lanes rows per block.
    // The consumer's thread (i, ot) merges row ot's lanes. Thread x is i
    // (extent 1) and y the row, as in the lanes' (lane, o): with ot on x the
    // block would be max(lanes, rows) x rows threads (8 lanes: 32 x 32 = 1024,
    // three quarters of them idle while the lanes read).
    // Under `shuffles`, x is a warp-lane loop of the consumer (merge_in_shuffles).
    void row_tiles(Halide::Func consumer, int lanes) const {
        consumer.split(o, ob, ot, threads / lanes, Halide::TailStrategy::GuardWithIf).gpu_blocks(ob);
        if (shuffles) {
            consumer.gpu_threads(ot).gpu_lanes(i);
        } else {
            consumer.gpu_threads(i, ot);
        }
    }
    // Outer layout, ColumnMapping::WarpMerge: a warp per column (merge_in_lanes),
    // threads / 32 columns per block; the consumer's thread ot merges column
    // ot's lanes (ot on x: its 8 fit in the lanes' 32, so a block stays the
    // lanes' 32 x 8 threads).
    void column_warps(Halide::Func consumer) const {
        Halide::Var ib("ib");
        consumer.split(i, ib, ot, threads / kMergeLanes, Halide::TailStrategy::GuardWithIf)
            .fuse(ib, o, ob)
            .gpu_blocks(ob)
            .gpu_threads(ot);
    }
    // `streams`(i, lane, o) merges the items lane, lane + lanes, ... of an
    // output over `item_r` (a row's chunk partials or elements; a column's
    // runs); `f` then merges the output's streams over `lane_r` from shared
    // memory. The block's threads: (lane, row o) after row_tiles (inner
    // layout), (lane, column i) after column_warps (outer). Each thread
    // accumulates its stream in registers (streams computed per thread) and
    // stores it once to the block's shared buffer (its wrapper): accumulated in
    // shared memory itself, LOG_SUM_EXP's (max, sum) pair went through shared
    // loads and stores at every element.
    void merge_in_lanes(Halide::Func consumer, Halide::Func f, Halide::RVar lane_r, Halide::Func streams,
                        Halide::Var lane, Halide::RVar item_r, int unroll) const {
        using namespace Halide;
        RVar rko("rko"), rki("rki");
        const bool inner = layout == Layout::Inner;
        const Var across = inner ? o : i;
        f.compute_at(consumer, inner ? i : ot);
        f.update().unroll(lane_r);
        Func shared_streams = streams.in(f);
        shared_streams.compute_at(consumer, ob);
        if (inner) {
            shared_streams.reorder(i, lane, o);
        } else {
            shared_streams.reorder(lane, i, o);
        }
        shared_streams.gpu_threads(lane, across);
        streams.compute_at(shared_streams, inner ? i : lane);
        streams.update().split(item_r, rko, rki, unroll, TailStrategy::GuardWithIf).unroll(rki);
    }
    // `f` reduced over `r` by `lanes` threads per output (row_tiles or
    // column_warps): lane l takes r = l, l + lanes, ... (adjacent lanes on
    // adjacent items: coalesced for rows), then one thread merges the lanes
    // (merge_in_lanes).
    void reduce_in_lanes(Halide::Func consumer, Halide::Func f, Halide::RVar r, int lanes, int unroll) const {
        using namespace Halide;
        Var lane("lane");
        RVar ro("ro"), rl("rl");
        Func streams = f.update().split(r, ro, rl, lanes, TailStrategy::GuardWithIf).rfactor(rl, lane);
        if (shuffles) {
            merge_in_shuffles(consumer, f, rl, streams, lane, ro, lanes, unroll);
        } else {
            merge_in_lanes(consumer, f, rl, streams, lane, ro, unroll);
        }
    }
    // reduce_in_lanes under `shuffles`: the `lanes` streams (lane l: items
    // l, l + lanes, ...; a warp's lanes, or a power-of-two group of them) merge
    // in registers through a shuffle butterfly (`butterfly`), the consumer's
    // lane 0 merging the last two. No shared memory, no barrier.
    // Every Func with a lane dimension is computed per warp-lane loop; `f`
    // inside the consumer's lane loop (row_tiles), where its storage is the
    // lane's own (a Func stored outside the lanes would be striped across
    // them, its reads shuffles inside lane 0's branch). Inner layout only.
    void merge_in_shuffles(Halide::Func consumer, Halide::Func f, Halide::RVar lane_r, Halide::Func streams,
                           Halide::Var lane, Halide::RVar item_r, int lanes, int unroll) const {
        using namespace Halide;
        RVar rko("rko"), rki("rki");
        streams.compute_at(consumer, ot).gpu_lanes(lane);
        streams.update().gpu_lanes(lane).split(item_r, rko, rki, unroll, TailStrategy::GuardWithIf).unroll(rki);
        const RVar last = butterfly(f, lane_r, lanes, consumer, ot);
        f.compute_at(consumer, i);
        f.update().unroll(last);
    }
    // The split kernel's GPU block under `shuffles`: its `threads` lanes
    // (`lane`(i, t, c, o), `part` merging them over lane_r) merge in two
    // steps, as CUB's block reduce does: each warp's 32 through a butterfly
    // (`warp`, an rfactor of part's merge per warp w), then part, one thread,
    // merges the threads / 32 warps' results from shared memory (`warps`, the
    // block-level wrapper whose lane loop of extent 1 holds `warp`). Without
    // it one thread merges all `threads` partials from shared memory.
    void merge_block_in_shuffles(Halide::Func block, Halide::Func part, Halide::RVar lane_r, Halide::Func lane,
                                 Halide::Var t) const {
        using namespace Halide;
        _halide_user_assert(threads % kMergeLanes == 0)
            << "a block merged in warps needs gpu_threads a multiple of " << kMergeLanes << "; got " << threads;
        Var w("w");
        RVar rw("rw"), rl("rl");
        Func warp = part.update().split(lane_r, rw, rl, kMergeLanes).rfactor(rw, w);
        Func warps = warp.in();
        warps.compute_at(block, o).gpu_threads(w).gpu_lanes(i);
        lane.compute_at(warps, w).gpu_lanes(t);
        lane.update().gpu_lanes(t);
        const RVar last = butterfly(warp, rl, kMergeLanes, warps, w);
        warp.compute_at(warps, i);
        warp.update().unroll(last);
        part.update().unroll(rw);
    }
    // The levels of a shuffle butterfly over `f`'s merge of `lanes` streams
    // (over lane_r): level `half` merges lane h with lane h + half
    // (shfl.sync.down), halves from lanes / 2 down to 2, each an rfactor of
    // f's merge (so the reduction's own combine) computed per warp lane at
    // `at`'s loop `thread`. Returns the RVar of f's own merge, left with the
    // last two lanes' values (shfl.sync.idx).
    Halide::RVar butterfly(Halide::Func f, Halide::RVar lane_r, int lanes, Halide::Func at, Halide::Var thread) const {
        using namespace Halide;
        _halide_user_assert(lanes >= 2 && lanes <= 32 && (lanes & (lanes - 1)) == 0)
            << "a shuffle butterfly needs a power-of-two number of lanes, 2 to 32; got " << lanes;
        RVar merging = lane_r;
        for (int half = lanes / 2; half >= 2; half /= 2) {
            const std::string n = std::to_string(half);
            RVar pair("pair" + n), rest("rest" + n);
            Var h("h" + n);
            Func level = f.update().split(merging, pair, rest, half).rfactor(rest, h);
            level.compute_at(at, thread).gpu_lanes(h);
            level.update().gpu_lanes(h).unroll(pair);
            merging = rest;
        }
        return merging;
    }
    // Whole columns that are rows of the input (vector_bytes kernels): a thread
    // per column reduces `f` over its row `r`, `lanes` elements per load,
    // loaded into registers by a wrapper of the input. Read one element at a
    // time, [16M,16] float32 (a warp's load touching 32 rows' lines) moved
    // 68-76% of copy on the H100; in 16-byte vectors 96-103% (LOG_SUM_EXP,
    // with an exp per element, 73% -> 84%).
    // The loads are dense and aligned only if the input's rows are
    // unit-stride and `lanes`-aligned: apply_vector_row_contract asserts the
    // strides and extents, and the runtime takes the kernel only for inputs
    // whose address is vector_bytes-aligned. The walk is not unrolled by
    // Halide, whose guarded copies (the row's vector count is unknown) would
    // keep each load behind a branch; LLVM unrolls it with a remainder loop
    // and ptxas issues the loads together.
    void whole_rows_in_vectors(Halide::Func consumer, Halide::Func f, Halide::Func input, Halide::RVar r,
                               int lanes) const {
        using namespace Halide;
        RVar rs("rs"), rv("rv");
        f.compute_at(consumer, ot).unroll(i);
        f.update().split(r, rs, rv, lanes).reorder(rv, rs, i, o).unroll(i).unroll(rv);
        Func vectors = input.in(f);
        const Var element = vectors.args()[1];
        vectors.compute_at(f, rs).bound_extent(element, lanes).vectorize(element).store_in(MemoryType::Register);
    }
    // Outer layout: `f` merges its columns' chunks over `chunk_r` (or, whole
    // columns, reduces its columns' elements over r), the columns innermost so
    // that their loads are independent.
    void merge_in_columns(Halide::Func consumer, Halide::Func f, Halide::RVar chunk_r, int unroll) const {
        using namespace Halide;
        RVar rko("rko"), rki("rki");
        f.compute_at(consumer, ot).unroll(i);
        f.update().split(chunk_r, rko, rki, unroll, TailStrategy::GuardWithIf).reorder(i, rki, rko, o);
        f.update().unroll(i).unroll(rki);
    }
    // Whole columns (ColumnMapping::Whole): the consumer's threads reduce
    // their columns over the input's rows `r` themselves, each of `reductions`
    // in turn (the 64-bit ARGMAX/ARGMIN's maximum, or the maximum of the
    // thread-per-row LOG_SUM_EXP, before what reads it): a column is read once
    // per reduction, from cache after the first where the column is a short
    // row. Rows in vectors of vector_bytes where the kernel is built with it
    // (whole_rows_in_vectors), elements otherwise, `columns` per thread. Several
    // columns per thread only where the input's columns are adjacent (i_stride
    // 1): short rows mapped a thread per row have i_stride = the row's length,
    // and 4 rows per thread spread a warp over 128 rows' cache lines ([4M,64]
    // inner SUM at 0.2x PyTorch, against 1 row per thread at copy speed or
    // better).
    void whole_columns_as_built(Halide::Func consumer, const std::vector<Halide::Func> &reductions,
                                Halide::Func input, Halide::RVar r, const Halide::Expr &i_extent,
                                const Halide::Expr &i_stride, const Halide::Type &input_type, int columns,
                                int unroll, const ReduceTuning &p) const {
        if (p.vector_bytes > 0) {
            merge_tiles(consumer, i_extent, 1);
            for (const Halide::Func &f : reductions) {
                whole_rows_in_vectors(consumer, f, input, r, vector_lanes(p, input_type));
            }
        } else {
            merge_tiles(consumer, i_extent, columns, i_stride == 1);
            for (const Halide::Func &f : reductions) merge_in_columns(consumer, f, r, unroll);
        }
    }
    // The output kernel's loops for merging chunk partials: a warp per row
    // (inner), a warp per column (outer, ColumnMapping::WarpMerge) or a thread
    // per `columns` columns (outer, see merge_tiles). Returns merges_in_lanes.
    bool merge_loops(Halide::Func consumer, const Halide::Expr &i_extent, int columns, const ReduceTuning &p) const {
        if (layout == Layout::Outer && p.columns == ColumnMapping::WarpMerge) {
            column_warps(consumer);
        } else {
            merge_tiles(consumer, i_extent, columns);
        }
        return merges_in_lanes(layout, p);
    }
    // The merge of the partials `f` reads over rc (f(i, o) = merge(f(i, o), partial(i, rc, o))),
    // on merge_loops.
    void merge_chunks(Halide::Func consumer, Halide::Func f, Halide::RVar rc, const Halide::Expr &i_extent,
                      int columns, const ReduceTuning &p) const {
        if (merge_loops(consumer, i_extent, columns, p)) {
            reduce_in_lanes(consumer, f, rc, kMergeLanes, p.gpu_merge_unroll);
        } else {
            merge_in_columns(consumer, f, rc, p.gpu_merge_unroll);
        }
    }
    // Outer layout: a split-K thread's serial walk of its run: `f`, computed
    // per thread of `runs`, accumulates over `walk`, unrolled so that
    // `unroll` loads are in flight.
    void walk_run(Halide::Func runs, Halide::Func f, Halide::RVar walk, int unroll) const {
        using namespace Halide;
        RVar rko("rko"), rki("rki");
        f.compute_at(runs, xt);
        f.update().split(walk, rko, rki, unroll, TailStrategy::GuardWithIf).unroll(rki);
    }
    // walk_run in chains (gpu_run_chains): `chains`(chain, ...) holds the
    // thread's independent accumulators, which take turns along `walk`
    // (interleaved in registers), and `f` merges them over `chain_r`.
    void walk_run_in_chains(Halide::Func runs, Halide::Func f, Halide::RVar chain_r, Halide::Func chains,
                            Halide::Var chain, Halide::RVar walk, int unroll) const {
        using namespace Halide;
        RVar rko("rko"), rki("rki");
        f.compute_at(runs, xt);
        f.update().unroll(chain_r);
        chains.compute_at(runs, xt).unroll(chain);
        chains.update()
            .reorder(chain, walk)
            .split(walk, rko, rki, unroll, TailStrategy::GuardWithIf)
            .unroll(chain)
            .unroll(rki);
    }
};

// GPU: every reduction is a two-level tree, so each thread accumulates a
// bounded run of elements (float32 sums stay accurate over 2^28 elements) and
// the whole GPU is busy however few outputs there are.
//  - inner layout: a row is cut into `chunks` blocks of elements; a GPU block
//    of gpu_threads threads reduces one (block, row) pair, each thread a
//    coalesced strided run, and merges its threads' partials from shared
//    memory; the output kernel merges a row's blocks, a warp per row. The
//    lanes variant (RowMapping) skips the chunks: the output kernel's lanes
//    reduce their rows themselves.
//  - outer layout: the reduced rows are cut into `chunks` runs (split-K); a
//    thread reduces one column over one run, consecutive threads reading
//    consecutive columns; the output kernel merges a column's runs. The
//    whole-columns variant (ColumnMapping) skips the runs: the output kernel's
//    threads reduce their columns over all rows.
// Very short inner rows (a few elements) go to the outer kernel, a thread per
// row, and short ones to the lanes variant: see cuda.json's "dispatch".
inline void schedule_reduce_gpu(ReduceStages &s, const ReduceTuning &p, const Halide::Target &target) {
    using namespace Halide;
    const int threads = p.gpu_threads;
    const int unroll = p.gpu_unroll;
    Var c("c"), t("t");
    const bool inner = s.layout == Layout::Inner;
    const GpuChunking chunking = gpu_reduce_chunking(s.layout, s.i_extent, s.r_extent, s.o_extent, p);
    const GpuLoops loops{s.layout, threads, s.i, s.o, merges_in_shuffles(p, target, s.layout, s.reductions)};
    if (!inner && p.columns == ColumnMapping::Whole) {
        // ARGMAX/ARGMIN write index words, a column each (merge_tiles).
        loops.whole_columns_as_built(s.output, s.reductions, s.input, s.r.x, s.i_extent, s.i_stride, s.input_type,
                                     s.word ? 1 : (int)p.gpu_merge_columns, unroll, p);
        return;
    }
    for (size_t n = 0; n < s.reductions.size(); ++n) {
        Func f = s.reductions[n];
        // Where a reduction's chunks are merged: the output kernel for the last
        // one; earlier ones (the 64-bit ARGMAX/ARGMIN's maximum) in a kernel of
        // their own, read by later ones.
        const bool last = n + 1 == s.reductions.size();
        Func consumer = last ? s.output : f.in();
        if (!last) consumer.compute_root();
        // Columns per thread of the outer layout; ARGMAX/ARGMIN write index words, a column each (merge_tiles).
        const int merge_columns = last && s.word ? 1 : (int)p.gpu_merge_columns;
        if (inner && p.rows == RowMapping::Lanes) {
            loops.row_tiles(consumer, p.gpu_row_lanes);
            loops.reduce_in_lanes(consumer, f, s.r.x, p.gpu_row_lanes, unroll);
            consumer.specialize(s.r_stride == 1);  // loads at constant offsets, as the split kernel's
            continue;
        }
        RVar rc("rc"), rr("rr"), rk("rk"), rt("rt"), rko("rko"), rki("rki");
        Func part = f.update().split(s.r, rc, rr, chunking.chunk, TailStrategy::GuardWithIf).rfactor(rc, c);
        // Accumulators must live in registers: a Func's storage follows its
        // compute level (global at root, shared memory at block level), so each
        // accumulating stage is computed inside a thread of a wrapper (`in()`)
        // that stores the finished value once.
        if (inner) {
            // A GPU block per (c, o) (o on grid x): each thread accumulates a
            // coalesced strided run in registers (lane), the block's partials
            // meet in shared memory (lanes), one thread merges them (part) and
            // the wrapper stores the block's result. Under shuffles, each warp
            // first merges its 32 through a butterfly (merge_block_in_shuffles).
            Func lane = part.update().split(rr, rk, rt, threads, TailStrategy::GuardWithIf).rfactor(rt, t);
            Func block = part.in();
            // A row's partials side by side, for the warp that merges them.
            block.compute_root().reorder_storage(s.i, c, s.o);
            block.reorder(s.i, s.o, c).gpu_blocks(s.o, c).gpu_threads(s.i);
            // Unit-stride rows: loads at constant offsets from one address
            // (no 64-bit multiply per element).
            block.specialize(s.r_stride == 1);
            part.compute_at(block, s.i);
            if (loops.shuffles) {
                loops.merge_block_in_shuffles(block, part, rt, lane, t);
            } else {
                Func lanes = lane.in();
                part.update().split(rt, rko, rki, 8).unroll(rki);
                lanes.compute_at(block, s.o).gpu_threads(t);
                lane.compute_at(lanes, t);
            }
            lane.update().split(rk, rko, rki, unroll, TailStrategy::GuardWithIf).unroll(rki);
        } else {
            // A thread per (i, c): consecutive threads on consecutive columns.
            Func runs = part.in();
            runs.compute_root();
            loops.column_runs(runs, c, chunking.chunks, s.i_extent);
            // The runs' serial walk, in gpu_run_chains chains per thread: rows
            // k * chains + u accumulate into chain u.
            const int chain_count = run_chains(p);
            if (chain_count == 1) {
                loops.walk_run(runs, part, rr, unroll);
            } else {
                Var u("u");
                RVar ru("ru");
                Func chains =
                    part.update().split(rr, rk, ru, chain_count, TailStrategy::GuardWithIf).rfactor(ru, u);
                loops.walk_run_in_chains(runs, part, ru, chains, u, rk, unroll);
            }
        }
        loops.merge_chunks(consumer, f, rc, s.i_extent, merge_columns, p);
    }
}

// A reduction written as an explicit tree (LOG_SUM_EXP on GPUs, whose
// (max, scaled sum) merge rfactor cannot prove associative). Element
// r = c * chunk + step * lanes + lane of an output's row:
//   lane_acc(i, lane, c, o): a lane's elements of chunk c, serially (lanes > 1 only);
//   chunk_acc(i, c, o): chunk c: its lanes merged (lanes > 1), or its elements serially;
//   stream_acc(i, stream_lane, o): chunks stream_lane, stream_lane + merge_lanes, ... merged;
//   row_acc(i, o): the streams merged.
struct ReduceTreeStages {
    Halide::Func output, lane_acc, chunk_acc, stream_acc, row_acc;
    Halide::Func input;  // (i, r, o), as ReduceStages::input
    Halide::Var i, o, lane, c, stream_lane;
    Halide::RDom steps, lanes, stream, streams;  // the RDoms of the updates that walk them
    Layout layout;
    Halide::Expr i_extent, i_stride, chunks;
};

// The tree's shape, the same chunking as the rfactor trees': lanes are a GPU
// block's threads (inner layout) or a thread's gpu_run_chains (outer: a
// thread per column and chunk); merge_lanes are a warp's (inner, and outer
// ColumnMapping::WarpMerge: merge_in_lanes) or 1 (outer: merge_in_columns).
// RowMapping::Lanes: one chunk per row, read by gpu_row_lanes lanes;
// ColumnMapping::Whole: one chunk per column.
struct ReduceTreeShape {
    int lanes, merge_lanes;
    Halide::Expr chunks, chunk;  // chunk: a multiple of lanes
    // Whether the chunks cover the row exactly (ColumnMapping::Whole: one
    // chunk of r_extent), so no element index runs past it.
    bool exact = false;
};

inline ReduceTreeShape reduce_tree_shape(Layout layout, const Halide::Expr &i_extent, const Halide::Expr &r_extent,
                                         const Halide::Expr &o_extent, const ReduceTuning &p) {
    const bool inner = layout == Layout::Inner;
    const int chains = run_chains(p);
    if (inner && p.rows == RowMapping::Lanes) {
        const int lanes = p.gpu_row_lanes;
        _halide_user_assert(lanes >= 2) << "LOG_SUM_EXP's lanes kernel needs gpu_row_lanes >= 2";
        return {lanes, 1, Halide::Expr(1), (r_extent + lanes - 1) / lanes * lanes};
    }
    if (!inner && p.columns == ColumnMapping::Whole) return {1, 1, Halide::Expr(1), r_extent, true};
    const int lanes = inner ? (int)p.gpu_threads : chains;
    const GpuChunking chunking = gpu_reduce_chunking(layout, i_extent, r_extent, o_extent, p);
    const Halide::Expr chunk = (chunking.chunk + lanes - 1) / lanes * lanes;
    return {lanes, merges_in_lanes(layout, p) ? kMergeLanes : 1, (r_extent + chunk - 1) / chunk, chunk};
}

// The explicit tree on GPUs, mapped as schedule_reduce_gpu maps its rfactor trees.
inline void schedule_reduce_tree_gpu(ReduceTreeStages &s, const ReduceTuning &p, const Halide::Target &) {
    using namespace Halide;
    // The tree's merge is not an rfactor, which merge_in_shuffles builds its levels with.
    _halide_user_assert(p.lane_merge == LaneMerge::Shared) << "LOG_SUM_EXP's tree merges lanes in shared memory only";
    RVar so("so"), si("si");
    const GpuLoops loops{s.layout, p.gpu_threads, s.i, s.o};
    if (s.layout == Layout::Outer && p.columns == ColumnMapping::Whole) {
        // As schedule_reduce_gpu's whole columns: the output's threads reduce
        // their columns' elements (chunk_acc: a column's one chunk, which is
        // its one stream and its result). (The vector_bytes kernel takes two
        // passes instead: Reduce::generate.)
        loops.whole_columns_as_built(s.output, {s.chunk_acc}, s.input, s.steps.x, s.i_extent, s.i_stride,
                                     s.input.value().type(), p.gpu_merge_columns, p.gpu_unroll, p);
        for (Func f : {s.stream_acc, s.row_acc}) {
            f.compute_at(s.output, loops.ot).unroll(s.i);
            f.update().unroll(s.i);
        }
        return;
    }
    if (s.layout == Layout::Inner && p.rows == RowMapping::Lanes) {
        // One kernel, as schedule_reduce_gpu's lanes variant: a row's lanes
        // accumulate its elements (lane_acc, chunk c innermost: the row's one
        // chunk), one thread merges them (chunk_acc); the row's one chunk is its
        // one stream and its result.
        loops.row_tiles(s.output, p.gpu_row_lanes);
        s.lane_acc.reorder(s.c, s.i, s.lane, s.o);
        s.lane_acc.update().reorder(s.steps.x, s.c, s.i, s.lane, s.o);
        loops.merge_in_lanes(s.output, s.chunk_acc, s.lanes.x, s.lane_acc, s.lane, s.steps.x, p.gpu_unroll);
        s.stream_acc.compute_at(s.output, s.i);
        s.row_acc.compute_at(s.output, s.i);
        return;
    }
    if (loops.merge_loops(s.output, s.i_extent, p.gpu_merge_columns, p)) {
        loops.merge_in_lanes(s.output, s.row_acc, s.streams.x, s.stream_acc, s.stream_lane, s.stream.x,
                             p.gpu_merge_unroll);
    } else {
        // One stream per column: the row's merge is the stream's.
        loops.merge_in_columns(s.output, s.stream_acc, s.stream.x, p.gpu_merge_unroll);
        s.row_acc.compute_at(s.output, loops.ot).unroll(s.i);
        s.row_acc.update().unroll(s.i);
    }
    Func chunk_accs = s.chunk_acc.in();
    chunk_accs.compute_root();
    if (s.layout == Layout::Inner) {
        // A GPU block per (c, o): lanes are its threads, their pairs meet in
        // shared memory and one thread merges them. A row's chunks side by side,
        // for the warp that merges them.
        chunk_accs.reorder_storage(s.i, s.c, s.o);
        chunk_accs.reorder(s.i, s.o, s.c).gpu_blocks(s.o, s.c).gpu_threads(s.i);
        s.chunk_acc.compute_at(chunk_accs, s.i);
        s.chunk_acc.update().split(s.lanes.x, so, si, 8).unroll(si);
        Func lane_accs = s.lane_acc.in();
        lane_accs.compute_at(chunk_accs, s.o).gpu_threads(s.lane);
        s.lane_acc.compute_at(lane_accs, s.lane);
        s.lane_acc.update().split(s.steps.x, so, si, p.gpu_unroll, TailStrategy::GuardWithIf).unroll(si);
    } else {
        // A thread per (i, c), consecutive threads on consecutive columns; its
        // chains (lane_acc's lanes) interleaved in registers, then merged.
        loops.column_runs(chunk_accs, s.c, s.chunks, s.i_extent);
        if (run_chains(p) == 1) {  // no lane_acc: chunk_acc walks the run itself
            loops.walk_run(chunk_accs, s.chunk_acc, s.steps.x, p.gpu_unroll);
        } else {
            loops.walk_run_in_chains(chunk_accs, s.chunk_acc, s.lanes.x, s.lane_acc, s.lane, s.steps.x, p.gpu_unroll);
        }
    }
}

inline void schedule_reduce(ReduceStages &s, const ReduceTuning &p, const Halide::Target &target) {
    if (target.has_gpu_feature()) {
        schedule_reduce_gpu(s, p, target);
    } else {
        schedule_reduce_cpu(s, p, target);
    }
}

}  // namespace hdml
