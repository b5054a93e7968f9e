// DML_OPERATOR_REDUCE: the seed page's examples exactly, a randomised
// comparison with the independent reference over ranks 1-8, axis masks,
// strides, broadcast, every function x type, and one test per validation rule.
#include "catch.hpp"
#include "dispatch_overlay.h"
#include "reference.h"

#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <tuple>

using namespace hdml_test;

namespace {

constexpr DML_TENSOR_DATA_TYPE F32 = DML_TENSOR_DATA_TYPE_FLOAT32, F16 = DML_TENSOR_DATA_TYPE_FLOAT16,
                               I8 = DML_TENSOR_DATA_TYPE_INT8, I16 = DML_TENSOR_DATA_TYPE_INT16,
                               I32 = DML_TENSOR_DATA_TYPE_INT32, I64 = DML_TENSOR_DATA_TYPE_INT64,
                               U8 = DML_TENSOR_DATA_TYPE_UINT8, U16 = DML_TENSOR_DATA_TYPE_UINT16,
                               U32 = DML_TENSOR_DATA_TYPE_UINT32, U64 = DML_TENSOR_DATA_TYPE_UINT64;

const char *function_name(DML_REDUCE_FUNCTION fn) {
    static const char *names[] = {"ARGMAX", "ARGMIN", "AVERAGE", "L1",  "L2",  "LOG_SUM",
                                  "LOG_SUM_EXP", "MAX", "MIN", "MULTIPLY", "SUM", "SUM_SQUARE"};
    return names[fn];
}

// The newest data-type table (DirectML feature level 5.0+/4.1+), per function.
std::vector<DML_TENSOR_DATA_TYPE> supported_types(DML_REDUCE_FUNCTION fn) {
    switch (fn) {
    case DML_REDUCE_FUNCTION_AVERAGE:
    case DML_REDUCE_FUNCTION_L2:
    case DML_REDUCE_FUNCTION_LOG_SUM:
    case DML_REDUCE_FUNCTION_LOG_SUM_EXP: return {F32, F16};
    case DML_REDUCE_FUNCTION_L1:
    case DML_REDUCE_FUNCTION_SUM_SQUARE:
    case DML_REDUCE_FUNCTION_MULTIPLY:
    case DML_REDUCE_FUNCTION_SUM: return {F32, F16, I64, I32, U64, U32};
    default: return {F32, F16, I64, I32, I16, I8, U64, U32, U16, U8};
    }
}

struct ReduceCase {
    DML_REDUCE_FUNCTION fn;
    TestTensor in, out;
    std::vector<uint32_t> axes;
    DML_REDUCE_OPERATOR_DESC desc{};

