#include "runtime/launch.h"

namespace hdml {

namespace {

template <size_t... K>
int call_copy_parts(const KernelEntry *kernel, KernelCall *call, halide_buffer_t *span, const CopyShape &shape,
                    const std::array<int32_t, kCopyPartsPerLaunch> &piece_offsets, halide_buffer_t *output,
                    std::index_sequence<K...>) {
    return kernel_fn<copy_parts_fn>(kernel)(call, span, (int32_t)shape.x.in_stride, (int32_t)shape.y.in_stride,
                                            (int32_t)shape.z.in_stride, piece_offsets[K]..., output);
}

}  // namespace

HRESULT run_copy(const hdml_device &device, const KernelEntry *kernel, const CopyShape &shape, const uint8_t *input,
                 uint8_t *output, uint32_t element_size) {
    const halide_type_t type(halide_type_uint, (uint8_t)(element_size * 8));
    return run_xyz(device, shape.x, shape.y, shape.z, shape.loops, input, type, output, type, kernel->name,
                   [&](KernelCall *call, halide_buffer_t *in, halide_buffer_t *out) {
                       return kernel_fn<copy_fn>(kernel)(call, in, out);
                   });
}

HRESULT run_copy_parts(const hdml_device &device, const KernelEntry *kernel, const CopyShape &shape,
                       const uint8_t *span, int32_t span_extent,
                       const std::array<int32_t, kCopyPartsPerLaunch> &piece_offsets, int32_t pieces,
                       int32_t piece_step, uint8_t *output, uint32_t element_size) {
    const halide_type_t type(halide_type_uint, (uint8_t)(element_size * 8));
    return for_each_offset(shape.loops, [&](const Offsets &at) {
        KernelBuffer<1> span_buf(const_cast<uint8_t *>(span) + must_mul<int64_t>(at.in, element_size), type, device);
        span_buf.set_dim(0, span_extent, 1);
        KernelBuffer<4> out_buf(output + must_mul<int64_t>(at.out, element_size), type, device);
        const Dim *dims[3] = {&shape.x, &shape.y, &shape.z};
        for (int d = 0; d < 3; ++d) out_buf.set_dim(d, (int32_t)dims[d]->extent, (int32_t)dims[d]->out_stride);
        out_buf.set_dim(3, pieces, piece_step);
        KernelCall call(device);
        return check_kernel(call_copy_parts(kernel, &call, &span_buf.buf, shape, piece_offsets, &out_buf.buf,
                                            std::make_index_sequence<kCopyPartsPerLaunch>()),
                            call, kernel->name);
    });
}

}  // namespace hdml
