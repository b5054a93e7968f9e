// DML_OPERATOR_GATHER: output[pre, idx..., post] = input[pre, indices[idx...], post].
// Validation per DirectML, then the output's dims are canonicalised onto the
// gather kernel (runtime/shape/gather.h). Indices are normalised per call into int32 (negative ones count
// from the end for signed types; out-of-range ones clamp to the nearest valid
// index), so reads never leave the input: on the host for CPU devices, by the
// normalize_indices kernel into device scratch for GPU devices (DeviceScratch).
// Devices that move 64-bit elements as pairs of 32-bit words (D3D12) gather
// and read 64-bit indices so.
#include "runtime/checked.h"
#include "runtime/device_scratch.h"
#include "runtime/error.h"
#include "runtime/halide_glue.h"
#include "runtime/kernels.h"
#include "runtime/launch.h"
#include "runtime/operator.h"
#include "runtime/shape/copy.h"
#include "runtime/shape/gather.h"
#include "runtime/shape/limits.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>

namespace hdml {

namespace {

class GatherOperator : public hdml_operator {
public:
    HRESULT init(const Tensor &input, const Tensor &indices, const Tensor &output, uint32_t axis,
                 uint32_t index_dims);
    HRESULT run(const void *const *inputs, void *const *outputs) override;

private:
    void normalize_indices_on_host(const void *raw, std::vector<int32_t> *out) const;
    HRESULT normalize_indices_on_device(const void *raw, int32_t *out) const;

    uint32_t axis_ = 0, index_dims_ = 0;
    uint64_t index_count_ = 1;  // elements of the normalised indices
    uint32_t unit_ = 0;         // bytes of kernel_'s elements: the data's, or a word of a 64-bit element's pair
    GatherShape shape_;
    const KernelEntry *kernel_ = nullptr;
    // 8- and 16-bit rows of whole words: gathered as 32-bit words
    // (widen_elements) when input and output are word-aligned.
    std::optional<GatherShape> word_shape_;
    const KernelEntry *word_kernel_ = nullptr;
    // GPUs: the indices' dims (last index_dims of the tensor) onto the packed
    // int32 buffer; input strides in 32-bit words where 64-bit indices are read
    // as (low, high) pairs of them (index_words_).
    CopyShape normalize_shape_;
    const KernelEntry *normalize_kernel_ = nullptr;
    bool index_words_ = false;
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
    std::vector<Dim> dims;
    for (uint32_t d = 0; d < n; ++d) {
        Dim g;
        g.extent = out.sizes[d];
        g.out_stride = out.strides[d];
        if (expected[d].kind == 1) {
            g.role = Role::index;
            g.idx_stride = packed_idx[expected[d].dim];
        } else {
            g.in_stride = in.strides[expected[d].dim];
        }
        dims.push_back(g);
    }
    const uint32_t esize = element_size(in.type);
    unit_ = esize == 8 && device.moves_64bit_in_words ? kWordBytes : esize;
    shape_ = plan_gather(unit_ < esize ? split_elements(dims, esize / unit_) : dims);
    std::vector<Dim> words;
    if (esize < kWordBytes && in.strides[axis] % (kWordBytes / esize) == 0 &&
        widen_elements(dims, kWordBytes / esize, &words)) {
        const GatherShape wide = plan_gather(words);
        // Rows of words only: elements gathered along the innermost axis stay elements.
        if (wide.x.extent > 1 && wide.x.out_stride == 1) word_shape_ = wide;
    }

