#include "tools/dispatch/values.h"

#include <cmath>
#include <cstring>
#include <sstream>

namespace hdml_dispatch {

namespace {

struct TypeInfo {
    DML_TENSOR_DATA_TYPE type;
    const char *name;
    uint32_t size;
};

constexpr TypeInfo kTypes[] = {
    {DML_TENSOR_DATA_TYPE_UNKNOWN, "UNKNOWN", 0}, {DML_TENSOR_DATA_TYPE_FLOAT32, "FLOAT32", 4},
    {DML_TENSOR_DATA_TYPE_FLOAT16, "FLOAT16", 2}, {DML_TENSOR_DATA_TYPE_UINT32, "UINT32", 4},
    {DML_TENSOR_DATA_TYPE_UINT16, "UINT16", 2},   {DML_TENSOR_DATA_TYPE_UINT8, "UINT8", 1},
    {DML_TENSOR_DATA_TYPE_INT32, "INT32", 4},     {DML_TENSOR_DATA_TYPE_INT16, "INT16", 2},
    {DML_TENSOR_DATA_TYPE_INT8, "INT8", 1},       {DML_TENSOR_DATA_TYPE_FLOAT64, "FLOAT64", 8},
    {DML_TENSOR_DATA_TYPE_UINT64, "UINT64", 8},   {DML_TENSOR_DATA_TYPE_INT64, "INT64", 8},
    {DML_TENSOR_DATA_TYPE_UINT4, "UINT4", 0},     {DML_TENSOR_DATA_TYPE_INT4, "INT4", 0},
};

const TypeInfo *find(DML_TENSOR_DATA_TYPE type) {
    for (const auto &t : kTypes) {
        if (t.type == type) return &t;
    }
    return nullptr;
}

template <typename T>
void put(T v, void *out) {
    std::memcpy(out, &v, sizeof v);
}
template <typename T>
T get(const void *in) {
    T v;
    std::memcpy(&v, in, sizeof v);
    return v;
}

// Integers from a double: in range of int64 converts through int64 (negative
// values wrap into unsigned types), larger values through uint64.
template <typename T>
T to_integer(double value) {
    if (std::isnan(value)) return 0;
    if (value < 0) return (T)(int64_t)std::max(value, -9.2233720368547758e18);
    return (T)(uint64_t)std::min(value, 1.8446744073709550e19);
}

std::string format_float(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
    std::ostringstream out;
    out << v;
    return out.str();
}

}  // namespace

uint32_t element_size(DML_TENSOR_DATA_TYPE type) {
    const TypeInfo *t = find(type);
    return t ? t->size : 0;
}

const char *type_suffix(DML_TENSOR_DATA_TYPE type) {
    const TypeInfo *t = find(type);
    return t ? t->name : "?";
}

bool parse_data_type(const std::string &name, DML_TENSOR_DATA_TYPE *type) {
    const std::string prefix = "DML_TENSOR_DATA_TYPE_";
    const std::string suffix = name.compare(0, prefix.size(), prefix) == 0 ? name.substr(prefix.size()) : name;
    for (const auto &t : kTypes) {
        if (suffix == t.name) {
            *type = t.type;
            return true;
        }
    }
    return false;
}

float half_to_float(uint16_t h) {
    const uint32_t sign = (uint32_t)(h & 0x8000) << 16, exponent = (h >> 10) & 0x1F, mantissa = h & 0x3FF;
    if (exponent == 0x1F) {
        const uint32_t bits = sign | 0x7F800000 | (mantissa << 13);
        return get<float>(&bits);
    }
    const float magnitude = exponent == 0 ? std::ldexp((float)mantissa, -24)
                                          : std::ldexp((float)(mantissa | 0x400), (int)exponent - 25);
    return sign ? -magnitude : magnitude;
}

uint16_t float_to_half(float f) {
    const uint32_t bits = get<uint32_t>(&f);
    const uint16_t sign = (uint16_t)((bits >> 16) & 0x8000);
    const uint32_t magnitude = bits & 0x7FFFFFFF;
    if (magnitude > 0x7F800000) return sign | 0x7E00;             // NaN
    if (magnitude >= 0x477FF000) return sign | 0x7C00;            // rounds to infinity
    if (magnitude >= 0x38800000) {                                // normal: rebias, round to nearest even
        return sign | (uint16_t)((magnitude - 0x38000000 + 0xFFF + ((magnitude >> 13) & 1)) >> 13);
    }
    const float scaled = std::fabs(f) * 16777216.0f;              // subnormal: units of 2^-24
    return sign | (uint16_t)std::nearbyint(scaled);
}

void store_value(DML_TENSOR_DATA_TYPE type, double value, void *out) {
    switch (type) {
    case DML_TENSOR_DATA_TYPE_FLOAT32: return put((float)value, out);
    case DML_TENSOR_DATA_TYPE_FLOAT16: return put(float_to_half((float)value), out);
    case DML_TENSOR_DATA_TYPE_FLOAT64: return put(value, out);
    case DML_TENSOR_DATA_TYPE_UINT8: return put(to_integer<uint8_t>(value), out);
    case DML_TENSOR_DATA_TYPE_UINT16: return put(to_integer<uint16_t>(value), out);
    case DML_TENSOR_DATA_TYPE_UINT32: return put(to_integer<uint32_t>(value), out);
    case DML_TENSOR_DATA_TYPE_UINT64: return put(to_integer<uint64_t>(value), out);
    case DML_TENSOR_DATA_TYPE_INT8: return put(to_integer<int8_t>(value), out);
    case DML_TENSOR_DATA_TYPE_INT16: return put(to_integer<int16_t>(value), out);
    case DML_TENSOR_DATA_TYPE_INT32: return put(to_integer<int32_t>(value), out);
    case DML_TENSOR_DATA_TYPE_INT64: return put(to_integer<int64_t>(value), out);
    default: return;
    }
}

std::string format_value(DML_TENSOR_DATA_TYPE type, const void *element) {
    switch (type) {
    case DML_TENSOR_DATA_TYPE_FLOAT32: return format_float(get<float>(element));
    case DML_TENSOR_DATA_TYPE_FLOAT16: return format_float(half_to_float(get<uint16_t>(element)));
    case DML_TENSOR_DATA_TYPE_FLOAT64: return format_float(get<double>(element));
    case DML_TENSOR_DATA_TYPE_UINT8: return std::to_string(get<uint8_t>(element));
    case DML_TENSOR_DATA_TYPE_UINT16: return std::to_string(get<uint16_t>(element));
    case DML_TENSOR_DATA_TYPE_UINT32: return std::to_string(get<uint32_t>(element));
    case DML_TENSOR_DATA_TYPE_UINT64: return std::to_string(get<uint64_t>(element));
    case DML_TENSOR_DATA_TYPE_INT8: return std::to_string(get<int8_t>(element));
    case DML_TENSOR_DATA_TYPE_INT16: return std::to_string(get<int16_t>(element));
    case DML_TENSOR_DATA_TYPE_INT32: return std::to_string(get<int32_t>(element));
    case DML_TENSOR_DATA_TYPE_INT64: return std::to_string(get<int64_t>(element));
    default: return "?";
    }
}

}  // namespace hdml_dispatch
