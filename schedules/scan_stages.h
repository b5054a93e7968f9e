// The Funcs the scan generator hands its schedules: the blocked scan and the
// CPUs' vector scan (ScanStages), CUDA's column walk (ColumnWalk) and the CPUs'
// row walk (RowWalk).
#pragma once

#include "Halide.h"
#include "generators/common.h"
#include "schedules/scan_params.h"

#include <vector>

namespace hdml {

// CPU inner layout (Scan::define_vector_scan): a line in vectors of `lanes`
// elements.
struct VectorScan {
    int lanes = 0;
    // (i, lane, vec, o): each vector's own scan after 1, 2, 4, .. steps (the
    // first: its input), the last its inclusive scan.
    std::vector<Halide::Func> steps;
    Halide::Func carry;  // (i, vec, o): the total before vector vec, over `later`
    Halide::Var lane, vec;
    Halide::RDom later;
    // Where the loads prefetch ahead (prefetch_bytes): the calls whose input
    // is large enough; the schedule specialises on it, so smaller ones run the
    // loop without the prefetch's guard. Undefined: no prefetch.
    Halide::Expr prefetching;
};

// CPU staging=chunk_walk (Scan::define_chunk_walk): the output's updates
// after the blocked scan's chunk totals and carries.
struct ChunkWalk {
    Halide::RVar head;              // update 0: each chunk's first row, from its carry
    Halide::RVar row, chunk, line;  // update 1: row (from 1) of chunk of o = line, from the row before
    // float16 (defined only there): the output's one update narrows (row of
    // chunk of line) from totals (i, k, c, o), float32, whose update 1 walks
    // total_row (from 1) from the row before; update 0 is the chunk's first row.
    Halide::Func totals;
    Halide::RVar total_row;
};

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
    VectorScan vector;  // CPU inner layout
    ChunkWalk chunk_walk;  // CPU staging=chunk_walk
    // staging=line_walk: the output's reduction, element pass * segment chunks
    // + lane of segment walk_segment.
    Halide::RVar walk_pass{}, walk_lane{}, walk_segment{};
    Halide::Expr columns;  // the extent of i
};

// The column walk's stages (staging=columns; see Scan::define_column_walk).
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

// The CPU line walk's stages (staging=line_walk on CPUs; see Scan::define_vector_walk).
struct VectorWalk {
    // (i, r, o): undef, update 0 the whole vectors, update 1 the rest one by
    // one: the kernel's output, or for float16 float32 totals that `narrowed`
    // (then the output) converts; `narrowed` is undefined otherwise.
    Halide::Func output, narrowed;
    // (i, lane, vec, o): each vector's own scan after 1, 2, 4, .. steps (the
    // first: its input), then its exclusive scan (shifted a lane).
    std::vector<Halide::Func> steps;
    Halide::Var i, r, o, step_lane;  // step_lane: the steps' lane
    Halide::RVar lane, vec;       // update 0: lane of whole vector vec (of the chunk, in chunks)
    Halide::RVar chunk, line;     // update 0 in chunks: vec's chunk, and o
    Halide::RVar rest;            // update 1: the elements past the whole vectors
    // In chunks (staging=chunk_walk, inner layout), undefined otherwise:
    // vector_total (i, lane, chunk, o), chunk_total and scan_carry (i, scan,
    // chunk, o), chunk_carry (i, lane, chunk, o): scan_carry's vector.
    Halide::Func vector_total, chunk_total, scan_carry, chunk_carry;
    Halide::RVar in_chunk;  // vector_total's update: the chunk's vectors
    Halide::Expr chunk_vectors, chunks;
    // float16 in chunks: output is (i, element, chunk, o), chunk_elements per
    // chunk (0: not in float16 chunks).
    int chunk_elements = 0;
    int lanes = 0;
    Halide::Expr extent;  // of r
    Halide::Type type;
    Halide::Expr dense;      // r unit-stride in input and output
    Halide::Expr inclusive;  // the runtime exclusive flag is 0
};

// The CPU row walk's stages (staging=columns on CPUs; see Scan::define_row_walk).
struct RowWalk {
    Halide::Func output;  // (i, r, o): undef, then update 0 walks every row
    Halide::Var i, o;
    Halide::RVar row;
    Halide::Expr inclusive;
    Halide::Expr dense;  // the columns (i) unit-stride in input and output
    Halide::Expr i_extent, r_extent;  // (the tasks' sizes)
};

}  // namespace hdml
