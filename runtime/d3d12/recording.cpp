#include "runtime/d3d12/recording.h"

#include "runtime/d3d12/api.h"
#include "runtime/error.h"

#include <algorithm>

namespace hdml::d3d12 {

namespace {

// Descriptor tables per heap: a heap per 256 dispatches of one recording.
constexpr UINT kTablesPerHeap = 256;

thread_local Recording *t_current = nullptr;

}  // namespace

HRESULT Recording::open() {
    Context &c = context_;
    HRESULT hr;
    if (!allocator_) {
        hr = c.device->CreateCommandAllocator(c.list_type, IID_PPV_ARGS(allocator_.put()));
        if (FAILED(hr)) return call_failed("hdmlExecute", "CreateCommandAllocator", hr);
        hr = c.device->CreateCommandList(0, c.list_type, allocator_.get(), nullptr, IID_PPV_ARGS(list_.put()));
        if (FAILED(hr)) return call_failed("hdmlExecute", "CreateCommandList", hr);
    } else {
        hr = allocator_->Reset();
        if (SUCCEEDED(hr)) hr = list_->Reset(allocator_.get(), nullptr);
        if (FAILED(hr)) return call_failed("hdmlExecute", "resetting a command list", hr);
    }
    list_->SetComputeRootSignature(c.root_signature.get());
    heap_used_ = 0;
    if (heap_) {
        ID3D12DescriptorHeap *heaps[] = {heap_.get()};
        list_->SetDescriptorHeaps(1, heaps);
    }
    return S_OK;
}

void Recording::add_range(D3D12_GPU_VIRTUAL_ADDRESS base, uint64_t bytes, ID3D12Resource *resource) {
    ranges_.push_back({base, bytes, resource});
}

const Range *Recording::find(D3D12_GPU_VIRTUAL_ADDRESS address) const {
    for (const Range &r : ranges_) {
        if (address >= r.base && address - r.base < r.bytes) return &r;
    }
    return nullptr;
}

HRESULT Recording::allocate(uint64_t bytes, D3D12_GPU_VIRTUAL_ADDRESS *address, std::string *error) {
    D3D12_HEAP_PROPERTIES heap{};
    heap.Type = D3D12_HEAP_TYPE_DEFAULT;
    D3D12_RESOURCE_DESC desc{};
    desc.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
    desc.Width = std::max<uint64_t>(bytes, 4);
    desc.Height = 1;
    desc.DepthOrArraySize = 1;
    desc.MipLevels = 1;
    desc.Format = DXGI_FORMAT_UNKNOWN;
    desc.SampleDesc.Count = 1;
    desc.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
    desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS;
    Com<ID3D12Resource> buffer;
    // Buffers start in the common state and are promoted to unordered access on first use.
    const HRESULT hr = context_.device->CreateCommittedResource(&heap, D3D12_HEAP_FLAG_NONE, &desc,
                                                                D3D12_RESOURCE_STATE_COMMON, nullptr,
                                                                IID_PPV_ARGS(buffer.put()));
    if (FAILED(hr)) {
        *error = format("allocating a D3D12 buffer of %llu bytes failed with HRESULT %s", (unsigned long long)bytes,
                        hresult_hex(hr).c_str());
        return hr;
    }
    *address = buffer->GetGPUVirtualAddress();
    add_range(*address, desc.Width, buffer.get());
    owned_.push_back(std::move(buffer));
    return S_OK;
}

HRESULT Recording::new_heap(std::string *error) {
    if (heap_) full_heaps_.push_back(std::move(heap_));
    D3D12_DESCRIPTOR_HEAP_DESC desc{};
    desc.Type = D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV;
    desc.NumDescriptors = kTablesPerHeap * kMaxKernelBuffers;
    desc.Flags = D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE;
    const HRESULT hr = context_.device->CreateDescriptorHeap(&desc, IID_PPV_ARGS(heap_.put()));
    if (FAILED(hr)) {
        *error = "ID3D12Device::CreateDescriptorHeap failed with HRESULT " + hresult_hex(hr);
        return hr;
    }
    ID3D12DescriptorHeap *heaps[] = {heap_.get()};
    list_->SetDescriptorHeaps(1, heaps);
    heap_used_ = 0;
    return S_OK;
}

HRESULT Recording::descriptors(D3D12_CPU_DESCRIPTOR_HANDLE *cpu, D3D12_GPU_DESCRIPTOR_HANDLE *gpu,
                               std::string *error) {
    if (!heap_ || heap_used_ + kMaxKernelBuffers > kTablesPerHeap * kMaxKernelBuffers) {
        HDML_RETURN_IF_FAILED(new_heap(error));
    }
    const UINT64 offset = (UINT64)heap_used_ * context_.descriptor_bytes;
    *cpu = heap_->GetCPUDescriptorHandleForHeapStart();
    *gpu = heap_->GetGPUDescriptorHandleForHeapStart();
    cpu->ptr += (SIZE_T)offset;
    gpu->ptr += offset;
    heap_used_ += kMaxKernelBuffers;
    return S_OK;
}

void Recording::recycle() {
    ranges_.clear();
    owned_.clear();
    full_heaps_.clear();
}

Recording *current_recording() {
    return t_current;
}

CurrentRecording::CurrentRecording(Recording *recording) : previous_(t_current) {
    t_current = recording;
}

CurrentRecording::~CurrentRecording() {
    t_current = previous_;
}

HRESULT allocate_scratch(size_t bytes, uint64_t *address) {
    Recording *recording = current_recording();
    if (!recording) return fail(E_FAIL, "hdmlExecute: D3D12 scratch memory was asked for outside an execution.");
    std::string error;
    D3D12_GPU_VIRTUAL_ADDRESS va = 0;
    const HRESULT hr = recording->allocate(bytes, &va, &error);
    if (FAILED(hr)) return fail(hr, "hdmlExecute: " + error + ".");
    *address = va;
    return S_OK;
}

HRESULT acquire_recording(Context &c, std::unique_ptr<Recording> *recording) {
    {
        std::lock_guard<std::mutex> lock(c.mutex);
        const uint64_t done = c.fence->GetCompletedValue();
        for (auto it = c.in_flight.begin(); it != c.in_flight.end();) {
            if ((*it)->signal <= done) {
                (*it)->recycle();
                c.idle.push_back(std::move(*it));
                it = c.in_flight.erase(it);
            } else {
                ++it;
            }
        }
        if (!c.idle.empty()) {
            *recording = std::move(c.idle.back());
            c.idle.pop_back();
        }
    }
    if (!*recording) *recording = std::make_unique<Recording>(c);
    return (*recording)->open();
}

HRESULT submit(Context &c, std::unique_ptr<Recording> recording) {
    HRESULT hr = recording->list()->Close();
    if (FAILED(hr)) {
        return fail(hr, "hdmlExecute: closing the D3D12 command list failed with HRESULT " + hresult_hex(hr) +
                            " (nothing was submitted).");
    }
    ID3D12CommandList *lists[] = {recording->list()};
    std::lock_guard<std::mutex> lock(c.mutex);  // the queue's order and the fence values agree
    c.queue->ExecuteCommandLists(1, lists);
    hr = c.queue->Signal(c.fence.get(), c.last_signal + 1);
    if (FAILED(hr)) {
        // Nothing tells when the GPU is done with it: its buffers and lists are left alive.
        (void)recording.release();
        return fail(hr, "hdmlExecute: the work was submitted, but signalling hdml's fence after it failed "
                        "with HRESULT " + hresult_hex(hr) + ".");
    }
    recording->signal = ++c.last_signal;
    c.in_flight.push_back(std::move(recording));
    return S_OK;
}

}  // namespace hdml::d3d12
