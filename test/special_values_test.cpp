// Special values through every REDUCE function, ARGMAX/ARGMIN and the
// cumulative ops: ±inf, NaN of both signs, ±0, subnormals, sums and products
// that overflow, all -inf rows; on every layout (inner, outer, packed, all
// axes), in short rows and in long ones (vector bodies, tails, partial
// results), float32 and float16. ctest runs it under every x86 ISA variant.
//
// The reference here accumulates in float32 as the kernels do (float16 data
// included), left to right; every row is built so that the order of
// accumulation cannot change the result (same-sign overflow, exact sums of
// small integers and subnormals), so results compare exactly, but for the
// correctly rounded transcendental ones (a few ulp).
#include "catch.hpp"
#include "dispatch_overlay.h"
#include "reference.h"
#include "test_tensor.h"

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <sstream>

using namespace hdml_test;

namespace {

constexpr DML_TENSOR_DATA_TYPE F32 = DML_TENSOR_DATA_TYPE_FLOAT32;
constexpr DML_TENSOR_DATA_TYPE F16 = DML_TENSOR_DATA_TYPE_FLOAT16;

const float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::numeric_limits<float>::quiet_NaN();
float negative_nan() { return std::copysign(kNaN, -1.0f); }

// The rows: each is repeated cyclically to the row length. `tiny` and `big`
// stand for a subnormal and a value whose sum (and square) overflows, per type.
struct Row {
    const char *name;
    std::vector<float> values;
};
std::vector<Row> rows_for(DML_TENSOR_DATA_TYPE type) {
    const bool half = type == F16;
    const float tiny = half ? std::ldexp(1.0f, -24) : std::ldexp(1.0f, -140);       // subnormal in both
    const float smallest = half ? std::ldexp(1.0f, -24) : std::ldexp(1.0f, -149);   // the smallest subnormal
    const float big = half ? 60000.0f : 3e38f;
    return {
        {"powers of two", {1, 2, 0.5f, 4, 0.25f}},  // exact sums and products in any order
        {"+inf", {1, kInf, 2}},
        {"-inf", {-kInf, 1, 2}},
        {"+inf and -inf", {kInf, -kInf, 1}},
        {"NaN", {1, kNaN, 2}},
        {"-NaN", {negative_nan(), 1, 2}},
        {"NaN and inf", {kInf, kNaN, -kInf}},
        {"all -0", {-0.0f}},
        {"+0 and -0", {-0.0f, 0.0f, -0.0f}},
        {"all +0", {0.0f}},
        {"subnormals", {tiny, tiny, 0.0f}},
        {"smallest subnormal", {smallest, -0.0f}},
        {"negative subnormals", {-tiny, -smallest}},
        {"overflowing", {big, big}},
        {"negative overflowing", {-big, -big, -big}},
        {"all -inf", {-kInf}},
        {"-0 with negatives", {-1, -0.0f, -2}},
        // Zero sums whose signs CPUs read again (signs_of_zero_sums): a +0
        // first, a +0 past the first three, cancelling terms from a negative.
        {"+0 then -0s", {0.0f, -0.0f, -0.0f}},
        {"-0s then a +0", {-0.0f, -0.0f, -0.0f, 0.0f}},
        {"cancelling", {-1, 1}},
    };
}

float value_at(const Row &row, size_t k) { return row.values[k % row.values.size()]; }

bool is_transcendental(DML_REDUCE_FUNCTION f) {
    return f == DML_REDUCE_FUNCTION_LOG_SUM || f == DML_REDUCE_FUNCTION_LOG_SUM_EXP || f == DML_REDUCE_FUNCTION_L2 ||
           f == DML_REDUCE_FUNCTION_AVERAGE;
}

// One REDUCE function over `v`, in float32 arithmetic.
float reduce_reference(DML_REDUCE_FUNCTION f, const std::vector<float> &v) {
    // Sums start at -0.0, the IEEE identity: a sum of only -0.0 is -0.0.
    float acc = -0.0f;
    switch (f) {
    case DML_REDUCE_FUNCTION_SUM:
    case DML_REDUCE_FUNCTION_AVERAGE:
    case DML_REDUCE_FUNCTION_LOG_SUM:
        for (float x : v) acc += x;
        if (f == DML_REDUCE_FUNCTION_AVERAGE) return acc / (float)v.size();
        if (f == DML_REDUCE_FUNCTION_LOG_SUM) return (float)std::log((double)acc);
        return acc;
    case DML_REDUCE_FUNCTION_L1:
        for (float x : v) acc += std::fabs(x);
        return acc;
    case DML_REDUCE_FUNCTION_SUM_SQUARE:
    case DML_REDUCE_FUNCTION_L2:
        for (float x : v) acc += x * x;
        return f == DML_REDUCE_FUNCTION_L2 ? (float)std::sqrt((double)acc) : acc;
    case DML_REDUCE_FUNCTION_MULTIPLY:
        acc = 1;
        for (float x : v) acc *= x;
        return acc;
    case DML_REDUCE_FUNCTION_MAX:
    case DML_REDUCE_FUNCTION_MIN: {
        double best = v[0];
        for (float x : v) best = ordered_extreme(best, x, f == DML_REDUCE_FUNCTION_MAX);
        return (float)best;
    }
    case DML_REDUCE_FUNCTION_LOG_SUM_EXP: {
        float m = -kInf;
        for (float x : v) {
            if (std::isnan(x)) return kNaN;
            m = std::max(m, x);
        }
        if (std::isinf(m)) return m;
        double s = 0;
        for (float x : v) s += std::exp((double)x - m);
        return (float)(m + std::log(s));
    }
    default: return kNaN;
    }
}

// The first (or last) index of the largest (or smallest) value, in that order;
// NaN wins for both (as MIN and MAX propagate it).
uint32_t arg_reference(bool find_min, bool last, const std::vector<float> &v) {
    uint32_t best = 0;
    for (uint32_t k = 1; k < v.size(); ++k) {
        const bool nan_k = std::isnan(v[k]), nan_best = std::isnan(v[best]);
        const bool better = nan_k || nan_best ? nan_k && !nan_best
                                              : find_min ? ordered_less(v[k], v[best]) : ordered_less(v[best], v[k]);
        const bool tie = nan_k || nan_best ? nan_k && nan_best
                                           : !ordered_less(v[k], v[best]) && !ordered_less(v[best], v[k]);
        if (better || (tie && last)) best = k;
    }
    return best;
}

// The value rounded to the tensor's type, as a float.
float as_type(float x, DML_TENSOR_DATA_TYPE type) {
    return type == F16 ? half_to_float(float_to_half(x)) : x;
}

// Exact for special results (NaN of any sign, ±inf, ±0 with its sign) and for
// exact functions; within a few ulp of the type for transcendental ones.
bool matches(float got, float expected, bool approximate, DML_TENSOR_DATA_TYPE type) {
    if (std::isnan(expected)) return std::isnan(got);
    if (std::isinf(expected) || expected == 0 || !approximate) {
        return got == expected && std::signbit(got) == std::signbit(expected);
    }
    const float ulp = type == F16 ? std::ldexp(1.0f, -10) : std::ldexp(1.0f, -23);
    return std::fabs(got - expected) <= 4 * ulp * std::fabs(expected);
}

// A plain comparison per element; only a mismatch builds its context and
// fails (an assertion per element took most of this suite's time under qemu).
template <typename Context>
void check_value(float got, float expected, bool approximate, DML_TENSOR_DATA_TYPE type, Context context) {
    if (matches(got, expected, approximate, type)) return;
    std::ostringstream message;
    context(message);
    FAIL_CHECK(message.str() << ": got " << got << ", expected " << expected);
}

// A layout of R rows of `length` elements: the input sizes, the reduced axes,
// and where the k-th element of row `row` lives (sub-index k row-major over the
// reduced axes in increasing axis order, as ARGMAX counts).
struct Layout {
    const char *name;
    std::vector<uint32_t> sizes;
    std::vector<uint32_t> axes;
    std::function<std::vector<uint32_t>(uint32_t row, uint32_t k)> index;
};

std::vector<Layout> layouts(uint32_t rows, uint32_t length) {
    // Packed: the row is {2, length/2} over axes 0 and 2 of {2, rows, length/2}:
    // two reduced runs with a kept axis between them, copied contiguously first.
    const uint32_t half = length / 2;
    return {
        {"inner", {rows, length}, {1}, [](uint32_t r, uint32_t k) { return std::vector<uint32_t>{r, k}; }},
        {"outer", {length, rows}, {0}, [](uint32_t r, uint32_t k) { return std::vector<uint32_t>{k, r}; }},
        {"packed", {2, rows, half}, {0, 2},
         [half](uint32_t r, uint32_t k) { return std::vector<uint32_t>{k / half, r, k % half}; }},
    };
}

std::vector<uint32_t> reduced_sizes(const Layout &layout) {
    std::vector<uint32_t> out = layout.sizes;
    for (uint32_t a : layout.axes) out[a] = 1;
    return out;
}

// Fills `in` with the rows (row r = rows[r % rows.size()]).
void fill(TestTensor &in, const Layout &layout, const std::vector<Row> &rows, uint32_t row_count, uint32_t length) {
    for (uint32_t r = 0; r < row_count; ++r) {
        for (uint32_t k = 0; k < length; ++k) in.set_float(in.offset(layout.index(r, k)), value_at(rows[r % rows.size()], k));
    }
}

std::vector<float> row_values(const Row &row, uint32_t length, DML_TENSOR_DATA_TYPE type) {
    std::vector<float> v(length);
    for (uint32_t k = 0; k < length; ++k) v[k] = as_type(value_at(row, k), type);
    return v;
}

// Runs REDUCE `f` over `row_count` rows laid out by `layout` (row r is
// rows[r % rows.size()]) and checks every row; `kernel`: a part of the name of
// a kernel the operator must call (the path under test).
void check_reduce(DML_REDUCE_FUNCTION f, const char *fname, DML_TENSOR_DATA_TYPE type, const Layout &layout,
                  uint32_t length, const std::vector<Row> &rows, uint32_t row_count, const char *kernel = nullptr) {
    const bool arg = f == DML_REDUCE_FUNCTION_ARGMAX || f == DML_REDUCE_FUNCTION_ARGMIN;
    TestTensor in(type, layout.sizes);
    TestTensor out(arg ? DML_TENSOR_DATA_TYPE_UINT32 : type, reduced_sizes(layout));
    fill(in, layout, rows, row_count, length);
    DML_REDUCE_OPERATOR_DESC desc{f, &in.desc, &out.desc, (UINT)layout.axes.size(), layout.axes.data()};
    Runner runner;
    REQUIRE(runner.create(DML_OPERATOR_REDUCE, &desc) == S_OK);
    if (kernel) CHECK_THAT(hdmlGetOperatorKernels(runner.op), Catch::Matchers::Contains(kernel));
    REQUIRE(runner.execute({in.binding()}, {out.binding()}) == S_OK);
    for (uint32_t r = 0; r < row_count; ++r) {
        const Row &row = rows[r % rows.size()];
        INFO(fname << " " << short_name(type) << " " << layout.name << " " << row_count << " rows of " << length
                   << ": " << row.name << " (row " << r << ")");
        std::vector<uint32_t> at = layout.index(r, 0);
        for (uint32_t a : layout.axes) at[a] = 0;
        const std::vector<float> v = row_values(row, length, type);
        if (arg) {
            CHECK(out.bits_at(out.offset(at)) == arg_reference(f == DML_REDUCE_FUNCTION_ARGMIN, false, v));
        } else {
            const float got = (float)out.float_at(out.offset(at));
            const float expected = as_type(reduce_reference(f, v), type);
            INFO("got " << got << ", expected " << expected);
            CHECK(matches(got, expected, is_transcendental(f), type));
        }
    }
}

const std::pair<DML_REDUCE_FUNCTION, const char *> kFunctions[] = {
    {DML_REDUCE_FUNCTION_ARGMAX, "ARGMAX"},   {DML_REDUCE_FUNCTION_ARGMIN, "ARGMIN"},
    {DML_REDUCE_FUNCTION_AVERAGE, "AVERAGE"}, {DML_REDUCE_FUNCTION_L1, "L1"},
    {DML_REDUCE_FUNCTION_L2, "L2"},           {DML_REDUCE_FUNCTION_LOG_SUM, "LOG_SUM"},
    {DML_REDUCE_FUNCTION_LOG_SUM_EXP, "LOG_SUM_EXP"}, {DML_REDUCE_FUNCTION_MAX, "MAX"},
    {DML_REDUCE_FUNCTION_MIN, "MIN"},         {DML_REDUCE_FUNCTION_MULTIPLY, "MULTIPLY"},
    {DML_REDUCE_FUNCTION_SUM, "SUM"},         {DML_REDUCE_FUNCTION_SUM_SQUARE, "SUM_SQUARE"},
};

// Every cumulative op variant over `line_count` lines of `length` (line r is
// rows[r % rows.size()]) along the inner and outer axes, checked element by element.
void check_scans(DML_TENSOR_DATA_TYPE type, uint32_t line_count, uint32_t length) {
    const std::vector<Row> rows = rows_for(type);
    for (const Layout &layout : layouts(line_count, length)) {
        if (layout.axes.size() != 1) continue;  // a scan runs along one axis
        for (bool product : {false, true}) {
            for (bool exclusive : {false, true}) {
                for (bool reverse : {false, true}) {
                    TestTensor in(type, layout.sizes), out(type, layout.sizes);
                    fill(in, layout, rows, line_count, length);
                    DML_CUMULATIVE_SUMMATION_OPERATOR_DESC desc{
                        &in.desc, &out.desc, layout.axes[0],
                        reverse ? DML_AXIS_DIRECTION_DECREASING : DML_AXIS_DIRECTION_INCREASING, exclusive};
                    Runner runner;
                    REQUIRE(runner.create(product ? DML_OPERATOR_CUMULATIVE_PRODUCT : DML_OPERATOR_CUMULATIVE_SUMMATION,
                                          &desc) == S_OK);
                    REQUIRE(runner.execute({in.binding()}, {out.binding()}) == S_OK);
                    for (uint32_t r = 0; r < line_count; ++r) {
                        const Row &row = rows[r % rows.size()];
                        const std::vector<float> v = row_values(row, length, type);
                        float acc = product ? 1.0f : -0.0f;
                        for (uint32_t step = 0; step < length; ++step) {
                            const uint32_t k = reverse ? length - 1 - step : step;
                            const float before = acc;
                            acc = product ? acc * v[k] : acc + v[k];
                            check_value((float)out.float_at(out.offset(layout.index(r, k))),
                                        as_type(exclusive ? before : acc, type), false, type, [&](std::ostream &m) {
                                            m << (product ? "CUMULATIVE_PRODUCT " : "CUMULATIVE_SUMMATION ")
                                              << (exclusive ? "exclusive " : "") << (reverse ? "decreasing " : "")
                                              << short_name(type) << " " << layout.name << " " << line_count
                                              << " lines of " << length << ": " << row.name << " (line " << r
                                              << ") at " << k;
                                        });
                        }
                    }
                }
            }
        }
    }
}

}  // namespace

