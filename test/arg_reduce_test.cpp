// DML_OPERATOR_ARGMAX / ARGMIN: the seed page's examples exactly, ties in both
// directions, NaN, and a randomised comparison with the reference over ranks
// 1-8, axis masks, strides/broadcast, every input and index type.
#include "catch.hpp"
#include "reference.h"

#include <cmath>
#include <functional>
#include <limits>

using namespace hdml_test;

namespace {

constexpr DML_TENSOR_DATA_TYPE F32 = DML_TENSOR_DATA_TYPE_FLOAT32, U32 = DML_TENSOR_DATA_TYPE_UINT32;
const DML_TENSOR_DATA_TYPE kInputTypes[] = {
    DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_INT64, DML_TENSOR_DATA_TYPE_INT32,
    DML_TENSOR_DATA_TYPE_INT16,   DML_TENSOR_DATA_TYPE_INT8,    DML_TENSOR_DATA_TYPE_UINT64, DML_TENSOR_DATA_TYPE_UINT32,
    DML_TENSOR_DATA_TYPE_UINT16,  DML_TENSOR_DATA_TYPE_UINT8};
const DML_TENSOR_DATA_TYPE kIndexTypes[] = {DML_TENSOR_DATA_TYPE_INT64, DML_TENSOR_DATA_TYPE_INT32,
                                            DML_TENSOR_DATA_TYPE_UINT64, DML_TENSOR_DATA_TYPE_UINT32};

struct ArgCase {
    DML_OPERATOR_TYPE type = DML_OPERATOR_ARGMAX;
    TestTensor in, out;
    std::vector<uint32_t> axes;
    int32_t direction = DML_AXIS_DIRECTION_INCREASING;  // an int: tests also pass invalid values
    DML_ARGMAX_OPERATOR_DESC desc{};
    void bind() {
        desc = {&in.desc, &out.desc, (UINT)axes.size(), axes.data(), DML_AXIS_DIRECTION_INCREASING};
        std::memcpy(&desc.AxisDirection, &direction, sizeof direction);
    }
};

// The output's bits in index order; none where the device refuses the input type.
std::vector<uint64_t> run(ArgCase &c) {
    c.bind();
    Runner runner;
    const HRESULT hr = runner.create(c.type, &c.desc);
    INFO(hdmlGetLastErrorMessage());
    if (!computes_on_test_device(c.in.type)) {
        CHECK(hr == DXGI_ERROR_UNSUPPORTED);
        return {};
    }
    REQUIRE(hr == S_OK);
    REQUIRE(runner.execute({c.in.binding()}, {c.out.binding()}) == S_OK);
    std::vector<uint64_t> result;
    c.out.for_each_index([&](const std::vector<uint32_t> &i) { result.push_back(c.out.bits_at(c.out.offset(i))); });
    return result;
}

std::vector<uint64_t> run_float(DML_OPERATOR_TYPE type, std::vector<uint32_t> sizes, std::vector<float> values,
                                std::vector<uint32_t> axes, DML_AXIS_DIRECTION direction) {
    ArgCase c;
    c.type = type;
    c.in = TestTensor(F32, sizes);
    for (size_t k = 0; k < values.size(); ++k) c.in.set_float(k, values[k]);
    for (uint32_t a : axes) sizes[a] = 1;
    c.out = TestTensor(U32, sizes);
    c.axes = axes;
    c.direction = direction;
    return run(c);
}

// ARGMAX or ARGMIN of `in` along `axis`, into uint32 indices, in `direction`;
// `fill(index)` gives each element's value. Checks every output against the
// reference, whose index `expected(row)` gives (with the row's length) where
// the case fixes it (a negative value: any).
void check_along_axis(DML_OPERATOR_TYPE type, DML_AXIS_DIRECTION direction, TestTensor in, uint32_t axis,
                      const std::function<double(const std::vector<uint32_t> &)> &fill, int64_t expected) {
    const bool max = type == DML_OPERATOR_ARGMAX;
    ArgCase c;
    c.type = type;
    c.direction = direction;
    c.in = std::move(in);
    const bool is_f = is_float(c.in.type);
    c.in.for_each_index([&](const std::vector<uint32_t> &i) {
        const double value = fill(i);
        if (is_f) {
            c.in.set_float(c.in.offset(i), value);
        } else {
            c.in.set_bits(c.in.offset(i), (uint64_t)(int64_t)value);
        }
    });
    c.axes = {axis};
    std::vector<uint32_t> out_sizes = c.in.sizes;
    out_sizes[axis] = 1;
    c.out = TestTensor(U32, out_sizes);
    const auto result = run(c);
    if (!computes_on_test_device(c.in.type)) return;
    size_t n = 0;
    c.out.for_each_index([&](const std::vector<uint32_t> &i) {
        const RefValue ref =
            reference_reduce(c.in, 1u << axis, i, max ? DML_REDUCE_FUNCTION_ARGMAX : DML_REDUCE_FUNCTION_ARGMIN,
                             direction == DML_AXIS_DIRECTION_DECREASING);
        INFO((max ? "ARGMAX " : "ARGMIN ") << short_name(c.in.type) << " sizes " << shape_string(c.in.sizes)
                                           << " axis " << axis << (direction ? " DECREASING" : " INCREASING"));
        if (expected >= 0) REQUIRE(ref.bits == (uint64_t)expected);
        REQUIRE(result[n++] == ref.bits);
    });
}

}  // namespace

