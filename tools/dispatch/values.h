// DirectML data types as hdml-dispatch reads, stores and prints them.
#pragma once

#include "hdml/directml.h"

#include <cstdint>
#include <string>
#include <vector>

namespace hdml_dispatch {

uint32_t element_size(DML_TENSOR_DATA_TYPE type);  // 0 for UNKNOWN and the 4-bit types
const char *type_suffix(DML_TENSOR_DATA_TYPE type);  // "FLOAT32"
// Full ("DML_TENSOR_DATA_TYPE_FLOAT32") or short ("FLOAT32") names; false if unknown.
bool parse_data_type(const std::string &name, DML_TENSOR_DATA_TYPE *type);

// Stores `value` as one element of `type` at `out` (float16 rounds to nearest even,
// integers truncate toward zero and wrap as C++ conversions from int64/uint64 do).
void store_value(DML_TENSOR_DATA_TYPE type, double value, void *out);
// Prints one element the way DxDispatch's print command does ("6", "2.5", "nan").
std::string format_value(DML_TENSOR_DATA_TYPE type, const void *element);

float half_to_float(uint16_t h);
uint16_t float_to_half(float f);

}  // namespace hdml_dispatch
