// Hostile inputs: sizes whose products wrap 2^32 and 2^64, spans past 2^63
// bytes, bindings whose ranges wrap the address space, overlapping bindings,
// extreme alignments and counts. Each must return E_INVALIDARG with a message
// (or run correctly), never crash, hang, or touch memory outside a binding.
#include "catch.hpp"
#include "test_tensor.h"

#include <cstring>
#include <string>

using namespace hdml_test;

namespace {

constexpr DML_TENSOR_DATA_TYPE F32 = DML_TENSOR_DATA_TYPE_FLOAT32;
constexpr DML_TENSOR_DATA_TYPE U32 = DML_TENSOR_DATA_TYPE_UINT32;

// A buffer tensor desc over caller-owned sizes and strides (strides may be
// null), TotalTensorSizeInBytes as the caller says.
struct RawTensor {
    std::vector<uint32_t> sizes, strides;
    DML_BUFFER_TENSOR_DESC buffer{};
    DML_TENSOR_DESC desc{};
    RawTensor(DML_TENSOR_DATA_TYPE type, std::vector<uint32_t> s, std::vector<uint32_t> st, uint64_t total_bytes)
        : sizes(std::move(s)), strides(std::move(st)) {
        buffer.DataType = type;
        buffer.DimensionCount = (UINT)sizes.size();
        buffer.Sizes = sizes.data();
        buffer.Strides = strides.empty() ? nullptr : strides.data();
        buffer.TotalTensorSizeInBytes = total_bytes;
        desc = {DML_TENSOR_TYPE_BUFFER, &buffer};
    }
    RawTensor(const RawTensor &) = delete;
};

// The sizes: their product is 2^64 + 4, which wraps to 4.
const std::vector<uint32_t> kWrapsTo4 = {4, 5, 5581, 8681, 49477, 384773};

std::vector<uint32_t> zeros(size_t n) { return std::vector<uint32_t>(n, 0); }

void expect_invalid(Runner &runner, DML_OPERATOR_TYPE type, const void *desc, const std::string &fragment) {
    const HRESULT hr = runner.create(type, desc);
    const std::string message = hdmlGetLastErrorMessage();
    INFO("message: " << message);
    CHECK(hr == E_INVALIDARG);
    CHECK(message.find(fragment) != std::string::npos);
    CHECK(runner.op == nullptr);
}

// A valid SUM of {2,4} over axis 1, to bind in hostile ways.
struct SumOp {
    TestTensor in{F32, {2, 4}}, out{F32, {2, 1}};
    uint32_t axis = 1;
    DML_REDUCE_OPERATOR_DESC desc{DML_REDUCE_FUNCTION_SUM, &in.desc, &out.desc, 1, &axis};
    Runner runner;
    SumOp() { REQUIRE(runner.create(DML_OPERATOR_REDUCE, &desc) == S_OK); }
    HRESULT execute(HDML_BUFFER_BINDING input, HDML_BUFFER_BINDING output) {
        return hdmlExecute(runner.op, 1, &input, 1, &output);
    }
};

}  // namespace

