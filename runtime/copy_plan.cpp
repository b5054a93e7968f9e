#include "runtime/copy_plan.h"

#include "runtime/checked.h"
#include "runtime/error.h"
#include "runtime/halide_glue.h"

namespace hdml {

namespace {

constexpr int64_t kMaxKernel = INT32_MAX;

bool fits(const CopyDim &d) {
    return d.extent <= kMaxKernel && d.in_stride <= kMaxKernel && d.out_stride <= kMaxKernel;
}

template <typename Better>
CopyDim take(std::vector<CopyDim> &dims, Better better) {
    int best = -1;
    for (size_t k = 0; k < dims.size(); ++k) {
        if (fits(dims[k]) && (best < 0 || better(dims[k], dims[best]))) best = (int)k;
    }
    if (best < 0) return CopyDim{};
    const CopyDim d = dims[best];
    dims.erase(dims.begin() + best);
    return d;
}

}  // namespace

std::vector<CopyDim> fuse_copy_dims(const std::vector<CopyDim> &dims) {
    std::vector<CopyDim> fused;
    for (const CopyDim &d : dims) {
        if (d.extent == 1) continue;
        fused.push_back(d);
        while (fused.size() >= 2) {
            CopyDim &inner = fused[fused.size() - 1], &outer = fused[fused.size() - 2];
            if (!equals_product(outer.in_stride, inner.in_stride, inner.extent) ||
                !equals_product(outer.out_stride, inner.out_stride, inner.extent) ||
                !fused_extent(outer.extent, inner.extent, kMaxKernel)) {
                break;
            }
            CopyDim merged = inner;
            merged.extent *= outer.extent;
            fused.pop_back();
            fused.back() = merged;
        }
    }
    return fused;
}

CopyPlan plan_copy(const std::vector<CopyDim> &dims) {
    std::vector<CopyDim> fused = fuse_copy_dims(dims);
    CopyPlan plan;
    plan.x = take(fused, [](const CopyDim &a, const CopyDim &b) { return a.out_stride < b.out_stride; });
    if (fused.empty() && plan.x.extent >= (1 << 17)) {
        // One long contiguous run: cut it into rows so the kernel can spread
        // them over cores (a power-of-two row length that divides it exactly).
        for (int64_t row = 1 << 16; row >= 1024; row /= 2) {
            if (plan.x.extent % row != 0) continue;
            fused.push_back({plan.x.extent / row, must_mul(plan.x.in_stride, row), must_mul(plan.x.out_stride, row)});
            plan.x.extent = row;
            break;
        }
    }
    plan.y = take(fused, [](const CopyDim &a, const CopyDim &b) { return a.extent > b.extent; });
    plan.z = take(fused, [](const CopyDim &a, const CopyDim &b) { return a.extent > b.extent; });
    plan.loops = fused;
    return plan;
}

std::string CopyPlan::describe() const {
    return format("x{%lld, strides %lld/%lld}, y{%lld}, z{%lld}, %zu C++ loop dim(s)", (long long)x.extent,
                  (long long)x.in_stride, (long long)x.out_stride, (long long)y.extent, (long long)z.extent,
                  loops.size());
}

HRESULT run_copy(const hdml_device &device, const KernelEntry *kernel, const CopyPlan &plan, const uint8_t *input,
                 uint8_t *output, uint32_t element_size) {
    const halide_type_t type(halide_type_uint, (uint8_t)(element_size * 8));
    return run_plan(device, plan, input, type, output, type, kernel->name,
                    [&](KernelCall *call, halide_buffer_t *in, halide_buffer_t *out) {
                        return kernel_fn<copy_fn>(kernel)(call, in, out);
                    });
}

}  // namespace hdml