TEST_CASE("ARGMAX seed examples", "[argmax][seed]") {
    const std::vector<float> input = {1, 2, 3, 3, 0, 4, 2, 5, 2};
    const auto inc = DML_AXIS_DIRECTION_INCREASING;
    CHECK(run_float(DML_OPERATOR_ARGMAX, {3, 3}, input, {0}, inc) == std::vector<uint64_t>{1, 2, 1});
    CHECK(run_float(DML_OPERATOR_ARGMAX, {3, 3}, input, {1}, inc) == std::vector<uint64_t>{2, 2, 1});
    CHECK(run_float(DML_OPERATOR_ARGMAX, {3, 3}, input, {0, 1}, inc) == std::vector<uint64_t>{7});
    CHECK(run_float(DML_OPERATOR_ARGMAX, {3, 3}, input, {1, 0}, inc) == std::vector<uint64_t>{7});
    CHECK(run_float(DML_OPERATOR_ARGMIN, {3, 3}, input, {0, 1}, inc) == std::vector<uint64_t>{4});
    // AxisDirection picks the first or the last of tied extremes.
    CHECK(run_float(DML_OPERATOR_ARGMAX, {5}, {3, 2, 1, 2, 3}, {0}, inc) == std::vector<uint64_t>{0});
    CHECK(run_float(DML_OPERATOR_ARGMAX, {5}, {3, 2, 1, 2, 3}, {0}, DML_AXIS_DIRECTION_DECREASING) ==
          std::vector<uint64_t>{4});
    CHECK(run_float(DML_OPERATOR_ARGMIN, {5}, {1, 2, 3, 2, 1}, {0}, inc) == std::vector<uint64_t>{0});
    CHECK(run_float(DML_OPERATOR_ARGMIN, {5}, {1, 2, 3, 2, 1}, {0}, DML_AXIS_DIRECTION_DECREASING) ==
          std::vector<uint64_t>{4});
}

TEST_CASE("ARGMAX/ARGMIN: NaN is found by both; all-equal rows give the first or last index", "[argmax]") {
    const auto inc = DML_AXIS_DIRECTION_INCREASING, dec = DML_AXIS_DIRECTION_DECREASING;
    CHECK(run_float(DML_OPERATOR_ARGMAX, {4}, {1, NAN, 5, NAN}, {0}, inc) == std::vector<uint64_t>{1});
    CHECK(run_float(DML_OPERATOR_ARGMIN, {4}, {1, NAN, -5, NAN}, {0}, inc) == std::vector<uint64_t>{1});
    CHECK(run_float(DML_OPERATOR_ARGMAX, {4}, {1, NAN, 5, NAN}, {0}, dec) == std::vector<uint64_t>{3});
    std::vector<float> same(1000, 2.5f);
    CHECK(run_float(DML_OPERATOR_ARGMAX, {1000}, same, {0}, inc) == std::vector<uint64_t>{0});
    CHECK(run_float(DML_OPERATOR_ARGMIN, {1000}, same, {0}, dec) == std::vector<uint64_t>{999});
    CHECK(run_float(DML_OPERATOR_ARGMAX, {3}, {-INFINITY, -INFINITY, -1}, {0}, inc) == std::vector<uint64_t>{2});
}

