// A D3D12 device and compute queue of the calling program (Windows only),
// loaded at run time as hdml.dll loads D3D12, for programs that hand GPU
// buffers to hdml: the tests' `.d3d12` variants (test_tensor.h mirrors every
// bound buffer into a D3D12 buffer) and hdml-dispatch -d d3d12. Both create
// their hdml device from this device and queue with hdmlCreateDeviceFromD3D12,
// the interop entry point. Failures after set-up throw std::runtime_error.
#pragma once

#ifdef _WIN32

#include "runtime/dynamic_library.h"

#include <windows.h>
#include <d3d12.h>
#include <d3dcompiler.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

namespace hdml_d3d12 {

class D3d12Host {
public:
    // The process-wide device (DXGI's first adapter) and queue, or nullptr with *why set.
    static D3d12Host *get(std::string *why = nullptr) {
        static D3d12Host host;
        if (!host.ok_ && why) *why = host.why_;
        return host.ok_ ? &host : nullptr;
    }

    ID3D12Device *device() const { return device_; }
    ID3D12CommandQueue *queue() const { return queue_; }

    // Whether the system's D3DCompile compiles HLSL like hdml's kernels (a
    // typed RWBuffer, cs_5_1): wine's does not, so suites skip there.
    bool compiles_kernels(std::string *why) const {
        if (!compile_) {
            *why = "d3dcompiler_47.dll (D3DCompile) could not be loaded";
            return false;
        }
        const char source[] =
            "RWBuffer<float> b : register(u0);\n"
            "[numthreads(64, 1, 1)] void probe(uint3 t : SV_DispatchThreadID) { b[t.x] = b[t.x] * 2.0f; }\n";
        ID3DBlob *code = nullptr, *log = nullptr;
        const HRESULT hr =
            compile_(source, sizeof source - 1, "probe", nullptr, nullptr, "probe", "cs_5_1", 0, 0, &code, &log);
        if (code) code->Release();
        std::string text;
        if (log) text.assign(static_cast<const char *>(log->GetBufferPointer()), log->GetBufferSize());
        if (log) log->Release();
        if (SUCCEEDED(hr)) return true;
        while (!text.empty() && (text.back() == '\0' || text.back() == '\n')) text.pop_back();
        *why = "D3DCompile cannot compile a typed RWBuffer for cs_5_1 (HRESULT " + hex(hr) +
               (text.empty() ? "" : ": ") + text + ")";
        return false;
    }