TEST_CASE("element counts that wrap 2^64 are rejected by every operator", "[hardening]") {
    // Broadcast (zero strides), so the implied byte size is tiny and only the count is wrong.
    const uint32_t rank = (uint32_t)kWrapsTo4.size();
    RawTensor big(F32, kWrapsTo4, zeros(rank), 16);
    std::vector<uint32_t> reduced = kWrapsTo4;
    reduced.back() = 1;
    RawTensor small_out(F32, reduced, {}, 1 << 20);
    Runner runner;
    uint32_t axis = rank - 1;

    DML_REDUCE_OPERATOR_DESC sum{DML_REDUCE_FUNCTION_SUM, &big.desc, &small_out.desc, 1, &axis};
    expect_invalid(runner, DML_OPERATOR_REDUCE, &sum, "2^64 or more elements");
    DML_REDUCE_OPERATOR_DESC argmax{DML_REDUCE_FUNCTION_ARGMAX, &big.desc, &small_out.desc, 1, &axis};
    expect_invalid(runner, DML_OPERATOR_REDUCE, &argmax, "at most 2^32-1 elements");
    DML_ARGMAX_OPERATOR_DESC argmax_op{&big.desc, &small_out.desc, 1, &axis, DML_AXIS_DIRECTION_INCREASING};
    expect_invalid(runner, DML_OPERATOR_ARGMAX, &argmax_op, "'InputTensor' has 2^64 or more elements");

    // GATHER: the indices' count wraps to 4 while the kernel would read 384,773.
    RawTensor data(F32, {1, 1, 1, 1, 1, 8}, {}, 32);
    RawTensor indices(U32, kWrapsTo4, zeros(rank), 16);
    RawTensor gathered(F32, kWrapsTo4, zeros(rank), 16);
    DML_GATHER_OPERATOR_DESC gather{&data.desc, &indices.desc, &gathered.desc, rank - 1, rank};
    expect_invalid(runner, DML_OPERATOR_GATHER, &gather, "'IndicesTensor' has 2^64 or more elements");

    // CUMULATIVE_SUMMATION over {65536}^4 (2^64 elements, wraps to 0).
    RawTensor cube(F32, {65536, 65536, 65536, 65536}, zeros(4), 16);
    DML_CUMULATIVE_SUMMATION_OPERATOR_DESC scan{&cube.desc, &cube.desc, 3, DML_AXIS_DIRECTION_INCREASING, FALSE};
    expect_invalid(runner, DML_OPERATOR_CUMULATIVE_SUMMATION, &scan, "'InputTensor' has 2^64 or more elements");

    // SPLIT and JOIN of a 2^65-element tensor.
    RawTensor huge(F32, {2, 65536, 65536, 65536, 65536}, zeros(5), 16);
    RawTensor half(F32, {1, 65536, 65536, 65536, 65536}, zeros(5), 16);
    DML_TENSOR_DESC halves[2] = {half.desc, half.desc};
    DML_SPLIT_OPERATOR_DESC split{&huge.desc, 2, halves, 0};
    expect_invalid(runner, DML_OPERATOR_SPLIT, &split, "2^64 or more elements");
    DML_JOIN_OPERATOR_DESC join{2, halves, &huge.desc, 0};
    expect_invalid(runner, DML_OPERATOR_JOIN, &join, "2^64 or more elements");

    // 2^32 elements exactly (no wrap of 64 bits, one past DirectML's limit).
    RawTensor just_over(F32, {65536, 65536}, zeros(2), 16);
    RawTensor just_over_out(F32, {65536, 1}, zeros(2), 16);
    DML_REDUCE_OPERATOR_DESC over{DML_REDUCE_FUNCTION_MAX, &just_over.desc, &just_over_out.desc, 1, &axis};
    axis = 1;
    expect_invalid(runner, DML_OPERATOR_REDUCE, &over, "has 4294967296 elements");
}

TEST_CASE("a tensor whose strides span more than 2^63-1 bytes is rejected", "[hardening]") {
    RawTensor wide(F32, {4294967295u}, {4294967295u}, UINT64_MAX);
    RawTensor out(F32, {1}, {}, 16);
    uint32_t axis = 0;
    DML_REDUCE_OPERATOR_DESC sum{DML_REDUCE_FUNCTION_SUM, &wide.desc, &out.desc, 1, &axis};
    Runner runner;
    expect_invalid(runner, DML_OPERATOR_REDUCE, &sum, "at most 2^63-1 bytes");
}

TEST_CASE("DMLCalcBufferTensorSize saturates sizes it cannot represent, with or without strides", "[hardening]") {
    const uint32_t cube[4] = {65536, 65536, 65536, 65536};
    CHECK(DMLCalcBufferTensorSize(F32, 4, cube, nullptr) == UINT64_MAX);
    CHECK(DMLCalcBufferTensorSize(F32, (UINT)kWrapsTo4.size(), kWrapsTo4.data(), nullptr) == UINT64_MAX);
    // With strides: a span of about 2^65 elements.
    const uint32_t longest[2] = {4294967295u, 4294967295u};
    CHECK(DMLCalcBufferTensorSize(F32, 2, longest, longest) == UINT64_MAX);
    const uint32_t strides[4] = {4294967295u, 4294967295u, 4294967295u, 4294967295u};
    CHECK(DMLCalcBufferTensorSize(F32, 4, cube, strides) == 4ull * (4 * 65535ull * 4294967295u + 1));
    // Exact where representable: DirectML's documented examples.
    const uint32_t sizes[2] = {2, 3}, packed[2] = {3, 1}, broadcast[2] = {0, 1};
    CHECK(DMLCalcBufferTensorSize(F32, 2, sizes, packed) == 24);
    CHECK(DMLCalcBufferTensorSize(F32, 2, sizes, broadcast) == 12);
    const uint32_t halves[4] = {1, 1, 1, 3};
    CHECK(DMLCalcBufferTensorSize(DML_TENSOR_DATA_TYPE_FLOAT16, 4, halves, nullptr) == 8);
    // 2^32-1 float64 elements: 2^35 - 8 bytes, past 32 bits but exact.
    const uint32_t most[1] = {4294967295u};
    CHECK(DMLCalcBufferTensorSize(DML_TENSOR_DATA_TYPE_FLOAT64, 1, most, nullptr) == 34359738360ull);
}

