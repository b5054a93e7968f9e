// Kernel choice as data: per operator family, an ordered list of variants
// (as oneDNN's implementation lists). The first variant of the device's
// platform that serves the call's shape and was built for its parameters wins;
// HDML_VERBOSE=1 logs why each earlier one was passed over.
#pragma once

#include "runtime/device.h"
#include "runtime/error.h"
#include "runtime/kernels.h"

#include <string>

namespace hdml {

enum PlatformMask : unsigned { kOnCpu = 1, kOnCuda = 2, kOnAll = kOnCpu | kOnCuda };

inline bool serves_device(unsigned platforms, const hdml_device &device) {
    return platforms & (on_cuda(device) ? kOnCuda : kOnCpu);
}

// The first entry of `list` (Variant: name, platforms, refusal(query) -> ""
// when it serves the query, else why not) whose kernel
// `params_of(variant)` is built; `*log` lists the entries passed over, with
// reasons. Starts at `first`; returns the index, or -1 if none.
template <typename Variant, size_t N, typename Query, typename ParamsOf>
int choose_variant(const Variant (&list)[N], size_t first, const hdml_device &device, Family family,
                   const Query &query, ParamsOf params_of, const KernelEntry **kernel, std::string *log) {
    for (size_t k = first; k < N; ++k) {
        const Variant &v = list[k];
        if (!serves_device(v.platforms, device)) continue;
        std::string why = v.refusal(query);
        if (why.empty()) {
            const KernelParams params = params_of(v);
            *kernel = find_kernel(device, family, params);
            if (*kernel) return (int)k;
            why = format("not built (%s)", params.describe().c_str());
        }
        *log += format("%s%s: %s", log->empty() ? "" : "; ", v.name, why.c_str());
    }
    *kernel = nullptr;
    return -1;
}

// The variant that serves every shape: its refusal.
template <typename Query>
std::string serves_all(const Query &) {
    return "";
}

}  // namespace hdml
