// Everything that touches the Halide runtime: buffer descriptors for kernel
// calls, the error handler (Halide's default aborts), the x86 ISA cap and the
// thread pool's installation.
#pragma once

#include "HalideRuntime.h"
#include "hdml/directml.h"
#include "runtime/device.h"

#include <cstdint>
#include <cstdlib>
#include <string>

namespace hdml {

// Installs hdml's Halide error handler, the HDML_CPU_ISA cap, hdml's thread
// pool (runtime/thread_pool.h) and (in builds with CUDA kernels) the CUDA
// context/stream hooks; idempotent.
void init_halide_runtime();

// runtime/cuda_glue.cpp: Halide's CUDA runtime asks the called device for its
// context and stream.
void install_cuda_hooks();

// Halide's device interface for buffers of `device`: CUDA's, hdml's D3D12 one
// (runtime/d3d12/halide_d3d12compute.cpp), or nullptr for host memory.
const halide_device_interface_t *device_interface_of(const hdml_device &device);

// A halide_buffer_t with its own dimension storage, over memory of `device`:
// a host pointer, or a device address that GPU kernels read in place (a
// CUdeviceptr, a D3D12 GPU virtual address; Halide sees device memory that is
// current, so it copies nothing).
template <int Rank>
struct KernelBuffer {
    halide_buffer_t buf{};
    halide_dimension_t dims[Rank]{};

    KernelBuffer(void *memory, halide_type_t type, const hdml_device &device) {
        if (on_gpu(device)) {
            buf.device = (uint64_t)(uintptr_t)memory;
            buf.device_interface = device_interface_of(device);
        } else {
            buf.host = static_cast<uint8_t *>(memory);
        }
        buf.type = type;
        buf.dimensions = Rank;
        buf.dim = dims;
    }
    void set_dim(int d, int32_t extent, int32_t stride) {
        dims[d].min = 0;
        dims[d].extent = extent;
        dims[d].stride = stride;
    }
};

// Per-call context handed to kernels as their user_context: collects the
// message of a Halide error raised during the call, and tells Halide's CUDA
// runtime which context and stream to use (runtime/cuda_glue.cpp), and hdml's
// D3D12 one which device (runtime/d3d12/halide_d3d12compute.cpp).
struct KernelCall {
    explicit KernelCall(const hdml_device &device) : device(device) {}
    const hdml_device &device;
    std::string error;
};

// The Halide type of a DML data type's elements.
halide_type_t halide_type_of_dml(DML_TENSOR_DATA_TYPE type);

// Converts a kernel's return code into an HRESULT, with the Halide message.
HRESULT check_kernel(int halide_result, const KernelCall &call, const char *kernel_name);

}  // namespace hdml