    void bind() {
        desc.Function = fn;
        desc.InputTensor = &in.desc;
        desc.OutputTensor = &out.desc;
        desc.AxisCount = (UINT)axes.size();
        desc.Axes = axes.data();
    }
};

std::vector<float> run_float(DML_REDUCE_FUNCTION fn, std::vector<uint32_t> in_sizes, std::vector<float> values,
                             std::vector<uint32_t> axes, DML_TENSOR_DATA_TYPE type = F32) {
    ReduceCase c;
    c.fn = fn;
    c.in = TestTensor(type, in_sizes);
    for (size_t k = 0; k < values.size(); ++k) c.in.set_float(k, values[k]);
    std::vector<uint32_t> out_sizes = in_sizes;
    for (uint32_t a : axes) out_sizes[a] = 1;
    c.out = TestTensor(type, out_sizes);
    c.axes = axes;
    c.bind();
    Runner runner;
    REQUIRE(runner.create(DML_OPERATOR_REDUCE, &c.desc) == S_OK);
    REQUIRE(runner.execute({c.in.binding()}, {c.out.binding()}) == S_OK);
    std::vector<float> result;
    for (uint64_t k = 0; k < c.out.count(); ++k) result.push_back((float)c.out.float_at(k));
    return result;
}

// Reduces `rows` rows of n elements, value(row, k), laid out as rows ({rows, n}
// along axis 1), as columns ({n, rows} along axis 0) and each alone (all
// axes), and hands every result to check(got, row, layout).
template <typename Value, typename Check>
void reduce_rows_columns_and_alone(DML_REDUCE_FUNCTION fn, DML_TENSOR_DATA_TYPE type, uint32_t rows, uint32_t n,
                                   Value value, Check check) {
    std::vector<float> by_rows(rows * n), by_columns(rows * n);
    for (uint32_t r = 0; r < rows; ++r) {
        for (uint32_t k = 0; k < n; ++k) by_rows[r * n + k] = by_columns[k * rows + r] = value(r, k);
    }
    const auto inner = run_float(fn, {rows, n}, by_rows, {1}, type);
    const auto outer = run_float(fn, {n, rows}, by_columns, {0}, type);
    for (uint32_t r = 0; r < rows; ++r) {
        check(inner[r], r, "rows (inner axis)");
        check(outer[r], r, "columns (outer axis)");
        const std::vector<float> row(by_rows.begin() + r * n, by_rows.begin() + (r + 1) * n);
        check(run_float(fn, {n}, row, {0}, type)[0], r, "all axes");
    }
}

// Fills a tensor with values suited to the function (keeps products and logs finite).
void fill_random(TestTensor &t, DML_REDUCE_FUNCTION fn, std::mt19937 &rng) {
    ElementRandom random(rng);
    const bool arg = fn == DML_REDUCE_FUNCTION_ARGMAX || fn == DML_REDUCE_FUNCTION_ARGMIN;
    // Coarse values make ties likely, which argmax/argmin must resolve exactly.
    const bool coarse = arg || fn == DML_REDUCE_FUNCTION_MAX || fn == DML_REDUCE_FUNCTION_MIN;
    t.for_each_index([&](const std::vector<uint32_t> &index) {
        const uint64_t off = t.offset(index);
        if (is_float(t.type)) {
            const double v = coarse                               ? random.integer(-4, 4) * 0.5
                             : fn == DML_REDUCE_FUNCTION_MULTIPLY ? random.uniform(0.8, 1.25)
                             : fn == DML_REDUCE_FUNCTION_LOG_SUM  ? random.uniform(0.5, 2.0)
                                                                  : random.uniform(-2.0, 2.0);
            t.set_float(off, v);
        } else {
            t.set_bits(off, arg ? (uint64_t)(int64_t)random.integer(-4, 4) : random.bits());
        }
    });
}

// A value with the digits a float32 result needs.
std::string shown(double v) {
    std::ostringstream text;
    text.precision(9);
    text << v;
    return text.str();
}

// Compares every output element with the reference and checks that the
// output's padding bytes were not written. Each comparison is plain C++ and
// only a mismatch makes a Catch2 assertion (with its message): building a
// message per element made up most of this suite's time (minutes under qemu).
void check_case(ReduceCase &c, const TestTensor &out_before, uint32_t mask, const std::string &label) {
    const bool arg = c.fn == DML_REDUCE_FUNCTION_ARGMAX || c.fn == DML_REDUCE_FUNCTION_ARGMIN;
    const uint32_t out_bytes = bytes_of(c.out.type);
    std::vector<bool> is_element(c.out.storage.size(), false);
    c.out.for_each_index([&](const std::vector<uint32_t> &index) {
        const uint64_t off = c.out.offset(index);
        for (uint32_t b = 0; b < out_bytes; ++b) is_element[off * out_bytes + b] = true;
        const RefValue ref = reference_reduce(c.in, mask, index, c.fn);
        const auto mismatch = [&](const std::string &got, const std::string &expected) {
            FAIL(label << " at output " << shape_string(index) << ": got " << got << ", expected " << expected);
        };
        if (arg || !is_float(c.out.type)) {
            const uint32_t bits = out_bytes * 8;
            const uint64_t got = c.out.bits_at(off) & (bits == 64 ? ~0ull : (1ull << bits) - 1);
            if (got != ref.bits) mismatch(std::to_string(got), std::to_string(ref.bits));
            return;
        }
        const double got = c.out.float_at(off);
        // The result as the output type can hold it (float16 overflows to inf).
        const double rounded = c.out.type == F16 ? half_to_float(float_to_half((float)ref.value)) : (float)ref.value;
        const double largest = c.out.type == F16 ? 65504.0 : 3.4e38;
        if (std::isinf(rounded) && !std::isinf(ref.value) && std::isfinite(got)) {
            if (std::fabs(got) < largest) mismatch(shown(got), "an overflow to at least " + shown(largest));
        } else if (std::isnan(ref.value)) {
            if (!std::isnan(got)) mismatch(shown(got), "NaN");
        } else if (std::isinf(rounded)) {
            if (got != rounded) mismatch(shown(got), shown(rounded));
        } else {
            // float32 accumulation error grows with the adds each partial
            // sum performs (about count/lanes + lanes); float16 outputs add
            // one rounding to 11 bits.
            const double accumulation = 6e-8 * (double)(ref.count / 8 + 64);
            const double rounding = c.out.type == F16 ? 1e-3 : 0.0;
            const double tol = accumulation * (ref.scale + std::fabs(ref.value)) + rounding * std::fabs(ref.value) +
                               (c.out.type == F16 ? 1e-4 : 1e-30);
            // (Written so that a NaN result fails.)
            if (!(std::fabs(got - ref.value) <= tol)) mismatch(shown(got), shown(ref.value) + " within " + shown(tol));
        }
    });
    for (size_t b = 0; b < c.out.storage.size(); ++b) {
        if (!is_element[b] && c.out.storage[b] != out_before.storage[b]) {
            FAIL(label << ": byte " << b << " of the output is padding and must not be written");
        }
    }
}

// Runs one randomised case (random input strides unless `in_strides` are given).
// `kernel`: a part of the name of a kernel the operator must call (the path under test).
void run_random_case(DML_REDUCE_FUNCTION fn, DML_TENSOR_DATA_TYPE type, const std::vector<uint32_t> &sizes,
                     uint32_t mask, std::mt19937 &rng, const std::vector<uint32_t> &in_strides = {},
                     const char *kernel = nullptr) {
    ReduceCase c;
    c.fn = fn;
    const uint32_t rank = (uint32_t)sizes.size();
    c.in = TestTensor(type, sizes, in_strides.empty() ? random_strides(sizes, rng, true) : in_strides);
    fill_random(c.in, fn, rng);
    std::vector<uint32_t> out_sizes = sizes;
    for (uint32_t d = 0; d < rank; ++d) {
        if ((mask >> d) & 1) {
            out_sizes[d] = 1;
            c.axes.push_back(d);
        }
    }
    std::shuffle(c.axes.begin(), c.axes.end(), rng);  // Axes order carries no meaning
    const bool arg = fn == DML_REDUCE_FUNCTION_ARGMAX || fn == DML_REDUCE_FUNCTION_ARGMIN;
    const DML_TENSOR_DATA_TYPE index_types[] = {I32, U32, I64, U64};
    const DML_TENSOR_DATA_TYPE out_type = arg ? index_types[rng() % 4] : type;
    c.out = TestTensor(out_type, out_sizes, random_strides(out_sizes, rng, false));
    c.bind();
    const std::string label = std::string(function_name(fn)) + " " + short_name(type) + "->" + short_name(out_type) +
                              " sizes " + shape_string(sizes) + " strides " + shape_string(c.in.strides) + " axes " +
                              shape_string(c.axes) + " out strides " + shape_string(c.out.strides) + " (seed " +
                              std::to_string(test_seed()) + ")";
    Runner runner;
    INFO(label);
    const HRESULT created = runner.create(DML_OPERATOR_REDUCE, &c.desc);
    INFO(hdmlGetLastErrorMessage());
    if (!computes_on_test_device(type)) {
        CHECK(created == DXGI_ERROR_UNSUPPORTED);
        return;
    }
    REQUIRE(created == S_OK);
    if (kernel) CHECK_THAT(hdmlGetOperatorKernels(runner.op), Catch::Matchers::Contains(kernel));
    const TestTensor before = c.out;
    const HRESULT executed = runner.execute({c.in.binding()}, {c.out.binding()});
    INFO(hdmlGetLastErrorMessage());
    REQUIRE(executed == S_OK);
    check_case(c, before, mask, label);
}

std::vector<uint32_t> random_sizes(uint32_t rank, std::mt19937 &rng) {
    static const uint32_t primes[] = {1, 2, 3, 5, 7, 11, 13, 17};
    std::vector<uint32_t> sizes(rank);
    uint64_t total = 1;
    for (uint32_t d = 0; d < rank; ++d) {
        const uint32_t limit = rank <= 2 ? 8 : rank <= 4 ? 6 : 3;
        sizes[d] = primes[rng() % limit];
        total *= sizes[d];
    }
    if (rank <= 2 && rng() % 3 == 0) sizes[rng() % rank] = 97 + rng() % 200;  // long rows: vector bodies and tails
    return sizes;
}

}  // namespace

TEST_CASE("REDUCE seed examples: SUM over a 3x3 tensor", "[reduce][seed]") {
    const std::vector<float> input = {1, 2, 3, 3, 0, 4, 2, 4, 2};
    CHECK(run_float(DML_REDUCE_FUNCTION_SUM, {3, 3}, input, {0}) == std::vector<float>{6, 6, 9});
    CHECK(run_float(DML_REDUCE_FUNCTION_SUM, {3, 3}, input, {1}) == std::vector<float>{6, 7, 8});
    CHECK(run_float(DML_REDUCE_FUNCTION_SUM, {3, 3}, input, {0, 1}) == std::vector<float>{21});
}

TEST_CASE("REDUCE DxDispatch example: SUM of 1..9 over axis 3 of {1,1,3,3}", "[reduce][seed]") {
    std::vector<float> input;
    for (int k = 1; k <= 9; ++k) input.push_back((float)k);
    CHECK(run_float(DML_REDUCE_FUNCTION_SUM, {1, 1, 3, 3}, input, {3}) == std::vector<float>{6, 15, 24});
}

