// Device memory for one execution on a GPU device (a packed copy of a strided
// input, normalised gather indices): on CUDA allocated and freed in stream
// order; on D3D12 a buffer of the execution's command list, released once the
// queue has passed it (runtime/d3d12/recording.h).
#pragma once

#include "hdml/directml.h"
#include "runtime/cuda_device.h"
#include "runtime/device.h"

#include <cstddef>
#include <cstdint>

namespace hdml {

class DeviceScratch {
public:
    HRESULT allocate(const hdml_device &device, size_t bytes);
    // The device address (a CUdeviceptr or a D3D12 GPU virtual address).
    uint8_t *data() const { return address_; }

private:
    CudaScratch cuda_;
    uint8_t *address_ = nullptr;
};

}  // namespace hdml
