// The D3D12 device of Windows builds: creation (on a DXGI adapter, on the
// caller's device and queue), the checks on bound ID3D12Resources, arithmetic
// on 64-bit types reported unsupported at create time, and operators run end to
// end (REDUCE; GATHER of 64-bit data and indices, moved as 32-bit words). Under
// wine with Mesa's software Vulkan driver (tools/test.sh) the device exists but
// wine's D3DCompile cannot compile hdml's HLSL: there the run must fail with
// the compiler's message (never crash); where the compiler works it must match
// the CPU device. Every operator runs through the models' `.d3d12` tests too.
#include "catch.hpp"
#include "hdml/hdml.h"
#include "test_tensor.h"
#include "tools/d3d12_host.h"

#include <string>
#include <vector>

using namespace hdml_test;

namespace {

bool says(const char *text) {
    return std::string(hdmlGetLastErrorMessage()).find(text) != std::string::npos;
}

// hdml's device on the test's D3D12 device and queue; null (with a warning) where there is none.
struct D3d12Device {
    hdml_d3d12::D3d12Host *host = nullptr;
    hdml_device *device = nullptr;
    D3d12Device() {
        std::string why;
        host = hdml_d3d12::D3d12Host::get(&why);
        if (!host) {
            WARN("no D3D12 device (" << why << "): the device's own checks are not run");
            return;
        }
        REQUIRE(hdmlCreateDeviceFromD3D12(host->device(), host->queue(), &device) == S_OK);
    }
    ~D3d12Device() { hdmlReleaseDevice(device); }
};

// A REDUCE SUM over the last axis of a [rows, row] tensor of `type`.
struct ReduceSum {
    TestTensor in, out;
    UINT axis = 1;
    DML_REDUCE_OPERATOR_DESC desc{};
    ReduceSum(DML_TENSOR_DATA_TYPE type, uint32_t rows, uint32_t row) : in(type, {rows, row}), out(type, {rows, 1}) {
        for (uint64_t k = 0; k < in.count(); ++k) {
            if (is_float(type)) {
                in.set_float(k, (double)(k % 7) - 3);
            } else {
                in.set_bits(k, k % 5);
            }
        }
        desc = {DML_REDUCE_FUNCTION_SUM, &in.desc, &out.desc, 1, &axis};
    }
    HRESULT create(hdml_device *device, hdml_operator **op) const {
        const DML_OPERATOR_DESC op_desc{DML_OPERATOR_REDUCE, &desc};
        return hdmlCreateOperator(device, &op_desc, op);
    }
};

// Creates the operator `desc` on the CPU and on the D3D12 device and runs both
// on `inputs`. Where the system's compiler builds hdml's HLSL, the D3D12 output
// must equal the CPU's; where it cannot (wine), the D3D12 run must fail with a
// message holding one of `failures`, reported under `what`. Returns the D3D12
// operator's kernels.
std::string run_like_cpu(const D3d12Device &d3d12, DML_OPERATOR_TYPE type, const void *desc,
                         const std::vector<TestTensor *> &inputs, const TestTensor &output,
                         const std::vector<const char *> &failures, const std::string &what) {
    std::vector<HDML_BUFFER_BINDING> cpu_inputs;
    for (TestTensor *tensor : inputs) cpu_inputs.push_back(tensor->binding());
    TestTensor expected = output;
    Runner cpu;
    REQUIRE(cpu.create(type, desc) == S_OK);
    REQUIRE(cpu.execute(cpu_inputs, {expected.binding()}) == S_OK);

    hdml_operator *op = nullptr;
    const DML_OPERATOR_DESC op_desc{type, desc};
    REQUIRE(hdmlCreateOperator(d3d12.device, &op_desc, &op) == S_OK);
    const std::string kernels = hdmlGetOperatorKernels(op);
    std::vector<ID3D12Resource *> buffers;
    std::vector<HDML_BUFFER_BINDING> bindings;
    for (const TestTensor *tensor : inputs) {
        buffers.push_back(d3d12.host->upload(tensor->storage.data(), tensor->storage.size()));
        bindings.push_back({buffers.back(), 0, tensor->storage.size()});
    }
    TestTensor result = output;
    ID3D12Resource *out = d3d12.host->upload(result.storage.data(), result.storage.size());
    buffers.push_back(out);
    const HDML_BUFFER_BINDING out_binding{out, 0, result.storage.size()};
    const HRESULT hr = hdmlExecute(op, (uint32_t)bindings.size(), bindings.data(), 1, &out_binding);
    d3d12.host->synchronize();
    std::string why;
    if (d3d12.host->compiles_kernels(&why)) {
        REQUIRE(hr == S_OK);
        d3d12.host->download(result.storage.data(), out, result.storage.size());
        CHECK(result.storage == expected.storage);
    } else {
        CHECK(FAILED(hr));
        bool known = false;
        for (const char *failure : failures) known = known || says(failure);
        CHECK(known);
        WARN(what << " on D3D12: " << hdmlGetLastErrorMessage() << " (the system's compiler: " << why << ")");
    }
    for (ID3D12Resource *buffer : buffers) d3d12.host->release(buffer);
    hdmlReleaseOperator(op);
    return kernels;
}

}  // namespace

