// DML_OPERATOR_CUMULATIVE_SUMMATION / CUMULATIVE_PRODUCT: the CumulativeProduct
// page's examples and the CumulativeSummation examples quoted in the spec,
// exactly; a randomised comparison with a naive reference over ranks 1-8, axes,
// both directions, inclusive/exclusive, all six types, strides; and in-place
// execution (output aliasing input) equal to out-of-place.
#include "catch.hpp"
#include "dispatch_overlay.h"
#include "test_tensor.h"

#include <cmath>

using namespace hdml_test;

namespace {

constexpr DML_TENSOR_DATA_TYPE F32 = DML_TENSOR_DATA_TYPE_FLOAT32, F16 = DML_TENSOR_DATA_TYPE_FLOAT16;
const DML_TENSOR_DATA_TYPE kTypes[] = {F32, F16, DML_TENSOR_DATA_TYPE_INT64, DML_TENSOR_DATA_TYPE_INT32,
                                       DML_TENSOR_DATA_TYPE_UINT64, DML_TENSOR_DATA_TYPE_UINT32};

struct ScanCase {
    DML_OPERATOR_TYPE type = DML_OPERATOR_CUMULATIVE_SUMMATION;
    TestTensor in, out;
    uint32_t axis = 0;
    bool reverse = false, exclusive = false;
    DML_CUMULATIVE_SUMMATION_OPERATOR_DESC desc{};
    void bind() {
        desc = {&in.desc, &out.desc, axis, reverse ? DML_AXIS_DIRECTION_DECREASING : DML_AXIS_DIRECTION_INCREASING,
                exclusive ? TRUE : FALSE};
    }
};

std::vector<float> run_seed(DML_OPERATOR_TYPE type, bool reverse, bool exclusive) {
    const float input[] = {2, 1, 3, 5, 3, 8, 7, 3, 9, 6, 2, 4};
    ScanCase c;
    c.type = type;
    c.in = TestTensor(F32, {1, 1, 3, 4});
    for (int k = 0; k < 12; ++k) c.in.set_float(k, input[k]);
    c.out = TestTensor(F32, {1, 1, 3, 4});
    c.axis = 3;
    c.reverse = reverse;
    c.exclusive = exclusive;
    c.bind();
    Runner runner;
    REQUIRE(runner.create(type, &c.desc) == S_OK);
    REQUIRE(runner.execute({c.in.binding()}, {c.out.binding()}) == S_OK);
    std::vector<float> v;
    for (int k = 0; k < 12; ++k) v.push_back((float)c.out.float_at(k));
    return v;
}

// Naive scan along the axis, double for floats, modular 64-bit for integers.
void check_scan(const ScanCase &c, const TestTensor &out, const std::string &label) {
    const bool sum = c.type == DML_OPERATOR_CUMULATIVE_SUMMATION;
    const uint32_t n = c.in.sizes[c.axis];
    const uint32_t bits = bytes_of(c.in.type) * 8;
    const uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
    std::vector<uint32_t> line_sizes = c.in.sizes;
    line_sizes[c.axis] = 1;
    TestTensor lines(F32, line_sizes);
    std::vector<uint32_t> at(c.in.sizes.size());
    lines.for_each_index([&](const std::vector<uint32_t> &start) {
        double acc = sum ? 0 : 1, scale = sum ? 0 : 1;
        uint64_t iacc = sum ? 0 : 1;
        at = start;
        for (uint32_t step = 0; step < n; ++step) {
            at[c.axis] = c.reverse ? n - 1 - step : step;
            const uint64_t in_off = c.in.offset(at), out_off = out.offset(at);
            // The message is built only for a mismatch: these loops visit millions of elements.
            if (is_float(c.in.type)) {
                const double x = c.in.float_at(in_off);
                const double incl = sum ? acc + x : acc * x;
                const double expected = c.exclusive ? acc : incl;
                const double got = out.float_at(out_off);
                scale = sum ? scale + std::fabs(x) : std::fabs(incl) + 1e-30;
                const double tol = (c.in.type == F16 ? 2e-3 : 2e-6 + 1e-7 * step) * (scale + std::fabs(expected)) +
                                   (c.in.type == F16 ? 1e-3 : 1e-30);
                // float16 rounds to +-inf from 65520 on (the largest finite
                // is 65504): a result that near it may land either side.
                const bool f16_overflow = c.in.type == F16 && std::isinf(got) &&
                                          std::signbit(got) == std::signbit(expected) &&
                                          std::fabs(expected) + tol >= 65520.0;
                if (!(std::fabs(got - expected) <= tol) && !f16_overflow) {
                    FAIL(label << " at " << shape_string(at) << ": got " << got << ", expected " << expected);
                }
                acc = incl;
            } else {
                const uint64_t x = c.in.bits_at(in_off);
                const uint64_t incl = sum ? iacc + x : iacc * x;
                const uint64_t got = out.bits_at(out_off) & mask, expected = (c.exclusive ? iacc : incl) & mask;
                if (got != expected) {
                    FAIL(label << " at " << shape_string(at) << ": got bits " << got << ", expected " << expected);
                }
                iacc = incl;
            }
        }
    });
}

}  // namespace