TEST_CASE("REDUCE: special values in every function, layout and type", "[special]") {
    for (DML_TENSOR_DATA_TYPE type : {F32, F16}) {
        for (uint32_t length : {6u, 1026u}) {
            const uint32_t rows = (uint32_t)rows_for(type).size();
            std::vector<Layout> all = layouts(rows, length);
            // All axes: one row reduced over every axis of {2, 3, length/6}, one call per row.
            const uint32_t third = length / 6;
            all.push_back({"all axes", {2, 3, third}, {0, 1, 2}, [third](uint32_t, uint32_t k) {
                               return std::vector<uint32_t>{k / (3 * third), k / third % 3, k % third};
                           }});
            for (const auto &f : kFunctions) {
                for (const Layout &layout : all) {
                    if (layout.axes.size() < layout.sizes.size()) {
                        check_reduce(f.first, f.second, type, layout, length, rows_for(type), rows);
                        continue;
                    }
                    for (const Row &row : rows_for(type)) check_reduce(f.first, f.second, type, layout, length, {row}, 1);
                }
            }
        }
    }
}

TEST_CASE("ARGMAX/ARGMIN operators: NaN, ±0 and ties in both directions", "[special]") {
    for (DML_TENSOR_DATA_TYPE type : {F32, F16}) {
        const std::vector<Row> rows = rows_for(type);
        for (uint32_t length : {6u, 1026u}) {
            for (const Layout &layout : layouts((uint32_t)rows.size(), length)) {
                for (bool find_min : {false, true}) {
                    for (bool last : {false, true}) {
                        TestTensor in(type, layout.sizes), out(DML_TENSOR_DATA_TYPE_INT64, reduced_sizes(layout));
                        fill(in, layout, rows, (uint32_t)rows.size(), length);
                        const DML_AXIS_DIRECTION direction =
                            last ? DML_AXIS_DIRECTION_DECREASING : DML_AXIS_DIRECTION_INCREASING;
                        DML_ARGMAX_OPERATOR_DESC desc{&in.desc, &out.desc, (UINT)layout.axes.size(), layout.axes.data(),
                                                      direction};
                        Runner runner;
                        REQUIRE(runner.create(find_min ? DML_OPERATOR_ARGMIN : DML_OPERATOR_ARGMAX, &desc) == S_OK);
                        REQUIRE(runner.execute({in.binding()}, {out.binding()}) == S_OK);
                        for (uint32_t r = 0; r < rows.size(); ++r) {
                            INFO((find_min ? "ARGMIN " : "ARGMAX ") << (last ? "last " : "first ") << short_name(type)
                                                                    << " " << layout.name << " rows of " << length
                                                                    << ": " << rows[r].name);
                            std::vector<uint32_t> at = layout.index(r, 0);
                            for (uint32_t a : layout.axes) at[a] = 0;
                            CHECK(out.bits_at(out.offset(at)) ==
                                  arg_reference(find_min, last, row_values(rows[r], length, type)));
                        }
                    }
                }
            }
        }
    }
}