TEST_CASE("ARGMAX/ARGMIN randomised against the reference", "[argmax][random]") {
    std::mt19937 rng(test_seed());
    static const uint32_t primes[] = {1, 2, 3, 5, 7, 11, 13};
    for (DML_OPERATOR_TYPE type : {DML_OPERATOR_ARGMAX, DML_OPERATOR_ARGMIN}) {
        for (DML_TENSOR_DATA_TYPE in_type : kInputTypes) {
            for (uint32_t rank = 1; rank <= 8; ++rank) {
                const int cases = rank <= 3 ? 12 : 5;
                for (int k = 0; k < cases; ++k) {
                    ArgCase c;
                    c.type = type;
                    std::vector<uint32_t> sizes(rank);
                    for (auto &s : sizes) s = primes[rng() % (rank <= 3 ? 7 : 4)];
                    if (rank == 1 && rng() % 2) sizes[0] = 100 + rng() % 2000;  // long rows: vector bodies
                    const uint32_t mask = 1 + rng() % ((1u << rank) - 1);
                    c.in = TestTensor(in_type, sizes, random_strides(sizes, rng, true));
                    std::uniform_int_distribution<int> small(-3, 3);
                    c.in.for_each_index([&](const std::vector<uint32_t> &i) {
                        const uint64_t off = c.in.offset(i);
                        if (is_float(in_type)) {
                            c.in.set_float(off, small(rng) * 0.5);
                        } else {
                            c.in.set_bits(off, (uint64_t)(int64_t)small(rng));  // coarse values: many ties
                        }
                    });
                    std::vector<uint32_t> out_sizes = sizes;
                    for (uint32_t d = 0; d < rank; ++d) {
                        if ((mask >> d) & 1) c.axes.push_back(d), out_sizes[d] = 1;
                    }
                    std::shuffle(c.axes.begin(), c.axes.end(), rng);
                    c.out = TestTensor(kIndexTypes[rng() % 4], out_sizes, random_strides(out_sizes, rng, false));
                    c.direction = rng() % 2 ? DML_AXIS_DIRECTION_DECREASING : DML_AXIS_DIRECTION_INCREASING;
                    const auto result = run(c);
                    if (!computes_on_test_device(in_type)) continue;
                    size_t n = 0;
                    c.out.for_each_index([&](const std::vector<uint32_t> &i) {
                        const RefValue ref = reference_reduce(
                            c.in, mask, i, type == DML_OPERATOR_ARGMAX ? DML_REDUCE_FUNCTION_ARGMAX : DML_REDUCE_FUNCTION_ARGMIN,
                            c.direction == DML_AXIS_DIRECTION_DECREASING);
                        INFO((type == DML_OPERATOR_ARGMAX ? "ARGMAX " : "ARGMIN ")
                             << short_name(in_type) << "->" << short_name(c.out.type) << " sizes " << shape_string(sizes)
                             << " strides " << shape_string(c.in.strides) << " axes " << shape_string(c.axes)
                             << (c.direction ? " DECREASING" : " INCREASING") << " at " << shape_string(i) << " (seed "
                             << test_seed() << ")");
                        REQUIRE(result[n++] == ref.bits);
                    });
                }
            }
        }
    }
}

// 8- and 16-bit types pack (value, index) keys in 32 bits on CPUs where a row
// has at most 65536 elements (a 16-bit index), in 64 bits past that: rows of
// 65536 and 65537 with the extreme tied at the last two elements (indices
// 65534/65535 and 65535/65536), along the inner and the outer layout, both
// directions, against the reference.
TEST_CASE("ARGMAX/ARGMIN of 8- and 16-bit types over rows of 65536 elements and one more", "[argmax]") {
    std::mt19937 rng(test_seed() + 1);
    for (DML_TENSOR_DATA_TYPE in_type :
         {DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_INT8, DML_TENSOR_DATA_TYPE_UINT16}) {
        for (uint32_t row : {65536u, 65537u}) {
            for (bool outer : {false, true}) {
                for (DML_OPERATOR_TYPE type : {DML_OPERATOR_ARGMAX, DML_OPERATOR_ARGMIN}) {
                    for (auto direction : {DML_AXIS_DIRECTION_INCREASING, DML_AXIS_DIRECTION_DECREASING}) {
                        const uint32_t axis = outer ? 0 : 1;
                        std::uniform_int_distribution<int> middle(2, 5);
                        auto fill = [&](const std::vector<uint32_t> &i) {
                            return i[axis] + 2 >= row ? (type == DML_OPERATOR_ARGMAX ? 7 : 0) : middle(rng);
                        };
                        const int64_t last_two = row - (direction == DML_AXIS_DIRECTION_DECREASING ? 1 : 2);
                        check_along_axis(type, direction, TestTensor(in_type, outer ? std::vector<uint32_t>{row, 3}
                                                                                    : std::vector<uint32_t>{2, row}),
                                         axis, fill, last_two);
                    }
                }
            }
        }
    }
}