TEST_CASE("CUMULATIVE_PRODUCT seed examples and CUMULATIVE_SUMMATION spec examples", "[scan][seed]") {
    const auto P = DML_OPERATOR_CUMULATIVE_PRODUCT, S = DML_OPERATOR_CUMULATIVE_SUMMATION;
    CHECK(run_seed(P, false, false) == std::vector<float>{2, 2, 6, 30, 3, 24, 168, 504, 9, 54, 108, 432});
    CHECK(run_seed(P, false, true) == std::vector<float>{1, 2, 2, 6, 1, 3, 24, 168, 1, 9, 54, 108});
    CHECK(run_seed(P, true, false) == std::vector<float>{30, 15, 15, 5, 504, 168, 21, 3, 432, 48, 8, 4});
    CHECK(run_seed(S, false, false) == std::vector<float>{2, 3, 6, 11, 3, 11, 18, 21, 9, 15, 17, 21});
    CHECK(run_seed(S, false, true) == std::vector<float>{0, 2, 3, 6, 0, 3, 11, 18, 0, 9, 15, 17});
    CHECK(run_seed(S, true, false) == std::vector<float>{11, 9, 8, 5, 21, 18, 10, 3, 21, 12, 6, 4});
    CHECK(run_seed(S, true, true) == std::vector<float>{9, 8, 5, 0, 18, 10, 3, 0, 12, 6, 4, 0});
}

namespace {

enum class Strides { random, packed };

// Random values for one shape, compared with the reference out of place and in place.
void check_random_case(DML_OPERATOR_TYPE type, DML_TENSOR_DATA_TYPE dtype, const std::vector<uint32_t> &sizes,
                       uint32_t axis, bool reverse, bool exclusive, std::mt19937 &rng,
                       Strides strides = Strides::random) {
    ScanCase c;
    c.type = type;
    c.axis = axis;
    c.reverse = reverse;
    c.exclusive = exclusive;
    auto strides_of = [&] {  // packed: TestTensor's own
        return strides == Strides::packed ? std::vector<uint32_t>{} : random_strides(sizes, rng, false);
    };
    c.in = TestTensor(dtype, sizes, strides_of());
    ElementRandom random(rng);
    const bool product = type == DML_OPERATOR_CUMULATIVE_PRODUCT;
    c.in.for_each_index([&](const std::vector<uint32_t> &i) {
        if (is_float(dtype)) {
            c.in.set_float(c.in.offset(i), product ? random.uniform(0.9, 1.1) : random.uniform(-2.0, 2.0));
        } else {
            c.in.set_bits(c.in.offset(i), random.bits());
        }
    });
    c.out = TestTensor(dtype, sizes, strides_of());
    c.bind();
    const std::string label = std::string(type == DML_OPERATOR_CUMULATIVE_SUMMATION ? "SUM " : "PRODUCT ") +
                              short_name(dtype) + " sizes " + shape_string(sizes) + " strides " +
                              shape_string(c.in.strides) + " axis " + std::to_string(c.axis) +
                              (c.reverse ? " DECREASING" : " INCREASING") +
                              (c.exclusive ? " exclusive" : " inclusive") + " (seed " + std::to_string(test_seed()) +
                              ")";
    INFO(label);
    Runner runner;
    if (!computes_on_test_device(dtype)) {
        CHECK(runner.create(type, &c.desc) == DXGI_ERROR_UNSUPPORTED);
        return;
    }
    REQUIRE(runner.create(type, &c.desc) == S_OK);
    const HRESULT executed = runner.execute({c.in.binding()}, {c.out.binding()});
    INFO(hdmlGetLastErrorMessage());
    REQUIRE(executed == S_OK);
    check_scan(c, c.out, label);
    // In place: the output desc is the input's, bound to the same buffer.
    ScanCase inplace = c;
    inplace.out = inplace.in;
    inplace.bind();
    Runner in_place_runner;
    REQUIRE(in_place_runner.create(type, &inplace.desc) == S_OK);
    TestTensor buffer = c.in;
    REQUIRE(in_place_runner.execute({buffer.binding()}, {buffer.binding()}) == S_OK);
    // Against the reference, not bit for bit against the out-of-place result: on
    // CUDA an exclusive scan in place may take another kernel (float sums then
    // round differently).
    check_scan(inplace, buffer, label + " in place");
}

}  // namespace