TEST_CASE("cumulative ops: special values along inner and outer axes, both directions, exclusive too", "[special]") {
    for (DML_TENSOR_DATA_TYPE type : {F32, F16}) {
        for (uint32_t length : {6u, 1026u}) check_scans(type, (uint32_t)rows_for(type).size(), length);
    }
}

// Zero sums of long rows of -0.0 (CPUs read their signs again: a row in 16
// parallel tasks where rows are few, as for all axes; the outer layout a
// block of columns at a time): -0.0 only where every element is -0.0,
// however far in the +0.0 or the cancelling term lies.
TEST_CASE("float sums of long rows of -0.0: -0.0 only where every element is", "[special]") {
    const uint32_t length = 70000;
    auto negative_zeros_but = [length](std::vector<std::pair<uint32_t, float>> others) {
        std::vector<float> v(length, -0.0f);
        for (const auto &[k, x] : others) v[k] = x;
        return v;
    };
    const std::vector<Row> rows = {
        {"all -0", negative_zeros_but({})},
        {"-0s, a +0 last", negative_zeros_but({{length - 1, 0.0f}})},
        {"-0s, a +0 in a middle block", negative_zeros_but({{length / 2, 0.0f}})},
        {"cancelling from a negative first", negative_zeros_but({{0, -1.0f}, {length - 1, 1.0f}})},
    };
    const Layout all_axes{"all axes", {2, length / 2}, {0, 1}, [length](uint32_t, uint32_t k) {
                              return std::vector<uint32_t>{k / (length / 2), k % (length / 2)};
                          }};
    for (DML_TENSOR_DATA_TYPE type : {F32, F16}) {
        for (const Layout &layout : layouts((uint32_t)rows.size(), length)) {
            check_reduce(DML_REDUCE_FUNCTION_SUM, "SUM", type, layout, length, rows, (uint32_t)rows.size());
            check_reduce(DML_REDUCE_FUNCTION_AVERAGE, "AVERAGE", type, layout, length, rows, (uint32_t)rows.size());
        }
        for (const Row &row : rows) check_reduce(DML_REDUCE_FUNCTION_SUM, "SUM", type, all_axes, length, {row}, 1);
    }
}

