// Uses the installed hdml from C++: SUM over the last axis of a {2,4} tensor.
#include <hdml/hdml.h>

#include <cstdio>
#include <vector>

int main() {
    hdml_device *device = nullptr;
    if (FAILED(hdmlCreateDevice(HDML_DEVICE_TYPE_CPU, 0, &device))) return 1;
    const UINT in_sizes[] = {2, 4}, out_sizes[] = {2, 1}, axes[] = {1};
    DML_BUFFER_TENSOR_DESC in{DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 2, in_sizes, nullptr, 32, 0};
    DML_BUFFER_TENSOR_DESC out{DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 2, out_sizes, nullptr, 8, 0};
    DML_TENSOR_DESC in_desc{DML_TENSOR_TYPE_BUFFER, &in}, out_desc{DML_TENSOR_TYPE_BUFFER, &out};
    DML_REDUCE_OPERATOR_DESC reduce{DML_REDUCE_FUNCTION_SUM, &in_desc, &out_desc, 1, axes};
    DML_OPERATOR_DESC desc{DML_OPERATOR_REDUCE, &reduce};
    hdml_operator *op = nullptr;
    if (FAILED(hdmlCreateOperator(device, &desc, &op))) {
        std::fprintf(stderr, "%s\n", hdmlGetLastErrorMessage());
        return 1;
    }
    std::vector<float> x = {1, 2, 3, 4, 10, 20, 30, 40}, y(2);
    HDML_BUFFER_BINDING bi{x.data(), 0, 32}, bo{y.data(), 0, 8};
    const HRESULT hr = hdmlExecute(op, 1, &bi, 1, &bo);
    hdmlReleaseOperator(op);
    hdmlReleaseDevice(device);
    std::printf("consumer: sums %g %g\n", y[0], y[1]);
    return SUCCEEDED(hr) && y[0] == 10 && y[1] == 100 ? 0 : 1;
}