TEST_CASE("cumulative ops randomised against the reference, and in place", "[scan][random]") {
    std::mt19937 rng(test_seed());
    static const uint32_t primes[] = {1, 2, 3, 5, 7};
    for (DML_OPERATOR_TYPE type : {DML_OPERATOR_CUMULATIVE_SUMMATION, DML_OPERATOR_CUMULATIVE_PRODUCT}) {
        for (DML_TENSOR_DATA_TYPE dtype : kTypes) {
            for (uint32_t n = 1; n <= 8; ++n) {
                for (int k = 0; k < (n <= 3 ? 8 : 3); ++k) {
                    std::vector<uint32_t> sizes(n);
                    for (auto &s : sizes) s = primes[rng() % (n <= 3 ? 5 : 3)];
                    const uint32_t axis = rng() % n;
                    if (n <= 2 && rng() % 2) sizes[rng() % n] += 50 + rng() % 100;  // long lines / wide tiles
                    const bool reverse = rng() % 2, exclusive = rng() % 2;
                    check_random_case(type, dtype, sizes, axis, reverse, exclusive, rng);
                }
            }
        }
    }
}

// float16's carry row over few strided columns, in place: its carry loads
// the row after storing the scanned row over it (where gathers and masked
// vectors load twice), so in place the runtime calls the blocked scan; a
// randomised run found [3,3,3,3,3,1] along axis 3, padded, summing wrong.
// Every padding these seeds draw, both ops, both directions, inclusive and
// exclusive.
TEST_CASE("cumulative float16 outer scans over few strided columns, in place", "[scan][random]") {
    for (uint32_t seed = 0; seed < 16; ++seed) {
        std::mt19937 rng(test_seed() + 100 + seed);
        for (DML_OPERATOR_TYPE type : {DML_OPERATOR_CUMULATIVE_SUMMATION, DML_OPERATOR_CUMULATIVE_PRODUCT}) {
            for (bool exclusive : {false, true}) {
                check_random_case(type, F16, {3, 3, 3, 3, 3, 1}, 3, seed % 2 == 1, exclusive, rng);
            }
        }
    }
}

// Shapes that exercise the kernels' blocking: many chunks of the outer-axis
// scan (and a partial last one), blocks of lines with a partial last block, and
// lines whose length is a multiple of 256 (the padded-buffer case). The CPU's
// blocked outer scan takes rows narrower than a block of columns in one
// narrower block ({300, 37}, {2049, 3}), and wider ones in several, a partial
// last ({130, 1100} in float16: blocks of up to 32 vectors, 512 columns on
// AVX-512; the other types walk it).
TEST_CASE("cumulative ops on blocked shapes", "[scan][random]") {
    std::mt19937 rng(test_seed() + 1);
    const std::vector<std::vector<uint32_t>> shapes = {{37, 300}, {300, 37}, {3, 1024}, {1, 4096}, {2049, 3},
                                                       {130, 1100}};
    for (DML_OPERATOR_TYPE type : {DML_OPERATOR_CUMULATIVE_SUMMATION, DML_OPERATOR_CUMULATIVE_PRODUCT}) {
        for (DML_TENSOR_DATA_TYPE dtype : {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT16,
                                           DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_DATA_TYPE_UINT64}) {
            for (const auto &sizes : shapes) {
                for (uint32_t axis : {0u, 1u}) {
                    check_random_case(type, dtype, sizes, axis, rng() % 2, rng() % 2, rng);
                }
            }
        }
    }
}

