#include "runtime/variants/scan_variants.h"

#include "runtime/checked.h"
#include "runtime/error.h"
#include "runtime/variants/variant_list.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <optional>

namespace hdml {

namespace {

struct ScanVariant {
    const char *name;
    unsigned platforms;
    KernelParams mapping;  // added to the function's parameters
    bool walk;             // one pass that reads the element before each tile (see ScanChoice)
    std::string (*refusal)(const ScanQuery &q);
    std::optional<Family> family = std::nullopt;  // the kernels' family, where not the scan's
};

using P = KernelParams;

std::string small_buffers(const ScanQuery &q) {
    const ScanShape &s = q.shape;
    if (!fits_small_buffers({&s.i, &s.r, &s.o}, q.element_bytes, q.element_bytes)) {
        return "a buffer of the call reaches 2^31 elements or bytes";
    }
    return "";
}

std::string line_walk(const ScanQuery &q) {
    const ScanShape &s = q.shape;
    const DispatchThresholds &t = *q.limits;
    if (s.outer_layout) return "outer layout";
    if (s.r.extent < t.scan_line_walk_min_line) {
        return format("lines of %lld, shorter than scan_line_walk_min_line %lld", (long long)s.r.extent,
                      (long long)t.scan_line_walk_min_line);
    }
    if (s.o.extent < t.scan_line_walk_min_lines) {
        return format("%lld lines per call, fewer than scan_line_walk_min_lines %lld", (long long)s.o.extent,
                      (long long)t.scan_line_walk_min_lines);
    }
    return small_buffers(q);
}

// The walks down an outer axis (CUDA's column walk, the CPUs' row walk) take
// calls of at least `min_columns` columns (`threshold` names it).
std::string too_few_columns(const ScanQuery &q, int64_t min_columns, const char *threshold) {
    const ScanShape &s = q.shape;
    if (!s.outer_layout) return "inner layout";
    if (s.i.extent * s.o.extent < min_columns) {
        return format("%lld columns per call, fewer than %s %lld", (long long)(s.i.extent * s.o.extent), threshold,
                      (long long)min_columns);
    }
    return "";
}

std::string column_walk(const ScanQuery &q) {
    const std::string refusal = too_few_columns(q, q.limits->scan_columns_min_columns, "scan_columns_min_columns");
    return refusal.empty() ? small_buffers(q) : refusal;
}

// CPUs: the row walk's tasks are blocks of columns (walk_columns each), so it
// needs columns for the pool's threads: a walk of 3 tasks ran 0.3-0.7x the
// blocked scan on 16 Xeon threads, where 2 threads ran even one 1.4-2.4x faster.
std::string row_walk(const ScanQuery &q) {
    const int64_t each = q.limits->scan_walk_columns_per_thread, threads = std::max(q.threads, 1);
    const int64_t per_thread = each > INT64_MAX / threads ? INT64_MAX : each * threads;  // an overlay's number may be huge
    if (per_thread > q.limits->scan_walk_min_columns) {
        return too_few_columns(q, per_thread,
                               format("scan_walk_columns_per_thread x %d threads", q.threads).c_str());
    }
    return too_few_columns(q, q.limits->scan_walk_min_columns, "scan_walk_min_columns");
}

// CPUs: float16's row walk, its float32 running totals in a carry row of
// their own (family scan_carry_row; the own-width types' row walk carries from
// the output, which would round float16's totals at every row). It reads the
// input once, where the chunk walk reads it twice, but the chunk walk keeps
// every thread busy: fewer tasks than threads (1024 columns in 8 tasks at 16
// Xeon threads) ran 0.59-0.95x it. So a task per thread, counted as the kernel
// cuts them: blocks of scan_carry_row_task_columns columns (its walk_columns)
// of each outer index ([16, N, 64] along N: 16 tasks, 1.6x the chunk walk at 16
// Xeon threads); 0: the columns rule alone.
std::string carry_row_walk(const ScanQuery &q) {
    if (!q.float16) return "not float16 (own-width totals: the row walk carries from the output)";
    const std::string refusal = too_few_columns(q, q.limits->scan_walk_min_columns, "scan_walk_min_columns");
    const int64_t width = q.limits->scan_carry_row_task_columns;
    if (!refusal.empty() || width <= 0) return refusal;
    const ScanShape &s = q.shape;
    const int64_t blocks = (s.i.extent + width - 1) / width;
    const int64_t tasks = blocks > INT64_MAX / s.o.extent ? INT64_MAX : blocks * s.o.extent;
    if (tasks < q.threads) {
        return format("%lld tasks of scan_carry_row_task_columns %lld columns, fewer than the pool's %d threads",
                      (long long)tasks, (long long)width, q.threads);
    }
    return "";
}

// CPUs: the chunk walk, for the outer scans the row walks leave (too few
// columns for the pool's threads): its tasks are chunks of whole rows, so any
// column count keeps every thread on contiguous rows.
std::string chunk_walk(const ScanQuery &q) {
    if (!q.shape.outer_layout) return "inner layout";
    return "";
}

// The line of `period` interleaved scans that an outer scan over `period`
// dense columns is, or why it is none.
std::string period_line(const ScanQuery &q, int period, ScanQuery *line) {
    const ScanShape &s = q.shape;
    if (!s.outer_layout) return "inner layout";
    if (s.i.extent != period) return format("%lld columns, not %d", (long long)s.i.extent, period);
    *line = q;
    if (!interleaved_line(s, &line->shape)) {
        return format("rows not one after another (columns of stride 1, rows of stride %d in input and output)",
                      period);
    }
    return "";
}

// float16 walks in chunks walk whole vectors of float32 totals (16 lanes, 48
// for 3 interleaved scans, at most): lines of a multiple of lcm(16, period), no rest.
std::string float16_whole_vectors(int64_t extent, int period) {
    const int64_t whole = std::lcm(16, period);
    if (extent % whole == 0) return "";
    return format("float16 lines of %lld, not a multiple of %lld", (long long)extent, (long long)whole);
}

// float16 lines of at least scan_line_chunks_float16_min_line walk in chunks
// however many there are, and only in chunks.
bool float16_long_line(const ScanQuery &q, int64_t extent) {
    const int64_t min_line = q.limits->scan_line_chunks_float16_min_line;
    return q.float16 && min_line > 0 && extent >= min_line;
}

// CPUs: an outer scan over 2, 3, 4 or 8 dense columns, whose rows are
// narrower than a vector (the row and chunk walks take a masked vector per
// row: 2 columns at 0.06x PyTorch on 2 Xeon threads), walked as one line of
// `period` interleaved scans, vector by vector (vectors of a multiple of
// `period` lanes: 48 for 3 float32 columns on AVX-512). Its threads are the
// lines (the outer dim o), one for a 2-D tensor.
// float16 walks the line into float32 totals of its own: from
// scan_line_chunks_float16_min_line, lines only in chunks (one line's totals
// would leave the caches, 2^24 elements ran 2.9 GB/s on the VM).
template <int period>
std::string period_walk(const ScanQuery &q) {
    ScanQuery line;
    const std::string refusal = period_line(q, period, &line);
    if (!refusal.empty()) return refusal;
    if (float16_long_line(q, line.shape.r.extent)) {
        return format("float16 lines of %lld, from scan_line_chunks_float16_min_line %lld (in chunks only)",
                      (long long)line.shape.r.extent, (long long)q.limits->scan_line_chunks_float16_min_line);
    }
    return small_buffers(line);
}

// CPUs: a walk along lines (`line`: the kernel's shape) fewer than the
// pool's threads cuts them into chunks (chunk_walk_bytes) that the threads
// walk from their carries, the chunks' totals first (the input read twice),
// for lines of at least `min_bytes` (the threshold `threshold` names) and a
// vector: of at most 16 * period elements (16 lanes, the widest natural
// vector, times the scans a line interleaves).
std::string few_long_lines(const ScanQuery &q, const ScanShape &line, int64_t min_bytes, const char *threshold,
                           int period) {
    const int64_t widest_vector = 16 * (int64_t)period;
    if (line.r.extent < widest_vector) {
        return format("lines of %lld elements, shorter than a vector (%lld)", (long long)line.r.extent,
                      (long long)widest_vector);
    }
    if (line.o.extent >= q.threads) {
        return format("%lld lines per call, at least the pool's %d threads", (long long)line.o.extent, q.threads);
    }
    int64_t bytes = 0;
    if (!checked_mul(line.r.extent, q.element_bytes, &bytes)) return "";  // past any minimum
    if (bytes < min_bytes) {
        return format("lines of %lld bytes, fewer than %s %lld", (long long)bytes, threshold, (long long)min_bytes);
    }
    return "";
}

// The period walk in chunks: few lines of interleaved scans, of at least
// scan_period_chunks_min_bytes (a line of one chunk walks whole a little faster).
template <int period>
std::string period_chunks(const ScanQuery &q) {
    ScanQuery line;
    std::string refusal = period_line(q, period, &line);
    if (refusal.empty()) refusal = small_buffers(line);
    if (!refusal.empty()) return refusal;
    if (q.float16) refusal = float16_whole_vectors(line.shape.r.extent, period);
    if (!refusal.empty()) return refusal;
    if (float16_long_line(q, line.shape.r.extent)) return "";  // however many
    return few_long_lines(q, line.shape, q.limits->scan_period_chunks_min_bytes, "scan_period_chunks_min_bytes",
                          period);
}

// The line walk in chunks: few inner lines, of at least
// scan_line_chunks_min_bytes (a line of one chunk walks in one pass, where the
// vector scan takes three), and long float16 lines. float16 chunks walk float32
// totals of their own: one 256 MiB line 47x the vector scan at 16 Xeon
// threads, 4 KiB 1.8x.
std::string line_chunks(const ScanQuery &q) {
    if (q.shape.outer_layout) return "outer layout";
    if (q.float16) {
        const std::string refusal = float16_whole_vectors(q.shape.r.extent, 1);
        if (!refusal.empty()) return refusal;
    }
    // Long float16 lines however many: the vector scan buffers blocks of float32
    // lines, past the caches from lines of 2^20 (1.2-3.3 GB/s); chunks 3.1-11x there (Xeon, VM).
    if (float16_long_line(q, q.shape.r.extent)) return small_buffers(q);
    const std::string refusal =
        few_long_lines(q, q.shape, q.limits->scan_line_chunks_min_bytes, "scan_line_chunks_min_bytes", 1);
    return refusal.empty() ? small_buffers(q) : refusal;
}

// CPUs: the line walk walks a line's rest past its whole vectors (4 to 16
// elements by ISA and type) in a second pass over the lines, so it takes
// lines of a multiple of scan_line_walk_multiple (16: every vector divides
// them). It carries each vector from the element stored before it, a chain
// of stores and loads that lines longer than scan_line_walk_max_line wait on
// in the caches (lines of 1024 in 2 MiB: 0.76-0.83x the vector scan on the
// Zen 4 VM); from memory it wins at any length (1.25-2.2x from 16 MiB).
// float16 walks each line into float32 totals of its own, then narrows them:
// lines of 16-256 ran 1.17-1.42x the vector scan on the Zen 4 VM, lines of
// 4096-262144 0.76-0.87x (scan_line_walk_float16_max_line).
std::string vector_walk(const ScanQuery &q) {
    const ScanShape &s = q.shape;
    const DispatchThresholds &t = *q.limits;
    if (s.outer_layout) return "outer layout";
    if (q.float16 && s.r.extent > t.scan_line_walk_float16_max_line) {
        return format("float16 lines of %lld, longer than scan_line_walk_float16_max_line %lld", (long long)s.r.extent,
                      (long long)t.scan_line_walk_float16_max_line);
    }
    if (t.scan_line_walk_multiple > 1 && s.r.extent % t.scan_line_walk_multiple != 0) {
        return format("lines of %lld, not a multiple of scan_line_walk_multiple %lld", (long long)s.r.extent,
                      (long long)t.scan_line_walk_multiple);
    }
    if (s.r.extent > t.scan_line_walk_max_line && t.scan_line_walk_min_bytes > 0) {
        int64_t bytes = q.element_bytes;
        for (const Dim *d : {&s.i, &s.r, &s.o}) {
            if (!checked_mul(bytes, d->extent, &bytes)) return "";  // past any minimum
        }
        if (bytes < t.scan_line_walk_min_bytes) {
            return format("lines of %lld, longer than scan_line_walk_max_line %lld, in a call of %lld bytes, "
                          "fewer than scan_line_walk_min_bytes %lld",
                          (long long)s.r.extent, (long long)t.scan_line_walk_max_line, (long long)bytes,
                          (long long)t.scan_line_walk_min_bytes);
        }
    }
    return "";
}

std::string staged(const ScanQuery &q) {
    if (q.shape.outer_layout) return "outer layout";
    if (q.shape.r.extent < q.limits->scan_staged_min_line) {
        return format("lines of %lld, shorter than scan_staged_min_line %lld", (long long)q.shape.r.extent,
                      (long long)q.limits->scan_staged_min_line);
    }
    return "";
}

// Whole lines of at most `max_line` in a thread's registers, below the staged kernel's lines.
template <int max_line>
std::string lines(const ScanQuery &q) {
    if (q.shape.outer_layout) return "outer layout";
    if (q.shape.r.extent > max_line) return format("lines of %lld, longer than %d", (long long)q.shape.r.extent, max_line);
    if (q.shape.r.extent >= q.limits->scan_staged_min_line) return "the staged kernel takes lines this long";
    return "";
}

// The period walks' kernels walk inner lines: their rows are one line.
const KernelParams kPeriodWalk = P{}.with(param::layout::inner).with(param::staging::line_walk);
const KernelParams kPeriodChunks = P{}.with(param::layout::inner).with(param::staging::chunk_walk);

const ScanVariant kScanVariants[] = {
    // CUDA, inner axis, short lines whole, in the smallest kernel that holds
    // them; first, as a lines kernel beats the line walk on lines it holds
    // (H100, 2M float32 lines of 128: 1.11 ms against the walk's 3.72).
    {"staging=lines max_line=4", kOnCuda, P{}.with(param::staging::lines).with(param::max_line{4}), false, lines<4>},
    {"staging=lines max_line=8", kOnCuda, P{}.with(param::staging::lines).with(param::max_line{8}), false, lines<8>},
    {"staging=lines max_line=16", kOnCuda, P{}.with(param::staging::lines).with(param::max_line{16}), false,
     lines<16>},
    {"staging=lines max_line=32", kOnCuda, P{}.with(param::staging::lines).with(param::max_line{32}), false,
     lines<32>},
    {"staging=lines max_line=64", kOnCuda, P{}.with(param::staging::lines).with(param::max_line{64}), false,
     lines<64>},
    {"staging=lines max_line=128", kOnCuda, P{}.with(param::staging::lines).with(param::max_line{128}), false,
     lines<128>},
    // CUDA walks, one pass over the input: a block per long inner line, a block per 32 outer columns.
    {"staging=line_walk", kOnCuda, P{}.with(param::staging::line_walk), true, line_walk},
    {"staging=columns", kOnCuda, P{}.with(param::staging::columns), true, column_walk},
    // CPUs, outer axis. Rows of 2, 3, 4 or 8 packed columns: one line of
    // interleaved scans (a line per o), in chunks where the lines are fewer
    // than the threads, else walked whole; first, since the row walk takes
    // such rows a masked vector each ([4M, 8, 2] along 8: 0.6 GB/s).
    {"staging=chunk_walk period=2", kOnCpu, kPeriodChunks.with(param::period{2}), true, period_chunks<2>},
    {"staging=chunk_walk period=3", kOnCpu, kPeriodChunks.with(param::period{3}), true, period_chunks<3>},
    {"staging=chunk_walk period=4", kOnCpu, kPeriodChunks.with(param::period{4}), true, period_chunks<4>},
    {"staging=chunk_walk period=8", kOnCpu, kPeriodChunks.with(param::period{8}), true, period_chunks<8>},
    {"staging=line_walk period=2", kOnCpu, kPeriodWalk.with(param::period{2}), true, period_walk<2>},
    {"staging=line_walk period=3", kOnCpu, kPeriodWalk.with(param::period{3}), true, period_walk<3>},
    {"staging=line_walk period=4", kOnCpu, kPeriodWalk.with(param::period{4}), true, period_walk<4>},
    {"staging=line_walk period=8", kOnCpu, kPeriodWalk.with(param::period{8}), true, period_walk<8>},
    // Else a task per block of columns walks every row, one pass
    // (float16 with a carry row of float32 totals); fewer columns, a task per
    // chunk of rows walks them whole from its carry.
    {"staging=columns (float16, a carry row)", kOnCpu, P{}.with(param::staging::columns), true, carry_row_walk,
     Family::scan_carry_row},
    {"staging=columns", kOnCpu, P{}.with(param::staging::columns), true, row_walk},
    {"staging=chunk_walk", kOnCpu, P{}.with(param::staging::chunk_walk), true, chunk_walk},
    // CPUs, inner axis: fewer long lines than threads walked in chunks from
    // their carries; else each line walked vector by vector, one pass.
    {"staging=chunk_walk (lines)", kOnCpu, P{}.with(param::staging::chunk_walk), true, line_chunks},
    {"staging=line_walk", kOnCpu, P{}.with(param::staging::line_walk), true, vector_walk},
    // CUDA, inner axis: long lines in shared-memory segments.
    {"staging=shared", kOnCuda, P{}.with(param::staging::shared), false, staged},
    // Every shape: the chunked scan of the shape's layout.
    {"plain", kOnAll, P{}, false, serves_all<ScanQuery>},
};

}  // namespace

HRESULT choose_scan_kernel(const hdml_device &device, const KernelParams &function, const ScanQuery &query,
                           const std::string &what, ScanChoice *choice) {
    const KernelParams params =
        function.with(query.shape.outer_layout ? param::layout::outer : param::layout::inner);
    auto params_of = [&](const ScanVariant &v) { return params.with_mapping(v.mapping); };
    const int index =
        choose_variant(kScanVariants, 0, device, Family::scan, query, params_of, &choice->kernel, &choice->passed_over);
    if (index < 0) {
        return no_kernel(device, Family::scan, params, what);
    }
    choice->variant = kScanVariants[index].name;
    if (kScanVariants[index].walk) {
        std::string ignored;
        for (size_t next = index + 1; next < std::size(kScanVariants);) {
            const int found = choose_variant(kScanVariants, next, device, Family::scan, query, params_of,
                                             &choice->in_place_exclusive, &ignored);
            if (found < 0 || !kScanVariants[found].walk) break;
            choice->in_place_exclusive = nullptr;
            next = found + 1;
        }
    }
    return S_OK;
}

}  // namespace hdml
