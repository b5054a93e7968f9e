// DML_OPERATOR_CUMULATIVE_SUMMATION and DML_OPERATOR_CUMULATIVE_PRODUCT:
// validation per DirectML, then one scan kernel per op, type and layout over
// the canonical shape (runtime/shape/scan.h), chosen by
// runtime/variants/scan_variants.h. In-place execution (output at the input's
// address, same strides) is supported: the kernels finish the totals of a
// line before writing it, and where a walk cannot (exclusive, in place; the
// float16 carry row, in place) the operator calls the kernel the walk stands in for.
#include "runtime/checked.h"
#include "runtime/error.h"
#include "runtime/halide_glue.h"
#include "runtime/host_scratch.h"
#include "runtime/kernels.h"
#include "runtime/launch.h"
#include "runtime/operator.h"
#include "runtime/shape/scan.h"
#include "runtime/thread_pool.h"
#include "runtime/variants/scan_variants.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

namespace hdml {

namespace {

constexpr DML_TENSOR_DATA_TYPE kTypes[] = {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT16,
                                           DML_TENSOR_DATA_TYPE_INT64,   DML_TENSOR_DATA_TYPE_INT32,
                                           DML_TENSOR_DATA_TYPE_UINT64,  DML_TENSOR_DATA_TYPE_UINT32,
                                           DML_TENSOR_DATA_TYPE_UNKNOWN};
class ScanOperator : public hdml_operator {
public:
    HRESULT init(const Tensor &in, const Tensor &out, uint32_t axis, bool reverse, bool exclusive, param::op op,
                 const char *name) {
        inputs = {in};
        outputs = {out};
        exclusive_ = exclusive;
        same_strides_ = std::equal(in.strides.begin(), in.strides.begin() + in.rank, out.strides.begin());
        ScanQuery query;
        query.shape = plan_scan(in, out, axis, reverse);
        if (query.shape.too_long) {
            return invalid_arg(format("%s: Axis %u has size %u or stride beyond hdml's kernel limit of 2^31-1.", name,
                                      axis, in.sizes[axis]));
        }
        query.limits = &device.thresholds;
        query.element_bytes = element_size(in.type);
        query.float16 = in.type == DML_TENSOR_DATA_TYPE_FLOAT16;
        if (device.type == HDML_DEVICE_TYPE_CPU) query.threads = thread_pool_threads();
        HDML_RETURN_IF_FAILED(
            choose_scan_kernel(device, KernelParams{}.with(kernel_dtype(in.type)).with(op), query, name, &choice_));
        shape_ = kernel_shape_ = query.shape;
        if (choice_.kernel->params.period && !interleaved_line(shape_, &kernel_shape_)) {
            return fail(E_FAIL, format("%s: internal error: variant '%s' took a shape that is not one line (%s).", name,
                                       choice_.variant.c_str(), shape_.describe().c_str()));
        }
        kernel_names = choice_.kernel->name;
        std::string kernels = choice_.kernel->name;
        if (choice_.in_place_exclusive) {
            kernel_names += std::string(" ") + choice_.in_place_exclusive->name;
            const bool carry_row = choice_.kernel->family == Family::scan_carry_row;
            kernels += std::string(carry_row ? " (in place: " : " (in place, exclusive: ") +
                       choice_.in_place_exclusive->name + ")";
        }
        log_verbose(format("%s: kernel %s, variant '%s'; %s", name, kernels.c_str(), choice_.variant.c_str(),
                           kernel_shape_.describe().c_str()));
        if (!choice_.passed_over.empty()) log_verbose(format("%s: passed over: %s", name, choice_.passed_over.c_str()));
        return S_OK;
    }

    // In place: element k of the output replaces element k of the input.
    bool may_alias(size_t, size_t) const override { return same_strides_; }