TEST_CASE("REDUCE documented choices: AVERAGE, L2, LOG_SUM, LOG_SUM_EXP, MIN/MAX with NaN", "[reduce]") {
    CHECK(run_float(DML_REDUCE_FUNCTION_AVERAGE, {2, 2}, {1, 2, 3, 5}, {1}) == std::vector<float>{1.5f, 4.0f});
    CHECK(run_float(DML_REDUCE_FUNCTION_L2, {1, 2}, {3, 4}, {1}) == std::vector<float>{5.0f});
    CHECK(run_float(DML_REDUCE_FUNCTION_LOG_SUM, {1, 2}, {1, 0}, {1}) == std::vector<float>{0.0f});
    // LOG_SUM_EXP is max-shifted: large inputs stay finite, all -inf gives -inf.
    const auto big = run_float(DML_REDUCE_FUNCTION_LOG_SUM_EXP, {1, 2}, {1000, 1000}, {1});
    CHECK(std::fabs(big[0] - (1000.0f + std::log(2.0f))) < 1e-3f);
    CHECK(run_float(DML_REDUCE_FUNCTION_LOG_SUM_EXP, {1, 2}, {-INFINITY, -INFINITY}, {1})[0] == -INFINITY);
    CHECK(run_float(DML_REDUCE_FUNCTION_LOG_SUM_EXP, {1, 3}, {-INFINITY, 0, -INFINITY}, {1})[0] == 0.0f);
    CHECK(run_float(DML_REDUCE_FUNCTION_LOG_SUM_EXP, {1, 2}, {INFINITY, 1}, {1})[0] == INFINITY);
    // MIN and MAX propagate NaN.
    CHECK(std::isnan(run_float(DML_REDUCE_FUNCTION_MAX, {1, 3}, {1, NAN, 3}, {1})[0]));
    CHECK(std::isnan(run_float(DML_REDUCE_FUNCTION_MIN, {1, 3}, {1, NAN, 3}, {1})[0]));
    CHECK(run_float(DML_REDUCE_FUNCTION_MAX, {1, 3}, {-INFINITY, -1, -INFINITY}, {1})[0] == -1.0f);
    CHECK(run_float(DML_REDUCE_FUNCTION_MIN, {1, 2}, {0.0f, -0.0f}, {1})[0] == 0.0f);
}

// IEEE sums start at -0.0: only -0.0s sum to -0.0; any +0.0, or terms that
// cancel, give +0.0. Rows (inner), columns (outer) and all axes, float32 and float16.
TEST_CASE("REDUCE SUM and AVERAGE keep the sign of zero", "[reduce]") {
    auto signs = [](const std::vector<float> &v) {
        std::vector<int> s;
        for (float x : v) s.push_back(x != 0 ? 2 : std::signbit(x) ? -1 : 1);  // -1: -0, 1: +0
        return s;
    };
    const float z = -0.0f;
    // Rows {-0,-0,-0,-0}, {-0,+0,-0,-0}, {-1,+0,+1,-0};
    // columns {-0,-0,-1}, {-0,+0,+0}, {-0,-0,+1}, {-0,-0,-0}.
    const std::vector<float> grid = {z, z, z, z, z, 0.0f, z, z, -1, 0.0f, 1, z};
    for (DML_TENSOR_DATA_TYPE type : {F32, F16}) {
        for (DML_REDUCE_FUNCTION fn : {DML_REDUCE_FUNCTION_SUM, DML_REDUCE_FUNCTION_AVERAGE}) {
            INFO("type " << short_name(type) << ", function " << (int)fn);
            CHECK(signs(run_float(fn, {3, 4}, grid, {1}, type)) == std::vector<int>{-1, 1, 1});
            CHECK(signs(run_float(fn, {3, 4}, grid, {0}, type)) == std::vector<int>{2, 1, 2, -1});
            CHECK(signs(run_float(fn, {3, 4}, grid, {0, 1}, type)) == std::vector<int>{1});
            CHECK(signs(run_float(fn, {2, 3}, std::vector<float>(6, z), {0, 1}, type)) == std::vector<int>{-1});
        }
        // Many short rows (a row to a vector lane on CPUs, rows=whole): rows of
        // exactly 16 (dense loads) and of 5, each kind of row in turn: all -0.0,
        // one +0.0 among -0.0s, -1 and +1 that cancel, a nonzero sum.
        for (uint32_t length : {16u, 5u}) {
            const uint32_t rows = 40;
            std::vector<float> many(rows * length, z);
            std::vector<int> expected;
            for (uint32_t row = 0; row < rows; ++row) {
                float *x = &many[row * length];
                const uint32_t at = row % length;
                if (row % 4 == 1) x[at] = 0.0f;
                if (row % 4 == 2) x[at] = -1, x[(at + 1) % length] = 1;
                if (row % 4 == 3) x[at] = 2;
                expected.push_back(row % 4 == 0 ? -1 : row % 4 == 3 ? 2 : 1);
            }
            INFO("rows of " << length);
            CHECK(signs(run_float(DML_REDUCE_FUNCTION_SUM, {rows, length}, many, {1}, type)) == expected);
            CHECK(signs(run_float(DML_REDUCE_FUNCTION_AVERAGE, {rows, length}, many, {1}, type)) == expected);
            const std::vector<float> all_negative_zero(rows * length, z);
            for (DML_REDUCE_FUNCTION fn : {DML_REDUCE_FUNCTION_L1, DML_REDUCE_FUNCTION_SUM_SQUARE}) {
                CHECK(signs(run_float(fn, {rows, length}, all_negative_zero, {1}, type)) == std::vector<int>(rows, 1));
            }
        }
        // |x| and x*x of -0.0 are +0.0.
        CHECK(signs(run_float(DML_REDUCE_FUNCTION_L1, {1, 3}, {z, z, z}, {1}, type)) == std::vector<int>{1});
        CHECK(signs(run_float(DML_REDUCE_FUNCTION_SUM_SQUARE, {1, 3}, {z, z, z}, {1}, type)) == std::vector<int>{1});
    }
}

// LOG_SUM_EXP's special values deep inside long rows and columns, where they
// fall in different lanes and chunks of the GPU's one-pass tree of
// (max, scaled sum) pairs: all -inf, +inf (twice), NaN, one finite value among
// -inf, and large values that would overflow exp without the shift.
TEST_CASE("REDUCE LOG_SUM_EXP special values in long rows and columns", "[reduce]") {
    const uint32_t rows = 5, n = 70001;
    std::mt19937 rng(test_seed() + 3);
    std::uniform_real_distribution<float> small(-1, 1);
    std::vector<std::vector<float>> row(rows, std::vector<float>(n));
    for (uint32_t k = 0; k < n; ++k) {
        row[0][k] = -INFINITY;
        row[1][k] = small(rng);
        row[2][k] = small(rng);
        row[3][k] = -INFINITY;
        row[4][k] = 1000 + small(rng);
    }
    row[1][3] = row[1][50000] = INFINITY;
    row[2][65000] = NAN;
    row[3][n - 1] = 5;
    double shifted = 0;
    for (float v : row[4]) shifted += std::exp((double)v - 1000);
    const double expected4 = 1000 + std::log(shifted);
    auto check = [&](const std::vector<float> &got, const char *layout) {
        INFO(layout);
        REQUIRE(got.size() == rows);
        CHECK(got[0] == -INFINITY);
        CHECK(got[1] == INFINITY);
        CHECK(std::isnan(got[2]));
        CHECK(got[3] == 5.0f);
        CHECK(std::fabs(got[4] - expected4) < 1e-3);
    };
    std::vector<float> by_rows, by_columns(rows * n);
    for (uint32_t r = 0; r < rows; ++r) {
        by_rows.insert(by_rows.end(), row[r].begin(), row[r].end());
        for (uint32_t k = 0; k < n; ++k) by_columns[k * rows + r] = row[r][k];
    }
    check(run_float(DML_REDUCE_FUNCTION_LOG_SUM_EXP, {rows, n}, by_rows, {1}), "rows (inner axis)");
    check(run_float(DML_REDUCE_FUNCTION_LOG_SUM_EXP, {n, rows}, by_columns, {0}), "columns (outer axis)");
}