TEST_CASE("bindings whose Offset + SizeInBytes leave the address space are rejected", "[hardening]") {
    SumOp op;
    HDML_BUFFER_BINDING out = op.out.binding();
    // Wraps 2^64: once made REDUCE read 64 bytes before Buffer.
    HDML_BUFFER_BINDING wraps{op.in.storage.data(), UINT64_MAX - 15, 80};
    CHECK(op.execute(wraps, out) == E_INVALIDARG);
    CHECK(std::string(hdmlGetLastErrorMessage()).find("'InputTensor'") != std::string::npos);
    // An offset no buffer can have (segfaulted before).
    HDML_BUFFER_BINDING far_in{op.in.storage.data(), 1ull << 63, op.in.storage.size()};
    CHECK(op.execute(far_in, out) == E_INVALIDARG);
    CHECK(std::string(hdmlGetLastErrorMessage()).find("2^56") != std::string::npos);
    HDML_BUFFER_BINDING far_out{op.out.storage.data(), 1ull << 60, op.out.storage.size()};
    CHECK(op.execute(op.in.binding(), far_out) == E_INVALIDARG);
    // A size that wraps with the buffer's own address.
    HDML_BUFFER_BINDING huge{op.in.storage.data(), 0, UINT64_MAX};
    CHECK(op.execute(huge, out) == E_INVALIDARG);
    // The plain bindings still run.
    CHECK(op.execute(op.in.binding(), out) == S_OK);
}

TEST_CASE("an output may not overlap another binding", "[hardening]") {
    SECTION("REDUCE's output over its own input") {
        SumOp op;
        HDML_BUFFER_BINDING in = op.in.binding();
        HDML_BUFFER_BINDING out{op.in.storage.data(), 16, op.out.storage.size()};
        CHECK(op.execute(in, out) == E_INVALIDARG);
        const std::string message = hdmlGetLastErrorMessage();
        INFO(message);
        CHECK(message.find("output tensor 'OutputTensor'") != std::string::npos);
        CHECK(message.find("input tensor 'InputTensor'") != std::string::npos);
        // Adjacent ranges share no byte: accepted.
        std::vector<uint8_t> arena(64 + 16);
        std::memcpy(arena.data(), op.in.storage.data(), 32);
        CHECK(op.execute({arena.data(), 0, 32}, {arena.data(), 32, 8}) == S_OK);
    }
    SECTION("SPLIT with two outputs on one buffer") {
        TestTensor whole(F32, {4}), piece(F32, {2});
        DML_TENSOR_DESC pieces[2] = {piece.desc, piece.desc};
        DML_SPLIT_OPERATOR_DESC desc{&whole.desc, 2, pieces, 0};
        Runner runner;
        REQUIRE(runner.create(DML_OPERATOR_SPLIT, &desc) == S_OK);
        std::vector<uint8_t> arena(64);
        HDML_BUFFER_BINDING in = whole.binding();
        HDML_BUFFER_BINDING same[2] = {{arena.data(), 0, 8}, {arena.data(), 0, 8}};
        CHECK(hdmlExecute(runner.op, 1, &in, 2, same) == E_INVALIDARG);
        HDML_BUFFER_BINDING apart[2] = {{arena.data(), 16, 8}, {arena.data(), 0, 8}};
        CHECK(hdmlExecute(runner.op, 1, &in, 2, apart) == S_OK);
    }
    SECTION("GATHER's output over its indices; inputs may overlap each other") {
        TestTensor data(F32, {4}), idx(U32, {4}), out(F32, {4});
        for (uint32_t k = 0; k < 4; ++k) data.set_float(k, 10 + k), idx.set_bits(k, 3 - k);
        DML_GATHER_OPERATOR_DESC desc{&data.desc, &idx.desc, &out.desc, 0, 1};
        Runner runner;
        REQUIRE(runner.create(DML_OPERATOR_GATHER, &desc) == S_OK);
        HDML_BUFFER_BINDING ins[2] = {data.binding(), idx.binding()};
        HDML_BUFFER_BINDING over_indices = idx.binding();
        CHECK(hdmlExecute(runner.op, 2, ins, 1, &over_indices) == E_INVALIDARG);
        // The indices read as data too: two inputs on one buffer are fine.
        HDML_BUFFER_BINDING shared[2] = {idx.binding(), idx.binding()};
        HDML_BUFFER_BINDING result = out.binding();
        CHECK(hdmlExecute(runner.op, 2, shared, 1, &result) == S_OK);
        CHECK(out.bits_at(0) == 0);  // data[3] of the uint32 indices {3,2,1,0} read as bits
    }
    SECTION("JOIN of one input twice") {
        TestTensor piece(F32, {2}), whole(F32, {4});
        piece.set_float(0, 1), piece.set_float(1, 2);
        DML_TENSOR_DESC pieces[2] = {piece.desc, piece.desc};
        DML_JOIN_OPERATOR_DESC desc{2, pieces, &whole.desc, 0};
        Runner runner;
        REQUIRE(runner.create(DML_OPERATOR_JOIN, &desc) == S_OK);
        HDML_BUFFER_BINDING ins[2] = {piece.binding(), piece.binding()};
        HDML_BUFFER_BINDING out = whole.binding();
        REQUIRE(hdmlExecute(runner.op, 2, ins, 1, &out) == S_OK);
        CHECK(whole.float_at(2) == 1);
        CHECK(whole.float_at(3) == 2);
    }
}