// Many rows: CUDA maps these onto other kernels (whole columns and the column
// walk for 2000+ columns, the line walk for 512+ lines of 128+, a thread per
// short row), CPUs onto rows=whole (rows of 6) and rows=vectors (contiguous
// rows of 48), which must treat special values alike.
TEST_CASE("special values in many rows and columns", "[special]") {
    const uint32_t many = 17 * 128;
    for (DML_TENSOR_DATA_TYPE type : {F32, F16}) {
        for (uint32_t length : {6u, 48u, 132u}) {
            for (const Layout &layout : layouts(many, length)) {
                for (const auto &f : kFunctions) check_reduce(f.first, f.second, type, layout, length, rows_for(type), many);
            }
            check_scans(type, many, length);
        }
    }
}

// Down a middle axis of few columns ([O, length, C] along length): CPUs take
// the columns as rows=whole's rows, reduced a dense vector of an o's whole
// rows at a time where the vector holds at least a row and the o as many
// rows (whole_rows_are_periodic_vectors), folded by shuffles, the rows past
// the last whole vector a row at a time (6 rows of 4 columns on AVX-512),
// else a column at a time (6 rows of 2 columns on AVX-512, 16 columns on
// AVX2). Each o holds `columns` rows of the special values' table.
TEST_CASE("REDUCE: special values down a middle axis of few columns", "[special]") {
    const uint32_t many = 17 * 128;
    for (DML_TENSOR_DATA_TYPE type : {F32, F16}) {
        for (uint32_t columns : {2u, 4u, 8u, 16u}) {
            for (uint32_t length : {6u, 8u, 16u}) {
                const Layout middle{"middle", {many / columns, length, columns}, {1}, [columns](uint32_t r, uint32_t k) {
                                        return std::vector<uint32_t>{r / columns, k, r % columns};
                                    }};
                for (const auto &f : kFunctions) {
                    check_reduce(f.first, f.second, type, middle, length, rows_for(type), many,
                                 test_on_gpu() ? nullptr : "rows_whole");
                }
            }
        }
    }
}