// LOG_SUM_EXP on CPUs cuts a row into pieces (blocks of 16384 of its elements
// along the inner axis, chunks of rows down an outer one), each with its own
// maximum and sum, then merges them at the row's maximum. Rows whose maximum
// lies in the last block, rows falling from their first element (later
// pieces scaled by less than 2^-126), rows whose first pieces are all -inf
// (below a maximum near -40, or -120 in row 6: exp(0 - max) overflows where
// such a piece's zero sum meets its scale), rows whose maximum is their last
// element (past the last full vector of the inner layout); 4 rows (a row's blocks in parallel) and 8 (one after the
// other), float32 and float16, along the inner and outer axes and all axes;
// each against exp and log in double precision.
TEST_CASE("REDUCE LOG_SUM_EXP in pieces: the maximum in any block or chunk", "[reduce]") {
    const uint32_t n = 3 * 16384 + 1000 + 17;
    auto value = [&](uint32_t row, uint32_t k) -> float {
        const float shift = 4.0f * (float)(row / 4);
        const float wave = std::round(16.0f * std::sin(0.0007f * (float)k)) / 16.0f;  // 1/16ths: exact in float16
        switch (row % 4) {
        case 0: return shift + 3.0f * (float)(k / 16384) + wave;
        case 1: return shift - 0.25f * (float)(k / 256) + wave;
        case 2: return k < 20000 ? -INFINITY : (row < 4 ? shift - 40.0f : -120.0f) + wave;
        default: return k + 1 == n ? shift + 3.0f : shift - 5.0f;
        }
    };
    auto expected = [&](uint32_t row) {
        double m = -INFINITY, s = 0;
        for (uint32_t k = 0; k < n; ++k) m = std::max(m, (double)value(row, k));
        for (uint32_t k = 0; k < n; ++k) s += std::exp((double)value(row, k) - m);
        return m + std::log(s);
    };
    for (DML_TENSOR_DATA_TYPE type : {F32, F16}) {
        const double tolerance = type == F32 ? 2e-6 : 1e-3;  // relative: float16 results round to 11 bits
        auto check = [&](float got, uint32_t row, const char *layout) {
            const double e = expected(row);
            INFO(layout << (type == F32 ? " float32" : " float16") << " row " << row << " got " << got
                        << " expected " << e);
            CHECK(std::fabs(got - e) <= tolerance * std::max(1.0, std::fabs(e)));
        };
        for (uint32_t rows : {4u, 8u}) {
            reduce_rows_columns_and_alone(DML_REDUCE_FUNCTION_LOG_SUM_EXP, type, rows, n, value, check);
        }
    }
}

// Down the outer axis, a CPU task's chunk of rows is read in sub-pieces of
// about 64 KiB (here 15 rows of 1043 columns, float16 31), each with its own
// maximum and sum merged into the chunk's as they come. Columns whose maximum
// lies in any sub-piece, falling and rising columns (early or late pieces
// scaled below 2^-126), leading runs of -inf, all -inf, +inf, NaN; [R, C]
// along axis 0 and [2, R, C] along axis 1; each against double precision.
TEST_CASE("REDUCE LOG_SUM_EXP down many columns: the maximum in any sub-piece", "[reduce]") {
    const uint32_t rows = 4000, columns = 1043;
    auto grid = [](double v) { return std::round(16.0 * v) / 16.0; };  // 1/16ths below 128: exact in float16
    auto value = [&](uint32_t r, uint32_t c) -> float {
        const double wave = grid(4.0 * std::sin(0.01 * r + c));
        const double ramp = grid(200.0 * r / rows);
        switch (c % 8) {
        case 0: return (float)wave;
        case 1: return r == c * 37 % rows ? 20.0f : (float)(wave - 5.0);
        case 2: return (float)(100.0 - ramp);
        case 3: return (float)(ramp - 100.0);
        case 4: return r < (c % 5 + 1) * rows / 6 ? -INFINITY : (float)wave;
        case 5: return -INFINITY;
        case 6: return r == c * 13 % rows ? INFINITY : (float)wave;
        default: return r == c * 29 % rows ? NAN : c % 16 == 15 && r == 7 ? INFINITY : (float)wave;
        }
    };
    std::vector<double> expected(columns);
    for (uint32_t c = 0; c < columns; ++c) {
        double m = -INFINITY, s = 0;
        bool nan = false;
        for (uint32_t r = 0; r < rows; ++r) nan |= std::isnan(value(r, c)), m = std::max(m, (double)value(r, c));
        for (uint32_t r = 0; r < rows && std::isfinite(m); ++r) s += std::exp((double)value(r, c) - m);
        expected[c] = nan ? NAN : std::isfinite(m) ? m + std::log(s) : m;
    }
    std::vector<float> values(rows * columns);
    for (uint32_t r = 0; r < rows; ++r) {
        for (uint32_t c = 0; c < columns; ++c) values[r * columns + c] = value(r, c);
    }
    std::vector<float> twice = values;
    twice.insert(twice.end(), values.begin(), values.end());
    for (DML_TENSOR_DATA_TYPE type : {F32, F16}) {
        const double tolerance = type == F32 ? 2e-6 : 1e-3;  // relative: float16 results round to 11 bits
        const auto down = run_float(DML_REDUCE_FUNCTION_LOG_SUM_EXP, {rows, columns}, values, {0}, type);
        const auto middle = run_float(DML_REDUCE_FUNCTION_LOG_SUM_EXP, {2, rows, columns}, twice, {1}, type);
        for (uint32_t k = 0; k < 3 * columns; ++k) {
            const float got = k < columns ? down[k] : middle[k - columns];
            const double e = expected[k % columns];
            INFO((type == F32 ? "float32" : "float16") << (k < columns ? " [R, C]" : " [2, R, C]") << " column "
                                                       << k % columns << " got " << got << " expected " << e);
            if (std::isnan(e)) {
                CHECK(std::isnan(got));
            } else if (std::isinf(e)) {
                CHECK(got == e);
            } else {
                CHECK(std::fabs(got - e) <= tolerance * std::max(1.0, std::fabs(e)));
            }
        }
    }
}

