// Execution shared by every operator built on the reducing kernels (REDUCE,
// and ARGMAX/ARGMIN): pick the kernel for a planned shape, then per call pack
// if needed, loop over leftover dims and call it.
#pragma once

#include "runtime/kernels.h"
#include "runtime/operator.h"
#include "runtime/shape/copy.h"
#include "runtime/shape/reduce.h"
#include "runtime/variants/reduce_variants.h"

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
    // `op`: the reduce kernel's function. `reduced_mask` bit d = DML axis d
    // is reduced. `what` names the operator in logs.
    HRESULT init_reduce(const Tensor &input, const Tensor &output, uint32_t reduced_mask, param::op op,
                        ReduceArgs args, const std::string &what);
    HRESULT init_arg_reduce(const Tensor &input, const Tensor &output, uint32_t reduced_mask, ArgReduceArgs args,
                            const std::string &what);

    HRESULT run(const void *const *inputs, void *const *outputs) override;

private:
    // Chooses the kernel (runtime/variants/reduce_variants.h) for the planned
    // shape and, when the shape is packed, the copy kernel that packs.
    HRESULT choose_kernels(Family family, const KernelParams &function, ReduceShape planned, const std::string &what);
    HRESULT call_kernel(const uint8_t *input, uint8_t *output);

    ReduceChoice choice_;  // the kernel, its aligned twin and the shape it runs
    // When the shape is packed: the contiguous copy made first, by the device's copy kernel.
    CopyShape pack_shape_;
    const KernelEntry *pack_kernel_ = nullptr;
    bool arg_ = false;
    ReduceArgs reduce_args_;
    ArgReduceArgs arg_args_;
    uint32_t index_words_ = 1;  // ARGMAX/ARGMIN: uint32 words per index (2 for 64-bit index tensors)
};

}  // namespace hdml
