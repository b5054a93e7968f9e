// Which kernel each shape takes: for a table of shapes per device, the kernels
// hdmlGetOperatorKernels reports after hdmlCreateOperator (nothing runs, so
// the shapes may be large). Every entry of the variant lists in
// runtime/variants/ is taken by at least one CUDA row; the dispatch overlay
// (HDML_DISPATCH_<PLATFORM>) is checked to change a choice without a rebuild.
#include "catch.hpp"
#include "dispatch_overlay.h"
#include "hdml/hdml.h"
#include "test_device.h"
#include "test_tensor.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

using namespace hdml_test;

namespace {

// Contiguous tensor desc without storage: creation reads descs only.
struct Desc {
    DML_BUFFER_TENSOR_DESC buffer{};
    DML_TENSOR_DESC desc{};
    std::vector<uint32_t> sizes;
    Desc(DML_TENSOR_DATA_TYPE type, std::vector<uint32_t> s) : sizes(std::move(s)) {
        uint64_t count = 1;
        for (uint32_t n : sizes) count *= n;
        buffer.DataType = type;
        buffer.DimensionCount = (UINT)sizes.size();
        buffer.Sizes = sizes.data();
        buffer.TotalTensorSizeInBytes = (count * bytes_of(type) + 3) & ~3ull;
        desc = {DML_TENSOR_TYPE_BUFFER, &buffer};
    }
    Desc(const Desc &) = delete;
};

std::vector<uint32_t> reduced(std::vector<uint32_t> sizes, const std::vector<uint32_t> &axes) {
    for (uint32_t a : axes) sizes[a] = 1;
    return sizes;
}

// The kernels an operator of `type` over `desc` calls, or the error message.
std::string kernels_of(Runner &runner, DML_OPERATOR_TYPE type, const void *desc) {
    if (FAILED(runner.create(type, desc))) return std::string("error: ") + hdmlGetLastErrorMessage();
    return hdmlGetOperatorKernels(runner.op);
}

std::string reduce(Runner &runner, DML_REDUCE_FUNCTION function, DML_TENSOR_DATA_TYPE type,
                   std::vector<uint32_t> sizes, std::vector<uint32_t> axes) {
    const bool arg = function == DML_REDUCE_FUNCTION_ARGMAX || function == DML_REDUCE_FUNCTION_ARGMIN;
    Desc in(type, sizes), out(arg ? DML_TENSOR_DATA_TYPE_UINT32 : type, reduced(sizes, axes));
    DML_REDUCE_OPERATOR_DESC desc{function, &in.desc, &out.desc, (UINT)axes.size(), axes.data()};
    return kernels_of(runner, DML_OPERATOR_REDUCE, &desc);
}

std::string cumsum(Runner &runner, DML_TENSOR_DATA_TYPE type, std::vector<uint32_t> sizes, uint32_t axis,
                   DML_AXIS_DIRECTION direction = DML_AXIS_DIRECTION_INCREASING) {
    Desc in(type, sizes), out(type, sizes);
    DML_CUMULATIVE_SUMMATION_OPERATOR_DESC desc{&in.desc, &out.desc, axis, direction, FALSE};
    return kernels_of(runner, DML_OPERATOR_CUMULATIVE_SUMMATION, &desc);
}

std::string gather(Runner &runner, DML_TENSOR_DATA_TYPE type) {
    Desc in(type, {1, 1, 64, 32}), idx(DML_TENSOR_DATA_TYPE_INT32, {1, 1, 1, 8}), out(type, {1, 1, 8, 32});
    DML_GATHER_OPERATOR_DESC desc{&in.desc, &idx.desc, &out.desc, 2, 1};
    return kernels_of(runner, DML_OPERATOR_GATHER, &desc);
}

// [4, row] split into [4, first] and the rest along axis 1.
std::string split(Runner &runner, DML_TENSOR_DATA_TYPE type, uint32_t row = 6, uint32_t first = 2) {
    Desc in(type, {4, row}), a(type, {4, first}), b(type, {4, row - first});
    DML_TENSOR_DESC outs[] = {a.desc, b.desc};
    DML_SPLIT_OPERATOR_DESC desc{&in.desc, 2, outs, 1};
    return kernels_of(runner, DML_OPERATOR_SPLIT, &desc);
}

// `parts` joined along `axis` into a whole of `sizes`.
std::string join(Runner &runner, DML_TENSOR_DATA_TYPE type, const std::vector<uint32_t> &sizes, uint32_t axis,
                 const std::vector<uint32_t> &parts) {
    std::vector<std::unique_ptr<Desc>> pieces;
    std::vector<DML_TENSOR_DESC> descs;
    for (uint32_t n : parts) {
        std::vector<uint32_t> s = sizes;
        s[axis] = n;
        pieces.push_back(std::make_unique<Desc>(type, s));
        descs.push_back(pieces.back()->desc);
    }
    Desc whole(type, sizes);
    DML_JOIN_OPERATOR_DESC desc{(UINT)descs.size(), descs.data(), &whole.desc, axis};
    return kernels_of(runner, DML_OPERATOR_JOIN, &desc);
}

// The threads of hdml's pool, as the runtime counts them (runtime/thread_pool.h).
uint32_t pool_threads() {
    if (const char *value = std::getenv("HL_NUM_THREADS")) {
        const int n = std::atoi(value);
        if (n >= 1) return (uint32_t)std::min(n, 256);
    }
    return std::max(1u, std::thread::hardware_concurrency());
}

const auto F32 = DML_TENSOR_DATA_TYPE_FLOAT32;
const auto F16 = DML_TENSOR_DATA_TYPE_FLOAT16;
const auto I64 = DML_TENSOR_DATA_TYPE_INT64;
const auto I8 = DML_TENSOR_DATA_TYPE_INT8;
const auto I32 = DML_TENSOR_DATA_TYPE_INT32;

}  // namespace