// float16 rows of 50169 and 70539 elements (the CPUs' 32-bit keys and the
// 64-bit ones past 65536), one pattern each: ties across the row and its last
// elements, the best only at the end, NaNs of both signs, -0 and +0 among
// negatives, all -inf, the minimum twice, +inf on both sides of element
// 16384, -0 among +0; against the reference.
TEST_CASE("ARGMAX/ARGMIN of float16 over long rows: the best element anywhere", "[argmax]") {
    std::mt19937 rng(test_seed() + 3);
    std::uniform_int_distribution<int> coarse(-5, 5);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (uint32_t n : {3 * 16384u + 1017u, 4 * 16384u + 5003u}) {
        auto fill = [&](const std::vector<uint32_t> &i) -> double {
            const uint32_t k = i[1];
            switch (i[0]) {
            case 0: return k == 100 || k == 40000 || k == n - 1 ? 7 : coarse(rng);
            case 1: return k == n - 3 ? 7 : (double)(k % 11) - 5;
            case 2: return k == 20000 || k == 45000 ? nan : k == 30000 ? -nan : coarse(rng);
            case 3: return k == 33000 ? 0.0 : k == 5 || k == 34000 ? -0.0 : -1.0 - (k % 7);
            case 4: return -INFINITY;
            case 5: return k == 17000 || k == 49000 ? -60000 : coarse(rng);
            case 6: return k == 16383 || k == 16384 ? INFINITY : coarse(rng);
            default: return k == 32768 || k == 32769 ? -0.0 : 0.0;
            }
        };
        for (DML_OPERATOR_TYPE type : {DML_OPERATOR_ARGMAX, DML_OPERATOR_ARGMIN}) {
            for (auto direction : {DML_AXIS_DIRECTION_INCREASING, DML_AXIS_DIRECTION_DECREASING}) {
                check_along_axis(type, direction, TestTensor(DML_TENSOR_DATA_TYPE_FLOAT16, {8, n}), 1, fill, -1);
            }
        }
    }
}

// One long row: CPUs cut it into blocks of block_elements (16384), or of 4 or
// 16 times that where the row still makes row_blocks (64) of them (rows of
// 6291473 and 16859153 elements). The best value twice, in a middle block and
// in the last one (the direction picks which), or among the last elements;
// float32 and float16 (packed keys), int64 (64-bit: the value, then its
// index, in two passes).
TEST_CASE("ARGMAX/ARGMIN over one long row in blocks sized by the row", "[argmax][large]") {
    const uint32_t n = 4 * 16384 * 64 * 3 / 2 + 17, longest = 16 * 16384 * 64 + 5 * 16384 + 17;
    const std::tuple<uint32_t, uint32_t, uint32_t, DML_TENSOR_DATA_TYPE> cases[] = {
        {n, n / 2 + 5, n - 40000, F32},
        {n, n / 2 + 5, n - 40000, DML_TENSOR_DATA_TYPE_FLOAT16},
        {n, n / 2 + 5, n - 40000, DML_TENSOR_DATA_TYPE_INT64},
        {n, n - 3, n - 2, F32},
        {longest, longest / 2 + 5, longest - 40000, F32}};
    for (const auto &[length, first, last, type] : cases) {
        for (DML_OPERATOR_TYPE op : {DML_OPERATOR_ARGMAX, DML_OPERATOR_ARGMIN}) {
            const double best = op == DML_OPERATOR_ARGMAX ? 100 : -100;
            const uint32_t at_first = first, at_last = last;  // (a lambda captures no structured binding in C++17)
            auto fill = [&](const std::vector<uint32_t> &i) -> double {
                return i[1] == at_first || i[1] == at_last ? best : (double)(i[1] % 97) - 48;
            };
            for (auto direction : {DML_AXIS_DIRECTION_INCREASING, DML_AXIS_DIRECTION_DECREASING}) {
                check_along_axis(op, direction, TestTensor(type, {1, length}), 1, fill,
                                 direction == DML_AXIS_DIRECTION_INCREASING ? first : last);
            }
        }
    }
}

