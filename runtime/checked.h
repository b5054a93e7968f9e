// Overflow-checked arithmetic for every size, stride, offset and byte count
// that a caller controls. Validation rejects what overflows; once a tensor is
// read (tensor.h), its element count is below 2^32 and its byte span below
// 2^63, so planning and execution, which multiply only those, stay in range:
// they call these helpers too, so a broken invariant fails loudly, not silently.
#pragma once

#include <cstdint>
#include <cstdlib>

namespace hdml {

// a * b and a + b into *out; false (and *out unspecified) when the exact result
// does not fit the type.
template <typename T>
[[nodiscard]] bool checked_mul(T a, T b, T *out) {
    return !__builtin_mul_overflow(a, b, out);
}
template <typename T>
[[nodiscard]] bool checked_add(T a, T b, T *out) {
    return !__builtin_add_overflow(a, b, out);
}

// The product of `count` sizes, or false when it exceeds 2^64-1.
[[nodiscard]] inline bool checked_product(const uint32_t *sizes, uint32_t count, uint64_t *out) {
    uint64_t n = 1;
    for (uint32_t d = 0; d < count; ++d) {
        if (!checked_mul<uint64_t>(n, sizes[d], &n)) return false;
    }
    *out = n;
    return true;
}

// Whether want == a * b exactly (false where a * b overflows): dims chain when
// the outer stride is the inner stride times the inner extent.
[[nodiscard]] inline bool equals_product(int64_t want, int64_t a, int64_t b) {
    int64_t product;
    return checked_mul(a, b, &product) && product == want;
}

// Whether two dims' extents fuse into one of at most `limit` elements.
[[nodiscard]] inline bool fused_extent(int64_t outer, int64_t inner, int64_t limit) {
    int64_t product;
    return checked_mul(outer, inner, &product) && product <= limit;
}

// For values validation has already bounded (see the header comment): the
// exact result, or abort() rather than a wrapped value that could address
// memory outside a binding.
template <typename T>
T must_mul(T a, T b) {
    T out;
    if (!checked_mul(a, b, &out)) std::abort();
    return out;
}

}  // namespace hdml
