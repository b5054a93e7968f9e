#include "runtime/strided_copy.h"

#include <cstring>

namespace hdml {

namespace {

template <typename T>
void copy_innermost(T *dst, int64_t dst_stride, const T *src, int64_t src_stride, uint32_t n) {
    for (uint32_t k = 0; k < n; ++k) dst[k * dst_stride] = src[k * src_stride];
}

template <typename T>
void copy_nd(uint8_t *dst, const int64_t *dst_strides, const uint8_t *src, const int64_t *src_strides,
             const uint32_t *sizes, uint32_t rank) {
    if (rank == 1) {
        copy_innermost(reinterpret_cast<T *>(dst), dst_strides[0], reinterpret_cast<const T *>(src), src_strides[0],
                       sizes[0]);
        return;
    }
    for (uint32_t k = 0; k < sizes[0]; ++k) {
        copy_nd<T>(dst + k * dst_strides[0] * (int64_t)sizeof(T), dst_strides + 1,
                   src + k * src_strides[0] * (int64_t)sizeof(T), src_strides + 1, sizes + 1, rank - 1);
    }
}

}  // namespace

void strided_copy(void *dst, const int64_t *dst_strides, const void *src, const int64_t *src_strides,
                  const uint32_t *sizes, uint32_t rank, uint32_t element_size) {
    auto *d = static_cast<uint8_t *>(dst);
    const auto *s = static_cast<const uint8_t *>(src);
    switch (element_size) {
    case 1: copy_nd<uint8_t>(d, dst_strides, s, src_strides, sizes, rank); break;
    case 2: copy_nd<uint16_t>(d, dst_strides, s, src_strides, sizes, rank); break;
    case 4: copy_nd<uint32_t>(d, dst_strides, s, src_strides, sizes, rank); break;
    case 8: copy_nd<uint64_t>(d, dst_strides, s, src_strides, sizes, rank); break;
    }
}

}  // namespace hdml
