// DML_OPERATOR_GATHER: the seed page's examples exactly (Example 3 as the size
// rule reads it), negative and out-of-range indices, every data and index
// type, and a randomised comparison with a naive reference over ranks 1-8,
// axes, IndexDimensions and strides.
#include "catch.hpp"
#include "test_tensor.h"

using namespace hdml_test;

namespace {

constexpr DML_TENSOR_DATA_TYPE F32 = DML_TENSOR_DATA_TYPE_FLOAT32, U32 = DML_TENSOR_DATA_TYPE_UINT32,
                               I32 = DML_TENSOR_DATA_TYPE_INT32, I64 = DML_TENSOR_DATA_TYPE_INT64,
                               U64 = DML_TENSOR_DATA_TYPE_UINT64;
const DML_TENSOR_DATA_TYPE kDataTypes[] = {
    DML_TENSOR_DATA_TYPE_FLOAT64, DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_INT64,
    DML_TENSOR_DATA_TYPE_INT32,   DML_TENSOR_DATA_TYPE_INT16,   DML_TENSOR_DATA_TYPE_INT8,    DML_TENSOR_DATA_TYPE_UINT64,
    DML_TENSOR_DATA_TYPE_UINT32,  DML_TENSOR_DATA_TYPE_UINT16,  DML_TENSOR_DATA_TYPE_UINT8};

struct GatherCase {
    TestTensor in, idx, out;
    uint32_t axis = 0, index_dims = 1;
    DML_GATHER_OPERATOR_DESC desc{};
    void bind() { desc = {&in.desc, &idx.desc, &out.desc, axis, index_dims}; }
};

// The output sizes by DirectML's rule, right-aligned into the input's rank;
// empty when they do not fit.
std::vector<uint32_t> expected_sizes(const GatherCase &c) {
    const uint32_t n = (uint32_t)c.in.sizes.size();
    std::vector<uint32_t> l(c.in.sizes.begin(), c.in.sizes.begin() + c.axis);
    l.insert(l.end(), c.idx.sizes.end() - c.index_dims, c.idx.sizes.end());
    l.insert(l.end(), c.in.sizes.begin() + c.axis + 1, c.in.sizes.end());
    while (l.size() > n) {
        if (l.front() != 1) return {};
        l.erase(l.begin());
    }
    while (l.size() < n) l.insert(l.begin(), 1);
    return l;
}

// Naive gather: walk the output, rebuild the input coordinate, copy the bits.
void check_gather(const GatherCase &c, const std::string &label) {
    const uint32_t n = (uint32_t)c.in.sizes.size();
    const uint32_t pre = c.axis, post = n - 1 - c.axis;
    const uint32_t used = pre + c.index_dims + post;  // entries of the unpadded size list
    const int64_t extent = c.in.sizes[c.axis];
    const bool is_signed = c.idx.type == I32 || c.idx.type == I64;
    c.out.for_each_index([&](const std::vector<uint32_t> &o) {
        // o's last `used` coordinates (or more, when leading 1s were cropped) map onto the list.
        std::vector<uint32_t> list(used, 0);
        for (uint32_t k = 0; k < used && k < n; ++k) list[used - 1 - k] = o[n - 1 - k];
        std::vector<uint32_t> src(n, 0), at(n, 0);
        for (uint32_t d = 0; d < pre; ++d) src[d] = list[d];
        for (uint32_t d = 0; d < c.index_dims; ++d) at[n - c.index_dims + d] = list[pre + d];
        for (uint32_t d = 0; d < post; ++d) src[c.axis + 1 + d] = list[pre + c.index_dims + d];
        int64_t v = (int64_t)c.idx.bits_at(c.idx.offset(at));
        if (!is_signed && v < 0) v = INT64_MAX;  // huge unsigned values
        if (is_signed && v < 0) v += extent;
        src[c.axis] = (uint32_t)std::min<int64_t>(std::max<int64_t>(v, 0), extent - 1);
        INFO(label << " at output " << shape_string(o));
        REQUIRE(c.out.bits_at(c.out.offset(o)) == c.in.bits_at(c.in.offset(src)));
    });
}

void run_case(GatherCase &c, const std::string &label) {
    c.bind();
    Runner runner;
    const HRESULT hr = runner.create(DML_OPERATOR_GATHER, &c.desc);
    INFO(label << ": " << hdmlGetLastErrorMessage());
    REQUIRE(hr == S_OK);
    REQUIRE(runner.execute({c.in.binding(), c.idx.binding()}, {c.out.binding()}) == S_OK);
    check_gather(c, label);
}

std::vector<float> gather_floats(std::vector<uint32_t> in_sizes, std::vector<float> in_values,
                                 std::vector<uint32_t> idx_sizes, std::vector<int64_t> idx_values,
                                 DML_TENSOR_DATA_TYPE idx_type, std::vector<uint32_t> out_sizes, uint32_t axis,
                                 uint32_t index_dims) {
    GatherCase c;
    c.in = TestTensor(F32, in_sizes);
    for (size_t k = 0; k < in_values.size(); ++k) c.in.set_float(k, in_values[k]);
    c.idx = TestTensor(idx_type, idx_sizes);
    for (size_t k = 0; k < idx_values.size(); ++k) c.idx.set_bits(k, (uint64_t)idx_values[k]);
    c.out = TestTensor(F32, out_sizes);
    c.axis = axis;
    c.index_dims = index_dims;
    run_case(c, "seed");
    std::vector<float> result;
    for (uint64_t k = 0; k < c.out.count(); ++k) result.push_back((float)c.out.float_at(k));
    return result;
}

}  // namespace

