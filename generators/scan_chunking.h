// How the scan generator cuts a line into chunks, segments and groups: the
// algorithm is written over them, and the schedules map them onto threads.
#pragma once

#include "Halide.h"
#include "generators/common.h"
#include "schedules/scan_params.h"

#include <algorithm>

namespace hdml {

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

// CPU inner layout: elements per vector of a line (scan_vector_lanes), the
// target's natural vector of the running totals' type; each vector scans its
// lanes in log2 of it in-register steps.
inline int scan_vector_lanes(const Halide::Type &total_type, const Halide::Target &target) {
    return target.natural_vector_size(total_type);
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
// CPU staging=chunk_walk: rows of about chunk_walk_bytes (row_bytes each,
// int64), at least chunk_rows: each chunk is a task of the totals' pass and
// of the walk, so narrow rows make longer chunks, not more tasks.
inline Halide::Expr scan_chunk_rows(const Halide::Expr &extent, bool chunked, int gpu_chunk, const ScanTuning &p,
                                    const Halide::Target &target, ScanStaging staging, const Halide::Expr &row_bytes) {
    using namespace Halide;
    if (target.has_gpu_feature()) return Expr(gpu_chunk);
    if (!chunked) return extent;
    if (staging != ScanStaging::ChunkWalk) return min(extent, (int)p.chunk_rows);
    const Expr rows_of_bytes = Expr((int64_t)p.chunk_walk_bytes) / max(row_bytes, Expr((int64_t)1));
    const Expr rows = cast<int32_t>(min(rows_of_bytes, Expr((int64_t)1 << 30)));
    return min(extent, max(rows, (int)p.chunk_rows));
}

// Chunks a staged kernel's block holds in shared memory: gpu_threads, half of
// them for 64-bit totals (the two staged buffers must fit the 48 KiB of static
// shared memory).
inline int scan_staged_chunks(const ScanTuning &p, const Halide::Type &type) {
    return type.bits() > 32 ? p.gpu_threads / 2 : (int)p.gpu_threads;
}

// Lines per block of the lines kernel (staging=lines): the staged kernel's
// chunks, halved until the block's two staged buffers (its lines' input and
// their scans, max_line + 1 running totals a line: float32 for float16 data)
// fit the 48 KiB of static shared memory, as in max_line 64's kernel (64 lines
// a block, 32 of 64-bit types), but never below a warp of lines.
inline int scan_lines_per_block(const ScanTuning &p, const Halide::Type &type, int max_line) {
    constexpr int kStaticSharedBytes = 48 * 1024, kWarp = 32;
    const int total_bytes = std::max(type.bytes(), 4);
    const auto staged_bytes = [&](int lines) { return 2 * lines * (max_line + 1) * total_bytes; };
    int lines = scan_staged_chunks(p, type);
    while (lines > kWarp && staged_bytes(lines) > kStaticSharedBytes) lines /= 2;
    _halide_user_assert(staged_bytes(lines) <= kStaticSharedBytes)
        << "scan staging=lines: a block of " << lines << " lines of max_line " << max_line << " stages "
        << staged_bytes(lines) << " bytes, over the 48 KiB of static shared memory";
    return lines;
}

// Chunks per segment, the unit the carries are taken over: the staged kernel's
// block (staging=shared), the line walk's step; one chunk elsewhere.
inline int scan_segment_chunks(ScanStaging staging, const ScanTuning &p, const Halide::Type &type) {
    const bool staged = staging == ScanStaging::Shared || staging == ScanStaging::LineWalk;
    return staged ? scan_staged_chunks(p, type) : 1;
}

// Whether a line's segments form one group (CPUs: the carry pass is one
// vectorised sweep per line), so the carries need no group levels.
inline bool scan_has_one_group(const Halide::Target &target) {
    return !target.has_gpu_feature();
}

// Segments per group of the two-level carries. GPU: about sqrt(segments), so
// both serial passes (over groups, and inside a group) stay short on long
// lines; the staged kernel takes at least 256 (up to the line's segments): its
// group totals take a warp per group. CPU: one group (scan_has_one_group).
inline Halide::Expr scan_group_segments(const Halide::Expr &segments, ScanStaging staging,
                                        const Halide::Target &target) {
    using namespace Halide;
    if (scan_has_one_group(target)) return segments;
    const Expr balanced = max(1, cast<int>(ceil(sqrt(cast<float>(segments)))));
    return staging == ScanStaging::Shared ? min(segments, max(balanced, 256)) : balanced;
}

}  // namespace hdml