TEST_CASE("CPU devices take the plain kernel of each shape's layout, rows=whole for many short rows and the row walk "
          "for many columns") {
    if (test_on_cuda()) return;
    Runner r;
    const std::string p = std::string("_") + HDML_TEST_CPU_PLATFORM;
    CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, F32, {64, 2048}, {1}) == "hdml_reduce_float32_inner_sum" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, F32, {1024, 64}, {0}) == "hdml_reduce_float32_outer_sum" + p);
    // Reduced axes 0 and 2 are no single strided run: packed by the copy kernel
    // first; its 16 contiguous rows of 256 are longer than
    // reduce_whole_rows_max_row (64): rows=vectors for SUM (below), plain for MAX.
    CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, F32, {8, 16, 32}, {0, 2}) ==
          "hdml_copy_uint32" + p + " hdml_reduce_float32_inner_sum_rows_vectors" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_MAX, F32, {8, 16, 32}, {0, 2}) ==
          "hdml_copy_uint32" + p + " hdml_reduce_float32_inner_max" + p);
    // Rows of at most reduce_whole_rows_max_row (64), at least a vector (16) of
    // them: each row reduced whole by a vector lane, but for rows a multiple of
    // reduce_whole_rows_plain_multiple (64), which the plain kernel walks in full chunks.
    CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, I32, {16, 63}, {1}) == "hdml_reduce_int32_inner_sum_rows_whole" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, I32, {16, 32}, {1}) == "hdml_reduce_int32_inner_sum_rows_whole" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, F32, {16, 31}, {1}) == "hdml_reduce_float32_inner_sum_rows_whole" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, I32, {16, 64}, {1}) == "hdml_reduce_int32_inner_sum" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_MAX, F32, {16, 65}, {1}) == "hdml_reduce_float32_inner_max" + p);
    // The outer layout's columns, at most reduce_whole_rows_max_columns (32) of
    // them, over rows of at most reduce_whole_rows_max_row (64), at least a
    // vector (16) of o's, whose vector of rows spans at most
    // reduce_whole_rows_max_columns_bytes (16 KiB): rows=whole, each column of
    // each o a row (any row length: the plain multiple is the inner plain kernel's).
    CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, F32, {16, 8, 2}, {1}) == "hdml_reduce_float32_inner_sum_rows_whole" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_ARGMAX, F16, {16, 32, 16}, {1}) ==
          "hdml_arg_reduce_float16_inner_rows_whole_keys32" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, F32, {16, 2, 32}, {1}) == "hdml_reduce_float32_inner_sum_rows_whole" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, F32, {16, 2, 33}, {1}) == "hdml_reduce_float32_outer_sum" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, F32, {16, 65, 2}, {1}) == "hdml_reduce_float32_outer_sum" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, F32, {16, 64, 16}, {1}) == "hdml_reduce_float32_outer_sum" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, F32, {15, 8, 2}, {1}) == "hdml_reduce_float32_outer_sum" + p);
    // Contiguous float rows of reduce_row_vectors_min_row..max_row (32..64), at
    // least a vector of them: rows=vectors (built for float types only: the
    // int32 rows above go plain); sums and products of the elements themselves
    // (SUM, AVERAGE, LOG_SUM, MULTIPLY; not L1, L2, SUM_SQUARE's |x| and x*x)
    // up to reduce_row_vectors_max_sum_row (1024).
    CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, F32, {16, 64}, {1}) == "hdml_reduce_float32_inner_sum_rows_vectors" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, F32, {16, 65}, {1}) == "hdml_reduce_float32_inner_sum_rows_vectors" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, F32, {16, 1024}, {1}) == "hdml_reduce_float32_inner_sum_rows_vectors" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, F32, {16, 1025}, {1}) == "hdml_reduce_float32_inner_sum" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_AVERAGE, F16, {3, 100, 1000}, {2}) ==
          "hdml_reduce_float16_inner_sum_rows_vectors" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_LOG_SUM, F32, {16, 256}, {1}) == "hdml_reduce_float32_inner_sum_rows_vectors" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_L2, F16, {16, 512}, {1}) == "hdml_reduce_float16_inner_sum" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM_SQUARE, F32, {16, 64}, {1}) ==
          "hdml_reduce_float32_inner_sum_rows_vectors" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_MULTIPLY, F32, {16, 512}, {1}) ==
          "hdml_reduce_float32_inner_multiply_rows_vectors" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, I32, {16, 512}, {1}) == "hdml_reduce_int32_inner_sum" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_LOG_SUM_EXP, F32, {16, 65}, {1}) == "hdml_reduce_float32_inner_log_sum_exp" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_ARGMIN, F32, {16, 65}, {1}) == "hdml_arg_reduce_float32_inner" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, F32, {16, 32}, {1}) == "hdml_reduce_float32_inner_sum_rows_vectors" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_MIN, F16, {16, 63}, {1}) == "hdml_reduce_float16_inner_min_rows_vectors" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_LOG_SUM_EXP, F16, {3, 100, 64}, {2}) ==
          "hdml_reduce_float16_inner_log_sum_exp_rows_vectors" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_ARGMAX, F32, {16, 64}, {1}) == "hdml_arg_reduce_float32_inner_rows_vectors" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, F32, {15, 64}, {1}) == "hdml_reduce_float32_inner_sum" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, F32, {15, 63}, {1}) == "hdml_reduce_float32_inner_sum" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_LOG_SUM_EXP, F16, {4096, 2}, {1}) ==
          "hdml_reduce_float16_inner_log_sum_exp_rows_whole" + p);
    // float16 sums and products of the elements: rows=vectors from
    // reduce_row_vectors_float16_min_sum_row (32, rows=vectors' own shortest:
    // an overlay's longer one is checked below); MIN and L1 alike.
    CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, F16, {16, 256}, {1}) == "hdml_reduce_float16_inner_sum_rows_vectors" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, F16, {16, 255}, {1}) == "hdml_reduce_float16_inner_sum_rows_vectors" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_AVERAGE, F16, {16, 64}, {1}) == "hdml_reduce_float16_inner_sum_rows_vectors" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_MULTIPLY, F16, {16, 32}, {1}) ==
          "hdml_reduce_float16_inner_multiply_rows_vectors" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, F32, {16, 48}, {1}) == "hdml_reduce_float32_inner_sum_rows_vectors" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_MIN, F16, {16, 32}, {1}) == "hdml_reduce_float16_inner_min_rows_vectors" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_L1, F16, {16, 32}, {1}) == "hdml_reduce_float16_inner_sum_rows_vectors" + p);
    // ARGMAX/ARGMIN of 8- and 16-bit types: the twin with 32-bit keys (key_bits=32)
    // over rows of at most 65536 elements, 64-bit keys past them, but for the
    // outer layout, whose index is local to a chunk of rows.
    CHECK(reduce(r, DML_REDUCE_FUNCTION_ARGMIN, I8, {100, 3, 7}, {2}) ==
          "hdml_arg_reduce_int8_inner_rows_whole_keys32" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_ARGMAX, F16, {16, 64}, {1}) ==
          "hdml_arg_reduce_float16_inner_rows_vectors_keys32" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_ARGMAX, F16, {2, 65536}, {1}) == "hdml_arg_reduce_float16_inner_keys32" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_ARGMAX, F16, {2, 65537}, {1}) == "hdml_arg_reduce_float16_inner" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_ARGMIN, DML_TENSOR_DATA_TYPE_UINT16, {65536, 3}, {0}) ==
          "hdml_arg_reduce_uint16_outer_keys32" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_ARGMIN, DML_TENSOR_DATA_TYPE_UINT16, {65537, 3}, {0}) ==
          "hdml_arg_reduce_uint16_outer_keys32" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_ARGMAX, F16, {20000000, 3}, {0}) == "hdml_arg_reduce_float16_outer_keys32" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_L2, F16, {64, 2048}, {1}) == "hdml_reduce_float16_inner_sum" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_LOG_SUM_EXP, F32, {1024, 64}, {0}) ==
          "hdml_reduce_float32_outer_log_sum_exp" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_MIN, I8, {64, 1024}, {1}) == "hdml_reduce_int8_inner_min" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_ARGMAX, F32, {64, 1024}, {1}) == "hdml_arg_reduce_float32_inner" + p);
    // An inner axis: the line walk (staging=line_walk, one pass), with the
    // vector scan that in-place exclusive scans take, for lines of a multiple
    // of 16, of at most scan_line_walk_max_line (64) elements or in calls of
    // at least scan_line_walk_min_bytes (16 MiB); float16 (float32 totals in a
    // line of their own) lines of at most scan_line_walk_float16_max_line (256).
    const std::string line_walk = "hdml_scan_float32_inner_sum_staging_line_walk" + p + " hdml_scan_float32_inner_sum" + p;
    CHECK(cumsum(r, F32, {64, 64}, 1) == line_walk);
    CHECK(cumsum(r, F32, {4096, 1024}, 1) == line_walk);  // 16 MiB
    CHECK(cumsum(r, F32, {4095, 1024}, 1) == "hdml_scan_float32_inner_sum" + p);
    CHECK(cumsum(r, I64, {64, 16}, 1) ==
          "hdml_scan_int64_inner_sum_staging_line_walk" + p + " hdml_scan_int64_inner_sum" + p);
    CHECK(cumsum(r, F32, {64, 1000}, 1) == "hdml_scan_float32_inner_sum" + p);
    CHECK(cumsum(r, F32, {8192, 1000}, 1) == "hdml_scan_float32_inner_sum" + p);
    const std::string line_walk16 = "hdml_scan_float16_inner_sum_staging_line_walk" + p + " hdml_scan_float16_inner_sum" + p;
    CHECK(cumsum(r, F16, {64, 64}, 1) == line_walk16);
    CHECK(cumsum(r, F16, {64, 48}, 1) == line_walk16);
    CHECK(cumsum(r, F16, {64, 80}, 1) == "hdml_scan_float16_inner_sum" + p);    // longer than 64 in a small call
    CHECK(cumsum(r, F16, {32768, 256}, 1) == line_walk16);                     // 16 MiB
    CHECK(cumsum(r, F16, {16384, 512}, 1) == "hdml_scan_float16_inner_sum" + p);  // past 256
    CHECK(cumsum(r, F16, {64, 40}, 1) == "hdml_scan_float16_inner_sum" + p);    // not a multiple of 16
    // An outer axis over at least scan_walk_min_columns columns and
    // scan_walk_columns_per_thread per thread of the pool (x86: 32 and 32; ARM:
    // 512 and none): the row walk (staging=columns), with the chunked kernel
    // that in-place exclusive scans take; float16's keeps its float32 totals in
    // a carry row (family scan_carry_row) where the kernel's tasks, blocks of
    // scan_carry_row_task_columns columns of each outer index, are at least the
    // pool's threads (x86: 128; ARM: none, the row walk's 512 columns). Fewer columns: the chunk walk
    // (staging=chunk_walk), the same chunked kernel beside it. Columns over the
    // outer dims count together.
    const bool arm = std::string(HDML_TEST_CPU_PLATFORM) == "arm";
    const uint32_t walk_min = arm ? 512 : std::max(32u, 32u * pool_threads());
    INFO("the row walk from " << walk_min << " columns (" << pool_threads() << " threads)");
    CHECK(cumsum(r, F32, {64, walk_min}, 0) ==
          "hdml_scan_float32_outer_sum_staging_columns" + p + " hdml_scan_float32_outer_sum" + p);
    CHECK(cumsum(r, I64, {3, 2, walk_min / 2}, 0) ==
          "hdml_scan_int64_outer_sum_staging_columns" + p + " hdml_scan_int64_outer_sum" + p);
    CHECK(cumsum(r, F32, {64, walk_min - 1}, 0) ==
          "hdml_scan_float32_outer_sum_staging_chunk_walk" + p + " hdml_scan_float32_outer_sum" + p);
    CHECK(cumsum(r, DML_TENSOR_DATA_TYPE_UINT32, {100000, 5}, 0) ==
          "hdml_scan_uint32_outer_sum_staging_chunk_walk" + p + " hdml_scan_uint32_outer_sum" + p);
    const std::string chunk_walk16 = "hdml_scan_float16_outer_sum_staging_chunk_walk" + p + " hdml_scan_float16_outer_sum" + p;
    const uint32_t carry_row_min = arm ? 512 : std::max(32u, 128u * (pool_threads() - 1) + 1);
    const std::string carry_row16 =
        "hdml_scan_carry_row_float16_outer_sum_staging_columns" + p + " hdml_scan_float16_outer_sum" + p;
    CHECK(cumsum(r, F16, {64, carry_row_min}, 0) == carry_row16);
    CHECK(cumsum(r, F16, {2, 3, carry_row_min / 2}, 0) == carry_row16);
    CHECK(cumsum(r, F16, {64, carry_row_min - 1}, 0) == chunk_walk16);
    if (!arm) CHECK(cumsum(r, F16, {pool_threads(), 2, 64}, 1) == carry_row16);  // a task per outer index
    CHECK(cumsum(r, F16, {302, 6, 16}, 1) == carry_row16);  // a middle axis (cumulative_test's slabs)
    CHECK(cumsum(r, F16, {64, 16}, 0) == chunk_walk16);
    // Rows of 2, 3, 4 or 8 packed columns: the period walk (the rows as one line
    // of that many interleaved scans, staging=line_walk period=P), the chunked
    // outer kernel beside it; rows that do not follow one another (DECREASING
    // runs them backwards) or other column counts take the chunk walk.
    auto period_walk = [&](const char *type, const char *op, int period, const char *staging = "line_walk") {
        return std::string("hdml_scan_") + type + "_inner_" + op + "_staging_" + staging + "_period" +
               std::to_string(period) + p + " hdml_scan_" + type + "_outer_" + op + p;
    };
    // Lines fewer than the pool's threads, of at least a vector (16 x period elements) and
    // scan_period_chunks_min_bytes (512 KiB) here, scan_line_chunks_min_bytes
    // (4 KiB) for inner lines: walked in chunks from their carries
    // (staging=chunk_walk), inner lines and the period walk's alike.
    const bool chunks = pool_threads() > 1;  // (one line)
    const char *one_line = chunks ? "chunk_walk" : "line_walk";
    CHECK(cumsum(r, F32, {65536, 2}, 0) == period_walk("float32", "sum", 2, one_line));
    CHECK(cumsum(r, F32, {65535, 2}, 0) == period_walk("float32", "sum", 2));
    CHECK(cumsum(r, F32, {16384, 2, 4}, 0) == period_walk("float32", "sum", 8, one_line));  // columns fused
    CHECK(cumsum(r, I64, {3, 8192, 8}, 1) ==
          period_walk("int64", "sum", 8, pool_threads() > 3 ? "chunk_walk" : "line_walk"));
    CHECK(cumsum(r, F32, {1000, 2, 2}, 0) == period_walk("float32", "sum", 4));
    CHECK(cumsum(r, F32, {1000, 3}, 0) == period_walk("float32", "sum", 3));
    CHECK(cumsum(r, F32, {4096, 8, 2}, 1) == period_walk("float32", "sum", 2));  // a line per o, ahead of the row walk
    CHECK(cumsum(r, DML_TENSOR_DATA_TYPE_UINT32, {65536, 3}, 0) == period_walk("uint32", "sum", 3, one_line));
    CHECK(cumsum(r, F32, {70000, 2}, 0, DML_AXIS_DIRECTION_DECREASING) ==
          "hdml_scan_float32_outer_sum_staging_chunk_walk" + p + " hdml_scan_float32_outer_sum" + p);
    CHECK(cumsum(r, F32, {1000, 6}, 0) ==
          "hdml_scan_float32_outer_sum_staging_chunk_walk" + p + " hdml_scan_float32_outer_sum" + p);
    // float16: the period walk into float32 totals; in chunks lines of whole vectors (a
    // multiple of 16, 48 for 3 columns), however many from scan_line_chunks_float16_min_line
    // (2^20), and only in chunks from there.
    CHECK(cumsum(r, F16, {1000, 2}, 0) == period_walk("float16", "sum", 2));
    CHECK(cumsum(r, F16, {1000, 3}, 0) == period_walk("float16", "sum", 3));
    CHECK(cumsum(r, F16, {1 << 20, 8}, 0) == period_walk("float16", "sum", 8, "chunk_walk"));
    CHECK(cumsum(r, F16, {(1 << 20) + 1, 8}, 0) == chunk_walk16);
    const std::string vector_scan = "hdml_scan_float32_inner_sum" + p;
    CHECK(cumsum(r, F32, {1, 1024}, 1) ==
          (chunks ? "hdml_scan_float32_inner_sum_staging_chunk_walk" + p + " " + vector_scan : vector_scan));
    CHECK(cumsum(r, F32, {1, 1008}, 1) == "hdml_scan_float32_inner_sum" + p);
    // float16 lines in chunks (float32 totals per chunk): lines of a multiple of 16 only;
    // however many, lines of at least scan_line_chunks_float16_min_line (2^20).
    const std::string vector_scan16 = "hdml_scan_float16_inner_sum" + p;
    const std::string chunks16 = "hdml_scan_float16_inner_sum_staging_chunk_walk" + p + " " + vector_scan16;
    CHECK(cumsum(r, F16, {1, 1 << 20}, 1) == (chunks ? chunks16 : vector_scan16));
    CHECK(cumsum(r, F16, {1, (1 << 20) + 8}, 1) == vector_scan16);
    CHECK(cumsum(r, F16, {64, 1 << 20}, 1) == chunks16);
    CHECK(cumsum(r, F16, {64, (1 << 20) - 16}, 1) == vector_scan16);
    CHECK(cumsum(r, F16, {64, (1 << 20) + 8}, 1) == vector_scan16);
    CHECK(gather(r, F32) == "hdml_gather_uint32" + p);
    // 8- and 16-bit rows of whole 32-bit words also take the word kernel (for aligned addresses).
    CHECK(gather(r, F16) == "hdml_gather_uint16" + p + " hdml_gather_uint32" + p);
    CHECK(split(r, F16) == "hdml_copy_uint16" + p + " hdml_copy_uint32" + p);
    CHECK(split(r, F16, 5, 2) == "hdml_copy_uint16" + p);  // rows of 5: no piece is whole words
    CHECK(split(r, DML_TENSOR_DATA_TYPE_UINT8) == "hdml_copy_uint8" + p);
    CHECK(split(r, DML_TENSOR_DATA_TYPE_UINT8, 8, 4) == "hdml_copy_uint8" + p + " hdml_copy_uint32" + p);
}

