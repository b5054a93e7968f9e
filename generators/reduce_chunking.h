// How the GPU reductions cut a row or column into chunks: shared by the
// schedules (rfactor trees) and by LOG_SUM_EXP's explicit tree, whose
// algorithm is written over the same chunks.
#pragma once

#include "Halide.h"
#include "generators/common.h"
#include "schedules/reduce_params.h"

namespace hdml {

// `chunks` pieces of `chunk` elements per output (inner: blocks per row;
// outer: runs per column, capped so the final merge stays short). Run-time
// expressions of the shape, aimed at gpu_target_blocks blocks (inner) or
// gpu_target_threads threads (outer).
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

// LOG_SUM_EXP's explicit tree: a GPU block's lanes (its threads) merge in
// parts of this many lanes at once, then one thread merges the parts. One
// thread merging 256 lanes in a chain (~40 cycles a merge) held each block
// past its loads.
constexpr int kLanesPerPart = 8;

// Whether the output kernel merges an output's chunk partials in kMergeLanes
// lanes (inner rows; outer columns under ColumnMapping::WarpMerge) rather than
// a thread per column.
inline bool merges_in_lanes(Layout layout, const ReduceMapping &m) {
    return layout == Layout::Inner || m.columns == ColumnMapping::WarpMerge;
}

// LOG_SUM_EXP's explicit tree, the same chunking as the rfactor trees': lanes
// are a GPU block's threads (inner layout) or a thread's gpu_run_chains
// (outer: a thread per column and chunk); merge_lanes are a warp's (inner,
// and outer ColumnMapping::WarpMerge) or 1 (outer). RowMapping::Lanes: one
// chunk per row, read by gpu_row_lanes lanes; ColumnMapping::Whole: one chunk
// per column.
struct ReduceTreeShape {
    int lanes, merge_lanes;
    Halide::Expr chunks, chunk;  // chunk: a multiple of lanes x step_group
    // Whether the chunks cover the row exactly (ColumnMapping::Whole: one
    // chunk of r_extent), so no element index runs past it.
    bool exact = false;
};

// step_group: a lane's steps taken that many at a time (LOG_SUM_EXP's groups
// on CUDA), so a chunk holds whole groups of every lane.
inline ReduceTreeShape reduce_tree_shape(Layout layout, const Halide::Expr &i_extent, const Halide::Expr &r_extent,
                                         const Halide::Expr &o_extent, const ReduceMapping &m, const ReduceTuning &p,
                                         int step_group = 1) {
    const bool inner = layout == Layout::Inner;
    const int chains = run_chains(p);
    if (inner && m.rows == RowMapping::Lanes) {
        const int lanes = p.gpu_row_lanes;
        _halide_user_assert(lanes >= 2) << "LOG_SUM_EXP's lanes kernel needs gpu_row_lanes >= 2";
        const int per_group = lanes * step_group;
        return {lanes, 1, Halide::Expr(1), (r_extent + per_group - 1) / per_group * per_group};
    }
    if (!inner && m.columns == ColumnMapping::Whole) return {1, 1, Halide::Expr(1), r_extent, true};
    const int lanes = inner ? (int)p.gpu_threads : chains;
    const int per_group = lanes * step_group;
    const GpuChunking chunking = gpu_reduce_chunking(layout, i_extent, r_extent, o_extent, p);
    const Halide::Expr chunk = (chunking.chunk + per_group - 1) / per_group * per_group;
    return {lanes, merges_in_lanes(layout, m) ? kMergeLanes : 1, (r_extent + chunk - 1) / chunk, chunk};
}

// The CPU's vector lanes for a reduction over `input_type` (float32 lanes for
// narrower types, which accumulate in 32 bits).
inline int cpu_reduce_lanes(const Halide::Target &target, Halide::Type input_type) {
    return target.natural_vector_size(input_type.bits() > 32 ? input_type : Halide::Float(32));
}

// rows=whole's dense rows of a vector (the CPU schedule's specialisation,
// and where their start values prefetch): rows of exactly `lanes` unit-stride
// elements, one after another.
inline Halide::Expr whole_rows_are_dense_vectors(const Halide::Expr &r_extent, const Halide::Expr &r_stride,
                                                 const Halide::Expr &o_stride, int lanes) {
    return r_extent == lanes && r_stride == 1 && o_stride == lanes;
}

// rows=whole's columns taken as rows (a middle axis: [O, R, C] along R) where
// every o's R x C elements are contiguous and hold at least one dense vector
// of whole rows of all `columns` columns: its lanes repeat the columns every
// `columns` (rows past the last whole vector are loaded a row at a time).
inline Halide::Expr whole_rows_are_periodic_vectors(const Halide::Expr &i_extent, const Halide::Expr &i_stride,
                                                    const Halide::Expr &r_extent, const Halide::Expr &r_stride,
                                                    int columns, int lanes) {
    return i_extent == columns && i_stride == 1 && r_stride == columns && r_extent >= lanes / columns;
}

// How the CPUs' outer layout cuts its rows into chunks (partial rows): at
// most max_row_chunks chunks of at least rows_per_chunk rows (and at least
// `least_rows`, where given), or (where
// `most_rows` is given: ARGMAX/ARGMIN's chunk-local 16-bit indices) as many
// more as keep a chunk within `most_rows` rows.
struct CpuRowChunks {
    Halide::Expr chunks, rows;
};

inline CpuRowChunks cpu_outer_row_chunks(const Halide::Expr &r_extent, const ReduceTuning &p, int most_rows = 0,
                                         const Halide::Expr &least_rows = Halide::Expr()) {
    using namespace Halide;
    const Expr rows_per_chunk = least_rows.defined() ? max(least_rows, (int)p.rows_per_chunk) : p.rows_per_chunk;
    Expr chunks = clamp((r_extent - 1) / rows_per_chunk + 1, 1, p.max_row_chunks);
    if (most_rows > 0) chunks = max(chunks, (r_extent - 1) / most_rows + 1);
    return {chunks, max(1, (r_extent - 1) / chunks + 1)};
}

// Where a CPU kernel reads each part of a row twice (inner layout:
// LOG_SUM_EXP's pieces, the plain kernel's second reduction), the second time
// from cache: a row is cut into blocks of cpu_block_steps steps of `chunk`
// elements, and rows shorter than a block go in groups of
// cpu_block_group_rows rows (one row where it has several blocks).
inline int cpu_block_steps(const ReduceTuning &p, int chunk) {
    return std::max(1, (int)p.block_elements / chunk);
}
// The blocks a row of `steps` full chunks makes (the last may be short).
inline Halide::Expr cpu_row_blocks(const Halide::Expr &steps, const Halide::Expr &block_steps) {
    return (steps + block_steps - 1) / block_steps;
}
inline Halide::Expr cpu_block_group_rows(const Halide::Expr &r_extent, const ReduceTuning &p) {
    return Halide::max(1, (int)p.block_elements / Halide::max(r_extent, 1));
}

// The reduction domain of a row, in the parts the schedule walks. Usually one
// RDom over r. CPU kernels that vectorise along the row (inner layout,
// rows=split) walk it in full chunks of lanes x accumulators elements (a 2-D
// RDom: lane, step), then the remaining elements (a second update): so the
// vector loop has no tail. A tail inside it (masked or scalar updates of the
// accumulator array) kept the accumulators on the stack, a store and a reload
// per vector add: ~8 cycles per vector, 3x a row walked in registers.
// rows=vectors_prefetched walks whole vectors (lane, step), then the row's
// last vector masked (row_domain).
struct RowDomain {
    std::vector<Halide::RDom> parts;
    std::vector<Halide::Expr> at;  // each part's element index r
    int chunk = 0;                 // two parts: elements per step of parts[0]
};

inline bool cpu_walks_row_chunks(Layout layout, const ReduceMapping &m, const Halide::Target &target) {
    return !target.has_gpu_feature() && layout == Layout::Inner && m.rows == RowMapping::Split;
}

// rows=vectors_prefetched: the row in two parts.
inline bool cpu_walks_row_vectors_in_two_parts(Layout layout, const ReduceMapping &m, const Halide::Target &target) {
    return !target.has_gpu_feature() && layout == Layout::Inner && m.rows == RowMapping::VectorsPrefetched;
}

inline RowDomain row_domain(const Halide::Expr &extent, Layout layout, const ReduceMapping &m, const ReduceTuning &p,
                            const Halide::Target &target, Halide::Type input_type) {
    using namespace Halide;
    if (cpu_walks_row_vectors_in_two_parts(layout, m, target)) {
        // The row's whole vectors (lane, step), then its last vector where
        // partial, masked (promised inside the row: `where` does not narrow
        // what bounds inference sees). A guarded tail inside one loop fell
        // back to a scalar step wherever the loads carried a prefetch, and
        // kept the row's partials on the stack.
        const int lanes = cpu_reduce_lanes(target, input_type);
        const Expr steps = extent / lanes;
        RDom whole(0, lanes, 0, steps, "r");
        RDom last(0, lanes, "r_last");
        last.where(steps * lanes + last.x < extent);
        const Expr last_at = unsafe_promise_clamped(steps * lanes + last.x, 0, extent - 1);
        return {{whole, last}, {whole.y * lanes + whole.x, last_at}, lanes};
    }
    if (!cpu_walks_row_chunks(layout, m, target)) {
        RDom r(0, extent, "r");
        return {{r}, {r.x}, 0};
    }
    _halide_user_assert(p.accumulators >= 1) << "accumulators must be at least 1";
    const int chunk = cpu_reduce_lanes(target, input_type) * p.accumulators;
    const Expr steps = extent / chunk;
    RDom main(0, chunk, 0, steps, "r");
    RDom tail(steps * chunk, extent - steps * chunk, "r_tail");
    return {{main, tail}, {main.y * chunk + main.x, tail.x}, chunk};
}

}  // namespace hdml
