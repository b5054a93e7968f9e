/* The installed headers compile as C. */
#include <hdml/hdml.h>

int main(void) {
    hdml_device *device = 0;
    const HRESULT hr = hdmlCreateDevice(HDML_DEVICE_TYPE_CPU, 0, &device);
    hdmlReleaseDevice(device);
    return SUCCEEDED(hr) ? 0 : 1;
}
