// DML_OPERATOR_CUMULATIVE_SUMMATION and DML_OPERATOR_CUMULATIVE_PRODUCT: one
// scan kernel per op, type and layout, over input(i, r, o) -> output(i, r, o).
// The axis becomes r (reversed with negative strides for DECREASING); kept dims
// fuse where strides chain; i is a kept dim moving faster than r (scanned as
// vectors), o the largest other kept dim, the rest loop in C++. In-place
// execution (output aliasing input) is supported: the kernel finishes the
// totals of a line before writing it (CUDA's walks, inclusive scans only: in
// place, an exclusive one takes the kernel the walk stands in for).
#include "runtime/checked.h"
#include "runtime/copy_plan.h"
#include "runtime/error.h"
#include "runtime/halide_glue.h"
#include "runtime/kernels.h"
#include "runtime/operator.h"

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
constexpr int64_t kMaxKernel = INT32_MAX;

class ScanOperator : public hdml_operator {
public:
    HRESULT init(const Tensor &in, const Tensor &out, uint32_t axis, bool reverse, bool exclusive, const char *op,
                 const char *name) {
        inputs = {in};
        outputs = {out};
        exclusive_ = exclusive;
        same_strides_ = std::equal(in.strides.begin(), in.strides.begin() + in.rank, out.strides.begin());
        // The kernel's dims input(i, r, o) are the plan's x, y, z.
        CopyDim &i_ = plan_.x, &r_ = plan_.y, &o_ = plan_.z;
        // The scanned dim, reversed for DECREASING: start at the last element, negative strides.
        r_ = CopyDim{in.sizes[axis], in.strides[axis], out.strides[axis]};
        if (reverse) {
            base_in_ = must_mul<int64_t>(r_.extent - 1, r_.in_stride);
            base_out_ = must_mul<int64_t>(r_.extent - 1, r_.out_stride);
            r_.in_stride = -r_.in_stride;
            r_.out_stride = -r_.out_stride;
        }
        if (r_.extent > kMaxKernel || std::abs(r_.in_stride) > kMaxKernel || std::abs(r_.out_stride) > kMaxKernel) {
            return invalid_arg(format("%s: Axis %u has size %u or stride beyond hdml's kernel limit of 2^31-1.", name,
                                      axis, in.sizes[axis]));
        }
        std::vector<CopyDim> kept;
        for (uint32_t d = 0; d < in.rank; ++d) {
            if (d != axis) kept.push_back({in.sizes[d], in.strides[d], out.strides[d]});
        }
        kept = fuse_copy_dims(kept);
        auto fits = [](const CopyDim &d) {
            return d.extent <= kMaxKernel && d.in_stride <= kMaxKernel && d.out_stride <= kMaxKernel;
        };
        int best_i = -1;
        for (size_t k = 0; k < kept.size(); ++k) {
            if (fits(kept[k]) && kept[k].in_stride < std::abs(r_.in_stride) &&
                (best_i < 0 || kept[k].in_stride < kept[best_i].in_stride)) {
                best_i = (int)k;
            }
        }
        outer_layout_ = best_i >= 0 && r_.extent > 1;
        if (outer_layout_) {
            i_ = kept[best_i];
            kept.erase(kept.begin() + best_i);
        }
        int best_o = -1;
        for (size_t k = 0; k < kept.size(); ++k) {
            if (fits(kept[k]) && (best_o < 0 || kept[k].extent > kept[best_o].extent)) best_o = (int)k;
        }
        if (best_o >= 0) {
            o_ = kept[best_o];
            kept.erase(kept.begin() + best_o);
        }
        plan_.loops = kept;
        const std::string key = format("dtype=%s layout=%s op=%s", kernel_type_name(in.type),
                                       outer_layout_ ? "outer" : "inner", op);
        kernel_ = on_cuda(device) && !outer_layout_ ? find_cuda_inner_kernel(key, r_.extent) : nullptr;
        if (!kernel_) HDML_RETURN_IF_FAILED(require_kernel(device, "scan", key, name, &kernel_));
        walk_ = on_cuda(device) ? find_cuda_walk(key) : nullptr;
        std::string kernels = walk_ ? walk_->name : kernel_->name;
        if (walk_ && exclusive_) kernels += std::string(" (in place: ") + kernel_->name + ")";
        log_verbose(format("%s: kernel %s; i{%lld}, r{%lld x %lld}, o{%lld}, %zu C++ loop dim(s)", name,
                           kernels.c_str(), (long long)i_.extent, (long long)r_.extent, (long long)r_.in_stride,
                           (long long)o_.extent, plan_.loops.size()));
        return S_OK;
    }

    // In place: element k of the output replaces element k of the input.
    bool may_alias(size_t, size_t) const override { return same_strides_; }

