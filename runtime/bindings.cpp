#include "runtime/bindings.h"

#include "runtime/checked.h"
#include "runtime/error.h"
#include "runtime/shape/limits.h"

#include <algorithm>

namespace hdml {

namespace {

// One binding's tensor bytes, [begin, end) as addresses (device addresses on CUDA).
struct Range {
    uintptr_t begin = 0, end = 0;
    bool output = false;
    size_t index = 0;  // into the operator's inputs or outputs
};

HRESULT check_list(const char *kind, uint32_t count, const HDML_BUFFER_BINDING *bindings,
                   const std::vector<Tensor> &tensors, bool output, std::vector<void *> *pointers,
                   std::vector<Range> *ranges) {
    if (count != tensors.size()) {
        return invalid_arg(format("hdmlExecute: %u %s bindings were given; the operator has %zu %s tensors.", count,
                                  kind, tensors.size(), kind));
    }
    if (count && !bindings) return invalid_arg(format("hdmlExecute: the %s binding array is null.", kind));
    pointers->resize(count);
    for (uint32_t k = 0; k < count; ++k) {
        const Tensor &t = tensors[k];
        const HDML_BUFFER_BINDING &b = bindings[k];
        const char *name = t.name.c_str();
        if (!b.Buffer) return invalid_arg(format("hdmlExecute: the binding of tensor '%s' has a null Buffer.", name));
        if (b.SizeInBytes < t.total_bytes) {
            return invalid_arg(format("hdmlExecute: the binding of tensor '%s' has SizeInBytes %llu, smaller than its "
                                      "TotalTensorSizeInBytes %llu.",
                                      name, (unsigned long long)b.SizeInBytes, (unsigned long long)t.total_bytes));
        }
        if (b.Offset % t.offset_alignment() != 0) {
            return invalid_arg(format("hdmlExecute: the binding of tensor '%s' has Offset %llu, which is not a "
                                      "multiple of %u (GuaranteedBaseOffsetAlignment, or 16 when it is 0).",
                                      name, (unsigned long long)b.Offset, t.offset_alignment()));
        }
        // The bound range must be one that can exist: no buffer is 2^56 bytes
        // (user address spaces of x86-64, aarch64 and CUDA are smaller), and
        // Buffer + Offset + SizeInBytes stays within 64 bits.
        uint64_t range_end, last;
        if (!checked_add<uint64_t>(b.Offset, b.SizeInBytes, &range_end) || range_end > kMaxBindingBytes ||
            !checked_add<uint64_t>(reinterpret_cast<uintptr_t>(b.Buffer), range_end, &last)) {
            return invalid_arg(format("hdmlExecute: the binding of tensor '%s' has Offset %llu and SizeInBytes %llu; "
                                      "their sum must be below 2^56 and Buffer %p plus it within the address space.",
                                      name, (unsigned long long)b.Offset, (unsigned long long)b.SizeInBytes, b.Buffer));
        }
        const uintptr_t begin = reinterpret_cast<uintptr_t>(b.Buffer) + b.Offset;
        (*pointers)[k] = reinterpret_cast<void *>(begin);
        ranges->push_back(Range{begin, begin + t.total_bytes, output, k});
    }
    return S_OK;
}

HRESULT overlap_error(const hdml_operator &op, const Range &a, const Range &b) {
    auto describe = [&](const Range &r) {
        const Tensor &t = r.output ? op.outputs[r.index] : op.inputs[r.index];
        return format("%s tensor '%s' (addresses 0x%llx to 0x%llx)", r.output ? "output" : "input", t.name.c_str(),
                      (unsigned long long)r.begin, (unsigned long long)r.end);
    };
    return invalid_arg(format("hdmlExecute: the binding of %s overlaps the binding of %s. An output may share no "
                              "byte of its TotalTensorSizeInBytes with another binding, except an input it may "
                              "replace in place (CUMULATIVE_SUMMATION/PRODUCT: bound at the same address, with the "
                              "same Strides).",
                              describe(a).c_str(), describe(b).c_str()));
}

}  // namespace

HRESULT check_bindings(const hdml_operator &op, uint32_t input_count, const HDML_BUFFER_BINDING *inputs,
                       uint32_t output_count, const HDML_BUFFER_BINDING *outputs, std::vector<void *> *in_pointers,
                       std::vector<void *> *out_pointers) {
    std::vector<Range> in_ranges, out_ranges;
    HDML_RETURN_IF_FAILED(check_list("input", input_count, inputs, op.inputs, false, in_pointers, &in_ranges));
    HDML_RETURN_IF_FAILED(check_list("output", output_count, outputs, op.outputs, true, out_pointers, &out_ranges));

    // Outputs pairwise disjoint: sorted by address, each starts after the previous one ends.
    auto by_begin = [](const Range &a, const Range &b) { return a.begin < b.begin; };
    std::sort(out_ranges.begin(), out_ranges.end(), by_begin);
    for (size_t k = 1; k < out_ranges.size(); ++k) {
        if (out_ranges[k].begin < out_ranges[k - 1].end) return overlap_error(op, out_ranges[k], out_ranges[k - 1]);
    }
    // Each input against the (disjoint, sorted) outputs that reach into it; inputs may overlap each other.
    for (const Range &in : in_ranges) {
        auto first = std::partition_point(out_ranges.begin(), out_ranges.end(),
                                          [&](const Range &out) { return out.end <= in.begin; });
        for (auto out = first; out != out_ranges.end() && out->begin < in.end; ++out) {
            if (out->begin == in.begin && op.may_alias(out->index, in.index)) continue;
            return overlap_error(op, *out, in);
        }
    }
    return S_OK;
}

}  // namespace hdml
