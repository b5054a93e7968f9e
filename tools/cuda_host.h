// A CUDA context and stream of the calling program, with the driver loaded at
// run time (as libhdml does), for programs that hand device memory to hdml:
// the tests' `.cuda` variants (test_tensor.h mirrors every bound buffer into
// device memory) and hdml-dispatch -d cuda (resources in device memory). Both
// create their hdml device from this context and stream with
// hdmlCreateDeviceFromCudaContext, the interop entry point. Driver failures
// after set-up throw std::runtime_error.
#pragma once

#include "runtime/dynamic_library.h"

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

struct CUctx_st;
struct CUstream_st;

namespace hdml_cuda {

class CudaHost {
public:
    using CUdeviceptr = unsigned long long;

    // The process-wide context and stream, or nullptr with *why set.
    static CudaHost *get(std::string *why = nullptr) {
        static CudaHost mirror;
        if (!mirror.ok_ && why) *why = mirror.why_;
        return mirror.ok_ ? &mirror : nullptr;
    }

    CUctx_st *context() const { return context_; }
    CUstream_st *stream() const { return stream_; }

    // The copy is enqueued on this stream and waited for: cuMemcpyHtoD from
    // pageable memory may return before its DMA lands, and it runs on the
    // legacy default stream, which does not order with this non-blocking
    // stream, so kernels enqueued next could read the allocation's old
    // contents (seen once in several H100 runs of reduce_test: a SUM of -inf).
    CUdeviceptr upload(const void *host, size_t bytes) {
        CUdeviceptr pointer = 0;
        check(cuMemAlloc(&pointer, bytes ? bytes : 1), "cuMemAlloc");
        if (bytes) check(cuMemcpyHtoDAsync(pointer, host, bytes, stream_), "cuMemcpyHtoDAsync");
        synchronize();
        return pointer;
    }
    // Ordered after the kernels enqueued on this stream, then waited for.
    void download(void *host, CUdeviceptr pointer, size_t bytes) {
        if (bytes) check(cuMemcpyDtoHAsync(host, pointer, bytes, stream_), "cuMemcpyDtoHAsync");
        synchronize();
    }
    void release(CUdeviceptr pointer) { check(cuMemFree(pointer), "cuMemFree"); }
    void synchronize() { check(cuStreamSynchronize(stream_), "cuStreamSynchronize"); }

private:
    CudaHost() {
        namespace dl = hdml::dynamic_library;
        void *library = dl::open(dl::cuda_driver_name());
        if (!library) {
            why_ = std::string(dl::cuda_driver_name()) + " not found";
            return;
        }
        auto sym = [&](const char *name) { return dl::symbol(library, name); };
        using Init = int (*)(unsigned);
        using Count = int (*)(int *);
        using Get = int (*)(int *, int);
        using Retain = int (*)(CUctx_st **, int);
        using SetCurrent = int (*)(CUctx_st *);
        using StreamCreate = int (*)(CUstream_st **, unsigned);
        auto init = (Init)sym("cuInit");
        auto count = (Count)sym("cuDeviceGetCount");
        auto get = (Get)sym("cuDeviceGet");
        auto retain = (Retain)sym("cuDevicePrimaryCtxRetain");
        auto set_current = (SetCurrent)sym("cuCtxSetCurrent");
        auto stream_create = (StreamCreate)sym("cuStreamCreate");
        cuMemAlloc = (decltype(cuMemAlloc))sym("cuMemAlloc_v2");
        cuMemFree = (decltype(cuMemFree))sym("cuMemFree_v2");
        cuMemcpyHtoDAsync = (decltype(cuMemcpyHtoDAsync))sym("cuMemcpyHtoDAsync_v2");
        cuMemcpyDtoHAsync = (decltype(cuMemcpyDtoHAsync))sym("cuMemcpyDtoHAsync_v2");
        cuStreamSynchronize = (decltype(cuStreamSynchronize))sym("cuStreamSynchronize");
        int gpus = 0, gpu = 0;
        if (!init || init(0) != 0 || count(&gpus) != 0 || gpus == 0) {
            why_ = "the CUDA driver reports no GPU";
            return;
        }
        if (get(&gpu, 0) != 0 || retain(&context_, gpu) != 0 || set_current(context_) != 0 ||
            stream_create(&stream_, 1) != 0) {
            why_ = "could not set up a context and stream on GPU 0";
            return;
        }
        ok_ = true;
    }

    static void check(int result, const char *what) {
        if (result != 0) throw std::runtime_error(std::string(what) + " failed with CUDA error " + std::to_string(result));
    }

    bool ok_ = false;
    std::string why_;
    CUctx_st *context_ = nullptr;
    CUstream_st *stream_ = nullptr;
    int (*cuMemAlloc)(CUdeviceptr *, size_t) = nullptr;
    int (*cuMemFree)(CUdeviceptr) = nullptr;
    int (*cuMemcpyHtoDAsync)(CUdeviceptr, const void *, size_t, CUstream_st *) = nullptr;
    int (*cuMemcpyDtoHAsync)(void *, CUdeviceptr, size_t, CUstream_st *) = nullptr;
    int (*cuStreamSynchronize)(CUstream_st *) = nullptr;
};

}  // namespace hdml_cuda