TEST_CASE("hdmlCreateDevice(D3D12) creates a device on a DXGI adapter, or says why not") {
    hdml_device *device = nullptr;
    const HRESULT hr = hdmlCreateDevice(HDML_DEVICE_TYPE_D3D12, 0, &device);
    if (hr != S_OK) {
        CHECK(hr == DXGI_ERROR_UNSUPPORTED);
        CHECK(device == nullptr);
        CHECK(says("hdmlCreateDevice: no D3D12 device: "));
        WARN("hdmlCreateDevice(D3D12, 0): " << hdmlGetLastErrorMessage());
        return;
    }
    REQUIRE(device);
    hdmlReleaseDevice(device);
    device = nullptr;
    CHECK(hdmlCreateDevice(HDML_DEVICE_TYPE_D3D12, 4096, &device) == DXGI_ERROR_UNSUPPORTED);
    CHECK(device == nullptr);
    CHECK(says("adapter 4096 does not exist"));
}

TEST_CASE("hdmlCreateDeviceFromD3D12 checks its arguments") {
    hdml_device *device = nullptr;
    CHECK(hdmlCreateDeviceFromD3D12(nullptr, nullptr, nullptr) == E_INVALIDARG);
    CHECK(says("the device out-pointer is null"));
    CHECK(hdmlCreateDeviceFromD3D12(nullptr, nullptr, &device) == E_INVALIDARG);
    CHECK(says("the ID3D12Device is null"));
    CHECK(device == nullptr);
    if (hdml_d3d12::D3d12Host *host = hdml_d3d12::D3d12Host::get()) {
        CHECK(hdmlCreateDeviceFromD3D12(host->device(), nullptr, &device) == E_INVALIDARG);
        CHECK(says("the ID3D12CommandQueue is null"));
        CHECK(device == nullptr);
    }
}

TEST_CASE("D3D12: arithmetic on 64-bit types is unsupported at create time") {
    D3d12Device d3d12;
    if (!d3d12.device) return;
    ReduceSum sum(DML_TENSOR_DATA_TYPE_INT64, 4, 16);
    hdml_operator *op = nullptr;
    CHECK(sum.create(d3d12.device, &op) == DXGI_ERROR_UNSUPPORTED);
    CHECK(says("no 64-bit integers"));
    CHECK(op == nullptr);
}

