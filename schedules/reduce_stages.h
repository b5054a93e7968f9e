// The Funcs a reducing generator hands its schedule: the rfactor form every
// reduction takes (ReduceStages) and LOG_SUM_EXP's explicit GPU tree
// (ReduceTreeStages).
#pragma once

#include "Halide.h"
#include "generators/common.h"
#include "generators/reduce_chunking.h"

#include <optional>
#include <vector>

namespace hdml {

// CPU float SUM's second read (rows=whole aside: it carries the signs in a
// pair) of rows whose sum is zero and whose first element is negative (only
// -0.0s sum to -0.0, and rfactor starts sums at +0.0): signs(k, b, o) is the
// minimum of sign_at_top over the row of column b * columns + k, walked
// (`rest`: elements 1..) only where blocks(b, o) says a column of the block
// needs it, so one walk reads a block's rows with vector loads (outer layout:
// columns side by side); the inner layout's blocks are single rows, their
// condition in `rest` itself.
struct ZeroSumSigns {
    // A multiple of every CPU's vector and a divisor of the outer layout's
    // output tasks (16 vectors), so a block lies in one task. The walk is
    // latency-bound (a short piece of each row): 16 or 64 columns alike.
    static constexpr int kOuterColumns = 64;
    int columns = 1;
    Halide::Func signs, blocks;  // blocks: (b, o), defined where columns > 1
    Halide::Var k{"k"}, b{"b"};
    Halide::RDom rest;
    Halide::Expr signs_here;  // the signs' minimum at the output's (i, o): every sign set where its top bit is
};

// A row's chunks written out by the algorithm (CPUs: the outer layout's
// chunks of rows, c * rows + in_chunk; LOG_SUM_EXP's blocks of the plain
// inner kernel, in_chunk then (lane, step)): partial(i, c, o) holds chunk c's
// result, which the last reduction merges over its RDom (row); other
// reductions' chunks come from rfactor. ARGMAX/ARGMIN in chunk-local 32-bit
// keys: partial reduces the rows itself. LOG_SUM_EXP: partial is the pair
// of reductions `in_task` (a piece's maximum, then its sum of
// exp(x - maximum)) computed in partial's task, so the second read of a
// piece comes from cache; both of the row's reductions merge the pairs.
struct ChunkPartials {
    Halide::Func partial;
    Halide::Var c;
    Halide::RDom in_chunk;
    std::vector<Halide::Func> in_task;
    // Where defined (LOG_SUM_EXP's outer chunks): partial merges the pairs of
    // the chunk's sub-pieces over `subs`, in_task computed per sub-piece.
    Halide::RDom subs;
};

// Every reduction is defined as
//   f(i, o) = init;  f(i, o) = combine(f(i, o), g(input(i, r, o)))
// and later reductions may read earlier ones at (i, o) (LOG_SUM_EXP reads the max).
struct ReduceStages {
    Halide::Func output;  // (i, o), pure
    std::vector<Halide::Func> reductions;
    Halide::Func input;  // (i, r, o): the input buffer, whose loads a schedule may stage (`input.in(f)`)
    Halide::Var i, o;
    RowDomain row;  // the parts of the row's reduction domain, one update each
    Layout layout;
    Halide::Type input_type;
    // Strides of the input's i, r and o dimensions: schedules specialise the
    // unit-stride case (and rows=whole dense rows of a vector), where loads
    // become dense vector loads.
    Halide::Expr i_stride, r_stride, o_stride;
    Halide::Expr i_extent, r_extent, o_extent;
    // ARGMAX/ARGMIN: output(word, i, o), words 0 and (64-bit indices) 1 of
    // an index. CPUs write them in separate passes; GPU threads write both.
    std::optional<Halide::Var> word;
    // Where defined, the condition under which every term is the element
    // itself (float SUM's element_map == 0, not |x| or x*x): CPU schedules
    // specialise the stages that read the input on it, so SUM's loops carry
    // no per-element selects of the function (SUM 0.97-1.33x at 2 threads).
    Halide::Expr plain_terms;
    // CPU float SUM: the signs of zero sums, read again (see ZeroSumSigns).
    std::optional<ZeroSumSigns> zero_sum_signs;
    // Where set, the row of the last reduction (LOG_SUM_EXP: of both) is its chunks (see ChunkPartials).
    std::optional<ChunkPartials> chunk_partials;
    // CPU, outer layout: where defined, the condition under which the loads
    // prefetch (outer_prefetch_bytes, large inputs): the schedule walks that
    // case apart, so its guard is no select inside the vectors.
    Halide::Expr outer_prefetching;
    // With plain_terms: finishes (SUM's none, AVERAGE's /N) whose outputs the
    // inner layout's schedules specialise apart, so a row's result skips the
    // other finishes' division, sqrt and log, which the finish's select
    // computes for every vector of results (float16 SUM over rows of 16 1.22x).
    std::vector<Halide::Expr> plain_finishes;
    // Specialisations of the output that a schedule made (rows=whole's
    // contiguous results): plain_terms' and plain_finishes' nest in each.
    std::vector<Halide::Stage> output_cases;
    // CPU, the plain inner kernel: its vectors' lanes where not the natural
    // ones (ARGMAX/ARGMIN's 16-bit elements in 32-bit keys: two of the row
    // chunk's accumulators at once); 0: the natural lanes.
    int vector_lanes = 0;
    // Values of a row that one reduction's terms read from an earlier one
    // (LOG_SUM_EXP's shift, from the maximum): inlined unless a schedule
    // computes them, as the CPUs' vectors of rows do (split_vectors_of_rows).
    std::vector<Halide::Func> row_values;

    // The row's first (usually only) part: the domain of the first update.
    const Halide::RDom &r() const { return row.parts[0]; }
};

// A reduction written as an explicit tree (LOG_SUM_EXP on GPUs, whose
// (max, scaled sum) merge rfactor cannot prove associative). Element
// r = c * chunk + step * lanes + lane of an output's row (CUDA: a step is a
// group of gpu_exp_group such, r = c * chunk + (step * group + k) * lanes + lane):
//   lane_acc(i, lane, c, o): a lane's elements of chunk c, serially (lanes > 1 only);
//   part_acc(i, part, c, o): lanes part * kLanesPerPart, ... merged (where defined:
//     a GPU block's many lanes);
//   chunk_acc(i, c, o): chunk c: its parts or lanes merged (lanes > 1), or its elements serially;
//   stream_acc(i, stream_lane, o): chunks stream_lane, stream_lane + merge_lanes, ... merged;
//   row_acc(i, o): the streams merged.
struct ReduceTreeStages {
    Halide::Func output, lane_acc, part_acc, chunk_acc, stream_acc, row_acc;
    Halide::Func input;  // (i, r, o), as ReduceStages::input
    Halide::Var i, o, lane, part, c, stream_lane;
    Halide::RDom steps, lanes, part_lanes, parts, stream, streams;  // the RDoms of the updates that walk them
    Layout layout;
    Halide::Expr i_extent, i_stride, r_stride;
    Halide::Expr whole_chunks;  // (row lanes on CUDA) the row is cut in whole chunks: reads need no guard
    Halide::Expr chunks;
};

}  // namespace hdml
