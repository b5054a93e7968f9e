#include "runtime/d3d12/context.h"

#include "runtime/d3d12/api.h"
#include "runtime/d3d12/recording.h"
#include "runtime/error.h"

#include <dxgi1_4.h>

#include <new>

namespace hdml::d3d12 {

namespace {

HRESULT unsupported(const char *who, const std::string &why) {
    return fail(DXGI_ERROR_UNSUPPORTED, format("%s: no D3D12 device: %s.", who, why.c_str()));
}

std::string narrow(const WCHAR *text) {
    std::string out;
    for (; *text; ++text) out += *text < 128 ? (char)*text : '?';
    return out;
}

std::string blob_text(ID3DBlob *blob, size_t most) {
    if (!blob) return "";
    std::string text(static_cast<const char *>(blob->GetBufferPointer()), blob->GetBufferSize());
    while (!text.empty() && (text.back() == '\0' || text.back() == '\n' || text.back() == ' ')) text.pop_back();
    if (text.size() > most) text = text.substr(0, most) + " [...]";
    return text;
}

// b0 as root constants, u0..u7 as one descriptor table (see kMaxKernelBuffers).
HRESULT create_root_signature(const Api &api, Context &c, const char *who) {
    D3D12_DESCRIPTOR_RANGE uavs{};
    uavs.RangeType = D3D12_DESCRIPTOR_RANGE_TYPE_UAV;
    uavs.NumDescriptors = kMaxKernelBuffers;
    D3D12_ROOT_PARAMETER parameters[2]{};
    parameters[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    parameters[0].Constants.Num32BitValues = kMaxKernelScalars;
    parameters[0].ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL;
    parameters[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    parameters[1].DescriptorTable.NumDescriptorRanges = 1;
    parameters[1].DescriptorTable.pDescriptorRanges = &uavs;
    parameters[1].ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL;
    D3D12_ROOT_SIGNATURE_DESC desc{};
    desc.NumParameters = 2;
    desc.pParameters = parameters;
    Com<ID3DBlob> blob, errors;
    HRESULT hr = api.serialize_root_signature(&desc, D3D_ROOT_SIGNATURE_VERSION_1, blob.put(), errors.put());
    if (FAILED(hr)) {
        return fail(hr, format("%s: D3D12SerializeRootSignature failed with HRESULT %s: %s", who,
                               hresult_hex(hr).c_str(), blob_text(errors.get(), 1000).c_str()));
    }
    hr = c.device->CreateRootSignature(0, blob->GetBufferPointer(), blob->GetBufferSize(),
                                       IID_PPV_ARGS(c.root_signature.put()));
    return FAILED(hr) ? call_failed(who, "ID3D12Device::CreateRootSignature", hr) : S_OK;
}

// What every device needs beside its ID3D12Device and queue.
HRESULT finish(Com<ID3D12Device> device, Com<ID3D12CommandQueue> queue, uint32_t ordinal, const char *who,
               hdml_device **out) {
    std::string why;
    const Api *a = api(&why);
    if (!a) return unsupported(who, why);
    auto c = std::unique_ptr<Context>(new (std::nothrow) Context);
    if (!c) return fail(E_OUTOFMEMORY, format("%s: out of memory.", who));
    c->device = std::move(device);
    c->queue = std::move(queue);
    c->list_type = c->queue->GetDesc().Type;
    if (c->list_type != D3D12_COMMAND_LIST_TYPE_COMPUTE && c->list_type != D3D12_COMMAND_LIST_TYPE_DIRECT) {
        return invalid_arg(format("%s: the ID3D12CommandQueue is of type %d; hdml records compute work, so it takes a "
                                  "compute or direct queue.",
                                  who, (int)c->list_type));
    }
    HRESULT hr = c->device->CreateFence(0, D3D12_FENCE_FLAG_NONE, IID_PPV_ARGS(c->fence.put()));
    if (FAILED(hr)) return call_failed(who, "ID3D12Device::CreateFence", hr);
    c->fence_event = CreateEventA(nullptr, FALSE, FALSE, nullptr);
    if (!c->fence_event) {
        return fail(E_FAIL, format("%s: CreateEvent failed (Windows error %lu).", who, GetLastError()));
    }
    HDML_RETURN_IF_FAILED(create_root_signature(*a, *c, who));
    c->descriptor_bytes = c->device->GetDescriptorHandleIncrementSize(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    D3D12_FEATURE_DATA_D3D12_OPTIONS options{};
    if (SUCCEEDED(c->device->CheckFeatureSupport(D3D12_FEATURE_D3D12_OPTIONS, &options, sizeof options))) {
        c->small_typed_uav_loads = options.TypedUAVLoadAdditionalFormats;
    }
    auto *created = new (std::nothrow) hdml_device;
    if (!created) return fail(E_OUTOFMEMORY, format("%s: out of memory.", who));
    created->type = HDML_DEVICE_TYPE_D3D12;
    created->ordinal = ordinal;
    created->d3d12 = c.release();
    *out = created;
    return S_OK;
}

}  // namespace

Context::Context() = default;

Context::~Context() {
    if (fence && fence->GetCompletedValue() < last_signal &&
        SUCCEEDED(fence->SetEventOnCompletion(last_signal, fence_event))) {
        WaitForSingleObject(fence_event, INFINITE);
    }
    in_flight.clear();
    idle.clear();
    if (fence_event) CloseHandle(fence_event);
}

HRESULT create_device(uint32_t adapter_index, hdml_device **out) {
    const char *who = "hdmlCreateDevice";
    std::string why;
    const Api *a = api(&why);
    if (!a) return unsupported(who, why);
    Com<IDXGIFactory1> factory;
    HRESULT hr = a->create_dxgi_factory1(IID_PPV_ARGS(factory.put()));
    if (FAILED(hr)) return unsupported(who, "CreateDXGIFactory1 failed with HRESULT " + hresult_hex(hr));
    Com<IDXGIAdapter1> adapter;
    hr = factory->EnumAdapters1(adapter_index, adapter.put());
    if (hr == DXGI_ERROR_NOT_FOUND) {
        UINT count = 0;
        for (Com<IDXGIAdapter1> a1; factory->EnumAdapters1(count, a1.put()) == S_OK;) ++count;
        return fail(DXGI_ERROR_UNSUPPORTED, format("%s: DXGI lists %u adapters; adapter %u does not exist.", who,
                                                   count, adapter_index));
    }
    if (FAILED(hr)) return unsupported(who, "IDXGIFactory1::EnumAdapters1 failed with HRESULT " + hresult_hex(hr));
    DXGI_ADAPTER_DESC1 description{};
    adapter->GetDesc1(&description);
    Com<ID3D12Device> device;
    hr = a->create_device(adapter.get(), D3D_FEATURE_LEVEL_11_0, IID_PPV_ARGS(device.put()));
    if (FAILED(hr)) {
        return unsupported(who, format("D3D12CreateDevice on adapter %u (%s) failed with HRESULT %s", adapter_index,
                                       narrow(description.Description).c_str(), hresult_hex(hr).c_str()));
    }
    D3D12_COMMAND_QUEUE_DESC queue_desc{};
    queue_desc.Type = D3D12_COMMAND_LIST_TYPE_COMPUTE;
    Com<ID3D12CommandQueue> queue;
    hr = device->CreateCommandQueue(&queue_desc, IID_PPV_ARGS(queue.put()));
    if (FAILED(hr)) return call_failed(who, "ID3D12Device::CreateCommandQueue", hr);
    return finish(std::move(device), std::move(queue), adapter_index, who, out);
}

HRESULT create_device_from(ID3D12Device *device, ID3D12CommandQueue *queue, hdml_device **out) {
    const char *who = "hdmlCreateDeviceFromD3D12";
    if (!device) return invalid_arg(format("%s: the ID3D12Device is null.", who));
    if (!queue) return invalid_arg(format("%s: the ID3D12CommandQueue is null.", who));
    return finish(Com<ID3D12Device>::retain(device), Com<ID3D12CommandQueue>::retain(queue), 0, who, out);
}

void release_device(hdml_device *device) {
    delete device->d3d12;
    device->d3d12 = nullptr;
}

HRESULT pipeline(Context &c, const char *source, size_t source_bytes, const char *entry, int shared_bytes,
                 ID3D12PipelineState **pso, std::string *error) {
    // As Halide's runtime: the block's shared memory, a non-zero multiple of 16 bytes.
    const int shared = ((shared_bytes > 0 ? shared_bytes : 1) + 15) & ~15;
    const auto key = std::make_tuple(static_cast<const void *>(source), static_cast<const void *>(entry), shared);
    {
        std::lock_guard<std::mutex> lock(c.mutex);
        auto found = c.pipelines.find(key);
        if (found != c.pipelines.end()) {
            *pso = found->second.get();
            return S_OK;
        }
    }
    if (shared > D3D12_CS_TGSM_REGISTER_COUNT * 4) {
        *error = format("entry point %s needs %d bytes of groupshared memory; D3D12 gives a group %d.", entry, shared,
                        D3D12_CS_TGSM_REGISTER_COUNT * 4);
        return E_FAIL;
    }
    const Api *a = api(nullptr);
    if (!a->compile) {
        *error = "d3dcompiler_47.dll (D3DCompile), which compiles hdml's kernels, could not be loaded.";
        return E_FAIL;
    }
    const std::string shared_text = std::to_string(shared);
    const D3D_SHADER_MACRO defines[] = {{"__GROUPSHARED_SIZE_IN_BYTES", shared_text.c_str()}, {nullptr, nullptr}};
    Com<ID3DBlob> code, log;
    HRESULT hr = a->compile(source, source_bytes, entry, defines, nullptr, entry, "cs_5_1",
                            D3DCOMPILE_OPTIMIZATION_LEVEL3, 0, code.put(), log.put());
    if (FAILED(hr) || !code) {
        const std::string text = blob_text(log.get(), 1500);
        *error = format("D3DCompile (cs_5_1) of entry point %s failed with HRESULT %s%s%s", entry,
                        hresult_hex(hr).c_str(), text.empty() ? "" : ": ", text.c_str());
        return FAILED(hr) ? hr : E_FAIL;
    }
    D3D12_COMPUTE_PIPELINE_STATE_DESC desc{};
    desc.pRootSignature = c.root_signature.get();
    desc.CS.pShaderBytecode = code->GetBufferPointer();
    desc.CS.BytecodeLength = code->GetBufferSize();
    Com<ID3D12PipelineState> created;
    hr = c.device->CreateComputePipelineState(&desc, IID_PPV_ARGS(created.put()));
    if (FAILED(hr)) {
        *error = format("ID3D12Device::CreateComputePipelineState for entry point %s failed with HRESULT %s", entry,
                        hresult_hex(hr).c_str());
        return hr;
    }
    std::lock_guard<std::mutex> lock(c.mutex);
    auto inserted = c.pipelines.emplace(key, std::move(created)).first;  // a racing twin keeps the first
    *pso = inserted->second.get();
    return S_OK;
}

}  // namespace hdml::d3d12
