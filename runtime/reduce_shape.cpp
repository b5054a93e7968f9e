#include "runtime/reduce_shape.h"

#include "runtime/checked.h"
#include "runtime/error.h"
#include "runtime/halide_glue.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>

namespace hdml {

namespace {

constexpr int64_t kMaxKernelExtent = INT32_MAX;  // halide_dimension_t holds int32 extents and strides

bool fits_kernel(const ReduceDim &d) {
    return d.extent <= kMaxKernelExtent && d.in_stride <= kMaxKernelExtent && d.out_stride <= kMaxKernelExtent;
}

// Merges neighbours (outer into inner) of the same role whose strides chain.
std::vector<ReduceDim> fuse(const std::vector<ReduceDim> &dims) {
    std::vector<ReduceDim> out;
    for (const ReduceDim &d : dims) {  // outermost first
        out.push_back(d);
        while (out.size() >= 2) {
            ReduceDim &inner = out[out.size() - 1];
            ReduceDim &outer = out[out.size() - 2];
            const bool same_role = inner.reduced == outer.reduced;
            const bool in_chains = equals_product(outer.in_stride, inner.in_stride, inner.extent);
            const bool out_chains = inner.reduced || equals_product(outer.out_stride, inner.out_stride, inner.extent);
            if (!same_role || !in_chains || !out_chains || !fused_extent(outer.extent, inner.extent, kMaxKernelExtent)) {
                break;
            }
            ReduceDim merged = inner;
            merged.extent = outer.extent * inner.extent;
            out.pop_back();
            out.back() = merged;
        }
    }
    return out;
}

std::vector<ReduceDim> collect(const Tensor &in, const Tensor &out, uint32_t mask, const std::vector<uint32_t> &order,
                               const std::vector<int64_t> &in_strides, int64_t out_scale) {
    std::vector<ReduceDim> dims;
    for (size_t k = 0; k < order.size(); ++k) {
        const uint32_t d = order[k];
        if (in.sizes[d] == 1) continue;
        ReduceDim dim;
        dim.extent = in.sizes[d];
        dim.in_stride = in_strides[k];
        dim.reduced = (mask >> d) & 1;
        dim.out_stride = dim.reduced ? 0 : must_mul<int64_t>(out.strides[d], out_scale);
        dims.push_back(dim);
    }
    return dims;
}

// Tries to express the fused dims as one kernel call shape; false if the
// reduced elements do not form a single strided run.
bool assign(const std::vector<ReduceDim> &dims, ReduceShape *shape) {
    std::vector<ReduceDim> kept;
    int reduced_runs = 0;
    ReduceDim r;
    r.reduced = true;
    for (const ReduceDim &d : dims) {
        if (d.reduced) {
            r = d;
            ++reduced_runs;
        } else {
            kept.push_back(d);
        }
    }
    if (reduced_runs > 1 || !fits_kernel(r)) return false;

    // i: the kept dim moving fastest in memory, if it moves faster than r
    // (when nothing is reduced, r is a unit dim and any kept dim beats it).
    const int64_t r_stride = r.extent == 1 ? INT64_MAX : r.in_stride;
    int best_i = -1;
    for (size_t k = 0; k < kept.size(); ++k) {
        if (!fits_kernel(kept[k]) || kept[k].in_stride >= r_stride) continue;
        if (best_i < 0 || kept[k].in_stride < kept[best_i].in_stride) best_i = (int)k;
    }
    shape->r = r;
    shape->outer_layout = best_i >= 0;
    shape->i = ReduceDim{};
    if (best_i >= 0) {
        shape->i = kept[best_i];
        kept.erase(kept.begin() + best_i);
    }
    // o: the largest remaining kept dim (the kernel parallelises over it).
    int best_o = -1;
    for (size_t k = 0; k < kept.size(); ++k) {
        if (!fits_kernel(kept[k])) continue;
        if (best_o < 0 || kept[k].extent > kept[best_o].extent) best_o = (int)k;
    }
    shape->o = ReduceDim{};
    if (best_o >= 0) {
        shape->o = kept[best_o];
        kept.erase(kept.begin() + best_o);
    }
    shape->loops = kept;
    return true;
}

}  // namespace

ReduceShape plan_reduce(const Tensor &in, const Tensor &out, uint32_t mask, bool reorder_reduced,
                        int64_t out_scale) {
    ReduceShape shape;
    std::vector<uint32_t> order(in.rank);
    for (uint32_t d = 0; d < in.rank; ++d) order[d] = d;
    std::vector<int64_t> strides(in.strides.begin(), in.strides.begin() + in.rank);

    std::vector<ReduceDim> dims = collect(in, out, mask, order, strides, out_scale);
    if (reorder_reduced) {
        // Order-insensitive functions: sort the reduced dims by decreasing
        // stride so that, e.g., H and W of an NHWC-strided tensor still fuse.
        std::vector<ReduceDim> kept, reduced;
        for (const ReduceDim &d : dims) (d.reduced ? reduced : kept).push_back(d);
        std::stable_sort(reduced.begin(), reduced.end(),
                         [](const ReduceDim &a, const ReduceDim &b) { return a.in_stride > b.in_stride; });
        std::vector<ReduceDim> reduced_fused = fuse(reduced);
        if (reduced_fused.size() == 1) {
            // Only the set of reduced elements matters: put the run where the
            // first reduced dim was; kept dims keep their order.
            std::vector<ReduceDim> merged;
            bool placed = false;
            for (const ReduceDim &d : dims) {
                if (!d.reduced) {
                    merged.push_back(d);
                } else if (!placed) {
                    merged.push_back(reduced_fused[0]);
                    placed = true;
                }
            }
            dims = merged;
        }
    }
    if (assign(fuse(dims), &shape)) return shape;

    // Pack: contiguous copy ordered [kept..., reduced...].
    shape.packed = true;
    shape.pack_order.clear();
    for (uint32_t d = 0; d < in.rank; ++d) {
        if (!((mask >> d) & 1)) shape.pack_order.push_back(d);
    }
    for (uint32_t d = 0; d < in.rank; ++d) {
        if ((mask >> d) & 1) shape.pack_order.push_back(d);
    }
    std::vector<int64_t> packed(in.rank);
    int64_t stride = 1;
    for (uint32_t k = in.rank; k-- > 0;) {
        packed[k] = stride;
        stride = must_mul<int64_t>(stride, in.sizes[shape.pack_order[k]]);
    }
    dims = collect(in, out, mask, shape.pack_order, packed, out_scale);
    if (!assign(fuse(dims), &shape)) {
        // Contiguous reduced dims always fuse unless their product exceeds a
        // kernel extent; keep the shape honest rather than silently wrong.
        shape.r.extent = -1;
    }
    return shape;
}

std::string ReduceShape::describe() const {
    std::string s = format("layout %s, i{%lld x %lld}, r{%lld x %lld}, o{%lld x %lld}, %zu C++ loop dim(s)%s",
                           outer_layout ? "outer (kept dim fastest in memory: vectorise across it)"
                                        : "inner (reduced run fastest in memory: vectorise along it)",
                           (long long)i.extent, (long long)i.in_stride, (long long)r.extent, (long long)r.in_stride,
                           (long long)o.extent, (long long)o.in_stride, loops.size(),
                           packed ? ", input first packed contiguously (reduced dims not one strided run)" : "");
    return s;
}

bool use_thread_per_row(ReduceShape *shape, int64_t max_row, int64_t min_rows) {
    if (shape->outer_layout || shape->r.extent > max_row || shape->o.extent < min_rows) return false;
    shape->outer_layout = true;
    shape->i = shape->o;
    shape->o = ReduceDim{};
    return true;
}

bool use_whole_columns(const ReduceShape &shape, int64_t min_outputs) {
    return shape.outer_layout && shape.i.extent * shape.o.extent >= min_outputs;
}

bool use_warp_merge(const ReduceShape &shape, int64_t max_outputs) {
    return shape.outer_layout && shape.i.extent * shape.o.extent <= max_outputs;
}

bool use_row_lanes(const ReduceShape &shape, int64_t min_row, int64_t max_row, int64_t min_rows) {
    return !shape.outer_layout && shape.r.extent >= min_row && shape.r.extent <= max_row &&
           shape.o.extent >= min_rows;
}

bool fits_small_buffers(const ReduceShape &shape, int64_t in_bytes, int64_t out_bytes) {
    return fits_small_buffers({&shape.i, &shape.r, &shape.o}, in_bytes, out_bytes);  // out_stride 0 for r
}

}  // namespace hdml