TEST_CASE("GATHER seed examples", "[gather][seed]") {
    // Example 1: 1-D remap.
    CHECK(gather_floats({4}, {11, 12, 13, 14}, {5}, {3, 1, 3, 0, 2}, U32, {5}, 0, 1) ==
          std::vector<float>{14, 12, 14, 11, 13});
    // Example 2: rows of a {3,2} tensor.
    CHECK(gather_floats({3, 2}, {1, 2, 3, 4, 5, 6}, {1, 4}, {0, 1, 1, 2}, U32, {4, 2}, 0, 1) ==
          std::vector<float>{1, 2, 3, 4, 3, 4, 5, 6});
    // Example 3 (swap columns) with IndexDimensions 1, which its sizes satisfy.
    CHECK(gather_floats({3, 2}, {1, 2, 3, 4, 5, 6}, {1, 2}, {1, 0}, U32, {3, 2}, 1, 1) ==
          std::vector<float>{2, 1, 4, 3, 6, 5});
    // Example 4: axis 2, nested indices.
    CHECK(gather_floats({1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 1, 2}, {0, 2}, U32, {3, 1, 2}, 2, 2) ==
          std::vector<float>{1, 3, 4, 6, 7, 9});
    // Example 5: axis 1, nested indices.
    CHECK(gather_floats({1, 3, 2}, {1, 2, 3, 4, 5, 6}, {1, 2, 2}, {0, 1, 1, 2}, U32, {2, 2, 2}, 1, 2) ==
          std::vector<float>{1, 2, 3, 4, 3, 4, 5, 6});
}

TEST_CASE("GATHER seed Example 3 as printed (IndexDimensions 2) breaks the size rule", "[gather][seed]") {
    GatherCase c;
    c.in = TestTensor(F32, {3, 2});
    c.idx = TestTensor(U32, {1, 2});
    c.out = TestTensor(F32, {3, 2});
    c.axis = 1;
    c.index_dims = 2;
    c.bind();
    Runner runner;
    CHECK(runner.create(DML_OPERATOR_GATHER, &c.desc) == E_INVALIDARG);
    CHECK(std::string(hdmlGetLastErrorMessage()).find("the output needs 3 dimensions") != std::string::npos);
}

