// HDML_TEST_DEVICE=cuda runs a suite on a CUDA device: the Runner (test_tensor.h)
// creates the device from this file's context and stream (the interop entry
// point, hdmlCreateDeviceFromCudaContext), mirrors every bound host buffer into
// device memory, executes, waits for the stream and copies the outputs back.
// The tests' expectations are unchanged, so every suite checks the GPU against
// the same reference. The driver is loaded at run time, as the library does.
#pragma once

#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>

struct CUctx_st;
struct CUstream_st;

namespace hdml_test {

inline bool test_on_cuda() {
    const char *device = std::getenv("HDML_TEST_DEVICE");
    return device && std::strcmp(device, "cuda") == 0;
}

class CudaMirror {
public:
    using CUdeviceptr = unsigned long long;

    // The process-wide context and stream, or nullptr with *why set.
    static CudaMirror *get(std::string *why = nullptr) {
        static CudaMirror mirror;
        if (!mirror.ok_ && why) *why = mirror.why_;
        return mirror.ok_ ? &mirror : nullptr;
    }

    CUctx_st *context() const { return context_; }
    CUstream_st *stream() const { return stream_; }

    CUdeviceptr upload(const void *host, size_t bytes) {
        CUdeviceptr pointer = 0;
        check(cuMemAlloc(&pointer, bytes ? bytes : 1), "cuMemAlloc");
        if (bytes) check(cuMemcpyHtoD(pointer, host, bytes), "cuMemcpyHtoD");
        return pointer;
    }
    void download(void *host, CUdeviceptr pointer, size_t bytes) {
        if (bytes) check(cuMemcpyDtoH(host, pointer, bytes), "cuMemcpyDtoH");
    }
    void release(CUdeviceptr pointer) { check(cuMemFree(pointer), "cuMemFree"); }
    void synchronize() { check(cuStreamSynchronize(stream_), "cuStreamSynchronize"); }

private:
    CudaMirror() {
        void *library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!library) {
            why_ = "libcuda.so.1 not found";
            return;
        }
        auto sym = [&](const char *name) { return dlsym(library, name); };
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
        cuMemcpyHtoD = (decltype(cuMemcpyHtoD))sym("cuMemcpyHtoD_v2");
        cuMemcpyDtoH = (decltype(cuMemcpyDtoH))sym("cuMemcpyDtoH_v2");
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
        if (result != 0) {
            std::fprintf(stderr, "test CUDA mirror: %s failed with %d\n", what, result);
            std::abort();
        }
    }

    bool ok_ = false;
    std::string why_;
    CUctx_st *context_ = nullptr;
    CUstream_st *stream_ = nullptr;
    int (*cuMemAlloc)(CUdeviceptr *, size_t) = nullptr;
    int (*cuMemFree)(CUdeviceptr) = nullptr;
    int (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t) = nullptr;
    int (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t) = nullptr;
    int (*cuStreamSynchronize)(CUstream_st *) = nullptr;
};

}  // namespace hdml_test
