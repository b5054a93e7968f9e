#include "runtime/shape/copy.h"

#include "runtime/checked.h"
#include "runtime/error.h"

namespace hdml {

CopyShape plan_copy(const std::vector<Dim> &dims) {
    std::vector<Dim> rest = canonical_dims(dims);
    CopyShape shape;
    shape.x = take_dim(rest, any_dim, [](const Dim &a, const Dim &b) { return a.out_stride < b.out_stride; });
    if (rest.empty() && shape.x.extent >= (1 << 17)) {
        // One long contiguous run: cut it into rows so the kernel can spread
        // them over cores (a power-of-two row length that divides it exactly).
        for (int64_t row = 1 << 16; row >= 1024; row /= 2) {
            if (shape.x.extent % row != 0) continue;
            Dim rows;
            rows.extent = shape.x.extent / row;
            rows.in_stride = must_mul(shape.x.in_stride, row);
            rows.out_stride = must_mul(shape.x.out_stride, row);
            rest.push_back(rows);
            shape.x.extent = row;
            break;
        }
    }
    shape.y = take_dim(rest, any_dim, larger_extent);
    shape.z = take_dim(rest, any_dim, larger_extent);
    shape.loops = rest;
    return shape;
}

std::string CopyShape::describe() const {
    return format("x{%lld, strides %lld/%lld}, y{%lld}, z{%lld}, %zu C++ loop dim(s)", (long long)x.extent,
                  (long long)x.in_stride, (long long)x.out_stride, (long long)y.extent, (long long)z.extent,
                  loops.size());
}

}  // namespace hdml
