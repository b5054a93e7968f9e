// A DML_BUFFER_TENSOR_DESC, validated and copied into plain values.
#pragma once

#include "hdml/directml.h"
#include "runtime/shape/limits.h"

#include <array>
#include <cstdint>
#include <string>

namespace hdml {

struct Tensor {
    std::string name;  // the desc field it came from, e.g. "InputTensor" or "OutputTensors[2]"
    DML_TENSOR_DATA_TYPE type = DML_TENSOR_DATA_TYPE_UNKNOWN;
    uint32_t rank = 0;
    std::array<uint32_t, kMaxRank> sizes{};
    std::array<uint32_t, kMaxRank> strides{};  // in elements; the packed strides when the desc gave none
    uint64_t total_bytes = 0;                  // TotalTensorSizeInBytes
    uint32_t base_alignment = 0;               // GuaranteedBaseOffsetAlignment (0: none promised)

    uint64_t element_count() const;
    // Byte alignment that bound offsets must respect.
    uint32_t offset_alignment() const { return base_alignment ? base_alignment : DML_MINIMUM_BUFFER_TENSOR_ALIGNMENT; }
};

// Bytes per element; 0 for UNKNOWN and the 4-bit types (no hdml operator takes those).
uint32_t element_size(DML_TENSOR_DATA_TYPE type);
// "DML_TENSOR_DATA_TYPE_FLOAT32", or "DML_TENSOR_DATA_TYPE(<n>)" for unknown values.
std::string type_name(DML_TENSOR_DATA_TYPE type);
// The Halide-generator spelling ("float32"), used to key kernels.
const char *kernel_type_name(DML_TENSOR_DATA_TYPE type);

// Checks every rule DirectML applies to a buffer tensor desc on its own
// (type, flags, rank 1-8, sizes > 0, <= 2^32-1 elements, TotalTensorSizeInBytes
// >= the implied size, GuaranteedBaseOffsetAlignment) and fills `out`.
// Returns E_INVALIDARG with a message naming `name` and the field on failure.
HRESULT read_tensor(const DML_TENSOR_DESC *desc, const std::string &name, Tensor *out);

// Every data type of the newest tables of the data-movement operators (GATHER,
// SPLIT, JOIN): all but the 4-bit types. Ends with DML_TENSOR_DATA_TYPE_UNKNOWN.
extern const DML_TENSOR_DATA_TYPE kDataMovementTypes[];
// The index types of GATHER's indices and of ARGMAX/ARGMIN outputs (newest
// tables). Ends with DML_TENSOR_DATA_TYPE_UNKNOWN.
extern const DML_TENSOR_DATA_TYPE kIndexTypes[];

// Rules relating two tensors; messages name both.
HRESULT require_same_type(const Tensor &a, const Tensor &b);
HRESULT require_same_rank(const Tensor &a, const Tensor &b);
// `allowed` lists the accepted types, terminated by DML_TENSOR_DATA_TYPE_UNKNOWN.
HRESULT require_type_in(const Tensor &t, const DML_TENSOR_DATA_TYPE *allowed, const char *context);

}  // namespace hdml
