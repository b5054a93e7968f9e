// What the reducing generators (Reduce, ArgReduce) are built with besides
// their op, dtype and layout: the GPU mapping switches (set per kernel in
// ops.cmake) and the tuning numbers (schedules/params/<platform>.json).
#pragma once

#include "Halide.h"
#include "generators/common.h"

#include <map>
#include <string>
#include <vector>

namespace hdml {

// GPU, outer layout: how a column's reduction maps onto threads.
//  - split: the rows are cut into runs (split-K), a thread per (column, run),
//    and the output kernel merges a column's runs, a thread per column;
//  - warp_merge: the same runs, merged by a warp per column (for few columns,
//    whose runs are many);
//  - whole: a thread reduces whole columns in the output kernel: no runs, no
//    intermediate, one launch (for many columns, where split-K would make one
//    run per column anyway).
enum class ColumnMapping { Split, WarpMerge, Whole };

inline const std::map<std::string, ColumnMapping> &column_mapping_names() {
    static const std::map<std::string, ColumnMapping> names = {
        {"split", ColumnMapping::Split}, {"warp_merge", ColumnMapping::WarpMerge}, {"whole", ColumnMapping::Whole}};
    return names;
}

// Inner layout: how a row's reduction maps onto threads.
//  - split: the row is cut into chunks, a GPU block (CPU: a vectorised block)
//    per (row, chunk), and a second step merges a row's chunk partials;
//  - lanes (GPU): gpu_row_lanes threads per row read the row itself in the
//    output kernel, several rows per block: one kernel, no partials (many short rows);
//  - whole (CPU): each row reduced whole by a vector lane of its own, no
//    chunks, rows in parallel tasks of task_bytes: many short rows;
//  - vectors (CPU): each contiguous row reduced whole in vectors of its
//    elements, a vector of rows' partials then reduced across lanes at once:
//    many rows of several vectors;
//  - vectors_prefetched (CPU): the same, each row's whole vectors read with a
//    prefetch ahead (row_vectors_prefetch_bytes) and its partial last vector
//    apart: the runtime takes it only where a profile turns it on
//    (reduce_row_vectors_prefetched_max_row; a Xeon's gain, the Zen 4 VM's loss).
enum class RowMapping { Split, Lanes, Whole, Vectors, VectorsPrefetched };

inline const std::map<std::string, RowMapping> &row_mapping_names() {
    static const std::map<std::string, RowMapping> names = {
        {"split", RowMapping::Split}, {"lanes", RowMapping::Lanes}, {"whole", RowMapping::Whole},
        {"vectors", RowMapping::Vectors}, {"vectors_prefetched", RowMapping::VectorsPrefetched}};
    return names;
}

// GPU, inner layout: how the lanes that share a row merge their partials.
//  - shared: through shared memory, one thread merging the lanes' values;
//  - shuffles: through registers, a warp-shuffle butterfly. CUDA only,
//    accumulators of at most 32 bits (Halide 14 has no 64-bit shuffles), and
//    kernels built without large_buffers (Halide 14's warp-shuffle lowering
//    cannot read 64-bit indices): the runtime takes them for buffers under 2 GiB.
enum class LaneMerge { Shared, Shuffles };

inline const std::map<std::string, LaneMerge> &lane_merge_names() {
    static const std::map<std::string, LaneMerge> names = {{"shared", LaneMerge::Shared},
                                                           {"shuffles", LaneMerge::Shuffles}};
    return names;
}

// GPU: how the input is read. words: 16-bit elements two to a 32-bit word
// along the row (the kernel's input buffer is the rows' words; Halide 14
// reaches PTX with one 16-bit load per element, even for vectors: float16
// reductions ran 64-89% of copy speed where float32 ran 90-100%);
// column_words: two adjacent columns to a word (outer layout: a thread reads
// both). The runtime passes such a kernel unit-stride rows (columns) of whole
// words at word-aligned addresses.
enum class RowLoads { Elements, Words, ColumnWords };

inline const std::map<std::string, RowLoads> &row_loads_names() {
    static const std::map<std::string, RowLoads> names = {
        {"elements", RowLoads::Elements}, {"words", RowLoads::Words}, {"column_words", RowLoads::ColumnWords}};
    return names;
}

// Tunable numbers; members of the generator so Halide registers them as GeneratorParams.
struct ReduceTuning {
    // CPU, inner layout: independent vector accumulators; elements of a row
    // per parallel block, where fewer than min_parallel_rows rows are reduced
    // (and, for LOG_SUM_EXP, per piece, and of the rows a group's second
    // pass reads from cache).
    Halide::GeneratorParam<int> accumulators{"accumulators", 4};
    Halide::GeneratorParam<int> block_elements{"block_elements", 16384};
    Halide::GeneratorParam<int> min_parallel_rows{"min_parallel_rows", 8};
    // CPU, inner layout, the plain kernel, fewer than min_parallel_rows rows:
    // a row's parallel blocks are 4 or 16 times block_elements where the row
    // still makes row_blocks of them (0: always block_elements).
    Halide::GeneratorParam<int> row_blocks{"row_blocks", 64};
    // CPU, outer layout: consecutive reduced rows a task accumulates (more
    // where a column would have over max_row_chunks chunks), and the columns
    // of its partial row (a multiple of the widest vector).
    Halide::GeneratorParam<int> rows_per_chunk{"rows_per_chunk", 64};
    Halide::GeneratorParam<int> max_row_chunks{"max_row_chunks", 256};
    Halide::GeneratorParam<int> tile_columns{"tile_columns", 4096};
    // CPU, inner layout: the fewest input bytes of one parallel task, and about
    // the most tasks per call (larger tasks where the input is large).
    Halide::GeneratorParam<int> task_bytes{"task_bytes", 32768};
    Halide::GeneratorParam<int> task_count{"task_count", 64};
    // CPU, inner layout, the plain kernel (rows split into vectors; REDUCE and
    // ARGMAX/ARGMIN's packed keys): how far ahead of each vector load a
    // software prefetch reads, in bytes (0: none; generators/prefetch.h).
    // Where not 0, LOG_SUM_EXP's pieces also prefetch the task's next piece
    // from their second pass (generate_log_sum_exp_pieces_cpu).
    Halide::GeneratorParam<int> prefetch_bytes{"prefetch_bytes", 0};
    // CPU, rows=vectors_prefetched: how far ahead of each of a row's whole
    // vectors a software prefetch reads, in bytes (0: none).
    Halide::GeneratorParam<int> row_vectors_prefetch_bytes{"row_vectors_prefetch_bytes", 0};
    // CPU, outer layout (REDUCE but LOG_SUM_EXP, whose pieces prefetch apart;
    // ARGMAX/ARGMIN), inputs of outer_prefetch_min_bytes or more: a prefetch
    // per vector load of the same columns ceil(outer_prefetch_bytes / the
    // task's row bytes) rows ahead (0: none).
    Halide::GeneratorParam<int> outer_prefetch_bytes{"outer_prefetch_bytes", 0};
    Halide::GeneratorParam<int> outer_prefetch_min_bytes{"outer_prefetch_min_bytes", 16 << 20};
    // GPU: threads per block; independent loads in flight per thread; blocks
    // (inner) or threads (outer) to aim for; most blocks per row (inner) and
    // runs per column (outer), since the output kernel merges them.
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
    // thread, interleaved, so a serial step's latency overlaps the loads.
    Halide::GeneratorParam<int> gpu_run_chains{"gpu_run_chains", 4};
    // CUDA LOG_SUM_EXP: a lane's steps taken this many at a time, as one
    // (maximum, sum of exp) pair merged into its accumulator (1: each element
    // merged on its own, ~23 instructions an element).
    Halide::GeneratorParam<int> gpu_exp_group{"gpu_exp_group", 4};
};

// The GPU mapping switches: which kernel variant this is, not a number to tune.
struct ReduceMapping {
    Halide::GeneratorParam<ColumnMapping> columns{"columns", ColumnMapping::Split, column_mapping_names()};
    Halide::GeneratorParam<RowMapping> rows{"rows", RowMapping::Split, row_mapping_names()};
    // CUDA, ColumnMapping::Whole: load the input's rows (a thread's columns)
    // in vectors of vector_bytes bytes; 0 loads elements one at a time. The
    // kernel then requires unit-stride, vector-aligned rows (apply_vector_row_contract).
    Halide::GeneratorParam<int> vector_bytes{"vector_bytes", 0};
    Halide::GeneratorParam<LaneMerge> lane_merge{"lane_merge", LaneMerge::Shared, lane_merge_names()};
    Halide::GeneratorParam<RowLoads> loads{"loads", RowLoads::Elements, row_loads_names()};
};

// Elements per step of the row: 2 for loads=words, 1 otherwise (checked:
// words hold two 16-bit elements).
inline int elements_per_load(const ReduceMapping &m, const Halide::Type &t) {
    if (m.loads == RowLoads::Elements) return 1;
    _halide_user_assert(t.bits() == 16) << "loads=words and column_words pack 16-bit elements; " << t << " is not";
    return m.loads == RowLoads::Words ? 2 : 1;
}

// Adjacent columns a thread reads from one word: 2 for loads=column_words.
inline int columns_per_word(const ReduceMapping &m) {
    return m.loads == RowLoads::ColumnWords ? 2 : 1;
}

// Whether lanes merge in shuffles (lane_merge), checked against what the
// butterfly needs of the target and the accumulators.
inline bool merges_in_shuffles(const ReduceMapping &m, const Halide::Target &target, Layout layout,
                               const std::vector<Halide::Func> &reductions) {
    using namespace Halide;
    if (m.lane_merge != LaneMerge::Shuffles) return false;
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

// The type of a float sum's sign minimum, where the sum carries one
// (reduce_generator.cpp): the data's bits on CPUs, at least 32 bits on GPUs
// (warp shuffles' width).
inline Halide::Type sum_sign_type(const Halide::Target &target, const Halide::Type &data) {
    return Halide::UInt(target.has_gpu_feature() ? std::max(32, data.bits()) : data.bits());
}

// Elements per vector load of a vector_bytes kernel, checked: a whole number
// of elements, at least two.
inline int vector_lanes(const ReduceMapping &m, const Halide::Type &t) {
    const int lanes = m.vector_bytes / t.bytes();
    _halide_user_assert(lanes >= 2 && lanes * t.bytes() == m.vector_bytes)
        << "vector_bytes " << (int)m.vector_bytes << " must hold two or more " << t << " elements";
    _halide_user_assert(m.columns == ColumnMapping::Whole) << "vector_bytes needs columns=whole";
    return lanes;
}

// gpu_run_chains, checked: the rfactor runs and LOG_SUM_EXP's tree both read it.
inline int run_chains(const ReduceTuning &p) {
    _halide_user_assert(p.gpu_run_chains >= 1) << "gpu_run_chains must be at least 1";
    return p.gpu_run_chains;
}

// gpu_exp_group, checked as gpu_run_chains is: a tuned file's 0 fails the build.
inline int exp_group(const ReduceTuning &p) {
    _halide_user_assert(p.gpu_exp_group >= 1) << "gpu_exp_group must be at least 1";
    return p.gpu_exp_group;
}

}  // namespace hdml
