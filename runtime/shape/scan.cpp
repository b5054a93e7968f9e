#include "runtime/shape/scan.h"

#include "runtime/checked.h"
#include "runtime/error.h"

#include <cstdlib>

namespace hdml {

ScanShape plan_scan(const Tensor &in, const Tensor &out, uint32_t axis, bool reverse) {
    ScanShape shape;
    Dim &r = shape.r;
    r.extent = in.sizes[axis];
    r.in_stride = in.strides[axis];
    r.out_stride = out.strides[axis];
    if (reverse) {
        shape.base_in = must_mul<int64_t>(r.extent - 1, r.in_stride);
        shape.base_out = must_mul<int64_t>(r.extent - 1, r.out_stride);
        r.in_stride = -r.in_stride;
        r.out_stride = -r.out_stride;
    }
    shape.too_long = !fits_kernel(r);
    std::vector<Dim> kept;
    for (uint32_t d = 0; d < in.rank; ++d) {
        if (d == axis) continue;
        Dim k;
        k.extent = in.sizes[d];
        k.in_stride = in.strides[d];
        k.out_stride = out.strides[d];
        kept.push_back(k);
    }
    kept = canonical_dims(kept);
    if (r.extent > 1) {
        const int64_t r_stride = std::abs(r.in_stride);
        shape.i = take_dim(kept, [&](const Dim &d) { return d.in_stride < r_stride; },
                           [](const Dim &a, const Dim &b) { return a.in_stride < b.in_stride; });
    }
    shape.outer_layout = shape.i.extent > 1;
    shape.o = take_dim(kept, any_dim, larger_extent);
    shape.loops = kept;
    return shape;
}

bool interleaved_line(const ScanShape &shape, ScanShape *line) {
    const Dim &i = shape.i, &r = shape.r;
    if (!shape.outer_layout || i.in_stride != 1 || i.out_stride != 1 || r.in_stride != i.extent ||
        r.out_stride != i.extent) {
        return false;
    }
    Dim walked;
    walked.in_stride = walked.out_stride = 1;
    if (!checked_mul(r.extent, i.extent, &walked.extent) || !fits_kernel(walked)) return false;
    *line = shape;
    line->outer_layout = false;
    line->i = Dim{};
    line->r = walked;
    return true;
}

std::string ScanShape::describe() const {
    return format("layout %s, i{%lld}, r%s, o{%lld}, %zu C++ loop dim(s)", outer_layout ? "outer" : "inner",
                  (long long)i.extent, describe_dim(r).c_str(), (long long)o.extent, loops.size());
}

}  // namespace hdml