    const uint64_t axis_stride_in_units = (uint64_t)in.strides[axis] * (esize / unit_);
    if (in.sizes[axis] > kMaxKernelExtent || axis_stride_in_units > kMaxKernelExtent) {
        return invalid_arg(format("DML_OPERATOR_GATHER: tensor 'InputTensor' has Sizes[%u] = %u with stride %u%s; "
                                  "hdml's gather kernels take at most 2^31-1 for both.",
                                  axis, in.sizes[axis], in.strides[axis],
                                  unit_ < esize ? " (twice that in the 32-bit words this device moves)" : ""));
    }
    const char *op = "DML_OPERATOR_GATHER";
    HDML_RETURN_IF_FAILED(require_kernel(device, Family::gather, KernelParams{}.with(uint_dtype(unit_)), op, &kernel_));
    kernel_names = kernel_->name;
    if (word_shape_) {
        HDML_RETURN_IF_FAILED(
            require_kernel(device, Family::gather, KernelParams{}.with(uint_dtype(kWordBytes)), op, &word_kernel_));
        kernel_names += std::string(" ") + word_kernel_->name;
    }
    if (on_gpu(device)) {
        index_words_ = element_size(idx.type) == 8 && device.moves_64bit_in_words;
        std::vector<Dim> idx_dims;
        for (uint32_t d = n - index_dims; d < n; ++d) {
            Dim k;
            k.extent = idx.sizes[d];
            k.in_stride = must_mul<int64_t>(idx.strides[d], index_words_ ? 2 : 1);
            k.out_stride = packed_idx[d];
            idx_dims.push_back(k);
        }
        normalize_shape_ = plan_copy(idx_dims);
        KernelParams normalize = KernelParams{}.with(kernel_itype(idx.type));
        if (index_words_) normalize = normalize.with(param::loads::words);
        HDML_RETURN_IF_FAILED(require_kernel(device, Family::normalize_indices, normalize, op, &normalize_kernel_));
        kernel_names = std::string(normalize_kernel_->name) + " " + kernel_names;
    }
    log_verbose(format("%s: kernel %s; %s, axis{%u x %u}%s", op, kernel_names.c_str(), shape_.describe().c_str(),
                       in.sizes[axis], in.strides[axis],
                       word_shape_     ? "; in 32-bit words where aligned"
                       : unit_ < esize ? "; 64-bit elements as pairs of 32-bit words"
                                       : ""));
    return S_OK;
}

void GatherOperator::normalize_indices_on_host(const void *raw, std::vector<int32_t> *out) const {
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

HRESULT GatherOperator::normalize_indices_on_device(const void *raw, int32_t *out) const {
    const int32_t extent = (int32_t)inputs[0].sizes[axis_];
    const CopyShape &s = normalize_shape_;
    const auto normalize = kernel_fn<normalize_indices_fn>(normalize_kernel_);
    auto launch = [&](KernelCall *call, halide_buffer_t *in, halide_buffer_t *normalized) {
        return normalize(call, in, extent, normalized);
    };
    // 64-bit indices as (low, high) words: the input's dim 0 is the pair (strides in words).
    const halide_type_t in_type =
        index_words_ ? halide_type_t(halide_type_uint, 32) : halide_type_of_dml(inputs[1].type);
    return run_xyz(device, s.x, s.y, s.z, s.loops, raw, in_type, out, halide_type_t(halide_type_int, 32),
                   normalize_kernel_->name, launch, index_words_ ? 2 : 1);
}

HRESULT GatherOperator::run(const void *const *in_ptrs, void *const *out_ptrs) {
    const Tensor &in = inputs[0];
    std::vector<int32_t> host_indices;
    DeviceScratch device_indices;
    int32_t *indices;
    if (on_gpu(device)) {
        HDML_RETURN_IF_FAILED(device_indices.allocate(device, index_count_ * sizeof(int32_t)));
        indices = reinterpret_cast<int32_t *>(device_indices.data());
        HDML_RETURN_IF_FAILED(normalize_indices_on_device(in_ptrs[1], indices));
    } else {
        normalize_indices_on_host(in_ptrs[1], &host_indices);
        indices = host_indices.data();
    }
    const bool in_words = word_shape_ && aligned_to(kWordBytes, in_ptrs[0], out_ptrs[0]);
    const GatherShape &s = in_words ? *word_shape_ : shape_;
    const KernelEntry *kernel = in_words ? word_kernel_ : kernel_;
    const int64_t esize = in_words ? kWordBytes : unit_;  // bytes of the kernel's elements
    const int64_t data_size = element_size(in.type);
    // The gathered axis' stride in the kernel's elements (init checked it fits).
    const auto axis_stride = (int32_t)(esize >= data_size ? in.strides[axis_] / (esize / data_size)
                                                          : in.strides[axis_] * (data_size / esize));
    const halide_type_t type(halide_type_uint, (uint8_t)(esize * 8));
    const auto *input = static_cast<const uint8_t *>(in_ptrs[0]);
    auto *output = static_cast<uint8_t *>(out_ptrs[0]);
    return for_each_offset(s.loops, [&](const Offsets &at) {
        KernelBuffer<3> in_buf(const_cast<uint8_t *>(input) + must_mul(at.in, esize), type, device);
        in_buf.set_dim(0, (int32_t)s.x.extent, (int32_t)s.x.in_stride);
        in_buf.set_dim(1, (int32_t)in.sizes[axis_], axis_stride);
        in_buf.set_dim(2, (int32_t)s.y.extent, (int32_t)s.y.in_stride);
        KernelBuffer<1> idx_buf(indices + at.idx, halide_type_t(halide_type_int, 32), device);
        idx_buf.set_dim(0, (int32_t)s.j.extent, (int32_t)s.j.idx_stride);
        KernelBuffer<3> out_buf(output + must_mul(at.out, esize), type, device);
        out_buf.set_dim(0, (int32_t)s.x.extent, (int32_t)s.x.out_stride);
        out_buf.set_dim(1, (int32_t)s.j.extent, (int32_t)s.j.out_stride);
        out_buf.set_dim(2, (int32_t)s.y.extent, (int32_t)s.y.out_stride);
        KernelCall call(device);
        const int rc = kernel_fn<gather_fn>(kernel)(&call, &in_buf.buf, &idx_buf.buf, &out_buf.buf);
        return check_kernel(rc, call, kernel->name);
    });
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
