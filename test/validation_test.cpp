// One test per validation rule: the bad descriptor or binding returns
// E_INVALIDARG (or DXGI_ERROR_UNSUPPORTED for devices) and a message that
// names the tensor, the field and the rule. Plus a small fuzzer.
#include "catch.hpp"
#include "test_tensor.h"

#include <string>

using namespace hdml_test;

namespace {

constexpr DML_TENSOR_DATA_TYPE F32 = DML_TENSOR_DATA_TYPE_FLOAT32;

// A valid SUM over axis 1 of a {2,3} tensor; tests break one thing at a time.
struct ValidReduce {
    TestTensor in{F32, {2, 3}};
    TestTensor out{F32, {2, 1}};
    std::vector<uint32_t> axes{1};
    DML_REDUCE_OPERATOR_DESC desc{};
    ValidReduce() {
        desc.Function = DML_REDUCE_FUNCTION_SUM;
        desc.InputTensor = &in.desc;
        desc.OutputTensor = &out.desc;
        desc.AxisCount = 1;
        desc.Axes = axes.data();
    }
    void sync() {
        in.buffer_desc.Sizes = in.sizes.data();
        out.buffer_desc.Sizes = out.sizes.data();
        out.buffer_desc.Strides = out.strides.data();
        desc.Axes = axes.data();
    }
};

void expect_invalid(Runner &runner, const void *desc, const std::vector<std::string> &fragments) {
    const HRESULT hr = runner.create(DML_OPERATOR_REDUCE, desc);
    const std::string message = hdmlGetLastErrorMessage();
    INFO("message: " << message);
    REQUIRE(hr == E_INVALIDARG);
    for (const std::string &fragment : fragments) CHECK(message.find(fragment) != std::string::npos);
    CHECK(runner.op == nullptr);
}

}  // namespace

TEST_CASE("the valid baseline descriptor is accepted", "[validation]") {
    ValidReduce v;
    Runner runner;
    REQUIRE(runner.create(DML_OPERATOR_REDUCE, &v.desc) == S_OK);
    CHECK(std::string(hdmlGetLastErrorMessage()).empty());
}

TEST_CASE("tensor rule: a tensor desc must be present", "[validation]") {
    ValidReduce v;
    v.desc.InputTensor = nullptr;
    Runner runner;
    expect_invalid(runner, &v.desc, {"'InputTensor'", "null"});
}

TEST_CASE("tensor rule: Type must be DML_TENSOR_TYPE_BUFFER", "[validation]") {
    ValidReduce v;
    v.out.desc.Type = DML_TENSOR_TYPE_INVALID;
    Runner runner;
    expect_invalid(runner, &v.desc, {"'OutputTensor'", "Type", "DML_TENSOR_TYPE_BUFFER"});
}

TEST_CASE("tensor rule: Desc must point to a buffer tensor desc", "[validation]") {
    ValidReduce v;
    v.in.desc.Desc = nullptr;
    Runner runner;
    expect_invalid(runner, &v.desc, {"'InputTensor'", "Desc"});
}

TEST_CASE("tensor rule: DataType must be a DML_TENSOR_DATA_TYPE", "[validation]") {
    ValidReduce v;
    v.in.buffer_desc.DataType = (DML_TENSOR_DATA_TYPE)42;
    Runner runner;
    expect_invalid(runner, &v.desc, {"'InputTensor'", "DataType", "DML_TENSOR_DATA_TYPE(42)"});
}

TEST_CASE("tensor rule: Flags must be DML_TENSOR_FLAGS; OWNED_BY_DML needs an initializer", "[validation]") {
    ValidReduce v;
    Runner runner;
    v.in.buffer_desc.Flags = (DML_TENSOR_FLAGS)4;
    expect_invalid(runner, &v.desc, {"'InputTensor'", "Flags"});
    v.in.buffer_desc.Flags = DML_TENSOR_FLAG_OWNED_BY_DML;
    expect_invalid(runner, &v.desc, {"'InputTensor'", "DML_TENSOR_FLAG_OWNED_BY_DML"});
}

TEST_CASE("tensor rule: DimensionCount must be between 1 and 8", "[validation]") {
    Runner runner;
    for (UINT bad : {0u, 9u}) {
        ValidReduce v;
        v.in.buffer_desc.DimensionCount = bad;
        expect_invalid(runner, &v.desc, {"'InputTensor'", "DimensionCount " + std::to_string(bad), "between 1 and 8"});
    }
}

