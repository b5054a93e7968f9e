#include "runtime/reducing_operator.h"

#include "runtime/checked.h"
#include "runtime/error.h"
#include "runtime/device_scratch.h"
#include "runtime/halide_glue.h"
#include "runtime/launch.h"

#include <vector>

namespace hdml {

namespace {

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

HRESULT ReducingOperator::choose_kernels(Family family, const KernelParams &function, ReduceShape planned,
                                         const std::string &what) {
    const Tensor &in = inputs[0];
    if (planned.too_long) {
        return invalid_arg(format("%s reduces %lld elements per output; hdml's kernels take at most 2^31-1.",
                                  what.c_str(), (long long)in.element_count()));
    }
    ReduceQuery query;
    query.shape = std::move(planned);
    query.limits = &device.thresholds;
    query.in_bytes = element_size(in.type);
    query.out_bytes = arg_ ? 4 : element_size(outputs[0].type);
    query.arg = arg_;
    query.element_map = reduce_args_.element_map;
    HDML_RETURN_IF_FAILED(choose_reduce_kernel(device, family, function, query, what, &choice_));
    std::string kernels = choice_.kernel->name;
    if (choice_.shape.packed) {
        // The input copied contiguously in pack_order (reduced dims innermost).
        pack_shape_ = plan_copy(choice_.shape.packing_dims(in), copy_run_row(device.thresholds, element_size(in.type)));
        HDML_RETURN_IF_FAILED(
            require_kernel(device, Family::copy, KernelParams{}.with(uint_dtype(element_size(in.type))), what, &pack_kernel_));
        kernels = std::string(pack_kernel_->name) + " " + kernels;
    }
    if (choice_.aligned_kernel) kernels += std::string(" ") + choice_.aligned_kernel->name;
    kernel_names = kernels;
    const std::string aligned = choice_.aligned_kernel ? format(" (%s where the input is %lld-byte aligned%s)",
                                                                choice_.aligned_kernel->name,
                                                                (long long)choice_.aligned_bytes,
                                                                choice_.words_along_columns ? ", columns in 32-bit words"
                                                                : choice_.aligned_words > 1 ? ", in 32-bit words" : "")
                                                       : "";
    const std::string packing = pack_kernel_ ? format(" after packing by %s", pack_kernel_->name) : "";
    log_verbose(format("%s: kernel %s%s%s, variant '%s'; %s", what.c_str(), choice_.kernel->name, aligned.c_str(),
                       packing.c_str(), choice_.variant.c_str(), choice_.shape.describe().c_str()));
    if (!choice_.passed_over.empty()) log_verbose(format("%s: passed over: %s", what.c_str(), choice_.passed_over.c_str()));
    return S_OK;
}

HRESULT ReducingOperator::init_reduce(const Tensor &input, const Tensor &output, uint32_t mask, param::op op,
                                      ReduceArgs args, const std::string &what) {
    inputs = {input};
    outputs = {output};
    arg_ = false;
    reduce_args_ = args;
    return choose_kernels(Family::reduce, KernelParams{}.with(kernel_dtype(input.type)).with(op),
                          plan_reduce(input, output, mask, /*reorder_reduced=*/true, 1), what);
}

HRESULT ReducingOperator::init_arg_reduce(const Tensor &input, const Tensor &output, uint32_t mask,
                                          ArgReduceArgs args, const std::string &what) {
    inputs = {input};
    outputs = {output};
    arg_ = true;
    arg_args_ = args;
    // The kernel writes uint32 words: a 64-bit index is two, the high one 0.
    index_words_ = is_wide(output.type) ? 2 : 1;
    return choose_kernels(Family::arg_reduce, KernelParams{}.with(kernel_dtype(input.type)),
                          plan_reduce(input, output, mask, /*reorder_reduced=*/false, index_words_), what);
}

HRESULT ReducingOperator::call_kernel(const uint8_t *input, uint8_t *output) {
    const Tensor &in = inputs[0];
    const Tensor &out = outputs[0];
    const ReduceShape &shape = choice_.shape;
    const int64_t in_size = element_size(in.type);
    const int64_t out_size = arg_ ? 4 : element_size(out.type);
    const halide_type_t out_type = arg_ ? halide_type_t(halide_type_uint, 32) : halide_type_of_dml(out.type);
    return for_each_offset(shape.loops, [&](const Offsets &at) {
        uint8_t *in_at = const_cast<uint8_t *>(input) + must_mul(at.in, in_size);
        const bool aligned =
            choice_.aligned_kernel && reinterpret_cast<uintptr_t>(in_at) % choice_.aligned_bytes == 0;
        const KernelEntry *kernel = aligned ? choice_.aligned_kernel : choice_.kernel;
        // A loads=words twin reads the rows' 32-bit words, `words` elements
        // each (the rows unit-stride and whole words: reduce_variants.cpp's
        // on_vectors); a loads=column_words twin the columns' (on_column_words).
        const int64_t words = aligned ? choice_.aligned_words : 1;
        const bool column_words = aligned && choice_.words_along_columns;
        const int64_t row_words = column_words ? 1 : words, column_pairs = column_words ? words : 1;
        const halide_type_t in_type = words > 1 ? halide_type_t(halide_type_uint, 32) : halide_type_of_dml(in.type);
        // The vector kernel asserts every stride a multiple of its lanes (reduce_variants.cpp's on_vectors).
        auto in_stride = [&](const Dim &d) { return (int32_t)(aligned && d.extent == 1 ? 0 : d.in_stride / words); };
        KernelBuffer<3> in_buf(in_at, in_type, device);
        in_buf.set_dim(0, (int32_t)(shape.i.extent / column_pairs), column_pairs > 1 ? 1 : in_stride(shape.i));
        in_buf.set_dim(1, (int32_t)(shape.r.extent / row_words), row_words > 1 ? 1 : in_stride(shape.r));
        in_buf.set_dim(2, (int32_t)shape.o.extent, in_stride(shape.o));
        uint8_t *out_at = output + must_mul(at.out, out_size);
        KernelCall call(device);
        int rc;
        if (arg_) {
            KernelBuffer<3> out_buf(out_at, out_type, device);  // (word, i, o)
            out_buf.set_dim(0, (int32_t)index_words_, 1);
            out_buf.set_dim(1, (int32_t)shape.i.extent, (int32_t)shape.i.out_stride);
            out_buf.set_dim(2, (int32_t)shape.o.extent, (int32_t)shape.o.out_stride);
            rc = kernel_fn<arg_reduce_fn>(kernel)(&call, &in_buf.buf, arg_args_.find_min, arg_args_.last_index,
                                                   &out_buf.buf);
        } else {
            KernelBuffer<2> out_buf(out_at, out_type, device);
            out_buf.set_dim(0, (int32_t)shape.i.extent, (int32_t)shape.i.out_stride);
            out_buf.set_dim(1, (int32_t)shape.o.extent, (int32_t)shape.o.out_stride);
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
    DeviceScratch device_packed;
    if (choice_.shape.packed) {
        const uint32_t esize = element_size(in.type);
        const size_t bytes = must_mul<uint64_t>(in.element_count(), esize);
        uint8_t *packed;
        if (on_gpu(device)) {
            HDML_RETURN_IF_FAILED(device_packed.allocate(device, bytes));
            packed = device_packed.data();
        } else {
            host_packed.resize(bytes);
            packed = host_packed.data();
        }
        HDML_RETURN_IF_FAILED(run_copy(device, pack_kernel_, pack_shape_, input, packed, esize));
        input = packed;
    }
    return call_kernel(input, output);
}

}  // namespace hdml
