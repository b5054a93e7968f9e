#include "runtime/shape/reduce.h"

#include "runtime/checked.h"
#include "runtime/error.h"

#include <algorithm>
#include <cstdint>

namespace hdml {

namespace {

std::vector<Dim> collect(const Tensor &in, const Tensor &out, uint32_t mask, const std::vector<uint32_t> &order,
                         const std::vector<int64_t> &in_strides, int64_t out_scale) {
    std::vector<Dim> dims;
    for (size_t k = 0; k < order.size(); ++k) {
        const uint32_t d = order[k];
        if (in.sizes[d] == 1) continue;
        Dim dim;
        dim.extent = in.sizes[d];
        dim.in_stride = in_strides[k];
        dim.role = (mask >> d) & 1 ? Role::reduced : Role::kept;
        dim.out_stride = dim.role == Role::reduced ? 0 : must_mul<int64_t>(out.strides[d], out_scale);
        dims.push_back(dim);
    }
    return dims;
}

// Row-major strides of the input's dims taken in `order` (a contiguous buffer).
std::vector<int64_t> packed_strides(const Tensor &in, const std::vector<uint32_t> &order) {
    std::vector<int64_t> strides(order.size());
    int64_t stride = 1;
    for (size_t k = order.size(); k-- > 0;) {
        strides[k] = stride;
        stride = must_mul<int64_t>(stride, in.sizes[order[k]]);
    }
    return strides;
}

bool is_reduced(const Dim &d) {
    return d.role == Role::reduced;
}

// Tries to express canonical dims as one kernel call shape; false if the
// reduced elements do not form a single strided run.
bool assign(std::vector<Dim> kept, ReduceShape *shape) {
    const auto runs = std::count_if(kept.begin(), kept.end(), is_reduced);
    if (runs > 1) return false;
    Dim r;
    r.role = Role::reduced;
    if (runs == 1) {
        const auto at = std::find_if(kept.begin(), kept.end(), is_reduced);
        r = *at;
        kept.erase(at);
    }
    if (!fits_kernel(r)) return false;
    // i: the kept dim moving fastest in memory, if it moves faster than r
    // (when nothing is reduced, r is a unit dim and any kept dim beats it).
    const int64_t r_stride = r.extent == 1 ? INT64_MAX : r.in_stride;
    shape->r = r;
    shape->i = take_dim(kept, [&](const Dim &d) { return d.in_stride < r_stride; },
                        [](const Dim &a, const Dim &b) { return a.in_stride < b.in_stride; });
    shape->outer_layout = shape->i.extent > 1;
    shape->o = take_dim(kept, any_dim, larger_extent);  // the kernel parallelises over o
    shape->loops = kept;
    return true;
}

}  // namespace

ReduceShape plan_reduce(const Tensor &in, const Tensor &out, uint32_t mask, bool reorder_reduced, int64_t out_scale) {
    ReduceShape shape;
    std::vector<uint32_t> order(in.rank);
    for (uint32_t d = 0; d < in.rank; ++d) order[d] = d;
    std::vector<int64_t> strides(in.strides.begin(), in.strides.begin() + in.rank);

    std::vector<Dim> dims = collect(in, out, mask, order, strides, out_scale);
    if (reorder_reduced) {
        // Order-insensitive functions: sort the reduced dims by decreasing
        // stride so that, e.g., H and W of an NHWC-strided tensor still fuse.
        std::vector<Dim> reduced;
        std::copy_if(dims.begin(), dims.end(), std::back_inserter(reduced), is_reduced);
        std::stable_sort(reduced.begin(), reduced.end(),
                         [](const Dim &a, const Dim &b) { return a.in_stride > b.in_stride; });
        const std::vector<Dim> reduced_fused = canonical_dims(reduced);
        if (reduced_fused.size() == 1) {
            // Only the set of reduced elements matters: put the run where the
            // first reduced dim was; kept dims keep their order.
            std::vector<Dim> merged;
            bool placed = false;
            for (const Dim &d : dims) {
                if (!is_reduced(d)) {
                    merged.push_back(d);
                } else if (!placed) {
                    merged.push_back(reduced_fused[0]);
                    placed = true;
                }
            }
            dims = merged;
        }
    }
    if (assign(canonical_dims(dims), &shape)) return shape;

    // Pack: contiguous copy ordered [kept..., reduced...].
    shape.packed = true;
    for (uint32_t d = 0; d < in.rank; ++d) {
        if (!((mask >> d) & 1)) shape.pack_order.push_back(d);
    }
    for (uint32_t d = 0; d < in.rank; ++d) {
        if ((mask >> d) & 1) shape.pack_order.push_back(d);
    }
    const std::vector<int64_t> packed = packed_strides(in, shape.pack_order);
    // Contiguous reduced dims always fuse unless their product exceeds a
    // kernel extent; say so rather than run a wrong shape.
    shape.too_long = !assign(canonical_dims(collect(in, out, mask, shape.pack_order, packed, out_scale)), &shape);
    return shape;
}

std::vector<Dim> ReduceShape::packing_dims(const Tensor &in) const {
    const std::vector<int64_t> packed = packed_strides(in, pack_order);
    std::vector<Dim> dims(pack_order.size());
    for (size_t k = 0; k < pack_order.size(); ++k) {
        dims[k].extent = in.sizes[pack_order[k]];
        dims[k].in_stride = in.strides[pack_order[k]];
        dims[k].out_stride = packed[k];
    }
    return dims;
}

ReduceShape ReduceShape::rows_as_columns() const {
    ReduceShape columns = *this;
    columns.outer_layout = true;
    columns.i = o;
    columns.o = Dim{};
    return columns;
}

ReduceShape ReduceShape::columns_as_rows() const {
    ReduceShape rows = *this;
    rows.outer_layout = false;
    return rows;
}

std::string ReduceShape::describe() const {
    return format("layout %s, i%s, r%s, o%s, %zu C++ loop dim(s)%s",
                  outer_layout ? "outer (kept dim fastest in memory: vectorise across it)"
                               : "inner (reduced run fastest in memory: vectorise along it)",
                  describe_dim(i).c_str(), describe_dim(r).c_str(), describe_dim(o).c_str(), loops.size(),
                  packed ? ", input first packed contiguously (reduced dims not one strided run)" : "");
}

}  // namespace hdml
