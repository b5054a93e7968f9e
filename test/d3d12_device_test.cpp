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
    std::string why;
    const bool compiles = d3d12.host->compiles_kernels(&why);
    for (DML_TENSOR_DATA_TYPE type : {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT16}) {
        ReduceSum sum(type, 64, 256);
        Runner cpu;
        REQUIRE(cpu.create(DML_OPERATOR_REDUCE, &sum.desc) == S_OK);
        TestTensor expected = sum.out;
        REQUIRE(cpu.execute({sum.in.binding()}, {expected.binding()}) == S_OK);

        hdml_operator *op = nullptr;
        REQUIRE(sum.create(d3d12.device, &op) == S_OK);
        ID3D12Resource *in = d3d12.host->upload(sum.in.storage.data(), sum.in.storage.size());
        ID3D12Resource *out = d3d12.host->upload(sum.out.storage.data(), sum.out.storage.size());
        HDML_BUFFER_BINDING input{in, 0, sum.in.storage.size()}, output{out, 0, sum.out.storage.size()};
        const HRESULT hr = hdmlExecute(op, 1, &input, 1, &output);
        d3d12.host->synchronize();
        if (compiles) {
            REQUIRE(hr == S_OK);
            d3d12.host->download(sum.out.storage.data(), out, sum.out.storage.size());
            CHECK(sum.out.storage == expected.storage);
        } else {
            // Wine: as far as it gets, with the reason (the compiler's failure, or for
            // float16 a device without 16-bit typed UAV loads, checked before compiling).
            CHECK(FAILED(hr));
            CHECK((says("D3D12: D3DCompile (cs_5_1) of entry point") || says("D3D12: this D3D12 device cannot load")));
            WARN(short_name(type) << " REDUCE SUM on D3D12: " << hdmlGetLastErrorMessage()
                                 << " (the system's compiler: " << why << ")");
        }
        d3d12.host->release(in);
        d3d12.host->release(out);
        hdmlReleaseOperator(op);
    }
}

// GATHER of float64 by int64 indices: the 64-bit data as pairs of 32-bit words
// (the uint32 gather kernel) and the indices read as (low, high) words.
TEST_CASE("D3D12: 64-bit GATHER moves pairs of 32-bit words, as on the CPU, or fails with the compiler's message") {
    D3d12Device d3d12;
    if (!d3d12.device) return;
    std::string why;
    const bool compiles = d3d12.host->compiles_kernels(&why);
    TestTensor in(DML_TENSOR_DATA_TYPE_FLOAT64, {3, 5, 2}), idx(DML_TENSOR_DATA_TYPE_INT64, {1, 1, 6});
    TestTensor out(DML_TENSOR_DATA_TYPE_FLOAT64, {3, 6, 2});
    for (uint64_t k = 0; k < in.count(); ++k) in.set_float(k, 0.5 * (double)k - 3);
    const int64_t indices[] = {0, 4, -1, -5, int64_t(1) << 32, -(int64_t(1) << 32)};
    for (uint64_t k = 0; k < idx.count(); ++k) idx.set_bits(k, (uint64_t)indices[k]);
    const DML_GATHER_OPERATOR_DESC desc{&in.desc, &idx.desc, &out.desc, 1, 1};
    Runner cpu;
    REQUIRE(cpu.create(DML_OPERATOR_GATHER, &desc) == S_OK);
    TestTensor expected = out;
    REQUIRE(cpu.execute({in.binding(), idx.binding()}, {expected.binding()}) == S_OK);

    hdml_operator *op = nullptr;
    const DML_OPERATOR_DESC op_desc{DML_OPERATOR_GATHER, &desc};
    REQUIRE(hdmlCreateOperator(d3d12.device, &op_desc, &op) == S_OK);
    CHECK(std::string(hdmlGetOperatorKernels(op)) ==
          "hdml_normalize_indices_int64_words_d3d12 hdml_gather_uint32_d3d12");
    ID3D12Resource *in_buffer = d3d12.host->upload(in.storage.data(), in.storage.size());
    ID3D12Resource *idx_buffer = d3d12.host->upload(idx.storage.data(), idx.storage.size());
    ID3D12Resource *out_buffer = d3d12.host->upload(out.storage.data(), out.storage.size());
    const HDML_BUFFER_BINDING inputs[] = {{in_buffer, 0, in.storage.size()}, {idx_buffer, 0, idx.storage.size()}};
    const HDML_BUFFER_BINDING output{out_buffer, 0, out.storage.size()};
    const HRESULT hr = hdmlExecute(op, 2, inputs, 1, &output);
    d3d12.host->synchronize();
    if (compiles) {
        REQUIRE(hr == S_OK);
        d3d12.host->download(out.storage.data(), out_buffer, out.storage.size());
        CHECK(out.storage == expected.storage);
    } else {
        CHECK(FAILED(hr));
        CHECK(says("D3D12: D3DCompile (cs_5_1) of entry point"));
        WARN("float64 GATHER by int64 indices on D3D12: " << hdmlGetLastErrorMessage() << " (the system's compiler: "
                                                          << why << ")");
    }
    d3d12.host->release(in_buffer);
    d3d12.host->release(idx_buffer);
    d3d12.host->release(out_buffer);
    hdmlReleaseOperator(op);
}