// Contiguous rows of whole 16-byte vectors: on CUDA a thread per row reads
// them in vectors (the vector_bytes kernels, LOG_SUM_EXP's in two passes over
// a plain float maximum), taken here for these few rows by an overlay of the
// thresholds; CPUs take rows=vectors.
TEST_CASE("special values in rows of whole vectors, a thread each on CUDA", "[special]") {
    const uint32_t many = 17 * 128;
    std::optional<ScopedDispatch> overlay;
    if (test_on_cuda()) {
        overlay.emplace("vector_rows.json",
                        R"({"dispatch": {"reduce_thread_per_row_min_rows": 1, "reduce_warp_merge_max_outputs": 0,)"
                        R"( "reduce_whole_columns_min_outputs": 1}})");
    }
    for (DML_TENSOR_DATA_TYPE type : {F32, F16}) {
        for (uint32_t length : {16u, 48u}) {
            const Layout inner = layouts(many, length)[0];
            for (const auto &f : kFunctions) {
                check_reduce(f.first, f.second, type, inner, length, rows_for(type), many,
                             test_on_cuda() ? "_vb16" : nullptr);
            }
        }
    }
}

// Every float16 value through the kernels' conversions (float16 -> float32 ->
// float16: F16C or NEON instructions where the CPU has them, integer code
// elsewhere), bit for bit: x + -0 is x for every x, so SUM of (x, -0) and
// CUMULATIVE_SUMMATION of (x, -0) return x, along rows (vectors across short
// rows), columns (vectors along a row) and lines. NaN stays a NaN.
TEST_CASE("float16: every value survives the conversions of SUM and CUMULATIVE_SUMMATION", "[special]") {
    const uint32_t values = 0x10000;
    auto is_nan = [](uint64_t h) { return (h & 0x7C00) == 0x7C00 && (h & 0x3FF) != 0; };
    const uint16_t minus_zero = 0x8000;
    for (bool across_rows : {true, false}) {
        // across_rows: value h at {h, 0}, -0 at {h, 1}; else at {0, h} and {1, h}.
        const std::vector<uint32_t> sizes = across_rows ? std::vector<uint32_t>{values, 2} : std::vector<uint32_t>{2, values};
        const UINT axis = across_rows ? 1 : 0;
        auto at = [&](uint32_t h, uint32_t k) { return across_rows ? std::vector<uint32_t>{h, k} : std::vector<uint32_t>{k, h}; };
        TestTensor in(F16, sizes);
        for (uint32_t h = 0; h < values; ++h) {
            in.set_bits(in.offset(at(h, 0)), h);
            in.set_bits(in.offset(at(h, 1)), minus_zero);
        }
        auto check = [&](const TestTensor &out, uint32_t h, uint32_t k, const char *what) {
            const uint64_t got = out.bits_at(out.offset(at(h, k)));
            INFO(what << (across_rows ? " across rows" : " along columns") << ": float16 0x" << std::hex << h
                      << " gave 0x" << got);
            if (is_nan(h)) {
                CHECK(is_nan(got));
            } else {
                CHECK(got == h);
            }
        };
        {
            TestTensor out(F16, across_rows ? std::vector<uint32_t>{values, 1} : std::vector<uint32_t>{1, values});
            DML_REDUCE_OPERATOR_DESC desc{DML_REDUCE_FUNCTION_SUM, &in.desc, &out.desc, 1, &axis};
            Runner runner;
            REQUIRE(runner.create(DML_OPERATOR_REDUCE, &desc) == S_OK);
            REQUIRE(runner.execute({in.binding()}, {out.binding()}) == S_OK);
            for (uint32_t h = 0; h < values; ++h) check(out, h, 0, "SUM");
        }
        {
            TestTensor out(F16, sizes);
            DML_CUMULATIVE_SUMMATION_OPERATOR_DESC desc{&in.desc, &out.desc, axis, DML_AXIS_DIRECTION_INCREASING, false};
            Runner runner;
            REQUIRE(runner.create(DML_OPERATOR_CUMULATIVE_SUMMATION, &desc) == S_OK);
            REQUIRE(runner.execute({in.binding()}, {out.binding()}) == S_OK);
            for (uint32_t h = 0; h < values; ++h) {
                check(out, h, 0, "CUMULATIVE_SUMMATION");
                check(out, h, 1, "CUMULATIVE_SUMMATION");
            }
        }
    }
}

