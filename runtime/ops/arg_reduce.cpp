// DML_OPERATOR_ARGMAX and DML_OPERATOR_ARGMIN (feature level 3.0): the index of
// the largest (smallest) element over the reduced axes, first among ties for
// DML_AXIS_DIRECTION_INCREASING, last for DECREASING; the same kernels as
// REDUCE's deprecated ARGMAX/ARGMIN functions.
#include "runtime/error.h"
#include "runtime/reducing_operator.h"

#include <memory>

namespace hdml {

namespace {

// ARGMAX and ARGMIN descs have the same layout.
HRESULT create_arg_operator(const hdml_device &device, const DML_ARGMAX_OPERATOR_DESC &desc, bool find_min, const char *name,
                            std::unique_ptr<hdml_operator> *result) {
    Tensor in, out;
    HDML_RETURN_IF_FAILED(read_tensor(desc.InputTensor, "InputTensor", &in));
    HDML_RETURN_IF_FAILED(read_tensor(desc.OutputTensor, "OutputTensor", &out));
    uint32_t mask = 0;
    HDML_RETURN_IF_FAILED(validate_reduction_axes(in, out, desc.AxisCount, desc.Axes, name, &mask));
    HDML_RETURN_IF_FAILED(require_type_in(in, kArgReduceInputTypes, name));
    HDML_RETURN_IF_FAILED(require_type_in(out, kIndexTypes, name));
    const int32_t direction = raw_enum(desc.AxisDirection);
    if (direction != DML_AXIS_DIRECTION_INCREASING && direction != DML_AXIS_DIRECTION_DECREASING) {
        return invalid_arg(format("%s: AxisDirection %d is not a DML_AXIS_DIRECTION (INCREASING 0, DECREASING 1).",
                                  name, direction));
    }
    ArgReduceArgs args;
    args.find_min = find_min;
    args.last_index = direction == DML_AXIS_DIRECTION_DECREASING;
    auto op = make_operator<ReducingOperator>(device);
    HDML_RETURN_IF_FAILED(op->init_arg_reduce(in, out, mask, args, name));
    *result = std::move(op);
    return S_OK;
}

}  // namespace

HRESULT create_argmax_operator(const hdml_device &device, const void *desc, std::unique_ptr<hdml_operator> *result) {
    return create_arg_operator(device, *static_cast<const DML_ARGMAX_OPERATOR_DESC *>(desc), false, "DML_OPERATOR_ARGMAX",
                               result);
}

HRESULT create_argmin_operator(const hdml_device &device, const void *desc, std::unique_ptr<hdml_operator> *result) {
    // DML_ARGMIN_OPERATOR_DESC is field for field DML_ARGMAX_OPERATOR_DESC.
    static_assert(sizeof(DML_ARGMIN_OPERATOR_DESC) == sizeof(DML_ARGMAX_OPERATOR_DESC), "same layout");
    return create_arg_operator(device, *static_cast<const DML_ARGMAX_OPERATOR_DESC *>(desc), true, "DML_OPERATOR_ARGMIN",
                               result);
}

}  // namespace hdml
