// IEEE binary16 <-> float conversion for the tests, written independently of
// the library (round to nearest even; NaN, infinities and subnormals exact).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace hdml_test {

inline float half_to_float(uint16_t h) {
    const int sign = (h >> 15) & 1;
    const int exponent = (h >> 10) & 0x1F;
    const int mantissa = h & 0x3FF;
    float value;
    if (exponent == 0) {
        value = std::ldexp((float)mantissa, -24);
    } else if (exponent == 31) {
        value = mantissa ? NAN : INFINITY;
    } else {
        value = std::ldexp((float)(mantissa | 0x400), exponent - 25);
    }
    return sign ? -value : value;
}

inline uint16_t float_to_half(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    const uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
    const uint32_t magnitude = x & 0x7FFFFFFF;
    if (magnitude > 0x7F800000) return sign | 0x7E00;          // NaN
    if (magnitude >= 0x477FF000) return sign | 0x7C00;         // rounds to infinity
    if (magnitude < 0x33000001) return sign;                   // rounds to zero
    int exponent = (int)(magnitude >> 23) - 127;
    uint32_t mantissa = (magnitude & 0x7FFFFF) | 0x800000;
    int shift = exponent < -14 ? (-14 - exponent) + 13 : 13;  // subnormal halves lose more bits
    uint32_t result = mantissa >> shift;
    const uint32_t remainder = mantissa & ((1u << shift) - 1);
    const uint32_t half_way = 1u << (shift - 1);
    if (remainder > half_way || (remainder == half_way && (result & 1))) ++result;
    if (exponent < -14) return sign | (uint16_t)result;
    return sign | (uint16_t)((((uint32_t)(exponent + 15)) << 10) + (result - 0x400));
}

}  // namespace hdml_test