// CPUs' plain inner kernel takes MIN/MAX of floats from three integer extremes
// of the bits (signed maximum, unsigned minimum and maximum): the deciding
// element in any block of a long row, or in its last elements, with signed
// zeros, NaNs of either sign and rows of one sign.
TEST_CASE("REDUCE MIN/MAX of floats: the deciding element in any block of a long row", "[reduce]") {
    const uint32_t n = 3 * 16384 + 1000 + 17, rows = 8;
    const float nan = std::numeric_limits<float>::quiet_NaN(), negative_nan = std::copysign(nan, -1.0f);
    auto value = [&](uint32_t row, uint32_t k) -> float {
        const float negative = -1.0f - (float)(k % 97), positive = 1.0f + (float)(k % 89);
        switch (row) {
        case 0: return k == n - 5 ? -0.5f : negative;                         // all negative, the largest last
        case 1: return k == 2 * 16384 + 3 ? -0.0f : negative;                 // -0 the largest
        case 2: return k == 40000 ? 0.0f : k == 5 ? -0.0f : negative;         // +0 above -0
        case 3: return k == n - 1 ? negative_nan : positive;                  // -NaN at the end
        case 4: return k == 16384 + 7 ? nan : k % 2 ? positive : negative;    // NaN in the second block
        case 5: return k == 33333 ? -30000.0f : -INFINITY;                    // (exact in float16)
        case 6: return k == n - 2 ? -3.0f : k == 20000 ? INFINITY : positive;  // one negative, at the end
        default: return k == n - 1 ? -0.0f : 0.0f;                            // zeros, -0 last
        }
    };
    auto expected = [&](DML_REDUCE_FUNCTION fn, uint32_t row) {
        double best = value(row, 0);
        for (uint32_t k = 1; k < n; ++k) best = ordered_extreme(best, value(row, k), fn == DML_REDUCE_FUNCTION_MAX);
        return (float)best;
    };
    for (DML_REDUCE_FUNCTION fn : {DML_REDUCE_FUNCTION_MAX, DML_REDUCE_FUNCTION_MIN}) {
        for (DML_TENSOR_DATA_TYPE type : {F32, F16}) {
            auto check = [&](float got, uint32_t row, const char *layout) {
                const float e = expected(fn, row);
                INFO(function_name(fn) << " " << layout << (type == F32 ? " float32" : " float16") << " row " << row
                                       << " got " << got << " expected " << e);
                CHECK((std::isnan(e) ? std::isnan(got) : got == e && std::signbit(got) == std::signbit(e)));
            };
            reduce_rows_columns_and_alone(fn, type, rows, n, value, check);
        }
    }
}

// The same special values in short rows among many (a thread per row on CUDA,
// rows read in 16-byte vectors: that kernel takes the row's maximum, then
// Σexp(x - max), in two passes over the row).
TEST_CASE("REDUCE LOG_SUM_EXP special values in many short rows", "[reduce]") {
    const uint32_t rows = 540673, n = 8;  // rows: at least reduce_whole_columns_min_outputs
    std::mt19937 rng(test_seed() + 4);
    std::uniform_real_distribution<float> small(-1, 1);
    std::vector<float> values(rows * n);
    for (float &v : values) v = small(rng);
    for (uint32_t k = 0; k < n; ++k) {
        values[0 * n + k] = -INFINITY;
        values[3 * n + k] = -INFINITY;
        values[4 * n + k] = 1000 + small(rng);
    }
    values[1 * n + 2] = values[1 * n + 7] = INFINITY;
    values[2 * n + 5] = NAN;
    values[3 * n + n - 1] = 5;
    double shifted = 0;
    for (uint32_t k = 0; k < n; ++k) shifted += std::exp((double)values[4 * n + k] - 1000);
    const std::vector<float> got = run_float(DML_REDUCE_FUNCTION_LOG_SUM_EXP, {rows, n}, values, {1});
    REQUIRE(got.size() == rows);
    CHECK(got[0] == -INFINITY);
    CHECK(got[1] == INFINITY);
    CHECK(std::isnan(got[2]));
    CHECK(got[3] == 5.0f);
    CHECK(std::fabs(got[4] - (1000 + std::log(shifted))) < 1e-3);
    for (uint32_t r = 5; r < rows; r += 9973) {  // ordinary rows, against double
        double peak = -INFINITY, sum = 0;
        for (uint32_t k = 0; k < n; ++k) peak = std::max(peak, (double)values[r * n + k]);
        for (uint32_t k = 0; k < n; ++k) sum += std::exp((double)values[r * n + k] - peak);
        INFO("row " << r);
        CHECK(std::fabs(got[r] - (peak + std::log(sum))) < 1e-5);
    }
}

TEST_CASE("REDUCE randomised against the reference: every function x type, ranks 1-8", "[reduce][random]") {
    std::mt19937 rng(test_seed());
    for (int f = DML_REDUCE_FUNCTION_ARGMAX; f <= DML_REDUCE_FUNCTION_SUM_SQUARE; ++f) {
        const auto fn = (DML_REDUCE_FUNCTION)f;
        for (DML_TENSOR_DATA_TYPE type : supported_types(fn)) {
            for (uint32_t rank = 1; rank <= 8; ++rank) {
                if (rank <= 4) {
                    // Every non-empty axis mask.
                    for (uint32_t mask = 1; mask < (1u << rank); ++mask) {
                        run_random_case(fn, type, random_sizes(rank, rng), mask, rng);
                    }
                } else {
                    for (int k = 0; k < 6; ++k) {
                        const uint32_t mask = 1 + rng() % ((1u << rank) - 1);
                        run_random_case(fn, type, random_sizes(rank, rng), mask, rng);
                    }
                }
            }
        }
    }
}

TEST_CASE("REDUCE large rows and columns exercise vector bodies, tails and parallel tasks", "[reduce][random]") {
    std::mt19937 rng(test_seed() + 1);
    const std::vector<std::vector<uint32_t>> shapes = {{3, 1031}, {1031, 3}, {257, 67}, {5, 7, 513}, {4099}};
    for (DML_REDUCE_FUNCTION fn : {DML_REDUCE_FUNCTION_SUM, DML_REDUCE_FUNCTION_MAX, DML_REDUCE_FUNCTION_LOG_SUM_EXP,
                                   DML_REDUCE_FUNCTION_ARGMAX, DML_REDUCE_FUNCTION_ARGMIN}) {
        for (DML_TENSOR_DATA_TYPE type : {F32, F16, I32, U8}) {
            const auto types = supported_types(fn);
            if (std::find(types.begin(), types.end(), type) == types.end()) continue;
            for (const auto &sizes : shapes) {
                for (uint32_t mask = 1; mask < (1u << sizes.size()); ++mask) {
                    run_random_case(fn, type, sizes, mask, rng);
                }
            }
        }
    }
}

