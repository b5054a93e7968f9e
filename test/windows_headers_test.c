/* hdml's public headers in C, before windows.h this time: hdml/directml.h
 * includes windows.h itself on Windows, so the order does not matter. */
#include <hdml/hdml.h>
#include <windows.h>

int main(void) {
    hdml_device *device = 0;
    const HRESULT hr = hdmlCreateDevice(HDML_DEVICE_TYPE_CPU, 0, &device);
    const UINT64 bytes = DMLCalcBufferTensorSize(DML_TENSOR_DATA_TYPE_FLOAT32, 1, (const UINT[]){3}, NULL);
    hdmlReleaseDevice(device);
    return SUCCEEDED(hr) && bytes == 12 ? 0 : 1;
}