TEST_CASE("D3D12: bindings are UAV buffers holding the tensor") {
    D3d12Device d3d12;
    if (!d3d12.device) return;
    ReduceSum sum(DML_TENSOR_DATA_TYPE_FLOAT32, 4, 16);
    hdml_operator *op = nullptr;
    REQUIRE(sum.create(d3d12.device, &op) == S_OK);
    ID3D12Resource *in = d3d12.host->upload(sum.in.storage.data(), sum.in.storage.size());
    ID3D12Resource *out = d3d12.host->upload(sum.out.storage.data(), sum.out.storage.size());
    const uint64_t in_bytes = sum.in.storage.size(), out_bytes = sum.out.storage.size();
    HDML_BUFFER_BINDING input{in, 0, in_bytes}, output{out, 0, out_bytes};
    SECTION("a range past the buffer's end") {
        input.Offset = 16;
        CHECK(hdmlExecute(op, 1, &input, 1, &output) == E_INVALIDARG);
        CHECK(says("past the end of its"));
    }
    SECTION("a null resource") {
        output.Buffer = nullptr;
        CHECK(hdmlExecute(op, 1, &input, 1, &output) == E_INVALIDARG);
        CHECK(says("has a null Buffer"));
    }
    SECTION("a buffer without unordered access") {
        D3D12_HEAP_PROPERTIES heap{};
        heap.Type = D3D12_HEAP_TYPE_DEFAULT;
        D3D12_RESOURCE_DESC plain{};
        plain.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
        plain.Width = out_bytes;
        plain.Height = plain.DepthOrArraySize = plain.MipLevels = 1;
        plain.SampleDesc.Count = 1;
        plain.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
        ID3D12Resource *read_only = nullptr;
        REQUIRE(SUCCEEDED(d3d12.host->device()->CreateCommittedResource(&heap, D3D12_HEAP_FLAG_NONE, &plain,
                                                                        D3D12_RESOURCE_STATE_COMMON, nullptr,
                                                                        IID_PPV_ARGS(&read_only))));
        output.Buffer = read_only;
        CHECK(hdmlExecute(op, 1, &input, 1, &output) == E_INVALIDARG);
        CHECK(says("without D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS"));
        read_only->Release();
    }
    d3d12.host->synchronize();
    d3d12.host->release(in);
    d3d12.host->release(out);
    hdmlReleaseOperator(op);
}

TEST_CASE("D3D12: an operator runs as on the CPU, or fails with the shader compiler's message") {
    D3d12Device d3d12;
    if (!d3d12.device) return;
    for (DML_TENSOR_DATA_TYPE type : {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT16}) {
        ReduceSum sum(type, 64, 256);
        // Wine gets as far as the compiler's failure, or for float16 a device
        // without 16-bit typed UAV loads (checked before compiling).
        run_like_cpu(d3d12, DML_OPERATOR_REDUCE, &sum.desc, {&sum.in}, sum.out,
                     {"D3D12: D3DCompile (cs_5_1) of entry point", "D3D12: this D3D12 device cannot load"},
                     short_name(type) + std::string(" REDUCE SUM"));
    }
}

// GATHER of float64 by int64 indices: the 64-bit data as pairs of 32-bit words
// (the uint32 gather kernel) and the indices read as (low, high) words.
TEST_CASE("D3D12: 64-bit GATHER moves pairs of 32-bit words, as on the CPU, or fails with the compiler's message") {
    D3d12Device d3d12;
    if (!d3d12.device) return;
    TestTensor in(DML_TENSOR_DATA_TYPE_FLOAT64, {3, 5, 2}), idx(DML_TENSOR_DATA_TYPE_INT64, {1, 1, 6});
    TestTensor out(DML_TENSOR_DATA_TYPE_FLOAT64, {3, 6, 2});
    for (uint64_t k = 0; k < in.count(); ++k) in.set_float(k, 0.5 * (double)k - 3);
    const int64_t indices[] = {0, 4, -1, -5, int64_t(1) << 32, -(int64_t(1) << 32)};
    for (uint64_t k = 0; k < idx.count(); ++k) idx.set_bits(k, (uint64_t)indices[k]);
    const DML_GATHER_OPERATOR_DESC desc{&in.desc, &idx.desc, &out.desc, 1, 1};
    const std::string kernels = run_like_cpu(d3d12, DML_OPERATOR_GATHER, &desc, {&in, &idx}, out,
                                             {"D3D12: D3DCompile (cs_5_1) of entry point"},
                                             "float64 GATHER by int64 indices");
    CHECK(kernels == "hdml_normalize_indices_int64_words_d3d12 hdml_gather_uint32_d3d12");
}