// Down a middle axis of few columns (the outer layout, each o's columns a few
// elements). On CPUs, rows=whole takes up to reduce_whole_rows_max_columns
// (32) columns over rows up to reduce_whole_rows_max_row (64) as its rows, a
// vector of o's at a time and its columns inside (3001 o's of 5 x 3, 1001 of
// 9 x 4 padded apart; 1001 of 8 x 2, 517 of 16 x 4 padded apart, 333 of 24
// x 8, 250 of 10 x 4 and 301 of 4 x 16 padded apart: contiguous rows of 2-16
// columns, reduced a dense vector of whole rows at a time where the float
// vector holds at least a row, the rest a row at a time
// (whole_rows_are_periodic_vectors: 10 x 4 leaves 2 rows on AVX-512, 4 x 16
// fills an AVX-512 vector and is more than an AVX2 one), 777 of 5 x 2 (fewer
// rows than an AVX-512 vector takes: a column at a time there); the outer
// kernel's tasks take many o's (at least task_bytes) where it runs them (70
// rows of 2 columns: two chunks of 35 rows, 117 o's a task in float32; 40
// columns over 6 rows: 34 o's a task, each o's columns in 3 vectors), the
// last task partial. Every function and type. Run on every device.
TEST_CASE("REDUCE down a middle axis of few columns: columns as rows, tasks of many o's", "[reduce][random]") {
    std::mt19937 rng(test_seed() + 10);
    struct Shape {
        std::vector<uint32_t> sizes, strides;
    };
    const std::vector<Shape> shapes = {
        {{3001, 5, 3}, {15, 3, 1}},  {{1001, 9, 4}, {40, 4, 1}},   {{700, 70, 2}, {140, 2, 1}},
        {{2003, 6, 40}, {240, 40, 1}}, {{1001, 8, 2}, {16, 2, 1}},   {{517, 16, 4}, {70, 4, 1}},
        {{333, 24, 8}, {192, 8, 1}},  {{250, 10, 4}, {40, 4, 1}},   {{301, 4, 16}, {70, 16, 1}},
        {{777, 5, 2}, {10, 2, 1}}};
    for (int f = DML_REDUCE_FUNCTION_ARGMAX; f <= DML_REDUCE_FUNCTION_SUM_SQUARE; ++f) {
        const auto fn = (DML_REDUCE_FUNCTION)f;
        for (DML_TENSOR_DATA_TYPE type : supported_types(fn)) {
            for (const Shape &shape : shapes) run_random_case(fn, type, shape.sizes, 2, rng, shape.strides);
        }
    }
}

// Many short rows: on CPUs the rows=whole kernels (rows of at most
// reduce_whole_rows_max_row = 64 but not a multiple of
// reduce_whole_rows_plain_multiple = 64, at least 16 of them: a vector lane per
// row, tasks of task_bytes whose last vector of rows shifts back over rows
// already done). Exactly a vector of rows (16), a vector and a tail (17, 37),
// fewer than a vector (15: the plain kernel), many tasks with tails (20011 rows
// of 2 and 3001 of 16), rows of 63 (the longest rows=whole takes; dense float
// rows of 32..64 go to rows=vectors, next test), 64 (a multiple: plain) and 65
// (past the threshold), rows 2 or 3 elements apart and
// rows padded apart; dense rows of exactly a vector of some target (16, 8, 4
// and 2 elements: one load per row, reduced across lanes), every function and
// type. Run on every device.
TEST_CASE("REDUCE many short rows: every function and type, rows strided and padded", "[reduce][random]") {
    std::mt19937 rng(test_seed() + 5);
    struct Shape {
        std::vector<uint32_t> sizes, strides;
    };
    const std::vector<Shape> shapes = {{{16, 3}, {3, 1}},      {{17, 5}, {7, 1}},       {{37, 7}, {14, 2}},
                                       {{15, 7}, {7, 1}},      {{20011, 2}, {2, 1}},   {{3001, 16}, {48, 3}},
                                       {{1000, 63}, {63, 1}},  {{1000, 64}, {64, 1}},  {{1000, 65}, {70, 1}},
                                       {{2, 40, 9}, {1000, 20, 2}}, {{3001, 16}, {16, 1}}, {{2003, 8}, {8, 1}},
                                       {{1001, 4}, {4, 1}},    {{777, 2}, {2, 1}}};
    for (int f = DML_REDUCE_FUNCTION_ARGMAX; f <= DML_REDUCE_FUNCTION_SUM_SQUARE; ++f) {
        const auto fn = (DML_REDUCE_FUNCTION)f;
        for (DML_TENSOR_DATA_TYPE type : supported_types(fn)) {
            for (const Shape &shape : shapes) {
                const uint32_t last = 1u << (shape.sizes.size() - 1);
                run_random_case(fn, type, shape.sizes, last, rng, shape.strides);
            }
        }
    }
}

// rows=vectors (CPUs, float types; reduce_row_vectors_min_row..max_row, and
// ..max_sum_row for sums and products): contiguous rows reduced in vectors of
// their elements, then a vector of rows across lanes. The overlay gives it
// rows of every kind of length: shorter than a vector (one masked load),
// exactly one or two vectors (16, 32), a vector and a tail (17, 33), several
// (100, 200, 1000); rows dense and padded apart; a vector of rows and a tail
// (17 rows: the last vector shifts back), many tasks (2003 rows; 67 of 1000);
// every function of the float types. `prefetched_max_row`: rows up to it go
// to rows=vectors_prefetched (x86), whose kernel name `kernel` then holds.
namespace {
void run_row_vectors_cases(int prefetched_max_row, const char *kernel, uint32_t seed) {
    const ScopedDispatch overlay("row_vectors.json", R"({"dispatch": {"reduce_row_vectors_min_row": 1,
        "reduce_row_vectors_max_row": 1000, "reduce_row_vectors_max_sum_row": 1000,
        "reduce_row_vectors_max_extreme_row": 1000, "reduce_row_vectors_float16_min_sum_row": 0,
        "reduce_row_vectors_prefetched_max_row": )" + std::to_string(prefetched_max_row) + "}}");
    std::mt19937 rng(seed);
    for (uint32_t length : {3u, 8u, 16u, 17u, 32u, 33u, 100u, 200u, 1000u}) {
        for (uint32_t rows : {17u, length < 1000 ? 2003u : 67u}) {
            for (uint32_t pad : {0u, 5u}) {
                for (int f = DML_REDUCE_FUNCTION_ARGMAX; f <= DML_REDUCE_FUNCTION_SUM_SQUARE; ++f) {
                    for (DML_TENSOR_DATA_TYPE type : {F32, F16}) {
                        run_random_case((DML_REDUCE_FUNCTION)f, type, {rows, length}, 2, rng, {length + pad, 1},
                                        kernel);
                    }
                }
            }
        }
    }
}
}  // namespace

TEST_CASE("REDUCE rows=vectors: contiguous rows of any length, every float function", "[reduce][random]") {
    if (test_on_gpu()) return;  // a CPU mapping: the GPU suites run the other shapes
    run_row_vectors_cases(0, "_rows_vectors", test_seed() + 7);
}

// The same rows with each row's whole vectors prefetched and its last vector
// apart (rows=vectors_prefetched: x86 kernels, which a profile turns on).
TEST_CASE("REDUCE rows=vectors_prefetched: contiguous rows of any length, every float function", "[reduce][random]") {
    if (test_on_gpu()) return;
    if (std::string(HDML_TEST_CPU_PLATFORM) != "x86") {
        WARN("rows=vectors_prefetched: no kernels on " HDML_TEST_CPU_PLATFORM " (x86 only)");
        return;
    }
    run_row_vectors_cases(1000, "_rows_vectors_prefetched", test_seed() + 8);
}