    HRESULT run(const void *const *in, void *const *out) override {
        const int64_t esize = element_size(inputs[0].type);
        const halide_type_t type = halide_type_of_dml(inputs[0].type);
        const auto *input = static_cast<const uint8_t *>(in[0]) + must_mul(shape_.base_in, esize);
        auto *output = static_cast<uint8_t *>(out[0]) + must_mul(shape_.base_out, esize);
        // A walk reads the element before each tile for an exclusive scan,
        // which in place it has overwritten. (In place is the one overlap
        // check_bindings lets through: the same address.) The float16 carry
        // row's walk does for inclusive scans too: Halide stores its Tuple's
        // elements one by one, each computed again, so the carry loads the row
        // after the scanned row's store; where LLVM keeps both loads (gathers,
        // masked vectors) it read the new sum (ScanCarryRow).
        const bool walk_reads_overwritten = exclusive_ || choice_.kernel->family == Family::scan_carry_row;
        const bool stand_in = walk_reads_overwritten && in[0] == out[0] && choice_.in_place_exclusive;
        const KernelEntry *kernel = stand_in ? choice_.in_place_exclusive : choice_.kernel;
        const ScanShape &shape = stand_in ? shape_ : kernel_shape_;
        if (kernel->family == Family::scan_carry_row) return run_carry_row(kernel, shape, input, output, type);
        return run_xyz(device, shape.i, shape.r, shape.o, shape.loops, input, type, output, type, kernel->name,
                       [&](KernelCall *call, halide_buffer_t *in_buf, halide_buffer_t *out_buf) {
                           return kernel_fn<scan_fn>(kernel)(call, in_buf, exclusive_ ? 1 : 0, out_buf);
                       });
    }

