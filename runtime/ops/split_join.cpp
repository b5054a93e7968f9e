// DML_OPERATOR_SPLIT and DML_OPERATOR_JOIN: one tensor and its pieces along an
// axis. Validation per DirectML; execution is one strided copy per piece, the
// whole tensor's view offset along the axis (any data type: keyed by element size).
#include "runtime/checked.h"
#include "runtime/error.h"
#include "runtime/launch.h"
#include "runtime/operator.h"
#include "runtime/shape/copy.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>

namespace hdml {

namespace {

// `whole` is split into (or joined from) `pieces` along `axis`.
class PiecesOperator : public hdml_operator {
public:
    HRESULT init(const Tensor &whole, const std::vector<Tensor> &pieces, uint32_t axis, bool split, const char *name) {
        split_ = split;
        if (split) {
            inputs = {whole};
            outputs = pieces;
        } else {
            inputs = pieces;
            outputs = {whole};
        }
        const uint32_t esize = element_size(whole.type);
        HDML_RETURN_IF_FAILED(
            require_kernel(device, Family::copy, KernelParams{}.with(uint_dtype(esize)), name, &kernel_));
        kernel_names = kernel_->name;
        uint64_t offset = 0;
        for (size_t k = 0; k < pieces.size(); ++k) {
            const Tensor &piece = pieces[k];
            std::vector<Dim> dims(whole.rank);
            for (uint32_t d = 0; d < whole.rank; ++d) {
                dims[d].extent = piece.sizes[d];
                dims[d].in_stride = split ? whole.strides[d] : piece.strides[d];
                dims[d].out_stride = split ? piece.strides[d] : whole.strides[d];
            }
            shapes_.push_back(plan_copy(dims));
            std::vector<Dim> words;
            const bool widens = esize < kWordBytes && widen_elements(dims, kWordBytes / esize, &words);
            word_shapes_.push_back(widens ? std::optional<CopyShape>(plan_copy(words)) : std::nullopt);
            whole_offsets_.push_back(must_mul<int64_t>(offset, whole.strides[axis]));
            log_verbose(format("%s: piece %zu: kernel %s; %s%s", name, k, kernel_->name,
                               shapes_.back().describe().c_str(), widens ? "; in 32-bit words where aligned" : ""));
            offset += piece.sizes[axis];
        }
        if (std::any_of(word_shapes_.begin(), word_shapes_.end(), [](const auto &w) { return w.has_value(); })) {
            HDML_RETURN_IF_FAILED(require_kernel(device, Family::copy, KernelParams{}.with(uint_dtype(kWordBytes)),
                                                 name, &word_kernel_));
            kernel_names += std::string(" ") + word_kernel_->name;
        }
        return S_OK;
    }

