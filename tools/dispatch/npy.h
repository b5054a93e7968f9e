// NumPy .npy files (format versions 1.0-3.0): little-endian arrays of the
// DirectML data types, C order. Big-endian data, Fortran order, object and
// structured dtypes are rejected with a message naming the file and the field.
#pragma once

#include "hdml/directml.h"

#include <cstdint>
#include <string>
#include <vector>

namespace hdml_dispatch {

struct NpyArray {
    DML_TENSOR_DATA_TYPE type = DML_TENSOR_DATA_TYPE_UNKNOWN;
    std::vector<uint64_t> shape;
    std::vector<uint8_t> data;  // element count x element size bytes
};

// Parses .npy bytes; throws std::runtime_error with the reason.
NpyArray parse_npy(const std::vector<uint8_t> &bytes);
// Serialises as format 1.0 (2.0 if the header needs it).
std::vector<uint8_t> serialize_npy(const NpyArray &array);

const char *npy_descr(DML_TENSOR_DATA_TYPE type);  // "<f4"; nullptr if NumPy has no such dtype

}  // namespace hdml_dispatch
