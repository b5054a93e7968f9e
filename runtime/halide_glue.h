// Everything that touches the Halide runtime: buffer descriptors for kernel
// calls, the error handler (Halide's default aborts), and the x86 ISA cap.
#pragma once

#include "HalideRuntime.h"
#include "hdml/directml.h"

#include <cstdint>
#include <string>

namespace hdml {

// Installs hdml's Halide error handler and the HDML_CPU_ISA cap; idempotent.
void init_halide_runtime();

// A halide_buffer_t with its own dimension storage.
template <int Rank>
struct KernelBuffer {
    halide_buffer_t buf{};
    halide_dimension_t dims[Rank]{};

    KernelBuffer(void *host, halide_type_t type) {
        buf.host = static_cast<uint8_t *>(host);
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
// message of a Halide error raised during the call.
struct KernelCall {
    std::string error;
};

// The Halide type of a DML data type's elements.
halide_type_t halide_type_of_dml(DML_TENSOR_DATA_TYPE type);

// Converts a kernel's return code into an HRESULT, with the Halide message.
HRESULT check_kernel(int halide_result, const KernelCall &call, const char *kernel_name);

}  // namespace hdml