// Shapes that take the GPU's chunked scan with many chunks per line: one long
// line, few long lines, few columns over many rows, and columns spanning
// several GPU blocks; {1100003}: the staged kernel's carries in several groups
// (269 segments of 4096 elements, 538 of 2048 for 64-bit types, in groups of
// 256). Run on every device.
TEST_CASE("cumulative ops on long lines (many chunks per line)", "[scan][random][large]") {
    std::mt19937 rng(test_seed() + 2);
    const std::vector<std::vector<uint32_t>> shapes = {{100003}, {1100003}, {3, 30011}, {30011, 3}, {263, 517}};
    for (DML_OPERATOR_TYPE type : {DML_OPERATOR_CUMULATIVE_SUMMATION, DML_OPERATOR_CUMULATIVE_PRODUCT}) {
        for (DML_TENSOR_DATA_TYPE dtype : {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_INT64}) {
            for (const auto &sizes : shapes) {
                // The long axis: for {263, 517} axis 0 (more columns than a GPU block's threads).
                const uint32_t axis = sizes.size() == 1 || sizes[0] == 263 || sizes[0] > sizes[1] ? 0 : 1;
                check_random_case(type, dtype, sizes, axis, rng() % 2, rng() % 2, rng);
            }
        }
    }
}

// Long lines along the innermost axis, every type, direction and exclusivity:
// on CUDA these take the kernel that stages segments of 4096 elements through
// shared memory (cuda.json's scan_staged_min_line): whole and partial
// segments, one line and several.
TEST_CASE("cumulative ops on long inner lines, every type", "[scan][random]") {
    std::mt19937 rng(test_seed() + 3);
    const std::vector<std::vector<uint32_t>> shapes = {{2, 4097}, {8193}, {3, 2048}};
    for (DML_OPERATOR_TYPE type : {DML_OPERATOR_CUMULATIVE_SUMMATION, DML_OPERATOR_CUMULATIVE_PRODUCT}) {
        for (DML_TENSOR_DATA_TYPE dtype : {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT16,
                                           DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_DATA_TYPE_UINT32,
                                           DML_TENSOR_DATA_TYPE_INT64, DML_TENSOR_DATA_TYPE_UINT64}) {
            for (const auto &sizes : shapes) {
                for (int variant = 0; variant < 4; ++variant) {
                    check_random_case(type, dtype, sizes, (uint32_t)sizes.size() - 1, variant & 1, variant & 2, rng);
                }
            }
        }
    }
}

// Short lines along the innermost axis, every type, direction and
// exclusivity: on CUDA these take the lines kernels (staging=lines, whole lines
// staged through shared memory, max_line 4, 8, 16, 32, 64 and, for 32-bit
// totals, 128: ops.cmake): lines at and just past each max_line, over several
// blocks of lines with a partial last one (128 lines a block, 64 for 64-bit
// types; max_line 64: 64 and 32; max_line 128: 32); 129 (65 for 64-bit types)
// takes the chunked scan.
TEST_CASE("cumulative ops on short inner lines, every type", "[scan][random]") {
    std::mt19937 rng(test_seed() + 4);
    for (DML_OPERATOR_TYPE type : {DML_OPERATOR_CUMULATIVE_SUMMATION, DML_OPERATOR_CUMULATIVE_PRODUCT}) {
        for (DML_TENSOR_DATA_TYPE dtype : {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT16,
                                           DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_DATA_TYPE_UINT32,
                                           DML_TENSOR_DATA_TYPE_INT64, DML_TENSOR_DATA_TYPE_UINT64}) {
            for (uint32_t line : {1u, 3u, 4u, 5u, 8u, 9u, 16u, 17u, 32u, 33u, 64u, 65u, 128u, 129u}) {
                const int variant = (int)(rng() % 4);
                check_random_case(type, dtype, {300, line}, 1, variant & 1, variant & 2, rng);
            }
            check_random_case(type, dtype, {3, 67, 7}, 2, rng() % 2, rng() % 2, rng);
            // Many short lines: several CPU tasks (task_bytes of blocks of 8
            // lines), a partial last task and a partial last block.
            check_random_case(type, dtype, {20011, 3}, 1, rng() % 2, rng() % 2, rng);
            check_random_case(type, dtype, {5003, 16}, 1, rng() % 2, rng() % 2, rng);
        }
    }
}

