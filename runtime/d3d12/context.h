// A D3D12 device of hdml: the ID3D12Device and the queue executions are
// submitted to (the caller's, or hdml's own on an adapter), the one root
// signature every kernel uses, the kernels' compiled pipelines, and the fence
// that tells which submitted executions the GPU has finished.
#pragma once

#include "runtime/d3d12/com.h"
#include "runtime/device.h"

#include <windows.h>
#include <d3d12.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

namespace hdml::d3d12 {

class Recording;

// What the HLSL of Halide 14's d3d12compute code generator binds: a kernel's
// buffers as typed UAVs u0, u1, ... in argument order, and its scalars as
// consecutive 32-bit words of the constant buffer b0 (hdml's kernels have at
// most 3 and 24). The root signature gives b0 as root constants and u0.. as
// one descriptor table.
constexpr UINT kMaxKernelBuffers = 8;
constexpr UINT kMaxKernelScalars = 32;

struct Context {
    Com<ID3D12Device> device;
    Com<ID3D12CommandQueue> queue;
    D3D12_COMMAND_LIST_TYPE list_type = D3D12_COMMAND_LIST_TYPE_COMPUTE;
    Com<ID3D12Fence> fence;
    HANDLE fence_event = nullptr;
    Com<ID3D12RootSignature> root_signature;
    UINT descriptor_bytes = 0;
    // Typed UAV loads of 8- and 16-bit formats (R8_UINT, R16_FLOAT, ...): an
    // optional D3D12 feature that hdml's 8- and 16-bit kernels need.
    bool small_typed_uav_loads = false;

    std::mutex mutex;  // guards what follows
    uint64_t last_signal = 0;
    std::vector<std::unique_ptr<Recording>> in_flight;  // submitted, with their fence values
    std::vector<std::unique_ptr<Recording>> idle;       // finished, ready to record again
    // Keyed by (source, entry, shared bytes): the kernels' HLSL and entry
    // names are static strings of their objects, so their addresses name them
    // and a dispatch's lookup formats and allocates nothing.
    std::map<std::tuple<const void *, const void *, int>, Com<ID3D12PipelineState>> pipelines;

    Context();
    ~Context();  // waits until the queue has passed every execution hdml submitted
};

// hdmlCreateDevice(HDML_DEVICE_TYPE_D3D12, adapter): DXGI's adapter of that
// index, and a compute queue of hdml's.
HRESULT create_device(uint32_t adapter_index, hdml_device **device);

// hdmlCreateDeviceFromD3D12: the caller's device and queue (hdml holds a reference to each).
HRESULT create_device_from(ID3D12Device *device, ID3D12CommandQueue *queue, hdml_device **created);

void release_device(hdml_device *device);

// The pipeline of one entry point of a kernel's HLSL `source`, compiled
// (D3DCompile, cs_5_1) on first use and kept for the device's lifetime;
// `source` and `entry` must outlive the device (the kernels' static strings).
// On failure, *error says why (the compiler's log included).
HRESULT pipeline(Context &context, const char *source, size_t source_bytes, const char *entry, int shared_bytes,
                 ID3D12PipelineState **pso, std::string *error);

}  // namespace hdml::d3d12