TEST_CASE("GATHER negative indices count from the end; out-of-range indices clamp", "[gather]") {
    const std::vector<float> data = {10, 20, 30, 40};
    CHECK(gather_floats({4}, data, {4}, {-1, -4, 1, -2}, I32, {4}, 0, 1) == std::vector<float>{40, 10, 20, 30});
    CHECK(gather_floats({4}, data, {4}, {-1, -4, 1, -2}, I64, {4}, 0, 1) == std::vector<float>{40, 10, 20, 30});
    CHECK(gather_floats({4}, data, {3}, {-5, 4, 1000000}, I32, {3}, 0, 1) == std::vector<float>{10, 40, 40});
    CHECK(gather_floats({4}, data, {2}, {0xFFFFFFFFll, 2}, U32, {2}, 0, 1) == std::vector<float>{40, 30});
    CHECK(gather_floats({4}, data, {2}, {-1, 3}, U64, {2}, 0, 1) == std::vector<float>{40, 40});
    CHECK(gather_floats({4}, data, {1}, {INT64_MIN}, I64, {1}, 0, 1) == std::vector<float>{10});
}

TEST_CASE("GATHER randomised against the reference: ranks 1-8, every data and index type", "[gather][random]") {
    std::mt19937 rng(test_seed());
    static const uint32_t primes[] = {1, 2, 3, 5, 7};
    const DML_TENSOR_DATA_TYPE index_types[] = {I32, I64, U32, U64};
    for (DML_TENSOR_DATA_TYPE type : kDataTypes) {
        for (uint32_t n = 1; n <= 8; ++n) {
            for (int k = 0; k < (n <= 3 ? 10 : 4); ++k) {
                GatherCase c;
                c.axis = rng() % n;
                c.index_dims = rng() % (n + 1);
                std::vector<uint32_t> in_sizes(n), idx_sizes(n, 1);
                for (auto &s : in_sizes) s = primes[rng() % (n <= 3 ? 5 : 3)];
                if (n <= 2 && rng() % 2) in_sizes[n - 1] = 60 + rng() % 100;  // long rows: vector copies
                for (uint32_t d = n - c.index_dims; d < n; ++d) idx_sizes[d] = primes[rng() % 4];
                // Make the size list fit n dims: the first index_dims-1 entries must be 1s.
                int ones = (int)c.index_dims - 1;
                for (uint32_t d = 0; d < c.axis && ones > 0; ++d, --ones) in_sizes[d] = 1;
                for (uint32_t d = n - c.index_dims; ones > 0; ++d, --ones) idx_sizes[d] = 1;
                c.in = TestTensor(type, in_sizes, random_strides(in_sizes, rng, true));
                fill_random_bits(c.in, rng);
                c.idx = TestTensor(index_types[rng() % 4], idx_sizes, random_strides(idx_sizes, rng, true));
                const int64_t extent = in_sizes[c.axis];
                c.idx.for_each_index([&](const std::vector<uint32_t> &i) {
                    c.idx.set_bits(c.idx.offset(i), (uint64_t)(int64_t)((int64_t)(rng() % (2 * extent + 5)) - extent - 2));
                });
                const std::vector<uint32_t> out_sizes = expected_sizes(c);
                REQUIRE(!out_sizes.empty());
                c.out = TestTensor(type, out_sizes, random_strides(out_sizes, rng, false));
                const std::string label = std::string(short_name(type)) + " indices " + short_name(c.idx.type) +
                                          " in " + shape_string(in_sizes) + " strides " + shape_string(c.in.strides) +
                                          " idx " + shape_string(idx_sizes) + " axis " + std::to_string(c.axis) +
                                          " IndexDimensions " + std::to_string(c.index_dims) + " (seed " +
                                          std::to_string(test_seed()) + ")";
                run_case(c, label);
            }
        }
    }
}

