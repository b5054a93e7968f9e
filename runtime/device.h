// What an hdml_device is: the kind of processor and, for CUDA, the context and
// stream its kernels run in; for D3D12, the device and queue (runtime/d3d12/).
// Operators keep a copy (they must be released before their device; see hdml.h).
#pragma once

#include "hdml/hdml.h"
#include "runtime/variants/thresholds.h"

struct CUctx_st;
struct CUstream_st;
namespace hdml::d3d12 {
struct Context;
}

struct hdml_device {
    HDML_DEVICE_TYPE type = HDML_DEVICE_TYPE_CPU;
    uint32_t ordinal = 0;
    // CUDA: kernels run in this context, enqueued on this stream. hdmlCreateDevice
    // retains the GPU's primary context and creates the stream (owns_cuda);
    // hdmlCreateDeviceFromCudaContext borrows the caller's.
    CUctx_st *cuda_context = nullptr;
    CUstream_st *cuda_stream = nullptr;
    bool owns_cuda = false;
    // D3D12: the ID3D12Device, the queue executions are submitted to, and what
    // hdml keeps beside them (pipelines, fence, recycled command lists).
    hdml::d3d12::Context *d3d12 = nullptr;
    // GATHER, SPLIT and JOIN move 64-bit elements as pairs of 32-bit words and
    // read 64-bit indices so: on D3D12 (HLSL 5.1 has no 64-bit types) and, for
    // tests of that path, on any device created under HDML_64BIT_MOVES=word_pairs.
    bool moves_64bit_in_words = false;
    // What chooses between kernel variants on this device (built-in values
    // and the HDML_DISPATCH_<PLATFORM> overlay, read at creation).
    hdml::DispatchThresholds thresholds;
};

namespace hdml {

inline bool on_cuda(const hdml_device &device) {
    return device.type == HDML_DEVICE_TYPE_CUDA;
}

inline bool on_d3d12(const hdml_device &device) {
    return device.type == HDML_DEVICE_TYPE_D3D12;
}

// GPU devices (CUDA, D3D12) share kernel choice and memory handling: kernels
// take device addresses (a CUdeviceptr, a D3D12 GPU virtual address).
inline bool on_gpu(const hdml_device &device) {
    return on_cuda(device) || on_d3d12(device);
}

}  // namespace hdml