// x86: SPLIT/JOIN of at least copy_stream_min_bytes (64 MiB) whose pieces'
// rows are contiguous runs of at least 256 bytes go through the streaming
// copy (non-temporal stores; ARM has none and keeps the copy kernel).
TEST_CASE("Large SPLIT/JOIN of contiguous rows on x86 take the streaming copy") {
    if (test_on_cuda()) return;
    const std::string p = std::string("_") + HDML_TEST_CPU_PLATFORM;
    const bool x86 = std::string(HDML_TEST_CPU_PLATFORM) == "x86";
    const std::string stream = "hdml_stream_copy";
    Runner r;
    // 64 MiB: along axis 0 each piece one run, along axis 1 rows of 1 KiB.
    CHECK(join(r, F32, {16384, 1024}, 0, {4096, 4096, 8192}) == (x86 ? stream : "hdml_copy_uint32" + p));
    CHECK(join(r, F32, {16384, 1024}, 1, {256, 256, 512}) == (x86 ? stream : "hdml_copy_uint32" + p));
    CHECK(join(r, F32, {16383, 1024}, 1, {256, 256, 512}) == "hdml_copy_uint32" + p);  // 16 KiB short
    // Rows of 252 bytes: no streaming, however large the whole.
    CHECK(join(r, F32, {65536, 1024}, 1, {63, 961}) == "hdml_copy_uint32" + p);
    CHECK(join(r, F32, {65536, 1024}, 1, {64, 960}) == (x86 ? stream : "hdml_copy_uint32" + p));
    CHECK(join(r, DML_TENSOR_DATA_TYPE_UINT8, {65536, 1024}, 1, {256, 768}) ==
          (x86 ? stream : "hdml_copy_uint8" + p + " hdml_copy_uint32" + p));
    {  // an overlay moves the threshold; 0: never
        const ScopedDispatch overlay("cpu_overlay.json", R"({"dispatch": {"copy_stream_min_bytes": 0}})");
        Runner o;
        CHECK(join(o, F32, {16384, 1024}, 0, {4096, 4096, 8192}) == "hdml_copy_uint32" + p);
    }
    const ScopedDispatch overlay("cpu_overlay.json", R"({"dispatch": {"copy_stream_min_bytes": 4096}})");
    Runner o;
    CHECK(join(o, F32, {8, 128}, 1, {64, 64}) == (x86 ? stream : "hdml_copy_uint32" + p));
    CHECK(join(o, F32, {7, 128}, 1, {64, 64}) == "hdml_copy_uint32" + p);
}

