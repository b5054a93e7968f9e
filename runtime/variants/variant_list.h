// Kernel choice as data: per operator family, an ordered list of variants
// (as oneDNN's implementation lists). The first variant of the device's
// platform that serves the call's shape and was built for its parameters wins;
// HDML_VERBOSE=1 logs why each earlier one was passed over.
#pragma once

#include "runtime/device.h"
#include "runtime/error.h"
#include "runtime/kernels.h"

#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace hdml {

// D3D12 takes only the variants every platform has: its kernels are the plain
// ones (HLSL assumes no wave size, so none of CUDA's warp-level mappings).
enum PlatformMask : unsigned { kOnCpu = 1, kOnCuda = 2, kOnD3d12 = 4, kOnAll = kOnCpu | kOnCuda | kOnD3d12 };

inline bool serves_device(unsigned platforms, const hdml_device &device) {
    return platforms & (on_cuda(device) ? kOnCuda : on_d3d12(device) ? kOnD3d12 : kOnCpu);
}

// A variant's kernel parameters: one set, or twins in order of preference.
inline std::vector<KernelParams> kernel_candidates(const KernelParams &params) { return {params}; }
inline std::vector<KernelParams> kernel_candidates(std::vector<KernelParams> twins) { return twins; }

// The family of a variant's kernels: the list's, or the variant's own where
// it names one (a std::optional<Family> member `family`, set).
template <typename Variant, typename = void>
struct VariantFamily {
    static Family of(const Variant &, Family list_family) { return list_family; }
};
template <typename Variant>
struct VariantFamily<Variant, std::void_t<decltype(std::declval<Variant>().family)>> {
    static Family of(const Variant &v, Family list_family) { return v.family.value_or(list_family); }
};

// The first entry of `list` (Variant: name, platforms, refusal(query) -> ""
// when it serves the query, else why not) with a kernel of `family` (or the
// entry's own, VariantFamily) built for `params_of(variant)` (KernelParams, or
// a preference-ordered list of twins: the first built wins); `*log` lists the
// entries passed over, with reasons.
// Starts at `first`; returns the index, or -1 if none.
template <typename Variant, size_t N, typename Query, typename ParamsOf>
int choose_variant(const Variant (&list)[N], size_t first, const hdml_device &device, Family family,
                   const Query &query, ParamsOf params_of, const KernelEntry **kernel, std::string *log) {
    for (size_t k = first; k < N; ++k) {
        const Variant &v = list[k];
        if (!serves_device(v.platforms, device)) continue;
        std::string why = v.refusal(query);
        if (why.empty()) {
            std::string tried;
            for (const KernelParams &params : kernel_candidates(params_of(v))) {
                *kernel = find_kernel(device, VariantFamily<Variant>::of(v, family), params);
                if (*kernel) return (int)k;
                tried += format("%s%s", tried.empty() ? "" : " or ", params.describe().c_str());
            }
            why = format("not built (%s)", tried.c_str());
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
