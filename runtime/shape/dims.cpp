#include "runtime/shape/dims.h"

#include "runtime/checked.h"
#include "runtime/error.h"
#include "runtime/shape/limits.h"

#include <cstdlib>

namespace hdml {

bool fits_kernel(const Dim &d) {
    return d.extent <= kMaxKernelExtent && std::abs(d.in_stride) <= kMaxKernelExtent &&
           std::abs(d.out_stride) <= kMaxKernelExtent && std::abs(d.idx_stride) <= kMaxKernelExtent;
}

std::vector<Dim> canonical_dims(const std::vector<Dim> &dims) {
    std::vector<Dim> out;
    for (const Dim &d : dims) {
        if (d.extent == 1) continue;
        out.push_back(d);
        while (out.size() >= 2) {
            const Dim &inner = out[out.size() - 1], &outer = out[out.size() - 2];
            // A stride of 0 chains with 0 (reduced dims' output, kept dims' indices).
            const bool chains = inner.role == outer.role &&
                                equals_product(outer.in_stride, inner.in_stride, inner.extent) &&
                                equals_product(outer.out_stride, inner.out_stride, inner.extent) &&
                                equals_product(outer.idx_stride, inner.idx_stride, inner.extent) &&
                                fused_extent(outer.extent, inner.extent, kMaxKernelExtent);
            if (!chains) break;
            Dim merged = inner;
            merged.extent = outer.extent * inner.extent;
            out.pop_back();
            out.back() = merged;
        }
    }
    return out;
}

bool widen_elements(const std::vector<Dim> &dims, int64_t factor, std::vector<Dim> *wide) {
    std::vector<Dim> out = canonical_dims(dims);
    bool contiguous = false;
    for (Dim &d : out) {
        if (!contiguous && d.role == Role::kept && d.in_stride == 1 && d.out_stride == 1) {
            if (d.extent % factor != 0) return false;
            d.extent /= factor;
            contiguous = true;
            continue;
        }
        // Index strides count normalised indices, not elements: they stay.
        if (d.in_stride % factor != 0 || d.out_stride % factor != 0) return false;
        d.in_stride /= factor;
        d.out_stride /= factor;
    }
    if (!contiguous) return false;
    *wide = std::move(out);
    return true;
}

std::vector<Dim> split_elements(const std::vector<Dim> &dims, int64_t parts) {
    std::vector<Dim> split = dims;
    for (Dim &d : split) {
        d.in_stride = must_mul(d.in_stride, parts);
        d.out_stride = must_mul(d.out_stride, parts);
    }
    Dim words;
    words.extent = parts;
    words.in_stride = 1;
    words.out_stride = 1;
    split.push_back(words);
    return canonical_dims(split);
}

void rewind_offsets(const Dim &d, Offsets *at) {
    const int64_t back = d.extent - 1;
    at->in -= must_mul(d.in_stride, back);
    at->out -= must_mul(d.out_stride, back);
    at->idx -= must_mul(d.idx_stride, back);
}

bool next_offsets(const std::vector<Dim> &loops, std::vector<int64_t> *index, Offsets *at) {
    for (size_t d = loops.size(); d-- > 0;) {
        if (++(*index)[d] < loops[d].extent) {
            at->in += loops[d].in_stride, at->out += loops[d].out_stride, at->idx += loops[d].idx_stride;
            return true;
        }
        rewind_offsets(loops[d], at);
        (*index)[d] = 0;
    }
    return false;
}

bool fits_small_buffers(std::initializer_list<const Dim *> dims, int64_t in_bytes, int64_t out_bytes) {
    int64_t elements = 1, in_span = 1, out_span = 1;  // spans in elements, from the first one
    for (const Dim *d : dims) {
        elements *= d->extent;
        in_span += (d->extent - 1) * std::abs(d->in_stride);
        out_span += (d->extent - 1) * std::abs(d->out_stride);
    }
    return elements < kSmallBufferLimit && in_span * in_bytes < kSmallBufferLimit &&
           out_span * out_bytes < kSmallBufferLimit;
}

std::string describe_dim(const Dim &d) {
    return format("{%lld x %lld}", (long long)d.extent, (long long)d.in_stride);
}

}  // namespace hdml