TEST_CASE("tensor rule: Sizes must be given and every size must be > 0", "[validation]") {
    Runner runner;
    ValidReduce v;
    v.in.buffer_desc.Sizes = nullptr;
    expect_invalid(runner, &v.desc, {"'InputTensor'", "Sizes"});
    ValidReduce w;
    w.in.sizes[1] = 0;
    w.sync();
    expect_invalid(runner, &w.desc, {"'InputTensor'", "Sizes[1] = 0", "greater than 0"});
}

TEST_CASE("tensor rule: at most 2^32-1 elements", "[validation]") {
    ValidReduce v;
    v.in.sizes = {65536, 65536};
    v.in.buffer_desc.Strides = nullptr;
    v.in.buffer_desc.TotalTensorSizeInBytes = 1ull << 34;
    v.sync();
    Runner runner;
    expect_invalid(runner, &v.desc, {"'InputTensor'", "4294967296 elements", "2^32-1"});
}

TEST_CASE("tensor rule: TotalTensorSizeInBytes >= the implied size", "[validation]") {
    ValidReduce v;
    v.in.buffer_desc.TotalTensorSizeInBytes = 20;  // {2,3} float32 needs 24
    Runner runner;
    expect_invalid(runner, &v.desc, {"'InputTensor'", "TotalTensorSizeInBytes 20", "24 bytes"});
    // Strides enlarge the implied size: {2,3} with strides {8,1} needs (8+2+1)*4 = 44 bytes.
    ValidReduce w;
    w.in.strides = {8, 1};
    w.in.buffer_desc.Strides = w.in.strides.data();
    w.in.buffer_desc.TotalTensorSizeInBytes = 40;
    expect_invalid(runner, &w.desc, {"'InputTensor'", "44 bytes"});
}

TEST_CASE("tensor rule: GuaranteedBaseOffsetAlignment is 0 or a power of two >= the element size", "[validation]") {
    Runner runner;
    for (UINT bad : {3u, 2u, 24u}) {
        ValidReduce v;
        v.in.buffer_desc.GuaranteedBaseOffsetAlignment = bad;
        expect_invalid(runner, &v.desc, {"'InputTensor'", "GuaranteedBaseOffsetAlignment " + std::to_string(bad)});
    }
    ValidReduce ok;
    ok.in.buffer_desc.GuaranteedBaseOffsetAlignment = 32;
    CHECK(runner.create(DML_OPERATOR_REDUCE, &ok.desc) == S_OK);
}

TEST_CASE("REDUCE rule: Function must be a DML_REDUCE_FUNCTION", "[validation]") {
    ValidReduce v;
    v.desc.Function = (DML_REDUCE_FUNCTION)12;
    Runner runner;
    expect_invalid(runner, &v.desc, {"Function 12"});
}

TEST_CASE("REDUCE rule: input and output ranks match", "[validation]") {
    ValidReduce v;
    v.out = TestTensor(F32, {2});
    v.desc.OutputTensor = &v.out.desc;
    Runner runner;
    expect_invalid(runner, &v.desc, {"'OutputTensor'", "DimensionCount 1", "'InputTensor'", "DimensionCount 2"});
}

TEST_CASE("REDUCE rule: AxisCount >= 1, <= rank, and Axes given", "[validation]") {
    Runner runner;
    ValidReduce v;
    v.desc.AxisCount = 0;
    expect_invalid(runner, &v.desc, {"AxisCount is 0"});
    ValidReduce w;
    w.axes = {0, 1, 1};
    w.sync();
    w.desc.AxisCount = 3;
    expect_invalid(runner, &w.desc, {"AxisCount 3", "DimensionCount 2"});
    ValidReduce x;
    x.desc.Axes = nullptr;
    expect_invalid(runner, &x.desc, {"Axes is null"});
}

TEST_CASE("REDUCE rule: every axis is in [0, rank-1]", "[validation]") {
    ValidReduce v;
    v.axes = {2};
    v.sync();
    Runner runner;
    expect_invalid(runner, &v.desc, {"Axes[0] = 2", "[0, 1]"});
}

TEST_CASE("REDUCE rule: axes are unique", "[validation]") {
    ValidReduce v;
    v.axes = {1, 1};
    v.sync();
    v.desc.AxisCount = 2;
    Runner runner;
    expect_invalid(runner, &v.desc, {"Axes[1] = 1", "unique"});
}

