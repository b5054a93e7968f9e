// The CUDA driver API, loaded at run time (libcuda.so.1; nvcuda.dll on Windows): hdml links
// no CUDA library, so one build runs on machines with and without NVIDIA GPUs.
// Only what the runtime itself calls is declared; kernels go through Halide's
// CUDA runtime, which loads the driver the same way.
#pragma once

#include <cstddef>
#include <string>

struct CUctx_st;
struct CUstream_st;

namespace hdml::cuda {

using CUresult = int;
using CUdevice = int;
using CUcontext = CUctx_st *;
using CUstream = CUstream_st *;
using CUdeviceptr = unsigned long long;

struct Driver {
    CUresult (*cuInit)(unsigned flags);
    CUresult (*cuDeviceGetCount)(int *count);
    CUresult (*cuDeviceGet)(CUdevice *device, int ordinal);
    CUresult (*cuDeviceGetName)(char *name, int length, CUdevice device);
    CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *context, CUdevice device);
    CUresult (*cuCtxPushCurrent)(CUcontext context);
    CUresult (*cuCtxPopCurrent)(CUcontext *context);
    CUresult (*cuCtxGetDevice)(CUdevice *device);
    CUresult (*cuStreamCreate)(CUstream *stream, unsigned flags);
    CUresult (*cuStreamDestroy)(CUstream stream);
    CUresult (*cuMemAllocAsync)(CUdeviceptr *pointer, size_t bytes, CUstream stream);
    CUresult (*cuMemFreeAsync)(CUdeviceptr pointer, CUstream stream);
    CUresult (*cuGetErrorString)(CUresult result, const char **text);
};

// The driver, or nullptr with *why set when libcuda.so.1 (CUDA 11.2 or newer,
// for stream-ordered allocation) cannot be loaded. Loaded once per process.
const Driver *driver(std::string *why);

// "CUDA_ERROR_... (code)" text for a driver result.
std::string describe(CUresult result);

// Makes `context` current on this thread for the scope (driver calls that
// need one: allocation, memset, stream creation).
class ScopedContext {
public:
    ScopedContext(const Driver &driver, CUcontext context);
    ~ScopedContext();
    CUresult status() const { return status_; }

private:
    const Driver &driver_;
    CUresult status_;
};

}  // namespace hdml::cuda