// CPUs' outer layout packs 32-bit keys over rows of any length: the index is
// local to a chunk of rows (partial rows of at most 65536), and the chunks
// merge with their first row added. Columns of 16385 rows (256 chunks of 65:
// the last ones empty), 200003 (chunks of 782) and, in uint8, 16777217 (more
// than max_row_chunks' 256 chunks: 257 of 65282). Every element the value of
// the lowest key (ARGMAX: the type's minimum; ARGMIN: its maximum), so every
// chunk ties (an empty one must not: its partial is that key too), and (but
// the tallest) coarse random values, many ties within and across chunks;
// against the reference.
// On CUDA these take 64-bit keys past 65536 rows.
TEST_CASE("ARGMAX/ARGMIN of 8- and 16-bit types down tall columns: ties across chunks of rows", "[argmax]") {
    std::mt19937 rng(test_seed() + 2);
    const DML_TENSOR_DATA_TYPE types[] = {DML_TENSOR_DATA_TYPE_UINT8, DML_TENSOR_DATA_TYPE_INT16,
                                          DML_TENSOR_DATA_TYPE_FLOAT16};
    for (DML_TENSOR_DATA_TYPE in_type : types) {
        for (uint32_t rows : {16385u, 200003u, 16777217u}) {
            if (rows > 1000000 && in_type != DML_TENSOR_DATA_TYPE_UINT8) continue;  // 32 MiB of uint8
            for (bool all_tied : {true, false}) {
                if (rows > 1000000 && !all_tied) continue;  // (its chunks are the point: quick under qemu)
                for (DML_OPERATOR_TYPE type : {DML_OPERATOR_ARGMAX, DML_OPERATOR_ARGMIN}) {
                    for (auto direction : {DML_AXIS_DIRECTION_INCREASING, DML_AXIS_DIRECTION_DECREASING}) {
                        const bool max = type == DML_OPERATOR_ARGMAX;
                        // The value of the lowest key, or coarse values (uint8: 0..6).
                        double lowest_key = max ? 0 : 255;
                        if (in_type == DML_TENSOR_DATA_TYPE_INT16) lowest_key = max ? -32768 : 32767;
                        if (in_type == DML_TENSOR_DATA_TYPE_FLOAT16) lowest_key = max ? -INFINITY : INFINITY;
                        std::uniform_int_distribution<int> coarse(in_type == DML_TENSOR_DATA_TYPE_UINT8 ? 0 : -3,
                                                                  in_type == DML_TENSOR_DATA_TYPE_UINT8 ? 6 : 3);
                        auto fill = [&](const std::vector<uint32_t> &) {
                            return all_tied ? lowest_key : coarse(rng);
                        };
                        const int64_t tied_at = direction == DML_AXIS_DIRECTION_DECREASING ? rows - 1 : 0;
                        check_along_axis(type, direction, TestTensor(in_type, {rows, 2}), 0, fill,
                                         all_tied ? tied_at : -1);
                    }
                }
            }
        }
    }
}

TEST_CASE("ARGMAX/ARGMIN validation rules", "[argmax][validation]") {
    ArgCase c;
    c.in = TestTensor(F32, {2, 3});
    c.out = TestTensor(U32, {2, 1});
    c.axes = {1};
    Runner runner;
    auto expect = [&](DML_OPERATOR_TYPE type, const std::string &fragment) {
        c.bind();
        const HRESULT hr = runner.create(type, &c.desc);
        INFO(hdmlGetLastErrorMessage());
        CHECK(hr == E_INVALIDARG);
        CHECK(std::string(hdmlGetLastErrorMessage()).find(fragment) != std::string::npos);
    };
    c.direction = 2;
    expect(DML_OPERATOR_ARGMAX, "AxisDirection 2");
    c.direction = DML_AXIS_DIRECTION_INCREASING;
    c.out = TestTensor(F32, {2, 1});
    expect(DML_OPERATOR_ARGMIN, "'OutputTensor' has DataType DML_TENSOR_DATA_TYPE_FLOAT32");
    c.out = TestTensor(U32, {2, 1});
    c.in = TestTensor(DML_TENSOR_DATA_TYPE_FLOAT64, {2, 3});
    expect(DML_OPERATOR_ARGMAX, "'InputTensor' has DataType DML_TENSOR_DATA_TYPE_FLOAT64");
    c.in = TestTensor(F32, {2, 3});
    c.axes = {3};
    expect(DML_OPERATOR_ARGMAX, "Axes[0] = 3");
    c.axes = {1, 1};
    expect(DML_OPERATOR_ARGMIN, "unique");
    c.axes = {};
    expect(DML_OPERATOR_ARGMAX, "AxisCount is 0");
    c.axes = {0};
    expect(DML_OPERATOR_ARGMAX, "'OutputTensor' has Sizes[0] = 2 but 1 is required");
    c.axes = {1};
    c.out = TestTensor(U32, {2, 1, 1});
    expect(DML_OPERATOR_ARGMIN, "DimensionCount");
}
