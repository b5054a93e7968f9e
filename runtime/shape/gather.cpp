#include "runtime/shape/gather.h"

#include "runtime/error.h"

namespace hdml {

GatherShape plan_gather(const std::vector<Dim> &output_dims) {
    std::vector<Dim> rest = canonical_dims(output_dims);
    auto is_index = [](const Dim &d) { return d.role == Role::index; };
    auto is_kept = [](const Dim &d) { return d.role == Role::kept; };
    GatherShape shape;
    shape.j = take_dim(rest, is_index, larger_extent);
    shape.x = take_dim(rest, is_kept, [](const Dim &a, const Dim &b) { return a.out_stride < b.out_stride; });
    if (shape.x.extent > 1 && shape.j.extent > 1 && shape.x.out_stride > shape.j.out_stride) {
        rest.push_back(shape.x);
        shape.x = Dim{};
    }
    shape.y = take_dim(rest, is_kept, larger_extent);
    shape.loops = rest;
    return shape;
}

std::string GatherShape::describe() const {
    return format("x{%lld, out stride %lld}, j{%lld}, y{%lld}, %zu C++ loop dim(s)", (long long)x.extent,
                  (long long)x.out_stride, (long long)j.extent, (long long)y.extent, loops.size());
}

}  // namespace hdml
