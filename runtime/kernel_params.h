// Typed kernel parameters: what ops.cmake builds each kernel with, as enums
// and numbers the runtime compares (the generated kernel tables spell them as
// `KernelParams{}.with(param::op::sum)...`, so a misspelt key or value in the
// manifest fails to compile instead of falling back silently).
#pragma once

#include "hdml/directml.h"

#include <cstdint>
#include <string>

namespace hdml {

// Each list is one GeneratorParam's values as ops.cmake spells them (`none`
// first: the kernel was built without the parameter).
#define HDML_PARAM_DTYPE(X) \
    X(float32) X(float16) X(int8) X(int16) X(int32) X(int64) X(uint8) X(uint16) X(uint32) X(uint64)
#define HDML_PARAM_ITYPE(X) X(int32) X(int64) X(uint32) X(uint64)
#define HDML_PARAM_OP(X) X(sum) X(multiply) X(min) X(max) X(log_sum_exp) X(product)
#define HDML_PARAM_LAYOUT(X) X(inner) X(outer)
#define HDML_PARAM_COLUMNS(X) X(whole) X(warp_merge)
#define HDML_PARAM_ROWS(X) X(lanes) X(whole) X(vectors) X(vectors_prefetched)
#define HDML_PARAM_LANE_MERGE(X) X(shuffles)
#define HDML_PARAM_LOADS(X) X(words) X(column_words)
#define HDML_PARAM_STAGING(X) X(shared) X(lines) X(line_walk) X(columns) X(chunk_walk)

#define HDML_ENUMERATOR(value) value,
namespace param {
enum class dtype : uint8_t { none, HDML_PARAM_DTYPE(HDML_ENUMERATOR) };
enum class itype : uint8_t { none, HDML_PARAM_ITYPE(HDML_ENUMERATOR) };
enum class op : uint8_t { none, HDML_PARAM_OP(HDML_ENUMERATOR) };
enum class layout : uint8_t { none, HDML_PARAM_LAYOUT(HDML_ENUMERATOR) };
enum class columns : uint8_t { none, HDML_PARAM_COLUMNS(HDML_ENUMERATOR) };
enum class rows : uint8_t { none, HDML_PARAM_ROWS(HDML_ENUMERATOR) };
enum class lane_merge : uint8_t { none, HDML_PARAM_LANE_MERGE(HDML_ENUMERATOR) };
enum class loads : uint8_t { none, HDML_PARAM_LOADS(HDML_ENUMERATOR) };
enum class staging : uint8_t { none, HDML_PARAM_STAGING(HDML_ENUMERATOR) };
struct vector_bytes {
    int32_t value;
};
struct max_line {
    int32_t value;
};
struct key_bits {
    int32_t value;
};
struct period {  // CPU line walk: the scans a line interleaves
    int32_t value;
};
}  // namespace param
#undef HDML_ENUMERATOR

enum class Family : uint8_t {
    reduce, arg_reduce, gather, normalize_indices, copy, copy_parts, split_parts, scan, scan_carry_row
};

// One kernel's parameters; 0 / none where it was built without one.
struct KernelParams {
    param::dtype dtype = param::dtype::none;
    param::itype itype = param::itype::none;
    param::op op = param::op::none;
    param::layout layout = param::layout::none;
    param::columns columns = param::columns::none;
    param::rows rows = param::rows::none;
    param::lane_merge lane_merge = param::lane_merge::none;
    param::loads loads = param::loads::none;
    param::staging staging = param::staging::none;
    int32_t vector_bytes = 0;
    int32_t max_line = 0;
    int32_t key_bits = 0;
    int32_t period = 0;

    constexpr KernelParams with(param::dtype v) const { return set(&KernelParams::dtype, v); }
    constexpr KernelParams with(param::itype v) const { return set(&KernelParams::itype, v); }
    constexpr KernelParams with(param::op v) const { return set(&KernelParams::op, v); }
    constexpr KernelParams with(param::layout v) const { return set(&KernelParams::layout, v); }
    constexpr KernelParams with(param::columns v) const { return set(&KernelParams::columns, v); }
    constexpr KernelParams with(param::rows v) const { return set(&KernelParams::rows, v); }
    constexpr KernelParams with(param::lane_merge v) const { return set(&KernelParams::lane_merge, v); }
    constexpr KernelParams with(param::loads v) const { return set(&KernelParams::loads, v); }
    constexpr KernelParams with(param::staging v) const { return set(&KernelParams::staging, v); }
    constexpr KernelParams with(param::vector_bytes v) const { return set(&KernelParams::vector_bytes, v.value); }
    constexpr KernelParams with(param::max_line v) const { return set(&KernelParams::max_line, v.value); }
    constexpr KernelParams with(param::key_bits v) const { return set(&KernelParams::key_bits, v.value); }
    constexpr KernelParams with(param::period v) const { return set(&KernelParams::period, v.value); }
    // The parameters of `mapping` that are set, over these.
    KernelParams with_mapping(const KernelParams &mapping) const;

    bool operator==(const KernelParams &other) const;
    // "dtype=float32 layout=inner op=sum": set parameters, sorted by name as ops.cmake writes keys.
    std::string describe() const;

private:
    template <typename T>
    constexpr KernelParams set(T KernelParams::*field, T value) const {
        KernelParams p = *this;
        p.*field = value;
        return p;
    }
};

// The kernel element type of a DML type (none for types no kernel takes).
param::dtype kernel_dtype(DML_TENSOR_DATA_TYPE type);
param::itype kernel_itype(DML_TENSOR_DATA_TYPE type);
// The unsigned type of `bytes`-byte elements: data movement is keyed by size.
param::dtype uint_dtype(uint32_t bytes);

const char *family_name(Family family);

}  // namespace hdml