    HRESULT run(const void *const *in, void *const *out) override {
        const uint32_t esize = element_size(outputs[0].type);
        for (size_t k = 0; k < shapes_.size(); ++k) {
            const int64_t shift = must_mul<int64_t>(whole_offsets_[k], esize);
            const auto *src = static_cast<const uint8_t *>(split_ ? in[0] : in[k]) + (split_ ? shift : 0);
            auto *dst = static_cast<uint8_t *>(split_ ? out[k] : out[0]) + (split_ ? 0 : shift);
            if (word_shapes_[k] && aligned_to(kWordBytes, src, dst)) {
                HDML_RETURN_IF_FAILED(run_copy(device, word_kernel_, *word_shapes_[k], src, dst, kWordBytes));
            } else {
                HDML_RETURN_IF_FAILED(run_copy(device, kernel_, shapes_[k], src, dst, esize));
            }
        }
        return S_OK;
    }

private:
    bool split_ = true;
    const KernelEntry *kernel_ = nullptr;
    // 8- and 16-bit pieces whose rows are whole words: moved as 32-bit words
    // (widen_elements) when both addresses are word-aligned.
    const KernelEntry *word_kernel_ = nullptr;
    std::vector<CopyShape> shapes_;
    std::vector<std::optional<CopyShape>> word_shapes_;
    std::vector<int64_t> whole_offsets_;  // element offset of each piece inside the whole tensor
};

// The rules SPLIT and JOIN share, with the field names of each desc.
HRESULT validate_pieces(const Tensor &whole, const std::vector<Tensor> &pieces, uint32_t axis, const char *name,
                        const char *count_field) {
    HDML_RETURN_IF_FAILED(require_type_in(whole, kDataMovementTypes, name));
    uint64_t total = 0;
    for (const Tensor &piece : pieces) {
        HDML_RETURN_IF_FAILED(require_same_type(whole, piece));
        HDML_RETURN_IF_FAILED(require_same_rank(whole, piece));
        for (uint32_t d = 0; d < whole.rank; ++d) {
            if (d != axis && piece.sizes[d] != whole.sizes[d]) {
                return invalid_arg(format("%s: tensor '%s' has Sizes[%u] = %u but tensor '%s' has %u; sizes must match "
                                          "except along Axis %u.",
                                          name, piece.name.c_str(), d, piece.sizes[d], whole.name.c_str(),
                                          whole.sizes[d], axis));
            }
        }
        total += piece.sizes[axis];
    }
    if (total != whole.sizes[axis]) {
        return invalid_arg(format("%s: the %s tensors' sizes along Axis %u sum to %llu, but tensor '%s' has Sizes[%u] "
                                  "= %u; they must be equal.",
                                  name, count_field, axis, (unsigned long long)total, whole.name.c_str(), axis,
                                  whole.sizes[axis]));
    }
    return S_OK;
}

// Reads the pieces' descs once `whole` is read: each piece holds at least one
// slice along Axis, so a count beyond the whole's size is rejected before any
// desc past the first is read or anything is allocated for them.
HRESULT read_pieces(const DML_TENSOR_DESC *descs, uint32_t count, const Tensor &whole, uint32_t axis,
                    const char *field, const char *count_field, const char *name, std::vector<Tensor> *pieces) {
    if (axis >= whole.rank) {
        return invalid_arg(format("%s: Axis %u is out of range; it must be less than the DimensionCount %u of tensor "
                                  "'%s'.",
                                  name, axis, whole.rank, whole.name.c_str()));
    }
    if (count == 0) return invalid_arg(format("%s: %s is 0; it must be greater than 0.", name, count_field));
    if (count > whole.sizes[axis]) {
        return invalid_arg(format("%s: %s is %u, more than the %u slices of tensor '%s' along Axis %u; each tensor "
                                  "of %s holds at least one.",
                                  name, count_field, count, whole.sizes[axis], whole.name.c_str(), axis, field));
    }
    if (!descs) return invalid_arg(format("%s: %s is null but %s is %u.", name, field, count_field, count));
    pieces->resize(count);
    for (uint32_t k = 0; k < count; ++k) {
        HDML_RETURN_IF_FAILED(read_tensor(&descs[k], format("%s[%u]", field, k), &(*pieces)[k]));
    }
    return S_OK;
}

}  // namespace

HRESULT create_split_operator(const hdml_device &device, const void *raw_desc, std::unique_ptr<hdml_operator> *result) {
    const auto &desc = *static_cast<const DML_SPLIT_OPERATOR_DESC *>(raw_desc);
    const char *name = "DML_OPERATOR_SPLIT";
    Tensor whole;
    std::vector<Tensor> pieces;
    HDML_RETURN_IF_FAILED(read_tensor(desc.InputTensor, "InputTensor", &whole));
    HDML_RETURN_IF_FAILED(
        read_pieces(desc.OutputTensors, desc.OutputCount, whole, desc.Axis, "OutputTensors", "OutputCount", name, &pieces));
    HDML_RETURN_IF_FAILED(validate_pieces(whole, pieces, desc.Axis, name, "OutputTensors"));
    auto op = make_operator<PiecesOperator>(device);
    HDML_RETURN_IF_FAILED(op->init(whole, pieces, desc.Axis, true, name));
    *result = std::move(op);
    return S_OK;
}

HRESULT create_join_operator(const hdml_device &device, const void *raw_desc, std::unique_ptr<hdml_operator> *result) {
    const auto &desc = *static_cast<const DML_JOIN_OPERATOR_DESC *>(raw_desc);
    const char *name = "DML_OPERATOR_JOIN";
    Tensor whole;
    std::vector<Tensor> pieces;
    HDML_RETURN_IF_FAILED(read_tensor(desc.OutputTensor, "OutputTensor", &whole));
    HDML_RETURN_IF_FAILED(
        read_pieces(desc.InputTensors, desc.InputCount, whole, desc.Axis, "InputTensors", "InputCount", name, &pieces));
    HDML_RETURN_IF_FAILED(validate_pieces(whole, pieces, desc.Axis, name, "InputTensors"));
    auto op = make_operator<PiecesOperator>(device);
    HDML_RETURN_IF_FAILED(op->init(whole, pieces, desc.Axis, false, name));
    *result = std::move(op);
    return S_OK;
}

}  // namespace hdml
