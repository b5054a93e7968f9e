#include "runtime/kernels.h"

#include "HalideRuntime.h"
#include "runtime/device.h"
#include "runtime/error.h"
#include HDML_CPU_KERNELS_HEADER  // generated from ops.cmake: the kernels of this build's CPU platform
#if HDML_HAVE_CUDA
#include HDML_CUDA_KERNELS_HEADER
#endif
#if HDML_HAVE_D3D12
#include HDML_D3D12_KERNELS_HEADER
#endif

namespace hdml {

namespace {

// static_cast to the family's signature rejects a generated kernel whose
// signature drifted from what the runtime calls.
#define HDML_KERNEL(family, params, fn) \
    {Family::family, params, #fn, reinterpret_cast<ErasedKernel>(static_cast<family##_fn>(&fn))},
const KernelEntry kCpuKernels[] = {
#include HDML_CPU_KERNELS_TABLE
};
#if HDML_HAVE_CUDA
const KernelEntry kCudaKernels[] = {
#include HDML_CUDA_KERNELS_TABLE
};
#endif
#if HDML_HAVE_D3D12
const KernelEntry kD3d12Kernels[] = {
#include HDML_D3D12_KERNELS_TABLE
};
#endif
#undef HDML_KERNEL

template <size_t N>
const KernelEntry *find_in(const KernelEntry (&table)[N], Family family, const KernelParams &params) {
    for (const KernelEntry &entry : table) {
        if (entry.family == family && entry.params == params) return &entry;
    }
    return nullptr;
}

}  // namespace

const KernelEntry *find_kernel(const hdml_device &device, Family family, const KernelParams &params) {
    if (on_cuda(device)) {
#if HDML_HAVE_CUDA
        return find_in(kCudaKernels, family, params);
#else
        return nullptr;
#endif
    }
    if (on_d3d12(device)) {
#if HDML_HAVE_D3D12
        return find_in(kD3d12Kernels, family, params);
#else
        return nullptr;
#endif
    }
    return find_in(kCpuKernels, family, params);
}

const char *kernel_platform(const hdml_device &device) {
    return on_cuda(device) ? "cuda" : on_d3d12(device) ? "d3d12" : HDML_CPU_PLATFORM_NAME;
}

HRESULT no_kernel(const hdml_device &device, Family family, const KernelParams &params, const std::string &what) {
    const bool wide = params.dtype == param::dtype::int64 || params.dtype == param::dtype::uint64 ||
                      params.itype == param::itype::int64 || params.itype == param::itype::uint64;
    if (on_d3d12(device) && wide) {
        return fail(DXGI_ERROR_UNSUPPORTED,
                    format("%s: the D3D12 device has no kernel '%s' (%s): HLSL (shader model 5.1) has no 64-bit "
                           "integers.",
                           what.c_str(), family_name(family), params.describe().c_str()));
    }
    return invalid_arg(format("%s: no %s kernel '%s' (%s) was built into this hdml.", what.c_str(),
                              kernel_platform(device), family_name(family), params.describe().c_str()));
}

HRESULT require_kernel(const hdml_device &device, Family family, const KernelParams &params, const std::string &what,
                       const KernelEntry **kernel) {
    *kernel = find_kernel(device, family, params);
    return *kernel ? S_OK : no_kernel(device, family, params, what);
}

}  // namespace hdml