    // A buffer (default heap, unordered access) holding `bytes` copied from `host`.
    ID3D12Resource *upload(const void *host, size_t bytes) {
        ID3D12Resource *buffer = new_buffer(D3D12_HEAP_TYPE_DEFAULT, bytes, D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS,
                                            D3D12_RESOURCE_STATE_COMMON);
        if (bytes) {
            ID3D12Resource *staging = new_buffer(D3D12_HEAP_TYPE_UPLOAD, bytes, D3D12_RESOURCE_FLAG_NONE,
                                                 D3D12_RESOURCE_STATE_GENERIC_READ);
            void *mapped = nullptr;
            check(staging->Map(0, nullptr, &mapped), "ID3D12Resource::Map");
            std::memcpy(mapped, host, bytes);
            staging->Unmap(0, nullptr);
            copy(buffer, staging, bytes);
            staging->Release();
        }
        return buffer;
    }
    // After the work submitted to the queue so far.
    void download(void *host, ID3D12Resource *buffer, size_t bytes) {
        if (!bytes) return;
        ID3D12Resource *staging = new_buffer(D3D12_HEAP_TYPE_READBACK, bytes, D3D12_RESOURCE_FLAG_NONE,
                                             D3D12_RESOURCE_STATE_COPY_DEST);
        copy(staging, buffer, bytes);
        void *mapped = nullptr;
        check(staging->Map(0, nullptr, &mapped), "ID3D12Resource::Map");
        std::memcpy(host, mapped, bytes);
        staging->Unmap(0, nullptr);
        staging->Release();
    }
    void release(ID3D12Resource *buffer) { buffer->Release(); }
    // Waits until the queue has passed everything submitted to it.
    void synchronize() {
        const uint64_t value = ++fence_value_;
        check(queue_->Signal(fence_, value), "ID3D12CommandQueue::Signal");
        if (fence_->GetCompletedValue() < value) {
            check(fence_->SetEventOnCompletion(value, event_), "ID3D12Fence::SetEventOnCompletion");
            WaitForSingleObject(event_, INFINITE);
        }
    }

private:
    D3d12Host() {
        namespace dl = hdml::dynamic_library;
        void *d3d12 = dl::open("d3d12.dll");
        if (!d3d12) {
            why_ = dl::open_error("d3d12.dll");
            return;
        }
        auto create_device = reinterpret_cast<PFN_D3D12_CREATE_DEVICE>(dl::symbol(d3d12, "D3D12CreateDevice"));
        if (void *compiler = dl::open("d3dcompiler_47.dll")) {
            compile_ = reinterpret_cast<pD3DCompile>(dl::symbol(compiler, "D3DCompile"));
        }
        HRESULT hr = create_device ? create_device(nullptr, D3D_FEATURE_LEVEL_11_0, IID_PPV_ARGS(&device_)) : E_FAIL;
        if (FAILED(hr)) {
            why_ = "D3D12CreateDevice on the default adapter failed (HRESULT " + hex(hr) + ")";
            return;
        }
        D3D12_COMMAND_QUEUE_DESC desc{};
        desc.Type = D3D12_COMMAND_LIST_TYPE_COMPUTE;
        if (FAILED(device_->CreateCommandQueue(&desc, IID_PPV_ARGS(&queue_))) ||
            FAILED(device_->CreateFence(0, D3D12_FENCE_FLAG_NONE, IID_PPV_ARGS(&fence_))) ||
            FAILED(device_->CreateCommandAllocator(D3D12_COMMAND_LIST_TYPE_COMPUTE, IID_PPV_ARGS(&allocator_))) ||
            FAILED(device_->CreateCommandList(0, D3D12_COMMAND_LIST_TYPE_COMPUTE, allocator_, nullptr,
                                              IID_PPV_ARGS(&list_))) ||
            FAILED(list_->Close()) || !(event_ = CreateEventA(nullptr, FALSE, FALSE, nullptr))) {
            why_ = "could not set up a queue, fence and command list on the D3D12 device";
            return;
        }
        ok_ = true;
    }

    static std::string hex(HRESULT hr) {
        char text[16];
        std::snprintf(text, sizeof text, "0x%08lx", (unsigned long)hr);
        return text;
    }
    static void check(HRESULT hr, const char *what) {
        if (FAILED(hr)) throw std::runtime_error(std::string(what) + " failed with HRESULT " + hex(hr));
    }

    ID3D12Resource *new_buffer(D3D12_HEAP_TYPE heap_type, size_t bytes, D3D12_RESOURCE_FLAGS flags,
                               D3D12_RESOURCE_STATES state) {
        D3D12_HEAP_PROPERTIES heap{};
        heap.Type = heap_type;
        D3D12_RESOURCE_DESC desc{};
        desc.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
        desc.Width = bytes ? bytes : 4;
        desc.Height = 1;
        desc.DepthOrArraySize = 1;
        desc.MipLevels = 1;
        desc.SampleDesc.Count = 1;
        desc.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
        desc.Flags = flags;
        ID3D12Resource *buffer = nullptr;
        check(device_->CreateCommittedResource(&heap, D3D12_HEAP_FLAG_NONE, &desc, state, nullptr,
                                               IID_PPV_ARGS(&buffer)),
              "ID3D12Device::CreateCommittedResource");
        return buffer;
    }

    // Buffers are promoted to copy states and decay to common on their own.
    void copy(ID3D12Resource *to, ID3D12Resource *from, size_t bytes) {
        check(allocator_->Reset(), "ID3D12CommandAllocator::Reset");
        check(list_->Reset(allocator_, nullptr), "ID3D12GraphicsCommandList::Reset");
        list_->CopyBufferRegion(to, 0, from, 0, bytes);
        check(list_->Close(), "ID3D12GraphicsCommandList::Close");
        ID3D12CommandList *lists[] = {list_};
        queue_->ExecuteCommandLists(1, lists);
        synchronize();
    }

    bool ok_ = false;
    std::string why_;
    pD3DCompile compile_ = nullptr;
    ID3D12Device *device_ = nullptr;
    ID3D12CommandQueue *queue_ = nullptr;
    ID3D12Fence *fence_ = nullptr;
    ID3D12CommandAllocator *allocator_ = nullptr;
    ID3D12GraphicsCommandList *list_ = nullptr;
    HANDLE event_ = nullptr;
    uint64_t fence_value_ = 0;
};

}  // namespace hdml_d3d12

#endif  // _WIN32
