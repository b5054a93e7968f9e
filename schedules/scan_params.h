// What the scan generator is built with besides op, dtype and layout: its GPU
// staging switch (set per kernel in ops.cmake, with max_line) and the tuning
// numbers (schedules/params/<platform>.json).
#pragma once

#include "Halide.h"

#include <map>
#include <string>

namespace hdml {

// How a GPU kernel reads its lines. Inner layout:
//  - none: a thread per chunk reads the chunk's elements itself;
//  - shared: a block takes a segment of one line (gpu_threads chunks), staged
//    through shared memory so every global load and store is coalesced (long lines);
//  - lines: a block takes whole lines of at most max_line elements (a line is
//    one chunk: no carries, one kernel), staged the same way (short lines);
//  - line_walk: a block per line walks along it, a segment at a time, in one
//    kernel: one pass over the input from memory (many long lines).
// Outer layout:
//  - none: the chunked scan, a thread per (column, chunk);
//  - columns: a block per 32 columns walks down them, tile after tile of
//    chunks, in one kernel (many columns). On CPUs: a task per walk_columns
//    columns walks down them, row after row.
//  - chunk_walk (CPUs): the blocked scan's chunk totals and carries, then a
//    task per chunk of rows walks its rows whole, from the chunk's carry.
enum class ScanStaging { None, Shared, Lines, LineWalk, Columns, ChunkWalk };

inline const std::map<std::string, ScanStaging> &scan_staging_names() {
    static const std::map<std::string, ScanStaging> names = {{"none", ScanStaging::None},
                                                             {"shared", ScanStaging::Shared},
                                                             {"lines", ScanStaging::Lines},
                                                             {"line_walk", ScanStaging::LineWalk},
                                                             {"columns", ScanStaging::Columns},
                                                             {"chunk_walk", ScanStaging::ChunkWalk}};
    return names;
}

struct ScanTuning {
    // Outer layout: rows per chunk of the blocked scan (the parallel unit along r).
    Halide::GeneratorParam<int> chunk_rows{"chunk_rows", 32};
    // Outer layout: vectors of i per block (block x chunk_rows totals stay in L2).
    Halide::GeneratorParam<int> block_vectors{"block_vectors", 32};
    // Inner layout: lines scanned together, interleaved: independent dependency
    // chains that hide the latency of the serial add/multiply.
    Halide::GeneratorParam<int> lines_per_block{"lines_per_block", 8};
    // Inner layout: input bytes per parallel task (whole blocks of lines), so
    // short lines do not make a task of a few hundred bytes; staging=columns:
    // at least this many a task (its columns of several o's).
    Halide::GeneratorParam<int> task_bytes{"task_bytes", 32768};
    // CPU, inner layout, inputs of prefetch_min_bytes or more: how far ahead
    // of a vector's loads a software prefetch reads, in bytes (0: none;
    // generators/prefetch.h).
    Halide::GeneratorParam<int> prefetch_bytes{"prefetch_bytes", 0};
    Halide::GeneratorParam<int> prefetch_min_bytes{"prefetch_min_bytes", 16 << 20};
    // CPU, staging=columns: columns per task of the row walk (the tasks walk
    // every row of their columns; a row of each is one contiguous run).
    Halide::GeneratorParam<int> walk_columns{"walk_columns", 128};
    // CPU, staging=chunk_walk: input bytes per chunk of rows (at least
    // chunk_rows rows), a task's walk.
    Halide::GeneratorParam<int> chunk_walk_bytes{"chunk_walk_bytes", 262144};
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

}  // namespace hdml
