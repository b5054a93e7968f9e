// DML_OPERATOR_GATHER: output[pre, idx..., post] = input[pre, indices[idx...], post].
// Validation per DirectML, then the output's dims are canonicalised onto the
// gather kernel output(x, j, y) = input(x, indices(j), y) with C++ loops over
// the rest. Indices are normalised per call into int32 (negative ones count
// from the end for signed types; out-of-range ones clamp to the nearest valid
// index), so reads never leave the input: on the host for CPU devices, by the
// normalize_indices kernel into stream-ordered scratch for CUDA devices.
#include "runtime/checked.h"
#include "runtime/copy_plan.h"
#include "runtime/cuda_device.h"
#include "runtime/error.h"
#include "runtime/halide_glue.h"
#include "runtime/kernels.h"
#include "runtime/operator.h"

#include <algorithm>
#include <memory>

namespace hdml {

namespace {

constexpr int64_t kMaxKernel = INT32_MAX;

// One output dim after canonicalisation. Index dims move through the
// normalised indices (idx_stride); kept dims through the input (in_stride).
struct GatherDim {
    int64_t extent = 1;
    int64_t in_stride = 0;
    int64_t out_stride = 0;
    int64_t idx_stride = 0;
    bool is_index = false;
};

bool fits(const GatherDim &d) {
    return d.extent <= kMaxKernel && d.in_stride <= kMaxKernel && d.out_stride <= kMaxKernel &&
           d.idx_stride <= kMaxKernel;
}

std::vector<GatherDim> fuse(const std::vector<GatherDim> &dims) {
    std::vector<GatherDim> out;
    for (const GatherDim &d : dims) {
        out.push_back(d);
        while (out.size() >= 2) {
            GatherDim &inner = out[out.size() - 1], &outer = out[out.size() - 2];
            const bool chains = inner.is_index == outer.is_index &&
                                equals_product(outer.in_stride, inner.in_stride, inner.extent) &&
                                equals_product(outer.out_stride, inner.out_stride, inner.extent) &&
                                equals_product(outer.idx_stride, inner.idx_stride, inner.extent) &&
                                fused_extent(outer.extent, inner.extent, kMaxKernel);
            if (!chains) break;
            GatherDim merged = inner;
            merged.extent *= outer.extent;
            out.pop_back();
            out.back() = merged;
        }
    }
    return out;
}

// Removes and returns the dim of `dims` that `better` prefers, or a unit dim.
template <typename Better>
GatherDim take(std::vector<GatherDim> &dims, bool want_index, Better better) {
    int best = -1;
    for (size_t k = 0; k < dims.size(); ++k) {
        if (dims[k].is_index != want_index || !fits(dims[k])) continue;
        if (best < 0 || better(dims[k], dims[best])) best = (int)k;
    }
    if (best < 0) return GatherDim{};
    GatherDim d = dims[best];
    dims.erase(dims.begin() + best);
    return d;
}

template <typename Fn>
void for_each_offset(const std::vector<GatherDim> &loops, Fn fn) {
    std::vector<int64_t> index(loops.size(), 0);
    int64_t in = 0, out = 0, idx = 0;
    while (true) {
        fn(in, out, idx);
        size_t d = loops.size();
        while (d-- > 0) {
            if (++index[d] < loops[d].extent) {
                in += loops[d].in_stride, out += loops[d].out_stride, idx += loops[d].idx_stride;
                break;
            }
            const int64_t back = loops[d].extent - 1;
            in -= must_mul(loops[d].in_stride, back), out -= must_mul(loops[d].out_stride, back);
            idx -= must_mul(loops[d].idx_stride, back);
            index[d] = 0;
        }
        if (d == (size_t)-1) return;
    }
}

class GatherOperator : public hdml_operator {
public:
    HRESULT init(const Tensor &input, const Tensor &indices, const Tensor &output, uint32_t axis,
                 uint32_t index_dims);
    HRESULT run(const void *const *inputs, void *const *outputs) override;

private:
    void normalise_indices(const void *raw, std::vector<int32_t> *out) const;
    HRESULT normalise_indices_on_device(const void *raw, int32_t *out) const;

