// What one hdmlExecute records on a D3D12 device: a command list of the
// operator's dispatches, the descriptors they bind, the GPU memory ranges its
// kernels may address (the bound resources, scratch, Halide's intermediates)
// and the buffers it owns until the queue has passed it.
#pragma once

#include "runtime/d3d12/context.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace hdml::d3d12 {

// Buffers are addressed by GPU virtual address (as CUDA's by CUdeviceptr), so
// the operators' offset arithmetic is the same on every GPU; a kernel's
// buffer becomes a view of the range that holds its address.
struct Range {
    D3D12_GPU_VIRTUAL_ADDRESS base;
    uint64_t bytes;
    ID3D12Resource *resource;
};

class Recording {
public:
    explicit Recording(Context &context) : context_(context) {}

    Context &context() const { return context_; }
    ID3D12GraphicsCommandList *list() const { return list_.get(); }
    uint64_t signal = 0;  // the fence value that marks it finished, once submitted

    // Opens the command list, with hdml's root signature and descriptor heap set.
    HRESULT open();
    void add_range(D3D12_GPU_VIRTUAL_ADDRESS base, uint64_t bytes, ID3D12Resource *resource);
    // The range holding `address`, or null.
    const Range *find(D3D12_GPU_VIRTUAL_ADDRESS address) const;
    // A buffer (default heap, unordered access) owned until the GPU has finished the recording.
    HRESULT allocate(uint64_t bytes, D3D12_GPU_VIRTUAL_ADDRESS *address, std::string *error);
    // kMaxKernelBuffers consecutive shader-visible descriptors for one dispatch.
    HRESULT descriptors(D3D12_CPU_DESCRIPTOR_HANDLE *cpu, D3D12_GPU_DESCRIPTOR_HANDLE *gpu, std::string *error);
    // Once the GPU has finished it: forgets its ranges, releases what it owned.
    void recycle();

private:
    HRESULT new_heap(std::string *error);

    Context &context_;
    Com<ID3D12CommandAllocator> allocator_;
    Com<ID3D12GraphicsCommandList> list_;
    Com<ID3D12DescriptorHeap> heap_;
    UINT heap_used_ = 0;
    std::vector<Com<ID3D12DescriptorHeap>> full_heaps_;  // earlier dispatches of this recording use them
    std::vector<Range> ranges_;
    std::vector<Com<ID3D12Resource>> owned_;
};

// The calling thread's recording while hdmlExecute runs an operator on a D3D12
// device (the Halide d3d12compute functions the kernels call find it there).
Recording *current_recording();

class CurrentRecording {
public:
    explicit CurrentRecording(Recording *recording);
    ~CurrentRecording();
    CurrentRecording(const CurrentRecording &) = delete;
    CurrentRecording &operator=(const CurrentRecording &) = delete;

private:
    Recording *previous_;
};

// DeviceScratch on D3D12: a buffer of the current recording; *address is its GPU virtual address.
HRESULT allocate_scratch(size_t bytes, uint64_t *address);

// A recording to record into (one the GPU has finished, or a new one), opened.
HRESULT acquire_recording(Context &context, std::unique_ptr<Recording> *recording);

// Closes it and submits it to the device's queue, signalling the fence after it.
HRESULT submit(Context &context, std::unique_ptr<Recording> recording);

}  // namespace hdml::d3d12
