// Copies an N-D strided tensor element by element (any element size).
#pragma once

#include <cstdint>

namespace hdml {

// Strides are in elements, dimension 0 outermost.
void strided_copy(void *dst, const int64_t *dst_strides, const void *src, const int64_t *src_strides,
                  const uint32_t *sizes, uint32_t rank, uint32_t element_size);

}  // namespace hdml