    // The float16 row walk: its float32 running totals in a row per (i, o) of
    // the kernel's call (uninitialised: the walk starts each from the
    // identity at row 0), bound with the r dim of stride 0, so each row
    // overwrites the last. Rows start on cache lines, as the tasks' blocks of
    // columns then do: tasks that share a line rewrite it at every row (false
    // sharing: at 16 Xeon threads 4096 columns ran 0.78x the chunk walk
    // unaligned, 1.07x aligned). The call goes in slabs of o whose totals take
    // at most scan_carry_row_slab_bytes (an o at least), one after another in
    // the operator's memory: a row per o of the whole call (32 MiB for
    // [512K, 16, 16]) left the caches and was faulted in at every execution.
    HRESULT run_carry_row(const KernelEntry *kernel, const ScanShape &shape, const uint8_t *input, uint8_t *output,
                          halide_type_t type) {
        constexpr int64_t kLine = 64 / sizeof(float);
        const int64_t whole_lines = (shape.i.extent + kLine - 1) / kLine * kLine;
        const int64_t row = whole_lines <= INT32_MAX ? whole_lines : shape.i.extent;  // (a stride is 32-bit)
        const int64_t row_bytes = must_mul<int64_t>(row, sizeof(float));
        const int64_t slab_bytes = device.thresholds.scan_carry_row_slab_bytes;
        const int64_t slab = slab_bytes > 0 ? std::clamp<int64_t>(slab_bytes / row_bytes, 1, shape.o.extent)
                                            : shape.o.extent;
        HostScratch::Lease totals;
        carry_rows_.lease((size_t)must_mul(row_bytes, slab), &totals);
        if (!totals.data()) {
            return fail(E_OUTOFMEMORY, format("%s: no memory for %lld float32 running totals.", kernel->name,
                                              (long long)must_mul(row, slab)));
        }
        auto *carry = reinterpret_cast<float *>(totals.data());
        auto run_slabs = [&](const Dim &o, const std::vector<Dim> &loops, int64_t first_o) {
            const int64_t in_at = must_mul(must_mul(first_o, shape.o.in_stride), (int64_t)type.bytes());
            const int64_t out_at = must_mul(must_mul(first_o, shape.o.out_stride), (int64_t)type.bytes());
            return run_xyz(device, shape.i, shape.r, o, loops, input + in_at, type, output + out_at, type, kernel->name,
                           [&](KernelCall *call, halide_buffer_t *in_buf, halide_buffer_t *out_buf) {
                               KernelBuffer<3> carry_buf(carry, halide_type_t(halide_type_float, 32), device);
                               carry_buf.set_dim(0, (int32_t)shape.i.extent, 1);
                               carry_buf.set_dim(1, (int32_t)shape.r.extent, 0);
                               carry_buf.set_dim(2, (int32_t)o.extent, (int32_t)row);
                               return kernel_fn<scan_carry_row_fn>(kernel)(call, in_buf, exclusive_ ? 1 : 0, out_buf,
                                                                           &carry_buf.buf);
                           });
        };
        // Whole slabs as one more loop of the call, then the rest of o.
        const int64_t whole = shape.o.extent / slab, rest = shape.o.extent % slab;
        Dim o = shape.o;
        o.extent = slab;
        std::vector<Dim> loops = shape.loops;
        Dim slabs;
        slabs.extent = whole;
        slabs.in_stride = must_mul(slab, shape.o.in_stride);
        slabs.out_stride = must_mul(slab, shape.o.out_stride);
        if (whole > 1) loops.push_back(slabs);
        HDML_RETURN_IF_FAILED(run_slabs(o, loops, 0));
        if (rest == 0) return S_OK;
        o.extent = rest;
        return run_slabs(o, shape.loops, whole * slab);
    }

private:
    bool exclusive_ = false, same_strides_ = false;
    ScanShape shape_, kernel_shape_;  // the planned shape; choice_.kernel's (a period walk's line)
    ScanChoice choice_;
    HostScratch carry_rows_;  // the float16 row walk's running totals
};

// Both descs: {InputTensor, OutputTensor, Axis, AxisDirection, HasExclusive*}.
HRESULT create_scan(const hdml_device &device, const DML_CUMULATIVE_SUMMATION_OPERATOR_DESC &desc, param::op op,
                    const char *name,
                    std::unique_ptr<hdml_operator> *result) {
    Tensor in, out;
    HDML_RETURN_IF_FAILED(read_tensor(desc.InputTensor, "InputTensor", &in));
    HDML_RETURN_IF_FAILED(read_tensor(desc.OutputTensor, "OutputTensor", &out));
    HDML_RETURN_IF_FAILED(require_same_type(in, out));
    HDML_RETURN_IF_FAILED(require_same_rank(in, out));
    for (uint32_t d = 0; d < in.rank; ++d) {
        if (in.sizes[d] != out.sizes[d]) {
            return invalid_arg(format("%s: tensor 'OutputTensor' has Sizes[%u] = %u but tensor 'InputTensor' has %u; "
                                      "both must have the same Sizes.",
                                      name, d, out.sizes[d], in.sizes[d]));
        }
    }
    HDML_RETURN_IF_FAILED(require_type_in(in, kTypes, name));
    if (desc.Axis >= in.rank) {
        return invalid_arg(format("%s: Axis %u is out of range; it must be less than the DimensionCount %u of tensor "
                                  "'InputTensor'.",
                                  name, desc.Axis, in.rank));
    }
    const int32_t direction = raw_enum(desc.AxisDirection);
    if (direction != DML_AXIS_DIRECTION_INCREASING && direction != DML_AXIS_DIRECTION_DECREASING) {
        return invalid_arg(format("%s: AxisDirection %d is not a DML_AXIS_DIRECTION (INCREASING 0, DECREASING 1).",
                                  name, direction));
    }
    auto scan = make_operator<ScanOperator>(device);
    HDML_RETURN_IF_FAILED(scan->init(in, out, desc.Axis, direction == DML_AXIS_DIRECTION_DECREASING,
                                     desc.HasExclusiveSum != 0, op, name));
    *result = std::move(scan);
    return S_OK;
}

}  // namespace

HRESULT create_cumulative_summation_operator(const hdml_device &device, const void *desc,
                                             std::unique_ptr<hdml_operator> *result) {
    return create_scan(device, *static_cast<const DML_CUMULATIVE_SUMMATION_OPERATOR_DESC *>(desc), param::op::sum,
                       "DML_OPERATOR_CUMULATIVE_SUMMATION", result);
}

HRESULT create_cumulative_product_operator(const hdml_device &device, const void *desc,
                                           std::unique_ptr<hdml_operator> *result) {
    // The product desc is field for field the summation desc (HasExclusiveProduct for HasExclusiveSum).
    static_assert(sizeof(DML_CUMULATIVE_PRODUCT_OPERATOR_DESC) == sizeof(DML_CUMULATIVE_SUMMATION_OPERATOR_DESC),
                  "same layout");
    return create_scan(device, *static_cast<const DML_CUMULATIVE_SUMMATION_OPERATOR_DESC *>(desc), param::op::product,
                       "DML_OPERATOR_CUMULATIVE_PRODUCT", result);
}

}  // namespace hdml
