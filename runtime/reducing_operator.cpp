#include "runtime/reducing_operator.h"

#include "runtime/error.h"
#include "runtime/cuda_device.h"
#include "runtime/halide_glue.h"
#include "runtime/strided_copy.h"

#include <vector>

namespace hdml {

namespace {

// Calls fn(offset) for every element offset of an N-D index space.
template <typename Fn>
void for_each_offset(const std::vector<int64_t> &extents, const std::vector<int64_t> &strides, Fn fn) {
    std::vector<int64_t> index(extents.size(), 0);
    int64_t offset = 0;
    while (true) {
        fn(offset);
        size_t d = extents.size();
        while (d-- > 0) {
            if (++index[d] < extents[d]) {
                offset += strides[d];
                break;
            }
            offset -= strides[d] * (extents[d] - 1);
            index[d] = 0;
        }
        if (d == (size_t)-1) return;
    }
}

bool is_wide(DML_TENSOR_DATA_TYPE t) {
    return t == DML_TENSOR_DATA_TYPE_INT64 || t == DML_TENSOR_DATA_TYPE_UINT64;
}

}  // namespace

const DML_TENSOR_DATA_TYPE kArgReduceInputTypes[] = {
    DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_INT64,
    DML_TENSOR_DATA_TYPE_INT32,   DML_TENSOR_DATA_TYPE_INT16,   DML_TENSOR_DATA_TYPE_INT8,
    DML_TENSOR_DATA_TYPE_UINT64,  DML_TENSOR_DATA_TYPE_UINT32,  DML_TENSOR_DATA_TYPE_UINT16,
    DML_TENSOR_DATA_TYPE_UINT8,   DML_TENSOR_DATA_TYPE_UNKNOWN};

// Rules shared with ARGMAX/ARGMIN: ranks match, axes valid and unique, output
// sizes 1 on reduced axes and equal elsewhere. Sets *mask to the reduced axes.
HRESULT validate_reduction_axes(const Tensor &in, const Tensor &out, uint32_t axis_count, const uint32_t *axes,
                                const char *op, uint32_t *mask) {
    HDML_RETURN_IF_FAILED(require_same_rank(in, out));
    if (axis_count == 0) return invalid_arg(format("%s: AxisCount is 0; at least one axis must be reduced.", op));
    if (axis_count > in.rank) {
        return invalid_arg(format("%s: AxisCount %u exceeds the DimensionCount %u of tensor '%s'.", op, axis_count,
                                  in.rank, in.name.c_str()));
    }
    if (!axes) return invalid_arg(format("%s: Axes is null but AxisCount is %u.", op, axis_count));
    *mask = 0;
    for (uint32_t k = 0; k < axis_count; ++k) {
        if (axes[k] >= in.rank) {
            return invalid_arg(format("%s: Axes[%u] = %u is out of range; axes must be in [0, %u] (DimensionCount of "
                                      "tensor '%s' minus 1).",
                                      op, k, axes[k], in.rank - 1, in.name.c_str()));
        }
        if ((*mask >> axes[k]) & 1) {
            return invalid_arg(format("%s: Axes[%u] = %u appears more than once; axes must be unique.", op, k, axes[k]));
        }
        *mask |= 1u << axes[k];
    }
    for (uint32_t d = 0; d < in.rank; ++d) {
        const bool reduced = (*mask >> d) & 1;
        const uint32_t expected = reduced ? 1 : in.sizes[d];
        if (out.sizes[d] != expected) {
            return invalid_arg(format("%s: tensor '%s' has Sizes[%u] = %u but %u is required (%s).", op,
                                      out.name.c_str(), d, out.sizes[d], expected,
                                      reduced ? "reduced axes have size 1"
                                              : "kept axes match the input tensor's size"));
        }
    }
    return S_OK;
}

HRESULT ReducingOperator::plan_packing(const std::string &what) {
    if (!shape_.packed) return S_OK;
    // The input copied contiguously in pack_order (reduced dims innermost).
    const Tensor &in = inputs[0];
    pack_strides_.sizes.resize(in.rank);
    pack_strides_.dst.resize(in.rank);
    pack_strides_.src.resize(in.rank);
    std::vector<CopyDim> dims(in.rank);
    int64_t stride = 1;
    for (uint32_t k = in.rank; k-- > 0;) {
        const uint32_t d = shape_.pack_order[k];
        pack_strides_.sizes[k] = in.sizes[d];
        pack_strides_.src[k] = in.strides[d];
        pack_strides_.dst[k] = stride;
        dims[k] = CopyDim{in.sizes[d], in.strides[d], stride};
        stride *= in.sizes[d];
    }
    if (!on_cuda(device)) return S_OK;
    pack_plan_ = plan_copy(dims);
    const std::string key = format("dtype=uint%u", element_size(in.type) * 8);
    pack_kernel_ = find_kernel(device, "copy", key);
    if (!pack_kernel_) {
        return invalid_arg(format("%s: no %s kernel 'copy' (%s) was built into this hdml.", what.c_str(),
                                  kernel_platform(device), key.c_str()));
    }
    return S_OK;
}

HRESULT ReducingOperator::choose_kernel(const char *family, const std::string &key, const std::string &what) {
    HDML_RETURN_IF_FAILED(plan_packing(what));
    if (shape_.r.extent < 0) {
        return invalid_arg(format("%s reduces %lld elements per output; hdml's kernels take at most 2^31-1.",
                                  what.c_str(), (long long)inputs[0].element_count()));
    }
    kernel_ = find_kernel(device, family, key);
    if (!kernel_) {
        return invalid_arg(format("%s: no %s kernel '%s' (%s) was built into this hdml.", what.c_str(),
                                  kernel_platform(device), family, key.c_str()));
    }
    log_verbose(format("%s: kernel %s; %s", what.c_str(), kernel_->name, shape_.describe().c_str()));
    return S_OK;
}

HRESULT ReducingOperator::init_reduce(const Tensor &input, const Tensor &output, uint32_t mask, const char *op,
                                      ReduceArgs args, const std::string &what) {
    inputs = {input};
    outputs = {output};
    arg_ = false;
    reduce_args_ = args;
    shape_ = plan_reduce(input, output, mask, /*reorder_reduced=*/true, 1);
    const std::string key = format("dtype=%s layout=%s op=%s", kernel_type_name(input.type),
                                   shape_.outer_layout ? "outer" : "inner", op);
    return choose_kernel("reduce", key, what);
}

HRESULT ReducingOperator::init_arg_reduce(const Tensor &input, const Tensor &output, uint32_t mask,
                                          ArgReduceArgs args, const std::string &what) {
    inputs = {input};
    outputs = {output};
    arg_ = true;
    arg_args_ = args;
    wide_indices_ = is_wide(output.type);
    shape_ = plan_reduce(input, output, mask, /*reorder_reduced=*/false, wide_indices_ ? 2 : 1);
    const std::string key =
        format("dtype=%s layout=%s", kernel_type_name(input.type), shape_.outer_layout ? "outer" : "inner");
    return choose_kernel("arg_reduce", key, what);
}

HRESULT ReducingOperator::call_kernel(const uint8_t *input, uint8_t *output) {
    const Tensor &in = inputs[0];
    const Tensor &out = outputs[0];
    const int64_t in_size = element_size(in.type);
    const int64_t out_size = arg_ ? 4 : element_size(out.type);
    std::vector<int64_t> extents, in_strides, out_strides;
    for (const ReduceDim &d : shape_.loops) {
        extents.push_back(d.extent);
        in_strides.push_back(d.in_stride);
        out_strides.push_back(d.out_stride);
    }
    // Loop dims are iterated with one offset per tensor: pack them side by side.
    std::vector<int64_t> offsets_in, offsets_out;
    for_each_offset(extents, in_strides, [&](int64_t off) { offsets_in.push_back(off); });
    for_each_offset(extents, out_strides, [&](int64_t off) { offsets_out.push_back(off); });

    const halide_type_t in_type = halide_type_of_dml(in.type);
    const halide_type_t out_type = arg_ ? halide_type_t(halide_type_uint, 32) : halide_type_of_dml(out.type);
    for (size_t k = 0; k < offsets_in.size(); ++k) {
        KernelBuffer<3> in_buf(const_cast<uint8_t *>(input) + offsets_in[k] * in_size, in_type, device);
        in_buf.set_dim(0, (int32_t)shape_.i.extent, (int32_t)shape_.i.in_stride);
        in_buf.set_dim(1, (int32_t)shape_.r.extent, (int32_t)shape_.r.in_stride);
        in_buf.set_dim(2, (int32_t)shape_.o.extent, (int32_t)shape_.o.in_stride);
        KernelBuffer<2> out_buf(output + offsets_out[k] * out_size, out_type, device);
        out_buf.set_dim(0, (int32_t)shape_.i.extent, (int32_t)shape_.i.out_stride);
        out_buf.set_dim(1, (int32_t)shape_.o.extent, (int32_t)shape_.o.out_stride);
        KernelCall call(device);
        int rc;
        if (arg_) {
            rc = kernel_fn<arg_reduce_fn>(kernel_)(&call, &in_buf.buf, arg_args_.find_min, arg_args_.last_index,
                                                   &out_buf.buf);
        } else {
            rc = kernel_fn<reduce_fn>(kernel_)(&call, &in_buf.buf, reduce_args_.element_map, reduce_args_.finish,
                                               &out_buf.buf);
        }
        HDML_RETURN_IF_FAILED(check_kernel(rc, call, kernel_->name));
    }
    return S_OK;
}

HRESULT ReducingOperator::run(const void *const *in_ptrs, void *const *out_ptrs) {
    const Tensor &in = inputs[0];
    const Tensor &out = outputs[0];
    const auto *input = static_cast<const uint8_t *>(in_ptrs[0]);
    auto *output = static_cast<uint8_t *>(out_ptrs[0]);

    std::vector<uint8_t> packed;
    CudaScratch device_packed;
    if (shape_.packed) {
        const uint32_t esize = element_size(in.type);
        if (on_cuda(device)) {
            HDML_RETURN_IF_FAILED(device_packed.allocate(device, in.element_count() * esize));
            HDML_RETURN_IF_FAILED(run_copy(device, pack_kernel_, pack_plan_, input, device_packed.data(), esize));
            input = device_packed.data();
        } else {
            packed.resize(in.element_count() * esize);
            strided_copy(packed.data(), pack_strides_.dst.data(), input, pack_strides_.src.data(),
                         pack_strides_.sizes.data(), in.rank, esize);
            input = packed.data();
        }
    }
    HDML_RETURN_IF_FAILED(call_kernel(input, output));

    if (wide_indices_) {
        // The kernel wrote each index into the low 32 bits; clear the high halves.
        std::vector<int64_t> extents(out.sizes.begin(), out.sizes.begin() + out.rank);
        std::vector<int64_t> strides(out.strides.begin(), out.strides.begin() + out.rank);
        if (on_cuda(device)) return cuda_clear_words(device, output, 4, extents, strides);
        auto *words = reinterpret_cast<uint32_t *>(output);
        for_each_offset(extents, strides, [&](int64_t off) { words[2 * off + 1] = 0; });
    }
    return S_OK;
}

}  // namespace hdml
