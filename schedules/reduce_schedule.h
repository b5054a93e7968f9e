// Schedules of the reducing family (Reduce, ArgReduce): which mapping a
// kernel takes, by target and by its mapping switches (reduce_params.h).
// The mappings themselves are cpu/reduce.h and gpu/reduce_*.h.
#pragma once

#include "Halide.h"
#include "generators/reduce_chunking.h"
#include "schedules/cpu/reduce.h"
#include "schedules/gpu/reduce_row_lanes.h"
#include "schedules/gpu/reduce_split.h"
#include "schedules/gpu/reduce_tree.h"
#include "schedules/gpu/reduce_whole_columns.h"
#include "schedules/reduce_params.h"
#include "schedules/reduce_stages.h"

namespace hdml {

// GPU: a two-level tree, so each thread accumulates a bounded run of
// elements (float32 sums stay accurate over 2^28 elements) and the whole GPU
// is busy however few outputs there are; whole columns and row lanes skip the
// first level where one thread or a few lanes can read an output's elements.
inline void schedule_reduce_gpu(ReduceStages &s, const ReduceMapping &m, const ReduceTuning &p,
                                const Halide::Target &target) {
    using namespace Halide;
    _halide_user_assert(m.rows != RowMapping::Whole && m.rows != RowMapping::Vectors &&
                        m.rows != RowMapping::VectorsPrefetched)
        << "rows=whole, rows=vectors and rows=vectors_prefetched are CPU mappings";
    const bool inner = s.layout == Layout::Inner;
    const GpuChunking chunking = gpu_reduce_chunking(s.layout, s.i_extent, s.r_extent, s.o_extent, p);
    _halide_user_assert(m.loads != RowLoads::ColumnWords || (!inner && m.columns != ColumnMapping::Whole))
        << "loads=column_words is built for the outer layout's split runs (merged by threads or warps)";
    const GpuLoops loops{s.layout, p.gpu_threads, s.i, s.o, merges_in_shuffles(m, target, s.layout, s.reductions),
                         columns_per_word(m)};
    if (!inner && m.columns == ColumnMapping::Whole) {
        // ARGMAX/ARGMIN write index words, a column each (merge_tiles).
        schedule_whole_columns(loops, s.output, s.reductions, s.input, s.r().x, s.i_extent, s.i_stride, s.input_type,
                               s.word ? 1 : (int)p.gpu_merge_columns, p.gpu_unroll, m);
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
        if (inner && m.rows == RowMapping::Lanes) {
            schedule_row_lanes(loops, consumer, f, s.r().x, s.r_stride, p);
            continue;
        }
        // Columns per thread of the outer layout; ARGMAX/ARGMIN write index words, a column each.
        const int merge_columns = last && s.word ? 1 : (int)p.gpu_merge_columns;
        schedule_split_reduction(loops, s, f, consumer, chunking, merge_columns, m, p);
    }
}

inline void schedule_reduce(ReduceStages &s, const ReduceMapping &m, const ReduceTuning &p,
                            const Halide::Target &target) {
    _halide_user_assert(!s.chunk_partials || (!target.has_gpu_feature() && m.rows == RowMapping::Split))
        << "a row's chunks written out by the algorithm (ChunkPartials) are CPU mappings: the outer layout, "
           "the plain inner kernel";
    if (target.has_gpu_feature()) {
        schedule_reduce_gpu(s, m, p, target);
    } else {
        schedule_reduce_cpu(s, m, p, target);
    }
}

}  // namespace hdml