// An outer axis over many columns, every type, inclusive and exclusive: on
// CUDA these take the column walk (staging=columns, at least cuda.json's
// scan_columns_min_columns columns; not float16, which keeps the chunked scan):
// blocks of 32 columns (a partial last one), tiles of 16 chunks of 16 rows. 35
// rows are one partial tile (a partial chunk); 300 rows (float32 and int64, each
// inclusive for one op and exclusive for the other) are a whole tile and a
// partial one, whose carry comes from the row the block stored last; columns
// spread over o in the 3-D shape. On CPUs the same shapes take the row walk
// (staging=columns, at least scan_walk_min_columns columns; float16 with its
// float32 totals in a carry row, family scan_carry_row): tasks of walk_columns
// columns (a partial last one) walk every row. In place, an exclusive scan
// takes the chunked kernel. Down a middle axis of few columns: packed, the
// period walk (3001 lines of 5 rows of 3 columns, a line per o); strided, the
// row walk, whose task takes many o's (at least task_bytes; 700 o's of 9 x 2:
// up to 455 a task in float32, a partial last one), row 0 the walk's first
// step; rows narrower than a block (walk_columns) walk only their vectors: 16
// and 40 packed columns (a vector, and vectors with a partial last one).
TEST_CASE("cumulative ops along an outer axis with many columns, every type", "[scan][random]") {
    std::mt19937 rng(test_seed() + 5);
    for (DML_OPERATOR_TYPE type : {DML_OPERATOR_CUMULATIVE_SUMMATION, DML_OPERATOR_CUMULATIVE_PRODUCT}) {
        for (DML_TENSOR_DATA_TYPE dtype : kTypes) {
            for (bool exclusive : {false, true}) check_random_case(type, dtype, {35, 16411}, 0, rng() % 2, exclusive, rng);
            check_random_case(type, dtype, {3, 7, 6007}, 1, rng() % 2, rng() % 2, rng);
            for (bool exclusive : {false, true}) {
                check_random_case(type, dtype, {3001, 5, 3}, 1, rng() % 2, exclusive, rng, Strides::packed);
                check_random_case(type, dtype, {700, 9, 2}, 1, rng() % 2, exclusive, rng);
                check_random_case(type, dtype, {300, 6, 16}, 1, rng() % 2, exclusive, rng, Strides::packed);
                check_random_case(type, dtype, {200, 5, 40}, 1, rng() % 2, exclusive, rng, Strides::packed);
            }
        }
        const bool sum = type == DML_OPERATOR_CUMULATIVE_SUMMATION;
        check_random_case(type, F32, {300, 8209}, 0, rng() % 2, /*exclusive=*/!sum, rng);
        check_random_case(type, DML_TENSOR_DATA_TYPE_INT64, {300, 8209}, 0, rng() % 2, /*exclusive=*/sum, rng);
        check_random_case(type, F16, {300, 4099}, 0, rng() % 2, rng() % 2, rng);
    }
}

// float16's row walk (CPUs) keeps its float32 totals in a row per o of a
// slab of o's (scan_carry_row_slab_bytes; the operator's memory, reused),
// the slabs walked one after another: here slabs of 7 rows of 64 bytes (16
// columns: 43 slabs and a rest of 1), of 2 rows of 192 bytes (40 columns:
// 100 and a rest of 1), and a 4-D tensor's slabs inside its outer loop.
TEST_CASE("float16 cumulative ops down a middle axis in slabs of o, one after another", "[scan][random]") {
    const hdml_test::ScopedDispatch overlay("scan_carry_row_slabs.json", R"({"dispatch": {
        "scan_carry_row_slab_bytes": 448}})");
    std::mt19937 rng(test_seed() + 10);
    for (DML_OPERATOR_TYPE type : {DML_OPERATOR_CUMULATIVE_SUMMATION, DML_OPERATOR_CUMULATIVE_PRODUCT}) {
        for (bool exclusive : {false, true}) {
            check_random_case(type, F16, {302, 6, 16}, 1, rng() % 2, exclusive, rng, Strides::packed);
            check_random_case(type, F16, {201, 5, 40}, 1, rng() % 2, exclusive, rng, Strides::packed);
            check_random_case(type, F16, {3, 50, 6, 16}, 2, rng() % 2, exclusive, rng);
        }
    }
}

