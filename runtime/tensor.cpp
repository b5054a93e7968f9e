#include "runtime/tensor.h"

#include "runtime/checked.h"
#include "runtime/error.h"

namespace hdml {

namespace {

struct TypeInfo {
    DML_TENSOR_DATA_TYPE type;
    const char *name;
    const char *kernel_name;
    uint32_t bits;
};

constexpr TypeInfo kTypes[] = {
    {DML_TENSOR_DATA_TYPE_UNKNOWN, "DML_TENSOR_DATA_TYPE_UNKNOWN", "unknown", 0},
    {DML_TENSOR_DATA_TYPE_FLOAT32, "DML_TENSOR_DATA_TYPE_FLOAT32", "float32", 32},
    {DML_TENSOR_DATA_TYPE_FLOAT16, "DML_TENSOR_DATA_TYPE_FLOAT16", "float16", 16},
    {DML_TENSOR_DATA_TYPE_UINT32, "DML_TENSOR_DATA_TYPE_UINT32", "uint32", 32},
    {DML_TENSOR_DATA_TYPE_UINT16, "DML_TENSOR_DATA_TYPE_UINT16", "uint16", 16},
    {DML_TENSOR_DATA_TYPE_UINT8, "DML_TENSOR_DATA_TYPE_UINT8", "uint8", 8},
    {DML_TENSOR_DATA_TYPE_INT32, "DML_TENSOR_DATA_TYPE_INT32", "int32", 32},
    {DML_TENSOR_DATA_TYPE_INT16, "DML_TENSOR_DATA_TYPE_INT16", "int16", 16},
    {DML_TENSOR_DATA_TYPE_INT8, "DML_TENSOR_DATA_TYPE_INT8", "int8", 8},
    {DML_TENSOR_DATA_TYPE_FLOAT64, "DML_TENSOR_DATA_TYPE_FLOAT64", "float64", 64},
    {DML_TENSOR_DATA_TYPE_UINT64, "DML_TENSOR_DATA_TYPE_UINT64", "uint64", 64},
    {DML_TENSOR_DATA_TYPE_INT64, "DML_TENSOR_DATA_TYPE_INT64", "int64", 64},
    {DML_TENSOR_DATA_TYPE_UINT4, "DML_TENSOR_DATA_TYPE_UINT4", "uint4", 4},
    {DML_TENSOR_DATA_TYPE_INT4, "DML_TENSOR_DATA_TYPE_INT4", "int4", 4},
};

// By the enum's integer value, which callers read with raw_enum (any value a C caller passes).
const TypeInfo *find_type(int32_t type) {
    const unsigned index = static_cast<unsigned>(type);
    return index < sizeof(kTypes) / sizeof(kTypes[0]) ? &kTypes[index] : nullptr;
}

bool is_power_of_two(uint64_t v) {
    return v != 0 && (v & (v - 1)) == 0;
}

// Offset of the last element + 1, in elements; exact (no 32-bit wrap) and
// saturated at 2^64-1 so an absurd desc can never look small.
uint64_t implied_element_span(uint32_t rank, const uint32_t *sizes, const uint32_t *strides) {
    unsigned __int128 last = 0;
    for (uint32_t d = 0; d < rank; ++d) {
        if (sizes[d] == 0) return 0;
        last += (unsigned __int128)(sizes[d] - 1) * strides[d];
    }
    last += 1;
    return last > UINT64_MAX ? UINT64_MAX : (uint64_t)last;
}

// Only called once the element count is known to fit in 32 bits.
void packed_strides(uint32_t rank, const uint32_t *sizes, uint32_t *strides) {
    uint32_t stride = 1;
    for (uint32_t d = rank; d-- > 0;) {
        strides[d] = stride;
        stride = must_mul(stride, sizes[d]);
    }
}

uint64_t implied_bytes(uint32_t bits, uint64_t elements) {
    const unsigned __int128 total_bits = (unsigned __int128)elements * bits;
    unsigned __int128 bytes = (total_bits + 7) / 8;
    bytes = (bytes + 3) & ~(unsigned __int128)3;
    return bytes > UINT64_MAX ? UINT64_MAX : (uint64_t)bytes;
}

// "2^64 or more", or the exact product, for messages.
std::string elements_text(uint32_t rank, const uint32_t *sizes) {
    uint64_t n;
    return checked_product(sizes, rank, &n) ? std::to_string(n) : std::string("2^64 or more");
}

}  // namespace

const DML_TENSOR_DATA_TYPE kDataMovementTypes[] = {
    DML_TENSOR_DATA_TYPE_FLOAT64, DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT16,
    DML_TENSOR_DATA_TYPE_INT64,   DML_TENSOR_DATA_TYPE_INT32,   DML_TENSOR_DATA_TYPE_INT16,
    DML_TENSOR_DATA_TYPE_INT8,    DML_TENSOR_DATA_TYPE_UINT64,  DML_TENSOR_DATA_TYPE_UINT32,
    DML_TENSOR_DATA_TYPE_UINT16,  DML_TENSOR_DATA_TYPE_UINT8,   DML_TENSOR_DATA_TYPE_UNKNOWN};

const DML_TENSOR_DATA_TYPE kIndexTypes[] = {DML_TENSOR_DATA_TYPE_INT64, DML_TENSOR_DATA_TYPE_INT32,
                                            DML_TENSOR_DATA_TYPE_UINT64, DML_TENSOR_DATA_TYPE_UINT32,
                                            DML_TENSOR_DATA_TYPE_UNKNOWN};

uint64_t Tensor::element_count() const {
    uint64_t n;
    if (!checked_product(sizes.data(), rank, &n)) std::abort();  // read_tensor rejected such sizes
    return n;
}

uint32_t element_size(DML_TENSOR_DATA_TYPE type) {
    const TypeInfo *info = find_type(raw_enum(type));
    return info && info->bits >= 8 ? info->bits / 8 : 0;
}

std::string type_name(DML_TENSOR_DATA_TYPE type) {
    const TypeInfo *info = find_type(raw_enum(type));
    return info ? info->name : format("DML_TENSOR_DATA_TYPE(%d)", raw_enum(type));
}

const char *kernel_type_name(DML_TENSOR_DATA_TYPE type) {
    const TypeInfo *info = find_type(raw_enum(type));
    return info ? info->kernel_name : "unknown";
}

HRESULT read_tensor(const DML_TENSOR_DESC *desc, const std::string &name, Tensor *out) {
    const char *n = name.c_str();
    if (!desc) return invalid_arg(format("Tensor '%s' is null; a DML_TENSOR_DESC is required.", n));
    if (raw_enum(desc->Type) != DML_TENSOR_TYPE_BUFFER) {
        return invalid_arg(format("Tensor '%s' has Type %d; only DML_TENSOR_TYPE_BUFFER (1) is valid.", n,
                                  raw_enum(desc->Type)));
    }
    const auto *buffer = static_cast<const DML_BUFFER_TENSOR_DESC *>(desc->Desc);
    if (!buffer) return invalid_arg(format("Tensor '%s' has a null Desc; it must point to a DML_BUFFER_TENSOR_DESC.", n));

    const int32_t data_type = raw_enum(buffer->DataType);
    const TypeInfo *info = data_type > 0 ? find_type(data_type) : nullptr;
    if (!info) {
        return invalid_arg(format("Tensor '%s' has DataType %s, which is not a valid DML_TENSOR_DATA_TYPE.", n,
                                  data_type == 0 ? "DML_TENSOR_DATA_TYPE_UNKNOWN"
                                                 : format("DML_TENSOR_DATA_TYPE(%d)", data_type).c_str()));
    }
    const uint32_t flags = (uint32_t)raw_enum(buffer->Flags);
    if (flags & ~(uint32_t)DML_TENSOR_FLAG_OWNED_BY_DML) {
        return invalid_arg(format("Tensor '%s' has Flags 0x%x, which contains bits that are not DML_TENSOR_FLAGS.", n,
                                  flags));
    }
    if (flags & DML_TENSOR_FLAG_OWNED_BY_DML) {
        return invalid_arg(format("Tensor '%s' has Flags DML_TENSOR_FLAG_OWNED_BY_DML; hdml has no operator "
                                  "initializer to bind owned tensors to, so only DML_TENSOR_FLAG_NONE is accepted.",
                                  n));
    }
    if (buffer->DimensionCount < 1 || buffer->DimensionCount > kMaxRank) {
        return invalid_arg(format("Tensor '%s' has DimensionCount %u, which is not between 1 and %u.", n,
                                  buffer->DimensionCount, kMaxRank));
    }
    if (!buffer->Sizes) return invalid_arg(format("Tensor '%s' has null Sizes; DimensionCount sizes are required.", n));

    Tensor t;
    t.name = name;
    t.type = (DML_TENSOR_DATA_TYPE)data_type;
    t.rank = buffer->DimensionCount;
    for (uint32_t d = 0; d < t.rank; ++d) {
        if (buffer->Sizes[d] == 0) {
            return invalid_arg(format("Tensor '%s' has Sizes[%u] = 0; every size must be greater than 0.", n, d));
        }
        t.sizes[d] = buffer->Sizes[d];
    }
    uint64_t elements;
    if (!checked_product(t.sizes.data(), t.rank, &elements) || elements > kMaxTensorElements) {
        const std::string count = elements_text(t.rank, t.sizes.data());
        return invalid_arg(format("Tensor '%s' has %s elements; a buffer tensor may hold at most 2^32-1 elements.", n,
                                  count.c_str()));
    }
    if (buffer->Strides) {
        for (uint32_t d = 0; d < t.rank; ++d) t.strides[d] = buffer->Strides[d];
    } else {
        packed_strides(t.rank, t.sizes.data(), t.strides.data());
    }
    const uint64_t minimum = implied_bytes(info->bits, implied_element_span(t.rank, t.sizes.data(), t.strides.data()));
    if (minimum > kMaxTensorSpanBytes) {
        return invalid_arg(format("Tensor '%s' spans %s bytes by its Sizes, Strides and DataType; hdml addresses at "
                                  "most 2^63-1 bytes of a tensor (no buffer can be larger).",
                                  n, minimum == UINT64_MAX ? "2^64 or more" : std::to_string(minimum).c_str()));
    }
    if (buffer->TotalTensorSizeInBytes < minimum) {
        return invalid_arg(format("Tensor '%s' has TotalTensorSizeInBytes %llu, smaller than the %llu bytes implied by "
                                  "its Sizes, Strides and DataType (DMLCalcBufferTensorSize).",
                                  n, (unsigned long long)buffer->TotalTensorSizeInBytes, (unsigned long long)minimum));
    }
    const uint32_t alignment = buffer->GuaranteedBaseOffsetAlignment;
    if (alignment != 0 && (!is_power_of_two(alignment) || (uint64_t)alignment * 8 < info->bits)) {
        return invalid_arg(format("Tensor '%s' has GuaranteedBaseOffsetAlignment %u; it must be 0 or a power of two "
                                  "at least as large as the element size (%u bytes).",
                                  n, alignment, info->bits < 8 ? 1 : info->bits / 8));
    }
    t.total_bytes = buffer->TotalTensorSizeInBytes;
    t.base_alignment = alignment;
    *out = t;
    return S_OK;
}

HRESULT require_same_type(const Tensor &a, const Tensor &b) {
    if (a.type == b.type) return S_OK;
    return invalid_arg(format("Mismatched tensor data types. Tensor '%s' has DataType of %s, while tensor '%s' has "
                              "DataType of %s. Both tensors are expected to have the same DataType.",
                              b.name.c_str(), type_name(b.type).c_str(), a.name.c_str(), type_name(a.type).c_str()));
}

HRESULT require_same_rank(const Tensor &a, const Tensor &b) {
    if (a.rank == b.rank) return S_OK;
    return invalid_arg(format("Mismatched tensor dimension counts. Tensor '%s' has DimensionCount %u, while tensor "
                              "'%s' has DimensionCount %u. Both are expected to have the same DimensionCount.",
                              b.name.c_str(), b.rank, a.name.c_str(), a.rank));
}

HRESULT require_type_in(const Tensor &t, const DML_TENSOR_DATA_TYPE *allowed, const char *context) {
    std::string list;
    for (const DML_TENSOR_DATA_TYPE *p = allowed; *p != DML_TENSOR_DATA_TYPE_UNKNOWN; ++p) {
        if (*p == t.type) return S_OK;
        list += (list.empty() ? "" : ", ") + type_name(*p);
    }
    return invalid_arg(format("Tensor '%s' has DataType %s, which %s does not support; supported: %s.",
                              t.name.c_str(), type_name(t.type).c_str(), context, list.c_str()));
}

}  // namespace hdml

extern "C" UINT64 DMLCalcBufferTensorSize(DML_TENSOR_DATA_TYPE dataType, UINT dimensionCount, const UINT *sizes,
                                          const UINT *strides) {
    using namespace hdml;
    // The type's bits, read as an integer: a C caller may pass any value.
    const TypeInfo *info = find_type(raw_enum(dataType));
    const uint32_t bits = info ? info->bits : 0;
    if (bits == 0 || !sizes || dimensionCount == 0 || dimensionCount > kMaxRank) return 0;
    // Sizes or strides whose span exceeds 2^64-1 bytes give 2^64-1 (with or
    // without strides): a size no buffer has, where a wrapped one would look small.
    uint64_t elements;
    if (strides) {
        elements = implied_element_span(dimensionCount, sizes, strides);
    } else if (!checked_product(sizes, dimensionCount, &elements)) {
        return UINT64_MAX;
    }
    return implied_bytes(bits, elements);
}