// Shapes that take each of the GPU mappings (schedules/reduce_schedule.h and the
// "dispatch" numbers of schedules/params/cuda.json): one long row cut into many
// blocks (all axes), few long rows, many short rows (4 lanes per row: 17 = the
// shortest such row, 37 and 100 elements in row counts not a multiple of a
// block's 64 rows), many very short rows (a thread per row: 20011 rows of 5 in
// the split outer kernel), few columns over many rows (split-K; at most
// reduce_warp_merge_max_outputs columns, 3 and 4099 here, not a multiple of a
// block's 8, have their runs merged by a warp per column), and many
// columns; at least reduce_whole_columns_min_outputs columns or very short
// rows (600001, not a multiple of a block's 1024 columns) take the
// whole-columns kernel. On CPUs the outer layout's tiles of tile_columns
// (4096) and chunks of rows: one tile of 3 columns in 64 chunks (65537 rows),
// 147 tiles, the last of 1985 columns (600001), and two tiles times two
// outer indices in 15 chunks of 67 rows, the last one short (2 x 1000 x 4100).
// Run on every device.
TEST_CASE("REDUCE shapes of the GPU mappings: chunked rows, rows in lanes, thread per row, split-K",
          "[reduce][random][large]") {
    std::mt19937 rng(test_seed() + 2);
    struct Shape {
        std::vector<uint32_t> sizes;
        uint32_t mask;
    };
    const std::vector<Shape> shapes = {{{1u << 18}, 1}, {{3, 65537}, 2},  {{20011, 37}, 2},
                                       {{16384, 17}, 2}, {{16411, 100}, 2}, {{20011, 5}, 2},
                                       {{65537, 3}, 1},  {{101, 4099}, 1},  {{5, 600001}, 1},
                                       {{600001, 3}, 2}, {{2, 1000, 4100}, 2}};
    for (DML_REDUCE_FUNCTION fn : {DML_REDUCE_FUNCTION_SUM, DML_REDUCE_FUNCTION_MAX, DML_REDUCE_FUNCTION_LOG_SUM_EXP,
                                   DML_REDUCE_FUNCTION_ARGMAX, DML_REDUCE_FUNCTION_ARGMIN}) {
        for (DML_TENSOR_DATA_TYPE type : {F32, I64}) {
            const auto types = supported_types(fn);
            if (std::find(types.begin(), types.end(), type) == types.end()) continue;
            for (const Shape &shape : shapes) run_random_case(fn, type, shape.sizes, shape.mask, rng);
        }
    }
}

// float16 down the outer layout past outer_prefetch_min_bytes (x86's 16 MiB:
// 2 x 2100 x 4100 is 34 MB), where the CPU kernels prefetch rows ahead in a
// specialisation of their own: two tiles of columns, chunks of rows, the
// float16 conversions and ARGMAX/ARGMIN's 32-bit keys. Contiguous, so that the
// columns stay unit-stride. Run on every device.
TEST_CASE("REDUCE and ARGMAX/ARGMIN float16 down the outer layout of a large input", "[reduce][random][large]") {
    std::mt19937 rng(test_seed() + 9);
    const std::vector<uint32_t> sizes = {2, 2100, 4100}, strides = {2100 * 4100, 4100, 1};
    for (DML_REDUCE_FUNCTION fn : {DML_REDUCE_FUNCTION_SUM, DML_REDUCE_FUNCTION_MAX, DML_REDUCE_FUNCTION_ARGMAX,
                                   DML_REDUCE_FUNCTION_ARGMIN}) {
        run_random_case(fn, F16, sizes, 2, rng, strides, "_outer");
    }
}

// The CUDA kernels whose lanes merge through a warp-shuffle butterfly
// (lane_merge=shuffles), for every type they are built for (float32 above):
// rows merged by a warp from their chunk partials (3 rows of 65537), and many
// short rows in 4 lanes each (20011 rows of 37: the last warp holds 3 rows, its
// other lanes past the end). ARGMAX/ARGMIN of 8- and 16-bit types shuffle
// their 32-bit keys over rows of at most 65536 (3 rows of 65536; 65537 take
// 64-bit keys). Rows contiguous, so that every case keeps the inner layout
// these kernels are built for (random strides may not). Run on every device.
TEST_CASE("REDUCE lanes merged by warp shuffles, every type built", "[reduce][random][large]") {
    std::mt19937 rng(test_seed() + 4);
    for (DML_TENSOR_DATA_TYPE type : {F16, I32, U32, I16, I8, U16, U8}) {
        for (DML_REDUCE_FUNCTION fn : {DML_REDUCE_FUNCTION_SUM, DML_REDUCE_FUNCTION_MULTIPLY, DML_REDUCE_FUNCTION_MIN,
                                       DML_REDUCE_FUNCTION_MAX, DML_REDUCE_FUNCTION_ARGMAX,
                                       DML_REDUCE_FUNCTION_ARGMIN}) {
            const auto types = supported_types(fn);
            if (std::find(types.begin(), types.end(), type) == types.end()) continue;
            const bool arg = fn == DML_REDUCE_FUNCTION_ARGMAX || fn == DML_REDUCE_FUNCTION_ARGMIN;
            if (arg && bytes_of(type) > 2) continue;  // 64-bit keys: no shuffles
            std::vector<std::vector<uint32_t>> shapes = {{3, 65537}, {20011, 37}};
            if (arg) shapes.push_back({3, 65536});
            for (const auto &sizes : shapes) run_random_case(fn, type, sizes, 2, rng, {sizes[1], 1});
        }
    }
}

// Short rows read in 16-byte vectors (CUDA's vector_bytes kernels: a thread
// per row, many rows, rows unit-stride and a whole number of vectors long).
// The first plane starts aligned and takes them; the second starts one
// element past a vector (its plane stride is odd), so its call takes the
// element-load kernel: the runtime checks each call's address. Run on every device.
TEST_CASE("REDUCE short rows read in vectors, and the same rows unaligned", "[reduce][random][large]") {
    std::mt19937 rng(test_seed() + 3);
    const uint32_t rows = 540673, row = 8;  // rows: at least reduce_whole_columns_min_outputs
    const std::vector<uint32_t> sizes = {2, rows, row}, strides = {rows * row + 1, row, 1};
    // float32 SUM (one ld.v4 per vector; L2, AVERAGE, ... share its kernel),
    // MAX (key compares: two 8-byte loads), MULTIPLY of integers, ARGMIN and
    // LOG_SUM_EXP (two passes over the row: its maximum, then the sum).
    const std::vector<std::pair<DML_REDUCE_FUNCTION, DML_TENSOR_DATA_TYPE>> cases = {
        {DML_REDUCE_FUNCTION_SUM, F32},    {DML_REDUCE_FUNCTION_MAX, U32},         {DML_REDUCE_FUNCTION_MULTIPLY, I32},
        {DML_REDUCE_FUNCTION_ARGMIN, F32}, {DML_REDUCE_FUNCTION_LOG_SUM_EXP, F32}};
    for (const auto &c : cases) run_random_case(c.first, c.second, sizes, 4, rng, strides);
}