TEST_CASE("REDUCE rule: output size is 1 on reduced axes and the input's elsewhere", "[validation]") {
    Runner runner;
    ValidReduce v;
    v.out = TestTensor(F32, {2, 3});
    v.desc.OutputTensor = &v.out.desc;
    expect_invalid(runner, &v.desc, {"'OutputTensor'", "Sizes[1] = 3", "reduced axes have size 1"});
    ValidReduce w;
    w.out = TestTensor(F32, {1, 1});
    w.desc.OutputTensor = &w.out.desc;
    expect_invalid(runner, &w.desc, {"'OutputTensor'", "Sizes[0] = 1", "kept axes"});
}

TEST_CASE("REDUCE rule: input and output data types match (non-arg functions)", "[validation]") {
    ValidReduce v;
    v.out = TestTensor(DML_TENSOR_DATA_TYPE_FLOAT16, {2, 1});
    v.desc.OutputTensor = &v.out.desc;
    Runner runner;
    expect_invalid(runner, &v.desc, {"Mismatched tensor data types", "'OutputTensor'", "DML_TENSOR_DATA_TYPE_FLOAT16"});
}

TEST_CASE("REDUCE rule: data types per function follow the newest support table", "[validation]") {
    Runner runner;
    struct Bad {
        DML_REDUCE_FUNCTION fn;
        DML_TENSOR_DATA_TYPE type;
    };
    for (Bad bad : {Bad{DML_REDUCE_FUNCTION_AVERAGE, DML_TENSOR_DATA_TYPE_INT32},
                    Bad{DML_REDUCE_FUNCTION_LOG_SUM_EXP, DML_TENSOR_DATA_TYPE_UINT32},
                    Bad{DML_REDUCE_FUNCTION_SUM, DML_TENSOR_DATA_TYPE_INT8},
                    Bad{DML_REDUCE_FUNCTION_MAX, DML_TENSOR_DATA_TYPE_FLOAT64},
                    Bad{DML_REDUCE_FUNCTION_L1, DML_TENSOR_DATA_TYPE_UINT16},
                    Bad{DML_REDUCE_FUNCTION_MULTIPLY, DML_TENSOR_DATA_TYPE_UINT4}}) {
        ValidReduce v;
        v.in = TestTensor(bad.type, {2, 3});
        v.out = TestTensor(bad.type, {2, 1});
        v.desc.InputTensor = &v.in.desc;
        v.desc.OutputTensor = &v.out.desc;
        v.desc.Function = bad.fn;
        expect_invalid(runner, &v.desc, {"'InputTensor'", "does not support", "supported:"});
    }
    // ARGMAX/ARGMIN output an index type.
    ValidReduce v;
    v.desc.Function = DML_REDUCE_FUNCTION_ARGMAX;
    expect_invalid(runner, &v.desc, {"'OutputTensor'", "DML_TENSOR_DATA_TYPE_FLOAT32", "DML_TENSOR_DATA_TYPE_INT64"});
}

TEST_CASE("operator rule: the desc and its Type must be valid", "[validation]") {
    Runner runner;
    CHECK(hdmlCreateOperator(runner.device, nullptr, &runner.op) == E_INVALIDARG);
    DML_OPERATOR_DESC desc{DML_OPERATOR_CONVOLUTION, nullptr};
    CHECK(hdmlCreateOperator(runner.device, &desc, &runner.op) == E_INVALIDARG);
    CHECK(std::string(hdmlGetLastErrorMessage()).find("Type 53") != std::string::npos);
    desc.Type = DML_OPERATOR_REDUCE;
    CHECK(hdmlCreateOperator(runner.device, &desc, &runner.op) == E_INVALIDARG);
    CHECK(std::string(hdmlGetLastErrorMessage()).find("null Desc") != std::string::npos);
    CHECK(hdmlCreateOperator(nullptr, &desc, &runner.op) == E_INVALIDARG);
}