// An outer axis over too few columns for the row walk: on CPUs the chunk walk
// (staging=chunk_walk; float16 into float32 totals, its chunks sized by them)
// cuts the rows into chunks of about 256 KiB (chunk_walk_bytes), totals them,
// carries, then walks each chunk from its carry. 31 columns are fewer than any CPU's
// scan_walk_min_columns: [16000, 31] makes 8 chunks of 2114 float32 rows (a
// partial last one; 16 of int64), [70000, 2] 3 of 32768, and the 3-D shape 3
// chunks in each of 3 blocks of o (tasks over both). Every type, inclusive
// and exclusive (in place, an exclusive scan takes the chunked kernel).
TEST_CASE("cumulative ops down an outer axis in chunks of rows, every type", "[scan][random]") {
    std::mt19937 rng(test_seed() + 8);
    for (DML_OPERATOR_TYPE type : {DML_OPERATOR_CUMULATIVE_SUMMATION, DML_OPERATOR_CUMULATIVE_PRODUCT}) {
        for (DML_TENSOR_DATA_TYPE dtype : kTypes) {
            for (bool exclusive : {false, true}) {
                check_random_case(type, dtype, {16000, 31}, 0, rng() % 2, exclusive, rng);
                check_random_case(type, dtype, {70000, 2}, 0, rng() % 2, exclusive, rng);
            }
            check_random_case(type, dtype, {3, 20000, 7}, 1, rng() % 2, rng() % 2, rng);
        }
    }
}

// An outer axis over 2, 3, 4 or 8 packed columns: on CPUs the period walk (a
// line walk of that many interleaved scans over the rows as one line, float16
// into float32 totals; not DECREASING, whose rows run backwards: those take the
// chunk walk or the chunked scan), here never in chunks (the overlay; the test
// below has them). Lines of 5003 and 20011 rows end in a partial vector (the
// walk's second pass, as 7001 of 3 columns: vectors of 48 float32 on
// AVX-512), [5, 2] is all rest and [8, 2] one whole vector;
// [3, 1001, 4] walks 3 lines, [100, 2, 2] fuses its columns to 4. Every
// type, inclusive and exclusive (in place, an exclusive scan takes the
// chunked kernel).
TEST_CASE("cumulative ops down an outer axis of 2, 3, 4 or 8 packed columns, every type", "[scan][random]") {
    const hdml_test::ScopedDispatch overlay("scan_no_period_chunks.json", R"({"dispatch": {
        "scan_period_chunks_min_bytes": 4611686018427387904}})");
    std::mt19937 rng(test_seed() + 9);
    for (DML_OPERATOR_TYPE type : {DML_OPERATOR_CUMULATIVE_SUMMATION, DML_OPERATOR_CUMULATIVE_PRODUCT}) {
        for (DML_TENSOR_DATA_TYPE dtype : kTypes) {
            for (bool exclusive : {false, true}) {
                check_random_case(type, dtype, {20011, 2}, 0, false, exclusive, rng, Strides::packed);
                check_random_case(type, dtype, {5003, 8}, 0, false, exclusive, rng, Strides::packed);
                check_random_case(type, dtype, {7001, 3}, 0, false, exclusive, rng, Strides::packed);
            }
            for (const std::vector<uint32_t> &sizes : std::vector<std::vector<uint32_t>>{{5, 2}, {8, 2}, {100, 2, 2}}) {
                check_random_case(type, dtype, sizes, 0, false, rng() % 2, rng, Strides::packed);
            }
            check_random_case(type, dtype, {3, 1001, 4}, 1, false, rng() % 2, rng, Strides::packed);
            check_random_case(type, dtype, {3, 1001, 4}, 1, true, rng() % 2, rng, Strides::packed);
        }
    }
}

// The innermost axis over many long lines: on CUDA these take the line walk
// (staging=line_walk, lines of at least cuda.json's scan_line_walk_min_line
// elements, at least scan_line_walk_min_lines of them; not float16): a block
// per line walks segments of 1024 elements (512 for 64-bit types), carrying
// from the element it stored last. 2500 elements are whole segments and a
// partial last one; the 3-D shape fuses its lines over two dims. Each op scans
// float32 inclusive and int64 exclusive or the other way round; in place, an
// exclusive scan takes the staged kernel.
TEST_CASE("cumulative ops along an inner axis of many long lines", "[scan][random]") {
    std::mt19937 rng(test_seed() + 6);
    for (DML_OPERATOR_TYPE type : {DML_OPERATOR_CUMULATIVE_SUMMATION, DML_OPERATOR_CUMULATIVE_PRODUCT}) {
        const bool sum = type == DML_OPERATOR_CUMULATIVE_SUMMATION;
        check_random_case(type, F32, {520, 2500}, 1, rng() % 2, /*exclusive=*/!sum, rng);
        check_random_case(type, DML_TENSOR_DATA_TYPE_INT64, {520, 2500}, 1, rng() % 2, /*exclusive=*/sum, rng);
        check_random_case(type, DML_TENSOR_DATA_TYPE_UINT32, {2, 260, 1100}, 2, rng() % 2, rng() % 2, rng);
    }
}

