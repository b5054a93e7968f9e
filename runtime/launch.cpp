#include "runtime/launch.h"

#include "runtime/error.h"

namespace hdml {

namespace {

// copy_parts and split_parts take (first buffer, a piece's x, y, z strides, the offsets, last buffer).
template <typename Fn, size_t... K>
int call_parts(Fn fn, KernelCall *call, halide_buffer_t *first, const int32_t piece_strides[3],
               const std::array<int32_t, kCopyPartsPerLaunch> &piece_offsets, halide_buffer_t *last,
               std::index_sequence<K...>) {
    return fn(call, first, piece_strides[0], piece_strides[1], piece_strides[2], piece_offsets[K]..., last);
}

}  // namespace

HRESULT run_copy(const hdml_device &device, const KernelEntry *kernel, const CopyShape &shape, const uint8_t *input,
                 uint8_t *output, uint32_t element_size) {
    const halide_type_t type(halide_type_uint, (uint8_t)(element_size * 8));
    auto copy = [&](const CopyShape &part, const uint8_t *from, uint8_t *to) {
        return run_xyz(device, part.x, part.y, part.z, part.loops, from, type, to, type, kernel->name,
                       [&](KernelCall *call, halide_buffer_t *in, halide_buffer_t *out) {
                           return kernel_fn<copy_fn>(kernel)(call, in, out);
                       });
    };
    const int64_t head = sector_head(shape, reinterpret_cast<uintptr_t>(output), element_size,
                                     device.thresholds.copy_sector_min_bytes);
    if (head == 0) return copy(shape, input, output);
    // Each row's head, then the rest, whose rows start on a sector.
    CopyShape head_part = shape, rest = shape;
    head_part.x.extent = head;
    rest.x.extent -= head;
    HDML_RETURN_IF_FAILED(copy(head_part, input, output));
    return copy(rest, input + must_mul<int64_t>(head * shape.x.in_stride, element_size),
                output + must_mul<int64_t>(head, element_size));
}

HRESULT run_parts(const hdml_device &device, const KernelEntry *kernel, const CopyShape &shape, uint8_t *span,
                  int32_t span_extent, const std::array<int32_t, kCopyPartsPerLaunch> &piece_offsets, int32_t pieces,
                  int32_t piece_step, uint8_t *whole, uint32_t element_size) {
    const bool split = kernel->family == Family::split_parts;
    const halide_type_t type(halide_type_uint, (uint8_t)(element_size * 8));
    const Dim *dims[3] = {&shape.x, &shape.y, &shape.z};
    return for_each_offset(shape.loops, [&](const Offsets &at) {
        const int64_t span_at = split ? at.out : at.in, whole_at = split ? at.in : at.out;
        KernelBuffer<1> span_buf(span + must_mul<int64_t>(span_at, element_size), type, device);
        span_buf.set_dim(0, span_extent, 1);
        KernelBuffer<4> whole_buf(whole + must_mul<int64_t>(whole_at, element_size), type, device);
        for (int d = 0; d < 3; ++d) {
            const int64_t stride = split ? dims[d]->in_stride : dims[d]->out_stride;
            whole_buf.set_dim(d, (int32_t)dims[d]->extent, (int32_t)stride);
        }
        whole_buf.set_dim(3, pieces, piece_step);
        const int32_t piece_strides[3] = {
            (int32_t)(split ? shape.x.out_stride : shape.x.in_stride),
            (int32_t)(split ? shape.y.out_stride : shape.y.in_stride),
            (int32_t)(split ? shape.z.out_stride : shape.z.in_stride)};
        KernelCall call(device);
        const auto ks = std::make_index_sequence<kCopyPartsPerLaunch>();
        const int result =
            split ? call_parts(kernel_fn<split_parts_fn>(kernel), &call, &whole_buf.buf, piece_strides, piece_offsets,
                               &span_buf.buf, ks)
                  : call_parts(kernel_fn<copy_parts_fn>(kernel), &call, &span_buf.buf, piece_strides, piece_offsets,
                               &whole_buf.buf, ks);
        return check_kernel(result, call, kernel->name);
    });
}

}  // namespace hdml
