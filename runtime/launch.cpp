#include "runtime/launch.h"

namespace hdml {

HRESULT run_copy(const hdml_device &device, const KernelEntry *kernel, const CopyShape &shape, const uint8_t *input,
                 uint8_t *output, uint32_t element_size) {
    const halide_type_t type(halide_type_uint, (uint8_t)(element_size * 8));
    return run_xyz(device, shape.x, shape.y, shape.z, shape.loops, input, type, output, type, kernel->name,
                   [&](KernelCall *call, halide_buffer_t *in, halide_buffer_t *out) {
                       return kernel_fn<copy_fn>(kernel)(call, in, out);
                   });
}

}  // namespace hdml