TEST_CASE("CUDA devices take each variant of the reduce and scan lists where its thresholds say") {
    if (!test_on_cuda()) return;
    Runner r;
    const auto SUM = DML_REDUCE_FUNCTION_SUM;
    const auto ARGMAX = DML_REDUCE_FUNCTION_ARGMAX;
    // Rows of 17..256, at least 16384 of them: a few lanes per row.
    CHECK(reduce(r, SUM, F32, {16384, 64}, {1}) == "hdml_reduce_float32_inner_sum_rows_lanes_merge_shuffles_cuda");
    CHECK(reduce(r, ARGMAX, F32, {16384, 64}, {1}) == "hdml_arg_reduce_float32_inner_rows_lanes_cuda");
    // Rows of 16 (below the lanes' 17): a thread per row; 540672 of them take
    // whole columns, with the 16-byte vector twin for aligned inputs.
    CHECK(reduce(r, SUM, F32, {540672, 16}, {1}) ==
          "hdml_reduce_float32_outer_sum_cols_whole_cuda hdml_reduce_float32_outer_sum_cols_whole_vb16_cuda");
    CHECK(reduce(r, SUM, F32, {16384, 16}, {1}) == "hdml_reduce_float32_outer_sum_cuda");
    // Outer layout: many columns whole, few merged by warps, the rest split.
    CHECK(reduce(r, SUM, F32, {64, 540672}, {0}) == "hdml_reduce_float32_outer_sum_cols_whole_cuda");
    CHECK(reduce(r, SUM, F32, {100000, 64}, {0}) == "hdml_reduce_float32_outer_sum_cols_warp_merge_cuda");
    CHECK(reduce(r, SUM, F32, {64, 100000}, {0}) == "hdml_reduce_float32_outer_sum_cuda");
    // Long inner rows: the split kernel, merging through shuffles where built.
    CHECK(reduce(r, SUM, F32, {64, 100000}, {1}) == "hdml_reduce_float32_inner_sum_merge_shuffles_cuda");
    CHECK(reduce(r, SUM, I64, {64, 100000}, {1}) == "hdml_reduce_int64_inner_sum_cuda");
    CHECK(reduce(r, ARGMAX, F32, {64, 100000}, {1}) == "hdml_arg_reduce_float32_inner_cuda");
    // float16 rows of whole words: each kernel's loads=words twin (in 16-byte
    // vectors of words for rows of 8 a thread each); odd rows: none.
    CHECK(reduce(r, SUM, F16, {64, 100000}, {1}) ==
          "hdml_reduce_float16_inner_sum_merge_shuffles_cuda hdml_reduce_float16_inner_sum_words_merge_shuffles_cuda");
    CHECK(reduce(r, SUM, F16, {64, 100001}, {1}) == "hdml_reduce_float16_inner_sum_merge_shuffles_cuda");
    CHECK(reduce(r, ARGMAX, F16, {64, 100000}, {1}) ==
          "hdml_arg_reduce_float16_inner_cuda hdml_arg_reduce_float16_inner_words_cuda");
    // ARGMAX/ARGMIN of 8- and 16-bit types over rows of at most 65536: each
    // variant's twin in 32-bit keys, which merge through shuffles too.
    CHECK(reduce(r, ARGMAX, F16, {64, 65536}, {1}) ==
          "hdml_arg_reduce_float16_inner_merge_shuffles_keys32_cuda "
          "hdml_arg_reduce_float16_inner_words_merge_shuffles_keys32_cuda");
    CHECK(reduce(r, ARGMAX, F16, {64, 65538}, {1}) ==
          "hdml_arg_reduce_float16_inner_cuda hdml_arg_reduce_float16_inner_words_cuda");
    CHECK(reduce(r, ARGMAX, DML_TENSOR_DATA_TYPE_INT8, {16384, 64}, {1}) ==
          "hdml_arg_reduce_int8_inner_rows_lanes_merge_shuffles_keys32_cuda");
    CHECK(reduce(r, ARGMAX, F16, {16384, 64}, {1}) ==
          "hdml_arg_reduce_float16_inner_rows_lanes_merge_shuffles_keys32_cuda "
          "hdml_arg_reduce_float16_inner_rows_lanes_words_merge_shuffles_keys32_cuda");
    CHECK(reduce(r, ARGMAX, F16, {540672, 8}, {1}) ==
          "hdml_arg_reduce_float16_outer_cols_whole_keys32_cuda "
          "hdml_arg_reduce_float16_outer_cols_whole_words_vb16_keys32_cuda");
    CHECK(reduce(r, ARGMAX, F16, {64, 540672}, {0}) == "hdml_arg_reduce_float16_outer_cols_whole_keys32_cuda");
    CHECK(reduce(r, ARGMAX, F16, {60000, 64}, {0}) ==
          "hdml_arg_reduce_float16_outer_cols_warp_merge_keys32_cuda "
          "hdml_arg_reduce_float16_outer_cols_warp_merge_column_words_keys32_cuda");
    CHECK(reduce(r, ARGMAX, DML_TENSOR_DATA_TYPE_UINT16, {65537, 64}, {0}) ==
          "hdml_arg_reduce_uint16_outer_cols_warp_merge_cuda");
    CHECK(reduce(r, DML_REDUCE_FUNCTION_LOG_SUM_EXP, F16, {16384, 64}, {1}) ==
          "hdml_reduce_float16_inner_log_sum_exp_rows_lanes_cuda hdml_reduce_float16_inner_log_sum_exp_rows_lanes_words_cuda");
    CHECK(reduce(r, SUM, F16, {540672, 8}, {1}) ==
          "hdml_reduce_float16_outer_sum_cols_whole_cuda hdml_reduce_float16_outer_sum_cols_whole_words_vb16_cuda");
    CHECK(reduce(r, SUM, F16, {540672, 6}, {1}) ==
          "hdml_reduce_float16_outer_sum_cols_whole_cuda hdml_reduce_float16_outer_sum_cols_whole_words_cuda");
    // ... and columns of the outer layout's split runs in pairs of a word.
    CHECK(reduce(r, SUM, F16, {64, 100000}, {0}) ==
          "hdml_reduce_float16_outer_sum_cuda hdml_reduce_float16_outer_sum_column_words_cuda");
    CHECK(reduce(r, ARGMAX, F16, {64, 100000}, {0}) ==
          "hdml_arg_reduce_float16_outer_keys32_cuda hdml_arg_reduce_float16_outer_column_words_keys32_cuda");
    CHECK(reduce(r, SUM, F16, {64, 100001}, {0}) == "hdml_reduce_float16_outer_sum_cuda");
    CHECK(reduce(r, SUM, F16, {100000, 64}, {0}) ==
          "hdml_reduce_float16_outer_sum_cols_warp_merge_cuda hdml_reduce_float16_outer_sum_cols_warp_merge_column_words_cuda");
    // Scans: the whole-line kernels (before the walks, on lines they hold), the
    // walks (with the kernel in-place exclusive scans take), the staged kernel,
    // the chunked one.
    CHECK(cumsum(r, F32, {512, 129}, 1) == "hdml_scan_float32_inner_sum_staging_line_walk_cuda hdml_scan_float32_inner_sum_cuda");
    CHECK(cumsum(r, F32, {512, 128}, 1) == "hdml_scan_float32_inner_sum_staging_lines_maxline128_cuda");
    CHECK(cumsum(r, I64, {512, 128}, 1) == "hdml_scan_int64_inner_sum_staging_line_walk_cuda hdml_scan_int64_inner_sum_cuda");
    CHECK(cumsum(r, F32, {64, 2048}, 0) == "hdml_scan_float32_outer_sum_staging_columns_cuda hdml_scan_float32_outer_sum_cuda");
    CHECK(cumsum(r, F16, {4, 4096}, 1) == "hdml_scan_float16_inner_sum_staging_shared_cuda");
    CHECK(cumsum(r, F16, {4, 3}, 1) == "hdml_scan_float16_inner_sum_staging_lines_maxline4_cuda");
    CHECK(cumsum(r, F16, {4, 8}, 1) == "hdml_scan_float16_inner_sum_staging_lines_maxline8_cuda");
    CHECK(cumsum(r, F16, {4, 9}, 1) == "hdml_scan_float16_inner_sum_staging_lines_maxline16_cuda");
    CHECK(cumsum(r, F16, {4, 32}, 1) == "hdml_scan_float16_inner_sum_staging_lines_maxline32_cuda");
    CHECK(cumsum(r, F16, {4, 33}, 1) == "hdml_scan_float16_inner_sum_staging_lines_maxline64_cuda");
    CHECK(cumsum(r, F32, {4, 64}, 1) == "hdml_scan_float32_inner_sum_staging_lines_maxline64_cuda");
    CHECK(cumsum(r, F32, {4, 65}, 1) == "hdml_scan_float32_inner_sum_staging_lines_maxline128_cuda");
    CHECK(cumsum(r, F16, {4, 128}, 1) == "hdml_scan_float16_inner_sum_staging_lines_maxline128_cuda");
    CHECK(cumsum(r, I64, {4, 65}, 1) == "hdml_scan_int64_inner_sum_cuda");  // no 128 kernel for 64-bit totals
    CHECK(cumsum(r, F16, {4, 129}, 1) == "hdml_scan_float16_inner_sum_cuda");
    CHECK(cumsum(r, F16, {100, 4}, 0) == "hdml_scan_float16_outer_sum_cuda");
    CHECK(gather(r, F32) == "hdml_normalize_indices_int32_cuda hdml_gather_uint32_cuda");
    CHECK(gather(r, F16) == "hdml_normalize_indices_int32_cuda hdml_gather_uint16_cuda hdml_gather_uint32_cuda");
    CHECK(split(r, F32) == "hdml_copy_uint32_cuda");
    CHECK(split(r, F16) == "hdml_copy_uint16_cuda hdml_copy_uint32_cuda");
}

