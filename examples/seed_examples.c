/* Builds DirectML descriptors for the examples of DirectML's operator pages,
 * runs them through hdml on the CPU and prints the results. Plain C: the same
 * descriptor code compiles against DirectML.h. */
#include <hdml/hdml.h>

#include <stdio.h>

static int failed(HRESULT hr, const char *what) {
    if (SUCCEEDED(hr)) return 0;
    fprintf(stderr, "%s failed (0x%08x): %s\n", what, (unsigned)hr, hdmlGetLastErrorMessage());
    return 1;
}

/* Sums `input` (a 3x3 float32 tensor) over `axes`; prints the output. */
static int reduce_sum(hdml_device *device, const float input[9], const UINT *axes, UINT axis_count) {
    const UINT in_sizes[2] = {3, 3};
    UINT out_sizes[2] = {3, 3};
    for (UINT k = 0; k < axis_count; ++k) out_sizes[axes[k]] = 1;
    DML_BUFFER_TENSOR_DESC in_buffer = {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 2, in_sizes, NULL, 0, 0};
    DML_BUFFER_TENSOR_DESC out_buffer = {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 2, out_sizes, NULL, 0, 0};
    in_buffer.TotalTensorSizeInBytes = DMLCalcBufferTensorSize(in_buffer.DataType, 2, in_sizes, NULL);
    out_buffer.TotalTensorSizeInBytes = DMLCalcBufferTensorSize(out_buffer.DataType, 2, out_sizes, NULL);
    DML_TENSOR_DESC in_desc = {DML_TENSOR_TYPE_BUFFER, &in_buffer};
    DML_TENSOR_DESC out_desc = {DML_TENSOR_TYPE_BUFFER, &out_buffer};
    DML_REDUCE_OPERATOR_DESC reduce = {DML_REDUCE_FUNCTION_SUM, &in_desc, &out_desc, axis_count, axes};
    DML_OPERATOR_DESC desc = {DML_OPERATOR_REDUCE, &reduce};

    hdml_operator *op = NULL;
    if (failed(hdmlCreateOperator(device, &desc, &op), "hdmlCreateOperator")) return 1;
    float output[9] = {0};
    HDML_BUFFER_BINDING in_binding = {(void *)input, 0, in_buffer.TotalTensorSizeInBytes};
    HDML_BUFFER_BINDING out_binding = {output, 0, out_buffer.TotalTensorSizeInBytes};
    const int bad = failed(hdmlExecute(op, 1, &in_binding, 1, &out_binding), "hdmlExecute");
    hdmlReleaseOperator(op);
    if (bad) return 1;

    printf("REDUCE SUM, Axes {");
    for (UINT k = 0; k < axis_count; ++k) printf("%s%u", k ? ", " : "", axes[k]);
    printf("} -> Sizes {%u, %u}: [", out_sizes[0], out_sizes[1]);
    for (UINT k = 0; k < out_sizes[0] * out_sizes[1]; ++k) printf("%s%g", k ? ", " : "", output[k]);
    printf("]\n");
    return 0;
}

int main(void) {
    hdml_device *device = NULL;
    if (failed(hdmlCreateDevice(HDML_DEVICE_TYPE_CPU, 0, &device), "hdmlCreateDevice")) return 1;
    /* DML_REDUCE_OPERATOR_DESC's examples: [[1,2,3],[3,0,4],[2,4,2]]. */
    const float input[9] = {1, 2, 3, 3, 0, 4, 2, 4, 2};
    const UINT columns[] = {0}, rows[] = {1}, all[] = {0, 1};
    int bad = reduce_sum(device, input, columns, 1);  /* [6, 6, 9] */
    bad |= reduce_sum(device, input, rows, 1);        /* [6, 7, 8] */
    bad |= reduce_sum(device, input, all, 2);         /* [21]      */
    hdmlReleaseDevice(device);
    return bad;
}
