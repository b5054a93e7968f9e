#include "runtime/cuda_device.h"

#include "runtime/cuda_driver.h"
#include "runtime/error.h"

#include <new>

namespace hdml {

namespace {

HRESULT unsupported(const std::string &why) {
    return fail(DXGI_ERROR_UNSUPPORTED, "hdmlCreateDevice: no CUDA device: " + why + ".");
}

HRESULT cuda_failed(const char *what, cuda::CUresult result) {
    return fail(E_FAIL, format("%s failed: %s", what, cuda::describe(result).c_str()));
}

}  // namespace

HRESULT create_cuda_device(uint32_t ordinal, hdml_device **device) {
    std::string why;
    const cuda::Driver *d = cuda::driver(&why);
    if (!d) return unsupported(why);
    int count = 0;
    if (d->cuDeviceGetCount(&count) != 0 || count == 0) return unsupported("the CUDA driver reports no GPU");
    if (ordinal >= (uint32_t)count) {
        return fail(DXGI_ERROR_UNSUPPORTED,
                    format("hdmlCreateDevice: there are %d CUDA devices; ordinal %u does not exist.", count, ordinal));
    }
    cuda::CUdevice gpu = 0;
    cuda::CUresult rc = d->cuDeviceGet(&gpu, (int)ordinal);
    if (rc != 0) return cuda_failed("cuDeviceGet", rc);
    cuda::CUcontext context = nullptr;
    rc = d->cuDevicePrimaryCtxRetain(&context, gpu);  // kept for the process: see release_cuda_device
    if (rc != 0) return cuda_failed("cuDevicePrimaryCtxRetain", rc);
    cuda::CUstream stream = nullptr;
    {
        cuda::ScopedContext current(*d, context);
        rc = current.status() != 0 ? current.status() : d->cuStreamCreate(&stream, /*CU_STREAM_NON_BLOCKING*/ 1);
    }
    if (rc != 0) return cuda_failed("cuStreamCreate", rc);
    auto *created = new (std::nothrow) hdml_device;
    if (!created) {
        cuda::ScopedContext current(*d, context);
        d->cuStreamDestroy(stream);
        return fail(E_OUTOFMEMORY, "hdmlCreateDevice: out of memory.");
    }
    created->type = HDML_DEVICE_TYPE_CUDA;
    created->ordinal = ordinal;
    created->cuda_context = context;
    created->cuda_stream = stream;
    created->owns_cuda = true;
    *device = created;
    return S_OK;
}

HRESULT create_cuda_device_from_context(CUctx_st *context, CUstream_st *stream, hdml_device **device) {
    if (!context) return invalid_arg("hdmlCreateDeviceFromCudaContext: the CUcontext is null.");
    std::string why;
    const cuda::Driver *d = cuda::driver(&why);
    if (!d) return fail(DXGI_ERROR_UNSUPPORTED, "hdmlCreateDeviceFromCudaContext: " + why + ".");
    cuda::CUdevice gpu = 0;
    {
        cuda::ScopedContext current(*d, context);
        if (current.status() != 0) return cuda_failed("hdmlCreateDeviceFromCudaContext: cuCtxPushCurrent", current.status());
        const cuda::CUresult rc = d->cuCtxGetDevice(&gpu);
        if (rc != 0) return cuda_failed("hdmlCreateDeviceFromCudaContext: cuCtxGetDevice", rc);
    }
    auto *created = new (std::nothrow) hdml_device;
    if (!created) return fail(E_OUTOFMEMORY, "hdmlCreateDeviceFromCudaContext: out of memory.");
    created->type = HDML_DEVICE_TYPE_CUDA;
    created->ordinal = (uint32_t)gpu;
    created->cuda_context = context;
    created->cuda_stream = stream;  // null: the context's legacy default stream
    created->owns_cuda = false;
    *device = created;
    return S_OK;
}

void release_cuda_device(hdml_device *device) {
    // The primary context stays retained: Halide's runtime caches the kernels it
    // loaded per context, and a released primary context would unload them
    // under that cache. hdml keeps them for the process, as the CUDA runtime does.
    const cuda::Driver *d = cuda::driver(nullptr);
    if (!d) return;
    if (!device->owns_cuda) return;
    cuda::ScopedContext current(*d, device->cuda_context);
    d->cuStreamDestroy(device->cuda_stream);
}

HRESULT CudaScratch::allocate(const hdml_device &device, size_t bytes) {
    const cuda::Driver *d = cuda::driver(nullptr);
    if (!d) return fail(E_FAIL, "hdmlExecute: the CUDA driver is not loaded.");
    cuda::ScopedContext current(*d, device.cuda_context);
    const cuda::CUresult rc = d->cuMemAllocAsync(&pointer_, bytes, device.cuda_stream);
    if (rc != 0) return cuda_failed(format("hdmlExecute: allocating %zu bytes of scratch", bytes).c_str(), rc);
    device_ = &device;
    return S_OK;
}

CudaScratch::~CudaScratch() {
    if (!device_) return;
    const cuda::Driver *d = cuda::driver(nullptr);
    cuda::ScopedContext current(*d, device_->cuda_context);
    d->cuMemFreeAsync(pointer_, device_->cuda_stream);
}

}  // namespace hdml