// Lines of 16, each a float16 value and 15 -0s: every running total is the
// value, bit for bit (NaN a NaN). CPUs walk these lines into float32 totals
// and narrow them (the line walk), CUDA stages them (staging=lines).
TEST_CASE("float16: every value survives the running totals of lines of 16", "[special]") {
    const uint32_t values = 0x10000, line = 16;
    auto is_nan = [](uint64_t h) { return (h & 0x7C00) == 0x7C00 && (h & 0x3FF) != 0; };
    TestTensor in(F16, {values, line}), out(F16, {values, line});
    for (uint32_t h = 0; h < values; ++h) {
        in.set_bits(in.offset({h, 0}), h);
        for (uint32_t k = 1; k < line; ++k) in.set_bits(in.offset({h, k}), 0x8000);
    }
    DML_CUMULATIVE_SUMMATION_OPERATOR_DESC desc{&in.desc, &out.desc, 1, DML_AXIS_DIRECTION_INCREASING, false};
    Runner runner;
    REQUIRE(runner.create(DML_OPERATOR_CUMULATIVE_SUMMATION, &desc) == S_OK);
    REQUIRE(runner.execute({in.binding()}, {out.binding()}) == S_OK);
    uint64_t mismatches = 0;
    for (uint32_t h = 0; h < values; ++h) {
        for (uint32_t k = 0; k < line; ++k) {
            const uint64_t got = out.bits_at(out.offset({h, k}));
            if (is_nan(h) ? !is_nan(got) : got != h) {
                if (++mismatches <= 5) FAIL_CHECK("float16 0x" << std::hex << h << " at " << std::dec << k << " gave 0x" << std::hex << got);
            }
        }
    }
    CHECK(mismatches == 0);
}