TEST_CASE("A dispatch overlay changes the choice at device creation, without a rebuild") {
    if (!test_on_cuda()) return;
    {
        Runner r;  // built-in thresholds: 64 rows of 16 are too few for a thread per row
        CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, F32, {64, 16}, {1}) == "hdml_reduce_float32_inner_sum_merge_shuffles_cuda");
    }
    const std::string path =
        write_temp("overlay.json", R"({"dispatch": {"reduce_thread_per_row_min_rows": 16}, "reduce": {"gpu_threads": 1}})");
    ScopedEnv env(platform_variable(), path);
    Runner r;
    // A thread per row now, and 64 outputs are few enough for the warp-merge columns.
    CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, F32, {64, 16}, {1}) == "hdml_reduce_float32_outer_sum_cols_warp_merge_cuda");
    std::remove(path.c_str());
}

TEST_CASE("A dispatch overlay moves the CPU's short-row thresholds, without a rebuild") {
    if (test_on_cuda()) return;
    const std::string p = std::string("_") + HDML_TEST_CPU_PLATFORM;
    {
        const ScopedDispatch overlay(
            "cpu_overlay.json", R"({"dispatch": {"reduce_whole_rows_max_row": 1024, "reduce_row_vectors_max_sum_row": 0}})");
        Runner r;
        CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, F32, {64, 1000}, {1}) == "hdml_reduce_float32_inner_sum_rows_whole" + p);
        CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, F32, {64, 1024}, {1}) == "hdml_reduce_float32_inner_sum" + p);
        CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, F32, {64, 1025}, {1}) == "hdml_reduce_float32_inner_sum" + p);
    }
    {  // 0: no multiple goes plain
        const ScopedDispatch overlay("cpu_overlay.json", R"({"dispatch": {"reduce_whole_rows_plain_multiple": 0}})");
        Runner r;
        CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, I32, {16, 64}, {1}) == "hdml_reduce_int32_inner_sum_rows_whole" + p);
    }
    {  // rows=vectors over rows of 16..1000, sums up to 100; none (max 0)
        const ScopedDispatch overlay("cpu_overlay.json", R"({"dispatch": {"reduce_row_vectors_min_row": 16,
            "reduce_row_vectors_max_row": 1000, "reduce_row_vectors_max_sum_row": 100,
            "reduce_row_vectors_max_extreme_row": 1000}})");
        Runner r;
        CHECK(reduce(r, DML_REDUCE_FUNCTION_MAX, F32, {64, 1000}, {1}) == "hdml_reduce_float32_inner_max_rows_vectors" + p);
        CHECK(reduce(r, DML_REDUCE_FUNCTION_MAX, F16, {64, 16}, {1}) == "hdml_reduce_float16_inner_max_rows_vectors" + p);
        CHECK(reduce(r, DML_REDUCE_FUNCTION_MAX, F32, {64, 15}, {1}) == "hdml_reduce_float32_inner_max_rows_whole" + p);
        CHECK(reduce(r, DML_REDUCE_FUNCTION_MAX, F32, {64, 1001}, {1}) == "hdml_reduce_float32_inner_max" + p);
        CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, F32, {64, 100}, {1}) == "hdml_reduce_float32_inner_sum_rows_vectors" + p);
        CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, F32, {64, 101}, {1}) == "hdml_reduce_float32_inner_sum" + p);
    }
    {  // float16 sums and products from a shortest row of their own; shorter: rows=whole (up to 64, not its
       // plain multiple) or plain; MIN and L1 keep rows=vectors
        const ScopedDispatch overlay("cpu_overlay.json",
                                     R"({"dispatch": {"reduce_row_vectors_float16_min_sum_row": 256}})");
        Runner r;
        CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, F16, {16, 256}, {1}) == "hdml_reduce_float16_inner_sum_rows_vectors" + p);
        CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, F16, {16, 255}, {1}) == "hdml_reduce_float16_inner_sum" + p);
        CHECK(reduce(r, DML_REDUCE_FUNCTION_AVERAGE, F16, {16, 64}, {1}) == "hdml_reduce_float16_inner_sum" + p);
        CHECK(reduce(r, DML_REDUCE_FUNCTION_MULTIPLY, F16, {16, 32}, {1}) ==
              "hdml_reduce_float16_inner_multiply_rows_whole" + p);
        CHECK(reduce(r, DML_REDUCE_FUNCTION_MIN, F16, {16, 32}, {1}) == "hdml_reduce_float16_inner_min_rows_vectors" + p);
        CHECK(reduce(r, DML_REDUCE_FUNCTION_L1, F16, {16, 32}, {1}) == "hdml_reduce_float16_inner_sum_rows_vectors" + p);
    }
    {  // MIN, MAX, ARGMIN and ARGMAX up to a row length of their own; LOG_SUM_EXP and L2 keep max_row (64)
        const ScopedDispatch overlay("cpu_overlay.json", R"({"dispatch": {"reduce_row_vectors_max_extreme_row": 256}})");
        Runner r;
        CHECK(reduce(r, DML_REDUCE_FUNCTION_MAX, F32, {16, 256}, {1}) == "hdml_reduce_float32_inner_max_rows_vectors" + p);
        CHECK(reduce(r, DML_REDUCE_FUNCTION_MIN, F16, {16, 130}, {1}) == "hdml_reduce_float16_inner_min_rows_vectors" + p);
        CHECK(reduce(r, DML_REDUCE_FUNCTION_ARGMAX, F32, {16, 200}, {1}) == "hdml_arg_reduce_float32_inner_rows_vectors" + p);
        CHECK(reduce(r, DML_REDUCE_FUNCTION_MAX, F32, {16, 257}, {1}) == "hdml_reduce_float32_inner_max" + p);
        CHECK(reduce(r, DML_REDUCE_FUNCTION_LOG_SUM_EXP, F32, {16, 128}, {1}) ==
              "hdml_reduce_float32_inner_log_sum_exp" + p);
        CHECK(reduce(r, DML_REDUCE_FUNCTION_L2, F32, {16, 128}, {1}) == "hdml_reduce_float32_inner_sum" + p);
    }
    {  // the prefetched walk over rows=vectors' rows up to 64 (x86 kernels; ARM has none: rows=vectors)
        const ScopedDispatch overlay("cpu_overlay.json",
                                     R"({"dispatch": {"reduce_row_vectors_prefetched_max_row": 64}})");
        Runner r;
        const bool x86 = std::string(HDML_TEST_CPU_PLATFORM) == "x86";
        const std::string prefetched = x86 ? "_rows_vectors_prefetched" : "_rows_vectors";
        CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, F32, {16, 64}, {1}) == "hdml_reduce_float32_inner_sum" + prefetched + p);
        CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, F32, {16, 65}, {1}) == "hdml_reduce_float32_inner_sum_rows_vectors" + p);
        CHECK(reduce(r, DML_REDUCE_FUNCTION_MAX, F16, {16, 33}, {1}) == "hdml_reduce_float16_inner_max" + prefetched + p);
        CHECK(reduce(r, DML_REDUCE_FUNCTION_LOG_SUM_EXP, F32, {16, 48}, {1}) ==
              "hdml_reduce_float32_inner_log_sum_exp" + prefetched + p);
        CHECK(reduce(r, DML_REDUCE_FUNCTION_ARGMAX, F32, {16, 64}, {1}) == "hdml_arg_reduce_float32_inner" + prefetched + p);
        CHECK(reduce(r, DML_REDUCE_FUNCTION_ARGMIN, F16, {16, 40}, {1}) ==
              "hdml_arg_reduce_float16_inner" + prefetched + "_keys32" + p);
        // Outside rows=vectors' own range: as without the overlay.
        CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, F32, {16, 31}, {1}) == "hdml_reduce_float32_inner_sum_rows_whole" + p);
        CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, I32, {16, 48}, {1}) == "hdml_reduce_int32_inner_sum_rows_whole" + p);
    }
    {
        const ScopedDispatch overlay("cpu_overlay.json",
                                     R"({"dispatch": {"reduce_row_vectors_max_row": 0, "reduce_row_vectors_max_sum_row": 0,
                                         "reduce_row_vectors_max_extreme_row": 0}})");
        Runner r;
        CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, F32, {16, 64}, {1}) == "hdml_reduce_float32_inner_sum" + p);
        CHECK(reduce(r, DML_REDUCE_FUNCTION_MAX, F32, {16, 64}, {1}) == "hdml_reduce_float32_inner_max" + p);
    }
}