TEST_CASE("device rule: unavailable device types are DXGI_ERROR_UNSUPPORTED, never an abort", "[validation]") {
    hdml_device *device = nullptr;
    const HRESULT d3d12 = hdmlCreateDevice(HDML_DEVICE_TYPE_D3D12, 0, &device);
    if (d3d12 == S_OK) {  // Windows with a D3D12 adapter (d3d12_device_test goes further)
#ifndef _WIN32
        FAIL("a D3D12 device outside Windows");
#endif
        hdmlReleaseDevice(device);
        device = nullptr;
    } else {
        CHECK(d3d12 == DXGI_ERROR_UNSUPPORTED);
        CHECK(device == nullptr);
        CHECK(std::string(hdmlGetLastErrorMessage()).find("D3D12") != std::string::npos);
    }
    CHECK(hdmlCreateDevice(HDML_DEVICE_TYPE_CPU, 1, &device) == DXGI_ERROR_UNSUPPORTED);
    CHECK(hdmlCreateDevice((HDML_DEVICE_TYPE)7, 0, &device) == E_INVALIDARG);
    CHECK(hdmlCreateDevice(HDML_DEVICE_TYPE_CPU, 0, nullptr) == E_INVALIDARG);
}

TEST_CASE("device rule: CUDA devices exist exactly when a driver and a GPU do", "[validation]") {
    hdml_device *device = nullptr;
    const HRESULT hr = hdmlCreateDevice(HDML_DEVICE_TYPE_CUDA, 0, &device);
    const std::string message = hdmlGetLastErrorMessage();
    INFO("message: " << message);
    if (hr == S_OK) {
        // A GPU is here: the device works with the CUDA operators, and its
        // ordinal range is checked.
        REQUIRE(device != nullptr);
        hdml_device *none = nullptr;
        CHECK(hdmlCreateDevice(HDML_DEVICE_TYPE_CUDA, 4096, &none) == DXGI_ERROR_UNSUPPORTED);
        CHECK(std::string(hdmlGetLastErrorMessage()).find("ordinal 4096 does not exist") != std::string::npos);
        hdmlReleaseDevice(device);
    } else {
        CHECK(hr == DXGI_ERROR_UNSUPPORTED);
        CHECK(device == nullptr);
        CHECK((message.find("no CUDA device") != std::string::npos ||
               message.find("no CUDA kernels") != std::string::npos));
    }
    // The caller's context must be given; a null one is a bad argument (or,
    // in a build without CUDA kernels, unsupported).
    const HRESULT from_null = hdmlCreateDeviceFromCudaContext(nullptr, nullptr, &device);
    CHECK(device == nullptr);
    if (from_null == E_INVALIDARG) {
        CHECK(std::string(hdmlGetLastErrorMessage()).find("CUcontext is null") != std::string::npos);
    } else {
        CHECK(from_null == DXGI_ERROR_UNSUPPORTED);
    }
}

TEST_CASE("execute rules: binding counts, null buffers, sizes and offset alignment", "[validation]") {
    ValidReduce v;
    Runner runner;
    REQUIRE(runner.create(DML_OPERATOR_REDUCE, &v.desc) == S_OK);
    auto check = [&](HRESULT hr, const std::string &fragment) {
        INFO("message: " << hdmlGetLastErrorMessage());
        CHECK(hr == E_INVALIDARG);
        CHECK(std::string(hdmlGetLastErrorMessage()).find(fragment) != std::string::npos);
    };
    check(runner.execute({}, {v.out.binding()}), "0 input bindings");
    check(runner.execute({v.in.binding()}, {v.out.binding(), v.out.binding()}), "2 output bindings");
    HDML_BUFFER_BINDING null_buffer = v.in.binding();
    null_buffer.Buffer = nullptr;
    check(runner.execute({null_buffer}, {v.out.binding()}), "'InputTensor' has a null Buffer");
    HDML_BUFFER_BINDING small = v.out.binding();
    small.SizeInBytes = 4;
    check(runner.execute({v.in.binding()}, {small}), "'OutputTensor' has SizeInBytes 4");
    HDML_BUFFER_BINDING misaligned = v.in.binding();
    misaligned.Offset = 8;
    check(runner.execute({misaligned}, {v.out.binding()}), "Offset 8");
    CHECK(hdmlExecute(nullptr, 0, nullptr, 0, nullptr) == E_INVALIDARG);
    // A well-formed call still works after the failures.
    CHECK(runner.execute({v.in.binding()}, {v.out.binding()}) == S_OK);
}