// Dense indices along a dense innermost axis take the CPU's unrolled path: index
// counts around a multiple of its block (up to 32 elements on AVX-512), one
// block exactly, the last block shifted inwards over the one before, and fewer
// than a block (the guarded path); few rows (tasks of row blocks) and many
// (tasks of whole rows, from 64), with a partial last task.
TEST_CASE("GATHER along the innermost axis with many dense indices", "[gather][random]") {
    std::mt19937 rng(test_seed());
    const DML_TENSOR_DATA_TYPE types[] = {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_UINT8,
                                          DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_INT64};
    for (DML_TENSOR_DATA_TYPE type : types) {
        for (uint32_t count : {1u, 7u, 15u, 16u, 17u, 31u, 32u, 33u, 63u, 64u, 65u, 100u, 512u}) {
            for (bool many_rows : {false, true}) {
                const uint32_t rows = many_rows ? 64 + rng() % 137 : 1 + rng() % 40, cols = 1 + rng() % 300;
                GatherCase c;
                c.axis = 1;
                c.in = TestTensor(type, {rows, cols});
                fill_random_bits(c.in, rng);
                c.idx = TestTensor(I32, {1, count});
                // Mostly in range; some negative and some past the end (clamped).
                for (uint32_t k = 0; k < count; ++k) {
                    c.idx.set_bits(k, (uint64_t)(int64_t)((int64_t)(rng() % (cols + cols / 4 + 3)) - (int64_t)(cols / 8) - 1));
                }
                c.out = TestTensor(type, {rows, count});
                run_case(c, std::string(short_name(type)) + " [" + std::to_string(rows) + "," + std::to_string(cols) +
                                "] gathering " + std::to_string(count) + " columns (seed " + std::to_string(test_seed()) +
                                ")");
            }
        }
    }
}

// Rows of whole 32-bit words of 8- and 16-bit elements take the word kernel when
// input and output lie on word boundaries and the element kernel otherwise: both
// bound at element (not word) offsets, GuaranteedBaseOffsetAlignment the element size.
TEST_CASE("GATHER of 8- and 16-bit rows on and off 32-bit word boundaries", "[gather]") {
    std::mt19937 rng(test_seed());
    for (DML_TENSOR_DATA_TYPE type : {DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_UINT8}) {
        const uint32_t esize = bytes_of(type);
        for (uint32_t in_shift : {0u, esize}) {
            for (uint32_t out_shift : {0u, esize}) {
                GatherCase c;
                c.axis = 1;
                c.in = TestTensor(type, {3, 9, 8 / esize * 5});  // rows of 5 words
                c.in.for_each_index([&](const std::vector<uint32_t> &i) { c.in.set_bits(c.in.offset(i), rng()); });
                c.idx = TestTensor(I32, {1, 1, 4});
                for (uint32_t k = 0; k < 4; ++k) c.idx.set_bits(k, rng() % 9);
                c.out = TestTensor(type, {3, 4, 8 / esize * 5});
                c.in.buffer_desc.GuaranteedBaseOffsetAlignment = c.out.buffer_desc.GuaranteedBaseOffsetAlignment = esize;
                // Each tensor's bytes `shift` bytes into a buffer of its own.
                std::vector<uint8_t> in_buffer(in_shift + c.in.storage.size()), out_buffer(out_shift + c.out.storage.size());
                std::memcpy(in_buffer.data() + in_shift, c.in.storage.data(), c.in.storage.size());
                c.bind();
                Runner runner;
                REQUIRE(runner.create(DML_OPERATOR_GATHER, &c.desc) == S_OK);
                REQUIRE(std::string(hdmlGetOperatorKernels(runner.op)).find("gather_uint32") != std::string::npos);
                REQUIRE(runner.execute({{in_buffer.data(), in_shift, c.in.storage.size()}, c.idx.binding()},
                                       {{out_buffer.data(), out_shift, c.out.storage.size()}}) == S_OK);
                std::memcpy(c.out.storage.data(), out_buffer.data() + out_shift, c.out.storage.size());
                check_gather(c, std::string(short_name(type)) + " input at byte " + std::to_string(in_shift) +
                                    ", output at byte " + std::to_string(out_shift));
            }
        }
    }
}