TEST_CASE("A dispatch overlay moves the row walk's thresholds, without a rebuild") {
    if (test_on_cuda()) return;
    const std::string p = std::string("_") + HDML_TEST_CPU_PLATFORM;
    const std::string walk = "hdml_scan_float32_outer_sum_staging_columns" + p + " hdml_scan_float32_outer_sum" + p;
    // Below the row walk's columns, the chunk walk.
    const std::string chunks = "hdml_scan_float32_outer_sum_staging_chunk_walk" + p + " hdml_scan_float32_outer_sum" + p;
    {  // columns alone decide
        const ScopedDispatch overlay("cpu_overlay.json", R"({"dispatch": {"scan_walk_min_columns": 100,
            "scan_walk_columns_per_thread": 0}})");
        Runner r;
        CHECK(cumsum(r, F32, {64, 100}, 0) == walk);
        CHECK(cumsum(r, F32, {64, 99}, 0) == chunks);
    }
    {  // the pool's threads decide: 1000 columns each
        const ScopedDispatch overlay("cpu_overlay.json", R"({"dispatch": {"scan_walk_min_columns": 16,
            "scan_walk_columns_per_thread": 1000}})");
        Runner r;
        const uint32_t walk_min = 1000 * pool_threads();
        CHECK(cumsum(r, F32, {2, walk_min}, 0) == walk);
        CHECK(cumsum(r, F32, {2, walk_min - 1}, 0) == chunks);
    }
}

