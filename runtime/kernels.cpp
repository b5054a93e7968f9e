#include "runtime/kernels.h"

#include "HalideRuntime.h"
#include "runtime/device.h"
#include "runtime/error.h"
#include HDML_CPU_KERNELS_HEADER  // generated from ops.cmake: the kernels of this build's CPU platform
#if HDML_HAVE_CUDA
#include "hdml/kernels_cuda.h"
#endif

#include <algorithm>
#include <cstring>
#include <vector>

namespace hdml {

namespace {

// static_cast to the family's signature rejects a generated kernel whose
// signature drifted from what the runtime calls.
#define HDML_KERNEL(family, key, fn) {#family, key, #fn, reinterpret_cast<ErasedKernel>(static_cast<family##_fn>(&fn))},
const KernelEntry kCpuKernels[] = {
#include HDML_CPU_KERNELS_TABLE
};
#if HDML_HAVE_CUDA
const KernelEntry kCudaKernels[] = {
#include "hdml/kernels_cuda.inc"
};
#endif
#undef HDML_KERNEL

template <size_t N>
const KernelEntry *find_in(const KernelEntry (&table)[N], const char *family, const std::string &key) {
    for (const KernelEntry &entry : table) {
        if (std::strcmp(entry.family, family) == 0 && key == entry.key) return &entry;
    }
    return nullptr;
}

}  // namespace

const KernelEntry *find_kernel(const hdml_device &device, const char *family, const std::string &key) {
    if (on_cuda(device)) {
#if HDML_HAVE_CUDA
        return find_in(kCudaKernels, family, key);
#else
        return nullptr;
#endif
    }
    return find_in(kCpuKernels, family, key);
}

std::string key_with_param(const std::string &key, const std::string &param) {
    std::vector<std::string> params{param};
    for (size_t at = 0; at < key.size();) {
        const size_t end = std::min(key.find(' ', at), key.size());
        params.push_back(key.substr(at, end - at));
        at = end + 1;
    }
    std::sort(params.begin(), params.end());
    std::string joined;
    for (const std::string &p : params) joined += (joined.empty() ? "" : " ") + p;
    return joined;
}

const char *kernel_platform(const hdml_device &device) {
    return on_cuda(device) ? "cuda" : HDML_CPU_PLATFORM_NAME;
}

HRESULT require_kernel(const hdml_device &device, const char *family, const std::string &key, const std::string &what,
                       const KernelEntry **kernel) {
    *kernel = find_kernel(device, family, key);
    if (*kernel) return S_OK;
    return invalid_arg(format("%s: no %s kernel '%s' (%s) was built into this hdml.", what.c_str(),
                              kernel_platform(device), family, key.c_str()));
}

}  // namespace hdml