// CPUs: the line walk (staging=line_walk; float16 into float32 totals of its
// own) takes every inner line through this overlay, so lines that are no multiple of its vector walk
// their rest (fewer elements than a vector) in its second pass, and lines
// shorter than a vector are all rest; in place, an exclusive scan takes the
// vector scan. Every type, direction and exclusivity; strides random.
TEST_CASE("cumulative ops: the CPU line walk on lines of any length", "[scan][random]") {
    if (hdml_test::test_on_cuda() || hdml_test::test_on_d3d12()) return;  // GPUs read no CPU overlay
    const hdml_test::ScopedDispatch overlay("scan_line_walk.json", R"({"dispatch": {"scan_line_walk_multiple": 1,
        "scan_line_walk_max_line": 0, "scan_line_walk_min_bytes": 0, "scan_line_walk_float16_max_line": 100000}})");
    std::mt19937 rng(test_seed() + 7);
    for (DML_OPERATOR_TYPE type : {DML_OPERATOR_CUMULATIVE_SUMMATION, DML_OPERATOR_CUMULATIVE_PRODUCT}) {
        for (DML_TENSOR_DATA_TYPE dtype : kTypes) {
            for (uint32_t line : {1u, 3u, 7u, 15u, 17u, 31u, 100u, 1000u}) {
                const int variant = (int)(rng() % 4);
                check_random_case(type, dtype, {37, line}, 1, variant & 1, variant & 2, rng);
            }
            check_random_case(type, dtype, {3, 5, 250}, 2, rng() % 2, rng() % 2, rng);
        }
    }
}

// CPUs: lines fewer than the pool's threads are walked in chunks from their
// carries (staging=chunk_walk, inner layout: chunk totals, carries, then the
// chunks in parallel), inner lines and the period walk's rows alike. Through
// this overlay any line length: one vector, partial vectors only (all rest),
// a partial chunk, several chunks (chunk_walk_bytes: 256 KiB) and their rest;
// float16 lines of a multiple of 16 (the others keep the vector scan), also
// 5 lines at once (scan_line_chunks_float16_min_line), and the period walk's
// float16 lines of a multiple of 16 (48 for 3 columns).
// One line (1-D), or two (in chunks on pools of 3 threads or more); every
// type, direction and exclusivity; inner strides random.
TEST_CASE("cumulative ops: the CPU chunk walk along few lines of any length", "[scan][random]") {
    if (hdml_test::test_on_cuda() || hdml_test::test_on_d3d12()) return;  // GPUs read no CPU overlay
    const hdml_test::ScopedDispatch overlay("scan_line_chunks.json", R"({"dispatch": {"scan_line_chunks_min_bytes": 0,
        "scan_period_chunks_min_bytes": 0, "scan_line_chunks_float16_min_line": 65536}})");
    std::mt19937 rng(test_seed() + 10);
    for (DML_OPERATOR_TYPE type : {DML_OPERATOR_CUMULATIVE_SUMMATION, DML_OPERATOR_CUMULATIVE_PRODUCT}) {
        for (DML_TENSOR_DATA_TYPE dtype : kTypes) {
            for (uint32_t line : {16u, 5u, 1000u, 70001u, 300007u}) {
                const int variant = (int)(rng() % 4);
                check_random_case(type, dtype, {1, line}, 1, variant & 1, variant & 2, rng);
            }
            check_random_case(type, dtype, {2, 100003}, 1, rng() % 2, rng() % 2, rng);
            // float16 chunks (65536 float32 totals each) take lines of a multiple of 16:
            // one and several chunks, a partial last one, two lines.
            if (dtype == F16) {
                for (uint32_t line : {65536u, 131088u, 300000u}) {
                    const int variant = (int)(rng() % 4);
                    check_random_case(type, dtype, {1, line}, 1, variant & 1, variant & 2, rng);
                }
                check_random_case(type, dtype, {2, 100000}, 1, rng() % 2, rng() % 2, rng);
                check_random_case(type, dtype, {5, 65552}, 1, rng() % 2, rng() % 2, rng);
                // The period walk's float16 chunks: lines of whole vectors (a multiple of 16, 48 for 3 scans).
                for (bool exclusive : {false, true}) {
                    check_random_case(type, dtype, {150000, 2}, 0, false, exclusive, rng, Strides::packed);
                    check_random_case(type, dtype, {100000, 3}, 0, false, exclusive, rng, Strides::packed);
                    check_random_case(type, dtype, {40000, 8}, 0, false, exclusive, rng, Strides::packed);
                }
                check_random_case(type, dtype, {3, 32768, 4}, 1, false, rng() % 2, rng, Strides::packed);
            }
            for (bool exclusive : {false, true}) {
                check_random_case(type, dtype, {150001, 2}, 0, false, exclusive, rng, Strides::packed);
                check_random_case(type, dtype, {100003, 3}, 0, false, exclusive, rng, Strides::packed);
                check_random_case(type, dtype, {3, 8}, 0, false, exclusive, rng, Strides::packed);
                check_random_case(type, dtype, {40009, 8}, 0, false, exclusive, rng, Strides::packed);
            }
        }
    }
}

