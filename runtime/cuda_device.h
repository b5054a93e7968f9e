// CUDA devices: creation (the GPU's primary context and a stream of hdml's, or
// the caller's own), and stream-ordered scratch memory for executions. Works in
// every build: the driver is loaded at run time, and without it creation fails
// with DXGI_ERROR_UNSUPPORTED and the reason.
#pragma once

#include "hdml/directml.h"
#include "runtime/device.h"

#include <cstddef>
#include <cstdint>

namespace hdml {

// hdmlCreateDevice(HDML_DEVICE_TYPE_CUDA, ordinal): the ordinal-th GPU.
HRESULT create_cuda_device(uint32_t ordinal, hdml_device **device);

// hdmlCreateDeviceFromCudaContext: kernels run in `context`, on `stream`.
HRESULT create_cuda_device_from_context(CUctx_st *context, CUstream_st *stream, hdml_device **device);

// For hdmlCreateDevice's devices, destroys their stream (the primary context
// stays retained: see cuda_device.cpp).
void release_cuda_device(hdml_device *device);

// Device memory for one execution, allocated and freed in stream order on the
// device's stream (so it never waits for the GPU).
class CudaScratch {
public:
    CudaScratch() = default;
    CudaScratch(const CudaScratch &) = delete;
    CudaScratch &operator=(const CudaScratch &) = delete;
    ~CudaScratch();
    HRESULT allocate(const hdml_device &device, size_t bytes);
    uint8_t *data() const { return reinterpret_cast<uint8_t *>(pointer_); }

private:
    const hdml_device *device_ = nullptr;
    unsigned long long pointer_ = 0;
};

}  // namespace hdml