    uint32_t axis_ = 0, index_dims_ = 0;
    uint64_t index_count_ = 1;  // elements of the normalised indices
    GatherDim x_, j_, y_;
    std::vector<GatherDim> loops_;
    const KernelEntry *kernel_ = nullptr;
    // CUDA: the indices' dims (last index_dims of the tensor) onto the packed int32 buffer.
    CopyPlan normalize_plan_;
    const KernelEntry *normalize_kernel_ = nullptr;
};

HRESULT GatherOperator::init(const Tensor &in, const Tensor &idx, const Tensor &out, uint32_t axis,
                             uint32_t index_dims) {
    inputs = {in, idx};
    outputs = {out};
    axis_ = axis;
    index_dims_ = index_dims;
    const uint32_t n = in.rank;

    // The documented size rule: {input[0..axis), indices[n-index_dims..n), input[axis+1..n)},
    // right-aligned into n dims (leading 1s cropped or added).
    struct Source {
        uint32_t size;
        int kind;  // 0 input dim, 1 indices dim
        uint32_t dim;
    };
    std::vector<Source> expected;
    for (uint32_t d = 0; d < axis; ++d) expected.push_back({in.sizes[d], 0, d});
    for (uint32_t d = n - index_dims; d < n; ++d) expected.push_back({idx.sizes[d], 1, d});
    for (uint32_t d = axis + 1; d < n; ++d) expected.push_back({in.sizes[d], 0, d});
    while (expected.size() > n) {
        if (expected.front().size != 1) {
            return invalid_arg(format("DML_OPERATOR_GATHER: the output needs %zu dimensions (input rank %u + "
                                      "IndexDimensions %u - 1, not counting leading 1s), more than the DimensionCount "
                                      "%u of tensor 'OutputTensor'.",
                                      expected.size(), n, index_dims, out.rank));
        }
        expected.erase(expected.begin());
    }
    while (expected.size() < n) expected.insert(expected.begin(), Source{1, 2, 0});
    for (uint32_t d = 0; d < n; ++d) {
        if (out.sizes[d] != expected[d].size) {
            return invalid_arg(format("DML_OPERATOR_GATHER: tensor 'OutputTensor' has Sizes[%u] = %u but the gather "
                                      "size rule requires %u ({InputTensor.Sizes[0..Axis), the last IndexDimensions "
                                      "of IndicesTensor.Sizes, InputTensor.Sizes[Axis+1..]}, right-aligned).",
                                      d, out.sizes[d], expected[d].size));
        }
    }

    // Output dims with their roles; the normalised indices are row-major over
    // the last index_dims dims of the indices tensor.
    std::vector<int64_t> packed_idx(n, 0);
    int64_t stride = 1;
    for (uint32_t d = n; d-- > n - index_dims;) {
        packed_idx[d] = stride;
        stride = must_mul<int64_t>(stride, idx.sizes[d]);
    }
    index_count_ = (uint64_t)stride;
    std::vector<GatherDim> dims;
    for (uint32_t d = 0; d < n; ++d) {
        if (out.sizes[d] == 1) continue;
        GatherDim g;
        g.extent = out.sizes[d];
        g.out_stride = out.strides[d];
        if (expected[d].kind == 1) {
            g.is_index = true;
            g.idx_stride = packed_idx[expected[d].dim];
        } else {
            g.in_stride = in.strides[expected[d].dim];
        }
        dims.push_back(g);
    }
    dims = fuse(dims);
    // j: the largest index dim. x: the kept dim densest in the output, if it
    // is denser than j (rows of copies, vectorised along x); otherwise x is a
    // unit dim and the kernel vectorises across j (gathering along the
    // innermost axis). y: the largest remaining kept dim. The rest loop in C++.
    j_ = take(dims, true, [](const GatherDim &a, const GatherDim &b) { return a.extent > b.extent; });
    x_ = take(dims, false, [](const GatherDim &a, const GatherDim &b) { return a.out_stride < b.out_stride; });
    if (x_.extent > 1 && j_.extent > 1 && x_.out_stride > j_.out_stride) {
        dims.push_back(x_);
        x_ = GatherDim{};
    }
    y_ = take(dims, false, [](const GatherDim &a, const GatherDim &b) { return a.extent > b.extent; });
    loops_ = dims;

    if (in.sizes[axis] > kMaxKernel || in.strides[axis] > kMaxKernel) {
        return invalid_arg(format("DML_OPERATOR_GATHER: tensor 'InputTensor' has Sizes[%u] = %u with stride %u; hdml's "
                                  "gather kernels take at most 2^31-1 for both.",
                                  axis, in.sizes[axis], in.strides[axis]));
    }
    const std::string key = format("dtype=uint%u", element_size(in.type) * 8);
    if (on_cuda(device)) {
        std::vector<CopyDim> idx_dims;
        for (uint32_t d = n - index_dims; d < n; ++d) idx_dims.push_back({idx.sizes[d], idx.strides[d], packed_idx[d]});
        normalize_plan_ = plan_copy(idx_dims);
        HDML_RETURN_IF_FAILED(require_kernel(device, "normalize_indices", format("itype=%s", kernel_type_name(idx.type)),
                                             "DML_OPERATOR_GATHER", &normalize_kernel_));
    }
    HDML_RETURN_IF_FAILED(require_kernel(device, "gather", key, "DML_OPERATOR_GATHER", &kernel_));
    log_verbose(format("DML_OPERATOR_GATHER: kernel %s; x{%lld, out stride %lld}, j{%lld}, y{%lld}, axis{%u x %u}, "
                       "%zu C++ loop dim(s)",
                       kernel_->name, (long long)x_.extent, (long long)x_.out_stride, (long long)j_.extent,
                       (long long)y_.extent, in.sizes[axis], in.strides[axis], loops_.size()));
    return S_OK;
}

void GatherOperator::normalise_indices(const void *raw, std::vector<int32_t> *out) const {
    const Tensor &idx = inputs[1];
    const int64_t extent = inputs[0].sizes[axis_];
    const uint32_t n = idx.rank, first = n - index_dims_;
    out->resize(index_count_);
    std::vector<uint32_t> position(index_dims_, 0);
    const bool is_signed = idx.type == DML_TENSOR_DATA_TYPE_INT32 || idx.type == DML_TENSOR_DATA_TYPE_INT64;
    const bool wide = element_size(idx.type) == 8;
    for (uint64_t k = 0; k < index_count_; ++k) {
        uint64_t offset = 0;
        for (uint32_t d = 0; d < index_dims_; ++d) offset += (uint64_t)position[d] * idx.strides[first + d];
        int64_t v;
        if (wide) {
            const uint64_t bits = static_cast<const uint64_t *>(raw)[offset];
            v = is_signed ? (int64_t)bits : (int64_t)std::min<uint64_t>(bits, INT64_MAX);
        } else {
            const uint32_t bits = static_cast<const uint32_t *>(raw)[offset];
            v = is_signed ? (int64_t)(int32_t)bits : (int64_t)bits;
        }
        if (v < 0 && is_signed) v += extent;
        (*out)[k] = (int32_t)std::clamp<int64_t>(v, 0, extent - 1);
        for (uint32_t d = index_dims_; d-- > 0;) {
            if (++position[d] < idx.sizes[first + d]) break;
            position[d] = 0;
        }
    }
}


HRESULT GatherOperator::normalise_indices_on_device(const void *raw, int32_t *out) const {
    const int32_t extent = (int32_t)inputs[0].sizes[axis_];
    return run_plan(device, normalize_plan_, raw, halide_type_of_dml(inputs[1].type), out,
                    halide_type_t(halide_type_int, 32), normalize_kernel_->name,
                    [&](KernelCall *call, halide_buffer_t *in, halide_buffer_t *normalised) {
                        return kernel_fn<normalize_indices_fn>(normalize_kernel_)(call, in, extent, normalised);
                    });
}

HRESULT GatherOperator::run(const void *const *in_ptrs, void *const *out_ptrs) {
    const Tensor &in = inputs[0];
    std::vector<int32_t> host_indices;
    CudaScratch device_indices;
    int32_t *indices;
    if (on_cuda(device)) {
        HDML_RETURN_IF_FAILED(device_indices.allocate(device, index_count_ * sizeof(int32_t)));
        indices = reinterpret_cast<int32_t *>(device_indices.data());
        HDML_RETURN_IF_FAILED(normalise_indices_on_device(in_ptrs[1], indices));
    } else {
        normalise_indices(in_ptrs[1], &host_indices);
        indices = host_indices.data();
    }
    const int64_t esize = element_size(in.type);
    const halide_type_t type(halide_type_uint, (uint8_t)(esize * 8));
    const auto *input = static_cast<const uint8_t *>(in_ptrs[0]);
    auto *output = static_cast<uint8_t *>(out_ptrs[0]);
    HRESULT hr = S_OK;
    for_each_offset(loops_, [&](int64_t in_off, int64_t out_off, int64_t idx_off) {
        if (FAILED(hr)) return;
        KernelBuffer<3> in_buf(const_cast<uint8_t *>(input) + must_mul(in_off, esize), type, device);
        in_buf.set_dim(0, (int32_t)x_.extent, (int32_t)x_.in_stride);
        in_buf.set_dim(1, (int32_t)in.sizes[axis_], (int32_t)in.strides[axis_]);
        in_buf.set_dim(2, (int32_t)y_.extent, (int32_t)y_.in_stride);
        KernelBuffer<1> idx_buf(indices + idx_off, halide_type_t(halide_type_int, 32), device);
        idx_buf.set_dim(0, (int32_t)j_.extent, (int32_t)j_.idx_stride);
        KernelBuffer<3> out_buf(output + must_mul(out_off, esize), type, device);
        out_buf.set_dim(0, (int32_t)x_.extent, (int32_t)x_.out_stride);
        out_buf.set_dim(1, (int32_t)j_.extent, (int32_t)j_.out_stride);
        out_buf.set_dim(2, (int32_t)y_.extent, (int32_t)y_.out_stride);
        KernelCall call(device);
        const int rc = kernel_fn<gather_fn>(kernel_)(&call, &in_buf.buf, &idx_buf.buf, &out_buf.buf);
        hr = check_kernel(rc, call, kernel_->name);
    });
    return hr;
}

}  // namespace

HRESULT create_gather_operator(const hdml_device &device, const void *raw_desc, std::unique_ptr<hdml_operator> *result) {
    const auto &desc = *static_cast<const DML_GATHER_OPERATOR_DESC *>(raw_desc);
    const char *op = "DML_OPERATOR_GATHER";
    Tensor in, idx, out;
    HDML_RETURN_IF_FAILED(read_tensor(desc.InputTensor, "InputTensor", &in));
    HDML_RETURN_IF_FAILED(read_tensor(desc.IndicesTensor, "IndicesTensor", &idx));
    HDML_RETURN_IF_FAILED(read_tensor(desc.OutputTensor, "OutputTensor", &out));
    HDML_RETURN_IF_FAILED(require_same_rank(in, idx));
    HDML_RETURN_IF_FAILED(require_same_rank(in, out));
    HDML_RETURN_IF_FAILED(require_same_type(in, out));
    HDML_RETURN_IF_FAILED(require_type_in(in, kDataMovementTypes, op));
    HDML_RETURN_IF_FAILED(require_type_in(idx, kIndexTypes, op));
    if (desc.Axis >= in.rank) {
        return invalid_arg(format("%s: Axis %u is out of range; it must be less than the DimensionCount %u of tensor "
                                  "'InputTensor'.",
                                  op, desc.Axis, in.rank));
    }
    // The doc states [0, DimensionCount) but its own Example 1 (1-D indices,
    // IndexDimensions 1) needs DimensionCount itself, as DirectMLX allows.
    if (desc.IndexDimensions > idx.rank) {
        return invalid_arg(format("%s: IndexDimensions %u is out of range; it must not exceed the DimensionCount %u "
                                  "of tensor 'IndicesTensor'.",
                                  op, desc.IndexDimensions, idx.rank));
    }
    for (uint32_t d = 0; d < idx.rank - desc.IndexDimensions; ++d) {
        if (idx.sizes[d] != 1) {
            return invalid_arg(format("%s: tensor 'IndicesTensor' has Sizes[%u] = %u; dimensions before the last "
                                      "IndexDimensions (%u) must be 1.",
                                      op, d, idx.sizes[d], desc.IndexDimensions));
        }
    }
    auto gather = make_operator<GatherOperator>(device);
    HDML_RETURN_IF_FAILED(gather->init(in, idx, out, desc.Axis, desc.IndexDimensions));
    *result = std::move(gather);
    return S_OK;
}

}  // namespace hdml