// 64-bit data moves with the uint64 gather kernel, or as pairs of 32-bit words
// with the uint32 one on devices that take them so (D3D12; the `.word_pairs`
// variants), where GPUs also read 64-bit indices as (low, high) words: values
// on each side of the 32-bit boundaries must clamp or count from the end as
// the whole 64-bit value does.
TEST_CASE("GATHER of 64-bit data by 64-bit indices: whole, or as pairs of 32-bit words", "[gather][word_pairs]") {
    std::mt19937 rng(test_seed());
    const bool pairs = test_moves_64bit_in_words();
    const int64_t two31 = int64_t(1) << 31, two32 = int64_t(1) << 32;
    const std::vector<int64_t> values = {0,         6,         7,         -1,         -7,         -8,
                                         two31 - 1, two31,     two32 - 1, two32,      two32 + 1,  -two31,
                                         -two31 - 1, -two32,   -two32 + 1, INT64_MIN, INT64_MAX, 3};
    for (DML_TENSOR_DATA_TYPE idx_type : {I64, U64}) {
        for (DML_TENSOR_DATA_TYPE type : {DML_TENSOR_DATA_TYPE_FLOAT64, DML_TENSOR_DATA_TYPE_UINT64}) {
            GatherCase c;
            c.axis = 1;
            c.in = TestTensor(type, {5, 7, 3}, random_strides({5, 7, 3}, rng, false));
            fill_random_bits(c.in, rng);
            c.idx = TestTensor(idx_type, {1, 1, (uint32_t)values.size()});
            for (size_t k = 0; k < values.size(); ++k) c.idx.set_bits(k, (uint64_t)values[k]);
            c.out = TestTensor(type, {5, (uint32_t)values.size(), 3});
            c.bind();
            Runner runner;
            REQUIRE(runner.create(DML_OPERATOR_GATHER, &c.desc) == S_OK);
            const std::string kernels = hdmlGetOperatorKernels(runner.op);
            INFO("kernels " << kernels);
            CHECK(kernels.find(pairs ? "hdml_gather_uint32_" : "hdml_gather_uint64_") != std::string::npos);
            if (test_on_gpu()) {
                const std::string normalize = std::string("hdml_normalize_indices_") +
                                              (idx_type == I64 ? "int64_" : "uint64_") + (pairs ? "words_" : "");
                CHECK(kernels.find(normalize) == 0);
            }
            REQUIRE(runner.execute({c.in.binding(), c.idx.binding()}, {c.out.binding()}) == S_OK);
            check_gather(c, std::string(short_name(type)) + " by " + short_name(idx_type) +
                                (pairs ? " in word pairs" : " whole") + " (seed " + std::to_string(test_seed()) + ")");
        }
    }
}

TEST_CASE("GATHER validation rules", "[gather][validation]") {
    Runner runner;
    auto expect = [&](GatherCase &c, const std::string &fragment) {
        c.bind();
        const HRESULT hr = runner.create(DML_OPERATOR_GATHER, &c.desc);
        INFO(hdmlGetLastErrorMessage());
        CHECK(hr == E_INVALIDARG);
        CHECK(std::string(hdmlGetLastErrorMessage()).find(fragment) != std::string::npos);
    };
    auto valid = [] {
        GatherCase c;
        c.in = TestTensor(F32, {3, 2});
        c.idx = TestTensor(U32, {1, 4});
        c.out = TestTensor(F32, {4, 2});
        return c;
    };
    {
        GatherCase c = valid();
        c.bind();
        CHECK(runner.create(DML_OPERATOR_GATHER, &c.desc) == S_OK);
    }
    GatherCase c = valid();
    c.axis = 2;
    expect(c, "Axis 2 is out of range");
    c = valid();
    c.idx = TestTensor(U32, {4});
    expect(c, "DimensionCount");
    c = valid();
    c.out = TestTensor(DML_TENSOR_DATA_TYPE_FLOAT16, {4, 2});
    expect(c, "Mismatched tensor data types");
    c = valid();
    c.idx = TestTensor(DML_TENSOR_DATA_TYPE_INT16, {1, 4});
    expect(c, "'IndicesTensor' has DataType DML_TENSOR_DATA_TYPE_INT16");
    c = valid();
    c.in = TestTensor(DML_TENSOR_DATA_TYPE_UINT4, {3, 2});
    c.out = TestTensor(DML_TENSOR_DATA_TYPE_UINT4, {4, 2});
    expect(c, "'InputTensor' has DataType DML_TENSOR_DATA_TYPE_UINT4");
    c = valid();
    c.index_dims = 3;
    expect(c, "IndexDimensions 3 is out of range");
    c = valid();
    c.idx = TestTensor(U32, {2, 4});
    expect(c, "'IndicesTensor' has Sizes[0] = 2");
    c = valid();
    c.out = TestTensor(F32, {3, 2});
    expect(c, "'OutputTensor' has Sizes[0] = 3 but the gather size rule requires 4");
}
