#include "runtime/kernels.h"

#include "HalideRuntime.h"
#include HDML_CPU_KERNELS_HEADER  // generated from ops.cmake: the kernels of this build's CPU platform

#include <cstring>

namespace hdml {

namespace {

// static_cast to the family's signature rejects a generated kernel whose
// signature drifted from what the runtime calls.
#define HDML_KERNEL(family, key, fn) {#family, key, #fn, reinterpret_cast<ErasedKernel>(static_cast<family##_fn>(&fn))},
const KernelEntry kCpuKernels[] = {
#include HDML_CPU_KERNELS_TABLE
};
#undef HDML_KERNEL

}  // namespace

const KernelEntry *find_cpu_kernel(const char *family, const std::string &key) {
    for (const KernelEntry &entry : kCpuKernels) {
        if (std::strcmp(entry.family, family) == 0 && key == entry.key) return &entry;
    }
    return nullptr;
}

}  // namespace hdml