// float16 rows read as 32-bit words (CUDA's loads=words twins: a thread per
// short row, also in 16-byte vectors of words (rows of 8) or words alone (rows
// of 6); a few lanes per row (rows of 64); blocks along few long rows: 65538
// elements, and 65536, ARGMAX's longest row in 32-bit keys). As
// above, the first plane starts on a 16-byte boundary and takes them, the
// second starts one element later (odd plane stride) and takes the element
// kernels: the runtime checks each call's address. Then columns read in pairs.
// The thread-per-row shapes (540673 rows: the whole-columns kernel's minimum)
// run on CUDA only, where those kernels are; emulated CPUs would take minutes.
TEST_CASE("REDUCE float16 rows read in words, and the same rows off a word", "[reduce][random][large]") {
    std::mt19937 rng(test_seed() + 6);
    const std::vector<DML_REDUCE_FUNCTION> every = {DML_REDUCE_FUNCTION_SUM,         DML_REDUCE_FUNCTION_MULTIPLY,
                                                    DML_REDUCE_FUNCTION_MIN,         DML_REDUCE_FUNCTION_MAX,
                                                    DML_REDUCE_FUNCTION_LOG_SUM_EXP, DML_REDUCE_FUNCTION_ARGMAX,
                                                    DML_REDUCE_FUNCTION_ARGMIN};
    // Sums (SUM's pair of accumulators), keys (MAX), LOG_SUM_EXP's tree or two passes, packed ARGMAX keys.
    const std::vector<DML_REDUCE_FUNCTION> paths = {DML_REDUCE_FUNCTION_SUM, DML_REDUCE_FUNCTION_MAX,
                                                    DML_REDUCE_FUNCTION_LOG_SUM_EXP, DML_REDUCE_FUNCTION_ARGMAX};
    struct Rows {
        uint32_t rows, row;
        const std::vector<DML_REDUCE_FUNCTION> &functions;
        bool cuda_only;
    };
    const Rows shapes[] = {{540673, 8, every, true}, {540673, 6, paths, true}, {20011, 64, paths, false},
                           {3, 65538, every, false}, {3, 65536, paths, false}};
    for (const Rows &s : shapes) {
        if (s.cuda_only && !test_on_cuda()) continue;
        const std::vector<uint32_t> sizes = {2, s.rows, s.row}, strides = {s.rows * s.row + 1, s.row, 1};
        for (DML_REDUCE_FUNCTION fn : s.functions) run_random_case(fn, F16, sizes, 4, rng, strides);
    }
    // The outer layout's columns in pairs (CUDA's loads=column_words twins of
    // the split runs): 8192 columns (more outputs than the warp merge's 8192:
    // merged a thread per column), planes on a word, take them, 8191 do not;
    // 64 columns of 1000 rows (merged a warp per column) take them too.
    for (uint32_t columns : {8192u, 8191u, 64u}) {
        const uint32_t rows = columns == 64 ? 1000 : 40, row_stride = columns == 64 ? 64 : 8192;
        const std::vector<uint32_t> sizes = {2, rows, columns}, strides = {rows * row_stride + 2, row_stride, 1};
        for (DML_REDUCE_FUNCTION fn : every) run_random_case(fn, F16, sizes, 2, rng, strides);
    }
}

// Reductions that read a row twice (LOG_SUM_EXP: its maximum, then the sum of
// exp(x - max); 64-bit ARGMAX/ARGMIN: the best value, then its index) run on
// CPUs over groups of rows of about block_elements, several to a task when the
// input is large: these shapes make tasks of 2 to 3 groups, the last one short.
TEST_CASE("REDUCE second passes over groups of rows", "[reduce][random][large]") {
    std::mt19937 rng(test_seed() + 5);
    const std::vector<std::tuple<DML_REDUCE_FUNCTION, DML_TENSOR_DATA_TYPE, std::vector<uint32_t>>> cases = {
        {DML_REDUCE_FUNCTION_LOG_SUM_EXP, F32, {8192, 200}}, {DML_REDUCE_FUNCTION_LOG_SUM_EXP, F16, {8192, 200}},
        {DML_REDUCE_FUNCTION_ARGMAX, I64, {4096, 300}},      {DML_REDUCE_FUNCTION_ARGMIN, U64, {4096, 300}}};
    for (const auto &[fn, type, sizes] : cases) run_random_case(fn, type, sizes, 2, rng, {sizes[1], 1});
}

// One long row: CPUs cut it into blocks of block_elements (16384), or of 4 or
// 16 times that where the row still makes row_blocks (64) of them, each size
// a specialization of its own; rows of 6291473 and 16859153 elements (not a
// multiple of a chunk) take the two longer sizes. Exact sums (integers in
// units of 2^-10 below 2^24 of them: every partial exact in float32, so a
// block dropped or added shows) and the deciding element in the last block, a
// middle one, or among the last elements. ARGMAX/ARGMIN: arg_reduce_test.
TEST_CASE("REDUCE one long row in blocks sized by the row", "[reduce][large]") {
    for (uint32_t n : {4 * 16384 * 64 * 3 / 2 + 17, 16 * 16384 * 64 + 5 * 16384 + 17}) {
        std::vector<float> row(n);
        double sum = 0;
        for (uint32_t k = 0; k < n; ++k) sum += row[k] = (float)(k % 2 + (k % 3 == 0)) / 1024;
        for (DML_TENSOR_DATA_TYPE type : {F32, F16}) {
            const double expected = type == F16 ? half_to_float(float_to_half((float)sum)) : sum;
            INFO((type == F32 ? "float32" : "float16") << " SUM of " << n << " elements, expected " << expected);
            CHECK(run_float(DML_REDUCE_FUNCTION_SUM, {n}, row, {0}, type)[0] == expected);
        }
        const bool shorter = n < 16 * 16384 * 64;
        for (uint32_t at : {n - 40000, n / 2 + 5, n - 3}) {
            if (!shorter && at != n - 40000) continue;  // the longest row: one case, the time it takes
            // The deciding element at `at`: the largest (0.5) for MAX, the smallest (-500) for MIN.
            for (uint32_t k = 0; k < n; ++k) row[k] = k == at ? 0.5f : -1.0f - (float)(k % 97);
            std::vector<float> low = row;
            low[at] = -500.0f;
            for (DML_TENSOR_DATA_TYPE type : {F32, F16}) {
                if (!shorter && type == F16) continue;
                INFO((type == F32 ? "float32" : "float16") << " " << n << " elements, the deciding one at " << at);
                CHECK(run_float(DML_REDUCE_FUNCTION_MAX, {n}, row, {0}, type)[0] == 0.5f);
                CHECK(run_float(DML_REDUCE_FUNCTION_MIN, {n}, low, {0}, type)[0] == -500.0f);
            }
        }
    }
}

// LOG_SUM_EXP's exp on CPUs is a polynomial of its own (exp_of_nonpositive):
// rows whose elements lie 0 to 120 below the maximum, past the -87.3 where it
// stops at 2^-126, each against exp and log in double precision.
TEST_CASE("REDUCE LOG_SUM_EXP over the whole range of exp", "[reduce]") {
    const uint32_t rows = 64, n = 301;
    std::vector<float> values(rows * n);
    for (uint32_t row = 0; row < rows; ++row) {
        for (uint32_t k = 0; k < n; ++k) values[row * n + k] = 40.0f * (float)row / rows - 0.4f * (float)k;
    }
    const std::vector<float> got = run_float(DML_REDUCE_FUNCTION_LOG_SUM_EXP, {rows, n}, values, {1});
    for (uint32_t row = 0; row < rows; ++row) {
        double m = -INFINITY, s = 0;
        for (uint32_t k = 0; k < n; ++k) m = std::max(m, (double)values[row * n + k]);
        for (uint32_t k = 0; k < n; ++k) s += std::exp((double)values[row * n + k] - m);
        const double expected = m + std::log(s);
        INFO("row " << row << " got " << got[row] << " expected " << expected);
        REQUIRE(std::fabs(got[row] - expected) <= 1e-6 * std::max(1.0, std::fabs(expected)));
    }
}
