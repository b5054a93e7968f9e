// What an hdml_device is: the kind of processor and, for CUDA, the context and
// stream its kernels run in. Operators keep a copy (they must be released
// before their device; see hdml.h).
#pragma once

#include "hdml/hdml.h"
#include "runtime/variants/thresholds.h"

struct CUctx_st;
struct CUstream_st;

struct hdml_device {
    HDML_DEVICE_TYPE type = HDML_DEVICE_TYPE_CPU;
    uint32_t ordinal = 0;
    // CUDA: kernels run in this context, enqueued on this stream. hdmlCreateDevice
    // retains the GPU's primary context and creates the stream (owns_cuda);
    // hdmlCreateDeviceFromCudaContext borrows the caller's.
    CUctx_st *cuda_context = nullptr;
    CUstream_st *cuda_stream = nullptr;
    bool owns_cuda = false;
    // What chooses between kernel variants on this device (built-in values
    // and the HDML_DISPATCH_<PLATFORM> overlay, read at creation).
    hdml::DispatchThresholds thresholds;
};

namespace hdml {

inline bool on_cuda(const hdml_device &device) {
    return device.type == HDML_DEVICE_TYPE_CUDA;
}

}  // namespace hdml
