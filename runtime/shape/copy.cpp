#include "runtime/shape/copy.h"

#include "runtime/checked.h"
#include "runtime/error.h"

namespace hdml {

CopyShape plan_copy(const std::vector<Dim> &dims, int64_t run_row) {
    std::vector<Dim> rest = canonical_dims(dims);
    CopyShape shape;
    shape.x = take_dim(rest, any_dim, [](const Dim &a, const Dim &b) { return a.out_stride < b.out_stride; });
    if (rest.empty() && run_row >= 1024 && shape.x.extent / 2 >= run_row) {
        // One long contiguous run: cut it into rows so the kernel can spread
        // them over cores (a power-of-two row length that divides it exactly).
        int64_t longest_row = 1024;
        while (longest_row <= run_row / 2) longest_row *= 2;  // <= run_row <= extent / 2: no overflow
        for (int64_t row = longest_row; row >= 1024; row /= 2) {
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

int64_t copy_run_row(const DispatchThresholds &thresholds, uint32_t element_bytes) {
    const int64_t bytes = thresholds.copy_run_row_bytes;
    return bytes < 0 ? kDefaultCopyRunRow : bytes / element_bytes;
}

std::string CopyShape::describe() const {
    return format("x{%lld, strides %lld/%lld}, y{%lld}, z{%lld}, %zu C++ loop dim(s)", (long long)x.extent,
                  (long long)x.in_stride, (long long)x.out_stride, (long long)y.extent, (long long)z.extent,
                  loops.size());
}

}  // namespace hdml