TEST_CASE("cumulative ops run in place only at the input's own address and strides", "[hardening]") {
    TestTensor data(F32, {2, 4});
    for (uint32_t k = 0; k < 8; ++k) data.set_float(k, k + 1);
    DML_CUMULATIVE_SUMMATION_OPERATOR_DESC desc{&data.desc, &data.desc, 1, DML_AXIS_DIRECTION_INCREASING, FALSE};
    Runner runner;
    REQUIRE(runner.create(DML_OPERATOR_CUMULATIVE_SUMMATION, &desc) == S_OK);
    HDML_BUFFER_BINDING b = data.binding();
    REQUIRE(hdmlExecute(runner.op, 1, &b, 1, &b) == S_OK);
    CHECK(data.float_at(3) == 10);
    CHECK(data.float_at(7) == 26);
    // Shifted by one row: the output would read rows it has already written.
    std::vector<uint8_t> arena(64);
    HDML_BUFFER_BINDING in{arena.data(), 0, 32}, shifted{arena.data(), 16, 32};
    CHECK(hdmlExecute(runner.op, 1, &in, 1, &shifted) == E_INVALIDARG);
    // The same address with other strides (the output transposed) is no in-place scan.
    TestTensor transposed(F32, {2, 4}, {1, 2});
    DML_CUMULATIVE_SUMMATION_OPERATOR_DESC other{&data.desc, &transposed.desc, 1, DML_AXIS_DIRECTION_INCREASING, FALSE};
    REQUIRE(runner.create(DML_OPERATOR_CUMULATIVE_SUMMATION, &other) == S_OK);
    CHECK(hdmlExecute(runner.op, 1, &b, 1, &b) == E_INVALIDARG);
}

TEST_CASE("GuaranteedBaseOffsetAlignment up to 2^31 is accepted and enforced", "[hardening]") {
    for (uint32_t alignment : {1u << 29, 1u << 30, 1u << 31}) {
        INFO("alignment " << alignment);
        SumOp op;
        op.in.buffer_desc.GuaranteedBaseOffsetAlignment = alignment;
        REQUIRE(op.runner.create(DML_OPERATOR_REDUCE, &op.desc) == S_OK);
        HDML_BUFFER_BINDING misaligned{op.in.storage.data(), 16, op.in.storage.size()};
        CHECK(op.execute(misaligned, op.out.binding()) == E_INVALIDARG);
        CHECK(op.execute(op.in.binding(), op.out.binding()) == S_OK);
    }
}

TEST_CASE("SPLIT and JOIN counts beyond the axis are rejected before allocating", "[hardening]") {
    TestTensor whole(F32, {4}), piece(F32, {1});
    DML_SPLIT_OPERATOR_DESC split{&whole.desc, 0xFFFFFFFFu, &piece.desc, 0};
    Runner runner;
    expect_invalid(runner, DML_OPERATOR_SPLIT, &split, "OutputCount is 4294967295, more than the 4 slices");
    DML_JOIN_OPERATOR_DESC join{5, &piece.desc, &whole.desc, 0};
    expect_invalid(runner, DML_OPERATOR_JOIN, &join, "InputCount is 5, more than the 4 slices");
}