TEST_CASE("execute: offsets select a sub-range; GuaranteedBaseOffsetAlignment relaxes nothing below it",
          "[validation]") {
    ValidReduce v;
    v.in.buffer_desc.GuaranteedBaseOffsetAlignment = 32;
    Runner runner;
    REQUIRE(runner.create(DML_OPERATOR_REDUCE, &v.desc) == S_OK);
    std::vector<uint8_t> big(64 + v.in.storage.size());
    for (int k = 0; k < 6; ++k) v.in.set_float(k, k + 1);
    std::memcpy(big.data() + 32, v.in.storage.data(), v.in.storage.size());
    HDML_BUFFER_BINDING in{big.data(), 32, v.in.storage.size()};
    REQUIRE(runner.execute({in}, {v.out.binding()}) == S_OK);
    CHECK(v.out.float_at(0) == 6.0);
    CHECK(v.out.float_at(1) == 15.0);
    in.Offset = 16;
    CHECK(runner.execute({in}, {v.out.binding()}) == E_INVALIDARG);
}

TEST_CASE("DMLCalcBufferTensorSize follows DirectMLX", "[validation]") {
    const UINT s4[] = {1, 1, 1, 3};
    CHECK(DMLCalcBufferTensorSize(DML_TENSOR_DATA_TYPE_FLOAT16, 4, s4, nullptr) == 8);
    const UINT s2[] = {2, 3}, packed[] = {3, 1}, broadcast[] = {0, 1};
    CHECK(DMLCalcBufferTensorSize(DML_TENSOR_DATA_TYPE_FLOAT32, 2, s2, packed) == 24);
    CHECK(DMLCalcBufferTensorSize(DML_TENSOR_DATA_TYPE_FLOAT32, 2, s2, broadcast) == 12);
    const UINT s1[] = {5};
    CHECK(DMLCalcBufferTensorSize(DML_TENSOR_DATA_TYPE_UINT4, 1, s1, nullptr) == 4);
    CHECK(DMLCalcBufferTensorSize(DML_TENSOR_DATA_TYPE_UNKNOWN, 1, s1, nullptr) == 0);
}

TEST_CASE("fuzz: random corruptions of a valid desc never crash and always explain failures", "[validation][fuzz]") {
    std::mt19937 rng(1234);
    Runner runner;
    for (int iteration = 0; iteration < 3000; ++iteration) {
        ValidReduce v;
        // Arrays longer than any count the fuzzer may write, so the test never
        // hands the library a count its own arrays cannot back.
        v.in.sizes.resize(8, 1);
        v.out.sizes.resize(8, 1);
        v.out.strides.resize(8, 1);
        v.axes = {1, 0, 1, 0};
        v.sync();
        std::vector<uint32_t> strides_in = {3, 1, 1, 1, 1, 1, 1, 1};
        v.in.buffer_desc.Strides = strides_in.data();
        const int edits = 1 + rng() % 3;
        for (int e = 0; e < edits; ++e) {
            switch (rng() % 9) {
            case 0: v.desc.Function = (DML_REDUCE_FUNCTION)(rng() % 14); break;
            case 1: v.in.buffer_desc.DataType = (DML_TENSOR_DATA_TYPE)(rng() % 15); break;
            case 2: v.out.buffer_desc.DimensionCount = rng() % 10; break;  // 9: rejected before any read
            case 3: v.in.sizes[rng() % 3] = rng() % 5; break;
            case 4: strides_in[rng() % 2] = rng() % 8; break;
            case 5: v.in.buffer_desc.TotalTensorSizeInBytes = rng() % 64; break;
            case 6: v.axes[0] = rng() % 4; break;
            case 7: v.desc.AxisCount = rng() % 4; break;
            case 8: v.out.buffer_desc.GuaranteedBaseOffsetAlignment = 1u << (rng() % 7); break;
            }
        }
        const HRESULT hr = runner.create(DML_OPERATOR_REDUCE, &v.desc);
        if (hr == S_OK) {
            // Accepted descs must run within their declared sizes.
            std::vector<uint8_t> in(v.in.buffer_desc.TotalTensorSizeInBytes), out(v.out.buffer_desc.TotalTensorSizeInBytes);
            HDML_BUFFER_BINDING bi{in.data(), 0, in.size()}, bo{out.data(), 0, out.size()};
            CHECK(runner.execute({bi}, {bo}) == S_OK);
        } else {
            CHECK(hr == E_INVALIDARG);
            CHECK(!std::string(hdmlGetLastErrorMessage()).empty());
        }
    }
}
