// DML_OPERATOR_REDUCE: validation (DirectML's rules and its newest data-type
// table per function), then one of the reducing kernels.
#include "runtime/error.h"
#include "runtime/reducing_operator.h"

#include <memory>

namespace hdml {

namespace {

constexpr DML_TENSOR_DATA_TYPE kFloat[] = {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT16,
                                           DML_TENSOR_DATA_TYPE_UNKNOWN};
constexpr DML_TENSOR_DATA_TYPE kFloatAndWideInt[] = {
    DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_INT64, DML_TENSOR_DATA_TYPE_INT32,
    DML_TENSOR_DATA_TYPE_UINT64,  DML_TENSOR_DATA_TYPE_UINT32,  DML_TENSOR_DATA_TYPE_UNKNOWN};
// MIN and MAX take the same types as ARGMAX/ARGMIN: every float and integer type but FLOAT64.
const DML_TENSOR_DATA_TYPE *const kFloatAndAllInt = kArgReduceInputTypes;

struct FunctionInfo {
    const char *name;
    const DML_TENSOR_DATA_TYPE *input_types;
    param::op kernel_op;  // none: the arg_reduce family
    ReduceArgs args;
};

// Indexed by DML_REDUCE_FUNCTION. Six functions share the `sum` kernel through
// its run-time element map and finishing step.
const FunctionInfo kFunctions[] = {
    {"DML_REDUCE_FUNCTION_ARGMAX", kFloatAndAllInt, param::op::none, {}},
    {"DML_REDUCE_FUNCTION_ARGMIN", kFloatAndAllInt, param::op::none, {}},
    {"DML_REDUCE_FUNCTION_AVERAGE", kFloat, param::op::sum, {0, 1}},
    {"DML_REDUCE_FUNCTION_L1", kFloatAndWideInt, param::op::sum, {1, 0}},
    {"DML_REDUCE_FUNCTION_L2", kFloat, param::op::sum, {2, 2}},
    {"DML_REDUCE_FUNCTION_LOG_SUM", kFloat, param::op::sum, {0, 3}},
    {"DML_REDUCE_FUNCTION_LOG_SUM_EXP", kFloat, param::op::log_sum_exp, {}},
    {"DML_REDUCE_FUNCTION_MAX", kFloatAndAllInt, param::op::max, {}},
    {"DML_REDUCE_FUNCTION_MIN", kFloatAndAllInt, param::op::min, {}},
    {"DML_REDUCE_FUNCTION_MULTIPLY", kFloatAndWideInt, param::op::multiply, {}},
    {"DML_REDUCE_FUNCTION_SUM", kFloatAndWideInt, param::op::sum, {0, 0}},
    {"DML_REDUCE_FUNCTION_SUM_SQUARE", kFloatAndWideInt, param::op::sum, {2, 0}},
};

}  // namespace

HRESULT create_reduce_operator(const hdml_device &device, const void *raw_desc, std::unique_ptr<hdml_operator> *result) {
    const auto &desc = *static_cast<const DML_REDUCE_OPERATOR_DESC *>(raw_desc);
    const unsigned function = (unsigned)raw_enum(desc.Function);
    if (function >= sizeof(kFunctions) / sizeof(kFunctions[0])) {
        return invalid_arg(format("DML_OPERATOR_REDUCE: Function %d is not a DML_REDUCE_FUNCTION.", (int)function));
    }
    const FunctionInfo &info = kFunctions[function];
    Tensor in, out;
    HDML_RETURN_IF_FAILED(read_tensor(desc.InputTensor, "InputTensor", &in));
    HDML_RETURN_IF_FAILED(read_tensor(desc.OutputTensor, "OutputTensor", &out));
    const std::string what = format("DML_OPERATOR_REDUCE with %s", info.name);
    uint32_t mask = 0;
    HDML_RETURN_IF_FAILED(validate_reduction_axes(in, out, desc.AxisCount, desc.Axes, what.c_str(), &mask));
    HDML_RETURN_IF_FAILED(require_type_in(in, info.input_types, what.c_str()));

    auto op = make_operator<ReducingOperator>(device);
    if (info.kernel_op == param::op::none) {
        // ARGMAX/ARGMIN through REDUCE: first index among ties (INCREASING).
        HDML_RETURN_IF_FAILED(require_type_in(out, kIndexTypes, what.c_str()));
        ArgReduceArgs args;
        args.find_min = function == DML_REDUCE_FUNCTION_ARGMIN;
        HDML_RETURN_IF_FAILED(op->init_arg_reduce(in, out, mask, args, what));
    } else {
        HDML_RETURN_IF_FAILED(require_same_type(in, out));
        HDML_RETURN_IF_FAILED(op->init_reduce(in, out, mask, info.kernel_op, info.args, what));
    }
    *result = std::move(op);
    return S_OK;
}

}  // namespace hdml