TEST_CASE("cumulative ops validation rules", "[scan][validation]") {
    Runner runner;
    auto expect = [&](ScanCase &c, DML_OPERATOR_TYPE type, const std::string &fragment, int direction = -1) {
        c.bind();
        if (direction >= 0) std::memcpy(&c.desc.AxisDirection, &direction, sizeof direction);
        const HRESULT hr = runner.create(type, &c.desc);
        INFO(hdmlGetLastErrorMessage());
        CHECK(hr == E_INVALIDARG);
        CHECK(std::string(hdmlGetLastErrorMessage()).find(fragment) != std::string::npos);
    };
    auto valid = [] {
        ScanCase c;
        c.in = TestTensor(F32, {2, 3});
        c.out = TestTensor(F32, {2, 3});
        c.axis = 1;
        return c;
    };
    ScanCase c = valid();
    c.bind();
    CHECK(runner.create(DML_OPERATOR_CUMULATIVE_PRODUCT, &c.desc) == S_OK);
    c = valid();
    c.axis = 2;
    expect(c, DML_OPERATOR_CUMULATIVE_SUMMATION, "Axis 2 is out of range");
    c = valid();
    expect(c, DML_OPERATOR_CUMULATIVE_PRODUCT, "AxisDirection 5", 5);
    c = valid();
    c.out = TestTensor(F16, {2, 3});
    expect(c, DML_OPERATOR_CUMULATIVE_SUMMATION, "Mismatched tensor data types");
    c = valid();
    c.out = TestTensor(F32, {2, 4});
    expect(c, DML_OPERATOR_CUMULATIVE_PRODUCT, "Sizes[1] = 4");
    c = valid();
    c.out = TestTensor(F32, {2, 3, 1});
    expect(c, DML_OPERATOR_CUMULATIVE_SUMMATION, "DimensionCount");
    c = valid();
    c.in = TestTensor(DML_TENSOR_DATA_TYPE_INT8, {2, 3});
    c.out = TestTensor(DML_TENSOR_DATA_TYPE_INT8, {2, 3});
    expect(c, DML_OPERATOR_CUMULATIVE_SUMMATION, "'InputTensor' has DataType DML_TENSOR_DATA_TYPE_INT8");
}

// Inputs of 16 MiB or more along the innermost axis: on CPUs the inner scan's
// kernel then prefetches ahead of its loads (scan_generator.cpp, the scan's
// prefetch_min_bytes), a specialisation no smaller case reaches. Lines of
// 4099 elements end in a partial vector; each op scans inclusive and
// exclusive, increasing and decreasing.
TEST_CASE("cumulative ops on inner lines of 16 MiB and more", "[scan][random][large]") {
    std::mt19937 rng(test_seed() + 7);
    const std::pair<DML_TENSOR_DATA_TYPE, uint32_t> cases[] = {
        {F32, 1024}, {DML_TENSOR_DATA_TYPE_FLOAT16, 2048}, {DML_TENSOR_DATA_TYPE_INT64, 512}};
    for (DML_OPERATOR_TYPE type : {DML_OPERATOR_CUMULATIVE_SUMMATION, DML_OPERATOR_CUMULATIVE_PRODUCT}) {
        for (const auto &[dtype, lines] : cases) {
            const int variant = (int)(rng() % 4);
            check_random_case(type, dtype, {lines, 4099}, 1, variant & 1, variant & 2, rng);
        }
    }
}