TEST_CASE("A dispatch overlay moves the line walk's thresholds, without a rebuild") {
    if (test_on_cuda()) return;
    const std::string p = std::string("_") + HDML_TEST_CPU_PLATFORM;
    const std::string walk = "hdml_scan_float32_inner_sum_staging_line_walk" + p + " hdml_scan_float32_inner_sum" + p;
    {  // longer lines at any size
        const ScopedDispatch overlay("cpu_overlay.json", R"({"dispatch": {"scan_line_walk_max_line": 1024}})");
        Runner r;
        CHECK(cumsum(r, F32, {4, 1024}, 1) == walk);
        CHECK(cumsum(r, F32, {4, 1040}, 1) == "hdml_scan_float32_inner_sum" + p);
    }
    {  // a size alone: 64 KiB
        const ScopedDispatch overlay("cpu_overlay.json", R"({"dispatch": {"scan_line_walk_max_line": 0,
            "scan_line_walk_min_bytes": 65536}})");
        Runner r;
        CHECK(cumsum(r, F32, {16, 1024}, 1) == walk);
        CHECK(cumsum(r, F32, {15, 1024}, 1) == "hdml_scan_float32_inner_sum" + p);
        CHECK(cumsum(r, F32, {1023, 16}, 1) == "hdml_scan_float32_inner_sum" + p);
    }
    {  // 0 bytes: every line a multiple of 16
        const ScopedDispatch overlay("cpu_overlay.json", R"({"dispatch": {"scan_line_walk_max_line": 0,
            "scan_line_walk_min_bytes": 0}})");
        Runner r;
        CHECK(cumsum(r, F32, {1, 16}, 1) == walk);
        CHECK(cumsum(r, F32, {1, 17}, 1) == "hdml_scan_float32_inner_sum" + p);
    }
    {  // fewer lines than threads in chunks from any length (one line: in chunks wherever the pool has 2 threads)
        const ScopedDispatch overlay("cpu_overlay.json", R"({"dispatch": {"scan_line_chunks_min_bytes": 0}})");
        Runner r;
        const std::string chunks = "hdml_scan_float32_inner_sum_staging_chunk_walk" + p + " hdml_scan_float32_inner_sum" + p;
        CHECK(cumsum(r, F32, {1, 16}, 1) == (pool_threads() > 1 ? chunks : walk));
        CHECK(cumsum(r, F32, {pool_threads(), 16}, 1) == walk);
    }
    {  // and of any length
        const ScopedDispatch overlay("cpu_overlay.json", R"({"dispatch": {"scan_line_walk_multiple": 1,
            "scan_line_walk_max_line": 0, "scan_line_walk_min_bytes": 0}})");
        Runner r;
        CHECK(cumsum(r, F32, {1, 17}, 1) == walk);
        CHECK(cumsum(r, F32, {1, 3}, 1) == walk);
    }
}

