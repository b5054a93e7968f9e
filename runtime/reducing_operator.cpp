#include "runtime/reducing_operator.h"

#include "runtime/checked.h"
#include "runtime/error.h"
#include "runtime/cuda_device.h"
#include "runtime/halide_glue.h"

#include <vector>

namespace hdml {

namespace {

bool is_wide(DML_TENSOR_DATA_TYPE t) {
    return t == DML_TENSOR_DATA_TYPE_INT64 || t == DML_TENSOR_DATA_TYPE_UINT64;
}

// The vector loads of ops.cmake's vector_bytes kernels: 16 bytes, PTX's widest.
constexpr int64_t kVectorBytes = 16;

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
    // The input copied contiguously in pack_order (reduced dims innermost), by
    // the copy kernel of the device.
    const Tensor &in = inputs[0];
    std::vector<CopyDim> dims(in.rank);
    int64_t stride = 1;
    for (uint32_t k = in.rank; k-- > 0;) {
        const uint32_t d = shape_.pack_order[k];
        dims[k] = CopyDim{in.sizes[d], in.strides[d], stride};
        stride = must_mul<int64_t>(stride, in.sizes[d]);
    }
    pack_plan_ = plan_copy(dims);
    return require_kernel(device, "copy", format("dtype=uint%u", element_size(in.type) * 8), what, &pack_kernel_);
}

std::string ReducingOperator::kernel_key(const std::string &params, const char *variant) const {
    const std::string key = key_with_param(params, shape_.outer_layout ? "layout=outer" : "layout=inner");
    return variant ? key_with_param(key, variant) : key;
}

const KernelEntry *ReducingOperator::choose_cuda_variant(const char *family, const std::string &params) {
#if HDML_HAVE_CUDA
    // Short rows: a few lanes per row, where ops.cmake built that variant for
    // the function.
    if (use_row_lanes(shape_, HDML_CUDA_REDUCE_ROW_LANES_MIN_ROW, HDML_CUDA_REDUCE_ROW_LANES_MAX_ROW,
                      HDML_CUDA_REDUCE_ROW_LANES_MIN_ROWS)) {
        const std::string lanes_key = kernel_key(params, "rows=lanes");
        if (const KernelEntry *lanes = find_shuffles_kernel(family, lanes_key)) return lanes;
        if (const KernelEntry *lanes = find_kernel(device, family, lanes_key)) return lanes;
    }
    // Very short rows, and short ones without a lanes kernel: a thread per
    // row, the rows becoming the outer kernel's columns; many columns (or
    // rows) take its whole-columns variant, few columns its warp-merge
    // variant, where built.
    use_thread_per_row(&shape_, HDML_CUDA_REDUCE_THREAD_PER_ROW_MAX, HDML_CUDA_REDUCE_THREAD_PER_ROW_MIN_ROWS);
    if (use_whole_columns(shape_, HDML_CUDA_REDUCE_WHOLE_COLUMNS_MIN_OUTPUTS)) {
        const std::string whole = kernel_key(params, "columns=whole");
        vector_kernel_ = find_vector_kernel(family, whole);
        return find_kernel(device, family, whole);
    }
    if (use_warp_merge(shape_, HDML_CUDA_REDUCE_WARP_MERGE_MAX_OUTPUTS)) {
        return find_kernel(device, family, kernel_key(params, "columns=warp_merge"));
    }
    // Other inner rows: the plain (split) kernel, its lanes merging in shuffles where built.
    if (!shape_.outer_layout) return find_shuffles_kernel(family, kernel_key(params, nullptr));
#else
    (void)family, (void)params;
#endif
    return nullptr;
}

const KernelEntry *ReducingOperator::find_shuffles_kernel(const char *family, const std::string &key) const {
    // ARGMAX/ARGMIN have none: their 64-bit keys do not shuffle.
    if (arg_ || !fits_small_buffers(shape_, element_size(inputs[0].type), element_size(outputs[0].type))) {
        return nullptr;
    }
    return find_kernel(device, family, key_with_param(key, "lane_merge=shuffles"));
}

const KernelEntry *ReducingOperator::find_vector_kernel(const char *family, const std::string &whole_key) const {
    const int64_t lanes = kVectorBytes / element_size(inputs[0].type);
    // Every row starts on a vector: dims of one element have no stride to
    // speak of (call_kernel passes 0 for them).
    auto on_vectors = [&](const ReduceDim &d) { return d.extent == 1 || d.in_stride % lanes == 0; };
    if (lanes < 2 || shape_.r.in_stride != 1 || shape_.r.extent % lanes != 0 || !on_vectors(shape_.i) ||
        !on_vectors(shape_.o)) {
        return nullptr;
    }
    return find_kernel(device, family, key_with_param(whole_key, format("vector_bytes=%lld", (long long)kVectorBytes)));
}

HRESULT ReducingOperator::choose_kernel(const char *family, const std::string &params, const std::string &what) {
    kernel_ = on_cuda(device) ? choose_cuda_variant(family, params) : nullptr;
    HDML_RETURN_IF_FAILED(plan_packing(what));
    if (shape_.r.extent < 0) {
        return invalid_arg(format("%s reduces %lld elements per output; hdml's kernels take at most 2^31-1.",
                                  what.c_str(), (long long)inputs[0].element_count()));
    }
    // No variant for the shape: the plain kernel of its layout, which serves every shape.
    if (!kernel_) HDML_RETURN_IF_FAILED(require_kernel(device, family, kernel_key(params, nullptr), what, &kernel_));
    const std::string vector =
        vector_kernel_ ? format(" (%s where the input is %lld-byte aligned)", vector_kernel_->name, (long long)kVectorBytes)
                       : "";
    log_verbose(format("%s: kernel %s%s; %s", what.c_str(), kernel_->name, vector.c_str(), shape_.describe().c_str()));
    return S_OK;
}

HRESULT ReducingOperator::init_reduce(const Tensor &input, const Tensor &output, uint32_t mask, const char *op,
                                      ReduceArgs args, const std::string &what) {
    inputs = {input};
    outputs = {output};
    arg_ = false;
    reduce_args_ = args;
    shape_ = plan_reduce(input, output, mask, /*reorder_reduced=*/true, 1);
    return choose_kernel("reduce", format("dtype=%s op=%s", kernel_type_name(input.type), op), what);
}

HRESULT ReducingOperator::init_arg_reduce(const Tensor &input, const Tensor &output, uint32_t mask,
                                          ArgReduceArgs args, const std::string &what) {
    inputs = {input};
    outputs = {output};
    arg_ = true;
    arg_args_ = args;
    // The kernel writes uint32 words: a 64-bit index is two, the high one 0.
    index_words_ = is_wide(output.type) ? 2 : 1;
    shape_ = plan_reduce(input, output, mask, /*reorder_reduced=*/false, index_words_);
    return choose_kernel("arg_reduce", format("dtype=%s", kernel_type_name(input.type)), what);
}

HRESULT ReducingOperator::call_kernel(const uint8_t *input, uint8_t *output) {
    const Tensor &in = inputs[0];
    const Tensor &out = outputs[0];
    const int64_t in_size = element_size(in.type);
    const int64_t out_size = arg_ ? 4 : element_size(out.type);
    std::vector<CopyDim> loops;
    for (const ReduceDim &d : shape_.loops) loops.push_back(CopyDim{d.extent, d.in_stride, d.out_stride});
    const halide_type_t in_type = halide_type_of_dml(in.type);
    const halide_type_t out_type = arg_ ? halide_type_t(halide_type_uint, 32) : halide_type_of_dml(out.type);
    return for_each_loop_offset(loops, [&](int64_t in_off, int64_t out_off) {
        uint8_t *in_at = const_cast<uint8_t *>(input) + must_mul(in_off, in_size);
        const bool vector = vector_kernel_ && reinterpret_cast<uintptr_t>(in_at) % kVectorBytes == 0;
        const KernelEntry *kernel = vector ? vector_kernel_ : kernel_;
        // The vector kernel asserts every stride a multiple of its lanes (find_vector_kernel).
        auto in_stride = [&](const ReduceDim &d) { return (int32_t)(vector && d.extent == 1 ? 0 : d.in_stride); };
        KernelBuffer<3> in_buf(in_at, in_type, device);
        in_buf.set_dim(0, (int32_t)shape_.i.extent, in_stride(shape_.i));
        in_buf.set_dim(1, (int32_t)shape_.r.extent, in_stride(shape_.r));
        in_buf.set_dim(2, (int32_t)shape_.o.extent, in_stride(shape_.o));
        uint8_t *out_at = output + must_mul(out_off, out_size);
        KernelCall call(device);
        int rc;
        if (arg_) {
            KernelBuffer<3> out_buf(out_at, out_type, device);  // (word, i, o)
            out_buf.set_dim(0, (int32_t)index_words_, 1);
            out_buf.set_dim(1, (int32_t)shape_.i.extent, (int32_t)shape_.i.out_stride);
            out_buf.set_dim(2, (int32_t)shape_.o.extent, (int32_t)shape_.o.out_stride);
            rc = kernel_fn<arg_reduce_fn>(kernel)(&call, &in_buf.buf, arg_args_.find_min, arg_args_.last_index,
                                                   &out_buf.buf);
        } else {
            KernelBuffer<2> out_buf(out_at, out_type, device);
            out_buf.set_dim(0, (int32_t)shape_.i.extent, (int32_t)shape_.i.out_stride);
            out_buf.set_dim(1, (int32_t)shape_.o.extent, (int32_t)shape_.o.out_stride);
            rc = kernel_fn<reduce_fn>(kernel)(&call, &in_buf.buf, reduce_args_.element_map, reduce_args_.finish,
                                               &out_buf.buf);
        }
        return check_kernel(rc, call, kernel->name);
    });
}

HRESULT ReducingOperator::run(const void *const *in_ptrs, void *const *out_ptrs) {
    const Tensor &in = inputs[0];
    const auto *input = static_cast<const uint8_t *>(in_ptrs[0]);
    auto *output = static_cast<uint8_t *>(out_ptrs[0]);

    std::vector<uint8_t> host_packed;
    CudaScratch device_packed;
    if (shape_.packed) {
        const uint32_t esize = element_size(in.type);
        const size_t bytes = must_mul<uint64_t>(in.element_count(), esize);
        uint8_t *packed;
        if (on_cuda(device)) {
            HDML_RETURN_IF_FAILED(device_packed.allocate(device, bytes));
            packed = device_packed.data();
        } else {
            host_packed.resize(bytes);
            packed = host_packed.data();
        }
        HDML_RETURN_IF_FAILED(run_copy(device, pack_kernel_, pack_plan_, input, packed, esize));
        input = packed;
    }
    return call_kernel(input, output);
}

}  // namespace hdml