    HRESULT run(const void *const *in, void *const *out) override {
        const int64_t esize = element_size(inputs[0].type);
        const halide_type_t type = halide_type_of_dml(inputs[0].type);
        const auto *input = static_cast<const uint8_t *>(in[0]) + must_mul(base_in_, esize);
        auto *output = static_cast<uint8_t *>(out[0]) + must_mul(base_out_, esize);
        // A walk reads the element before each tile for an exclusive scan,
        // which in place it has overwritten: kernel_ runs there. (In place is
        // the one overlap check_bindings lets through: the same address.)
        const bool walk = walk_ && !(exclusive_ && in[0] == out[0]);
        const KernelEntry *kernel = walk ? walk_ : kernel_;
        return run_plan(device, plan_, input, type, output, type, kernel->name,
                        [&](KernelCall *call, halide_buffer_t *in_buf, halide_buffer_t *out_buf) {
                            return kernel_fn<scan_fn>(kernel)(call, in_buf, exclusive_ ? 1 : 0, out_buf);
                        });
    }

private:
    // CUDA, along the innermost axis: long lines stage segments through shared
    // memory; short ones take the smallest lines kernel (staging=lines) whose
    // max_line holds them (one kernel: a line fits a thread's registers).
    const KernelEntry *find_cuda_inner_kernel(const std::string &key, int64_t line) const {
#if HDML_HAVE_CUDA
        if (line >= HDML_CUDA_SCAN_STAGED_MIN_LINE) {
            return find_kernel(device, "scan", key_with_param(key, "staging=shared"));
        }
        const std::string lines = key_with_param(key, "staging=lines");
        for (int64_t max_line = 1; max_line < HDML_CUDA_SCAN_STAGED_MIN_LINE; max_line *= 2) {
            if (line > max_line) continue;
            const std::string sized = key_with_param(lines, format("max_line=%lld", (long long)max_line));
            if (const KernelEntry *kernel = find_kernel(device, "scan", sized)) return kernel;
        }
#endif
        (void)key, (void)line;
        return nullptr;
    }

    // CUDA: a kernel that walks the lines in one pass over the input from
    // memory, where kernel_ makes two, if one is built for the type, the shape
    // asks for it (cuda.json's thresholds) and every buffer of a call fits its
    // 32-bit indexing; else nullptr.
    //  - outer axis, many columns (i x o): a block per 32 walks down them
    //    (staging=columns; kernel_ is the chunked scan);
    //  - inner axis, many long lines (o): a block per line walks along it
    //    (staging=line_walk; kernel_ is the staged or the chunked kernel).
    const KernelEntry *find_cuda_walk(const std::string &key) const {
#if HDML_HAVE_CUDA
        const int64_t esize = element_size(inputs[0].type);
        if (!fits_small_buffers({&plan_.x, &plan_.y, &plan_.z}, esize, esize)) return nullptr;
        if (outer_layout_ && plan_.x.extent * plan_.z.extent >= HDML_CUDA_SCAN_COLUMNS_MIN_COLUMNS) {
            return find_kernel(device, "scan", key_with_param(key, "staging=columns"));
        }
        if (!outer_layout_ && plan_.y.extent >= HDML_CUDA_SCAN_LINE_WALK_MIN_LINE &&
            plan_.z.extent >= HDML_CUDA_SCAN_LINE_WALK_MIN_LINES) {
            return find_kernel(device, "scan", key_with_param(key, "staging=line_walk"));
        }
#endif
        (void)key;
        return nullptr;
    }

    bool exclusive_ = false, outer_layout_ = false, same_strides_ = false;
    CopyPlan plan_;  // x = i (a kept dim faster than r, or unit), y = r (the scanned dim), z = o
    int64_t base_in_ = 0, base_out_ = 0;
    const KernelEntry *kernel_ = nullptr;  // every call where walk_ is null or cannot run in place
    const KernelEntry *walk_ = nullptr;    // CUDA: see find_cuda_walk
};

// Both descs: {InputTensor, OutputTensor, Axis, AxisDirection, HasExclusive*}.
HRESULT create_scan(const hdml_device &device, const DML_CUMULATIVE_SUMMATION_OPERATOR_DESC &desc, const char *op, const char *name,
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
    return create_scan(device, *static_cast<const DML_CUMULATIVE_SUMMATION_OPERATOR_DESC *>(desc), "sum",
                       "DML_OPERATOR_CUMULATIVE_SUMMATION", result);
}

HRESULT create_cumulative_product_operator(const hdml_device &device, const void *desc,
                                           std::unique_ptr<hdml_operator> *result) {
    // The product desc is field for field the summation desc (HasExclusiveProduct for HasExclusiveSum).
    static_assert(sizeof(DML_CUMULATIVE_PRODUCT_OPERATOR_DESC) == sizeof(DML_CUMULATIVE_SUMMATION_OPERATOR_DESC),
                  "same layout");
    return create_scan(device, *static_cast<const DML_CUMULATIVE_SUMMATION_OPERATOR_DESC *>(desc), "product",
                       "DML_OPERATOR_CUMULATIVE_PRODUCT", result);
}

}  // namespace hdml