TEST_CASE("A CPU's \"dispatch_by_cpu\" rows replace the defaults there (HDML_CPU_DEFAULTS picks them)") {
    if (test_on_cuda()) return;
    const std::string p = std::string("_") + HDML_TEST_CPU_PLATFORM;
    const bool x86 = std::string(HDML_TEST_CPU_PLATFORM) == "x86";
    {
        ScopedEnv cpu("HDML_CPU_DEFAULTS", "none");  // the "dispatch" values alone, on any CPU
        Runner r;
        CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, F32, {16, 64}, {1}) == "hdml_reduce_float32_inner_sum_rows_vectors" + p);
        CHECK(reduce(r, DML_REDUCE_FUNCTION_MAX, F32, {16, 256}, {1}) == "hdml_reduce_float32_inner_max" + p);
        CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, F16, {16, 32}, {1}) == "hdml_reduce_float16_inner_sum_rows_vectors" + p);
        CHECK(cumsum(r, F16, {64, 65536}, 1) == "hdml_scan_float16_inner_sum" + p);
        CHECK(join(r, F32, {65535, 1024}, 0, {16384, 49151}) == (x86 ? "hdml_stream_copy" : "hdml_copy_uint32" + p));
    }
    ScopedEnv cpu("HDML_CPU_DEFAULTS", "intel_avx512");
    Runner r;
    if (!x86) {  // ARM's params file has no rows for it
        CHECK(r.device == nullptr);
        CHECK(std::string(hdmlGetLastErrorMessage()).find("HDML_CPU_DEFAULTS is 'intel_avx512'") != std::string::npos);
        return;
    }
    // Every row rows=vectors takes is prefetched; MAX over rows of up to 256 takes it; float16 lines of
    // 65536 or more go in chunks however many.
    CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, F32, {16, 64}, {1}) ==
          "hdml_reduce_float32_inner_sum_rows_vectors_prefetched" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_LOG_SUM_EXP, F32, {16, 48}, {1}) ==
          "hdml_reduce_float32_inner_log_sum_exp_rows_vectors_prefetched" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_MAX, F32, {16, 256}, {1}) ==
          "hdml_reduce_float32_inner_max_rows_vectors_prefetched" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_MAX, F32, {16, 257}, {1}) == "hdml_reduce_float32_inner_max" + p);
    CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, F32, {16, 16}, {1}) == "hdml_reduce_float32_inner_sum_rows_whole" + p);
    // float16 sums over rows from 32 take it too.
    CHECK(reduce(r, DML_REDUCE_FUNCTION_SUM, F16, {16, 32}, {1}) ==
          "hdml_reduce_float16_inner_sum_rows_vectors_prefetched" + p);
    const std::string vector_scan16 = "hdml_scan_float16_inner_sum" + p;
    const std::string chunks16 = "hdml_scan_float16_inner_sum_staging_chunk_walk" + p + " " + vector_scan16;
    CHECK(cumsum(r, F16, {64, 65536}, 1) == chunks16);
    CHECK(cumsum(r, F16, {64, 65536 - 16}, 1) == vector_scan16);
    // SPLIT/JOIN through the streaming copy from 256 MiB (the defaults: 64 MiB).
    CHECK(join(r, F32, {65536, 1024}, 0, {16384, 49152}) == "hdml_stream_copy");
    CHECK(join(r, F32, {65535, 1024}, 0, {16384, 49151}) == "hdml_copy_uint32" + p);
    {  // an overlay still has the last word
        const ScopedDispatch overlay("cpu_overlay.json", R"({"dispatch": {"reduce_row_vectors_prefetched_max_row": 0}})");
        Runner o;
        CHECK(reduce(o, DML_REDUCE_FUNCTION_SUM, F32, {16, 64}, {1}) == "hdml_reduce_float32_inner_sum_rows_vectors" + p);
    }
}

TEST_CASE("HDML_CPU_DEFAULTS naming no CPU of the params file fails device creation with a message") {
    if (test_on_cuda()) return;
    ScopedEnv cpu("HDML_CPU_DEFAULTS", "zen9");
    Runner r;
    CHECK(r.device == nullptr);
    const std::string message = hdmlGetLastErrorMessage();
    INFO(message);
    CHECK(message.find("HDML_CPU_DEFAULTS is 'zen9'; it must be 'none' or a CPU of schedules/params/") != std::string::npos);
}

TEST_CASE("A bad dispatch overlay fails device creation with a message") {
    struct Case {
        const char *json, *message;
    };
    const Case cases[] = {
        {"{\"dispatch\": {\"reduce_row_lanes_max_rows\": 3}}", "is not one of hdml's dispatch thresholds"},
        {"{\"dispatch\": {\"scan_staged_min_line\": -1}}", "must be an integer >= 0"},
        {"{\"dispatch\": {\"scan_staged_min_line\": 2.5}}", "must be an integer >= 0"},
        {"{\"dispatch\": [1]}", "\"dispatch\" is not an object"},
        {"{\"dispatch\": ", "is not a JSON object"},
    };
    for (const Case &c : cases) {
        const std::string path = write_temp("bad.json", c.json);
        ScopedEnv env(platform_variable(), path);
        Runner r;
        INFO(c.json << " -> " << hdmlGetLastErrorMessage());
        CHECK(r.device == nullptr);
        CHECK(std::string(hdmlGetLastErrorMessage()).find(c.message) != std::string::npos);
        std::remove(path.c_str());
    }
    ScopedEnv env(platform_variable(), "/nonexistent/hdml-dispatch.json");
    Runner r;
    CHECK(r.device == nullptr);
    CHECK(std::string(hdmlGetLastErrorMessage()).find("cannot be read") != std::string::npos);
}

TEST_CASE("A message longer than 4095 bytes is cut and marked") {
    // The overlay's message quotes the unknown key: 5000 characters of it.
    const std::string path = write_temp("long.json", "{\"dispatch\": {\"" + std::string(5000, 'k') + "\": 1}}");
    ScopedEnv env(platform_variable(), path);
    Runner r;
    CHECK(r.device == nullptr);
    const std::string message = hdmlGetLastErrorMessage();
    CHECK(message.size() == 4095);
    CHECK(message.rfind(path, 0) == 0);
    CHECK(message.substr(message.size() - 6) == " [...]");
    std::remove(path.c_str());
}

TEST_CASE("hdmlGetOperatorKernels of a NULL operator is NULL") {
    CHECK(hdmlGetOperatorKernels(nullptr) == nullptr);
}
