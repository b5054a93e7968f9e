// Execution shared by every operator built on the reducing kernels (REDUCE,
// and ARGMAX/ARGMIN): pick the kernel for a planned shape, then per call pack
// if needed, loop over leftover dims and call it.
#pragma once

#include "runtime/copy_plan.h"
#include "runtime/kernels.h"
#include "runtime/operator.h"
#include "runtime/reduce_shape.h"

#include <string>
#include <vector>

namespace hdml {

// Run-time arguments of the two kernel families.
struct ReduceArgs {
    int32_t element_map = 0;  // reduce: 0 x, 1 |x|, 2 x*x
    int32_t finish = 0;       // reduce: 0 none, 1 /N, 2 sqrt, 3 log
};
struct ArgReduceArgs {
    bool find_min = false;
    bool last_index = false;
};

// Rules shared by REDUCE, ARGMAX and ARGMIN: ranks match, axes valid and
// unique (AxisCount >= 1), output sizes 1 on reduced axes and equal elsewhere.
// Sets *mask (bit d = DML axis d is reduced). `op` names the operator in messages.
HRESULT validate_reduction_axes(const Tensor &in, const Tensor &out, uint32_t axis_count, const uint32_t *axes,
                                const char *op, uint32_t *mask);

// ARGMAX/ARGMIN (and REDUCE's deprecated functions of the same names): the
// input types they read (newest support table; ends with UNKNOWN). The index
// types they write are tensor.h's kIndexTypes.
extern const DML_TENSOR_DATA_TYPE kArgReduceInputTypes[];

class ReducingOperator : public hdml_operator {
public:
    // `op` is the generator's op parameter ("sum", ...) or empty for arg_reduce.
    // `reduced_mask` bit d = DML axis d is reduced. `what` names the operator in logs.
    HRESULT init_reduce(const Tensor &input, const Tensor &output, uint32_t reduced_mask, const char *op,
                        ReduceArgs args, const std::string &what);
    HRESULT init_arg_reduce(const Tensor &input, const Tensor &output, uint32_t reduced_mask, ArgReduceArgs args,
                            const std::string &what);

    HRESULT run(const void *const *inputs, void *const *outputs) override;

private:
    HRESULT plan_packing(const std::string &what);
    // The kernel key of `params` (the generator's parameters but the layout)
    // for the shape's layout, with a variant's parameter ("rows=lanes", ...).
    std::string kernel_key(const std::string &params, const char *variant) const;
    // CUDA: the shape's mapping (cuda.json's "dispatch"; very short rows are
    // remapped onto the outer layout, a thread each) and, where that mapping
    // has a variant built for `params`, its kernel; else nullptr.
    const KernelEntry *choose_cuda_variant(const char *family, const std::string &params);
    // CUDA, whole columns that are the input's rows: the variant that loads
    // them in kVectorBytes vectors (vector_bytes), where built for the type
    // and the shape's rows are unit-stride whole vectors on vector boundaries;
    // else nullptr. `whole_key`: the whole-columns kernel's key.
    const KernelEntry *find_vector_kernel(const char *family, const std::string &whole_key) const;
    // CUDA: the variant of the kernel `key` whose lanes merge through warp
    // shuffles (lane_merge=shuffles), where built and the call's buffers fit
    // its 32-bit indexing (fits_small_buffers); else nullptr.
    const KernelEntry *find_shuffles_kernel(const char *family, const std::string &key) const;
    // The kernel: a variant (CUDA) or the plain kernel of the shape's layout.
    HRESULT choose_kernel(const char *family, const std::string &params, const std::string &what);
    HRESULT call_kernel(const uint8_t *input, uint8_t *output);

    ReduceShape shape_;
    const KernelEntry *kernel_ = nullptr;
    // Taken instead of kernel_ by the calls whose input address is
    // kVectorBytes-aligned (find_vector_kernel); nullptr when none.
    const KernelEntry *vector_kernel_ = nullptr;
    // When shape_.packed: the contiguous copy made first, by the device's copy kernel.
    CopyPlan pack_plan_;
    const KernelEntry *pack_kernel_ = nullptr;
    bool arg_ = false;
    ReduceArgs reduce_args_;
    ArgReduceArgs arg_args_;
    uint32_t index_words_ = 1;  // ARGMAX/ARGMIN: uint32 words per index (2 for 64-bit index tensors)
};

}  // namespace hdml
