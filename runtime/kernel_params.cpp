#include "runtime/kernel_params.h"

#include "runtime/error.h"

#include <tuple>
#include <vector>

namespace hdml {

namespace {

// name(v): the value as ops.cmake spells it, nullptr for none.
#define HDML_NAME_CASE(value) \
    case E::value:            \
        return #value;
#define HDML_NAME_FUNCTION(type, LIST)                         \
    const char *name(param::type v) {                          \
        using E = param::type;                                 \
        switch (v) { LIST(HDML_NAME_CASE) default: return nullptr; } \
    }
HDML_NAME_FUNCTION(dtype, HDML_PARAM_DTYPE)
HDML_NAME_FUNCTION(itype, HDML_PARAM_ITYPE)
HDML_NAME_FUNCTION(op, HDML_PARAM_OP)
HDML_NAME_FUNCTION(layout, HDML_PARAM_LAYOUT)
HDML_NAME_FUNCTION(columns, HDML_PARAM_COLUMNS)
HDML_NAME_FUNCTION(rows, HDML_PARAM_ROWS)
HDML_NAME_FUNCTION(lane_merge, HDML_PARAM_LANE_MERGE)
HDML_NAME_FUNCTION(loads, HDML_PARAM_LOADS)
HDML_NAME_FUNCTION(staging, HDML_PARAM_STAGING)
#undef HDML_NAME_FUNCTION
#undef HDML_NAME_CASE

auto as_tuple(const KernelParams &p) {
    return std::tie(p.dtype, p.itype, p.op, p.layout, p.columns, p.rows, p.lane_merge, p.loads, p.staging, p.vector_bytes,
                    p.max_line, p.key_bits, p.period);
}

template <typename E>
void merge(E *field, E value) {
    if (value != E{}) *field = value;
}

}  // namespace

KernelParams KernelParams::with_mapping(const KernelParams &m) const {
    KernelParams p = *this;
    merge(&p.dtype, m.dtype), merge(&p.itype, m.itype), merge(&p.op, m.op), merge(&p.layout, m.layout);
    merge(&p.columns, m.columns), merge(&p.rows, m.rows), merge(&p.lane_merge, m.lane_merge), merge(&p.loads, m.loads);
    merge(&p.staging, m.staging), merge(&p.vector_bytes, m.vector_bytes), merge(&p.max_line, m.max_line);
    merge(&p.key_bits, m.key_bits), merge(&p.period, m.period);
    return p;
}

bool KernelParams::operator==(const KernelParams &other) const {
    return as_tuple(*this) == as_tuple(other);
}

std::string KernelParams::describe() const {
    std::vector<std::string> parts;  // in ops.cmake's key order (sorted by name)
    auto add = [&](const char *key, const char *value) {
        if (value) parts.push_back(format("%s=%s", key, value));
    };
    add("columns", name(columns));
    add("dtype", name(dtype));
    add("itype", name(itype));
    if (key_bits) parts.push_back(format("key_bits=%d", key_bits));
    add("lane_merge", name(lane_merge));
    add("layout", name(layout));
    add("loads", name(loads));
    if (max_line) parts.push_back(format("max_line=%d", max_line));
    add("op", name(op));
    if (period) parts.push_back(format("period=%d", period));
    add("rows", name(rows));
    add("staging", name(staging));
    if (vector_bytes) parts.push_back(format("vector_bytes=%d", vector_bytes));
    std::string joined;
    for (const std::string &part : parts) joined += (joined.empty() ? "" : " ") + part;
    return joined;
}

param::dtype kernel_dtype(DML_TENSOR_DATA_TYPE type) {
    switch (type) {
        case DML_TENSOR_DATA_TYPE_FLOAT32: return param::dtype::float32;
        case DML_TENSOR_DATA_TYPE_FLOAT16: return param::dtype::float16;
        case DML_TENSOR_DATA_TYPE_INT8: return param::dtype::int8;
        case DML_TENSOR_DATA_TYPE_INT16: return param::dtype::int16;
        case DML_TENSOR_DATA_TYPE_INT32: return param::dtype::int32;
        case DML_TENSOR_DATA_TYPE_INT64: return param::dtype::int64;
        case DML_TENSOR_DATA_TYPE_UINT8: return param::dtype::uint8;
        case DML_TENSOR_DATA_TYPE_UINT16: return param::dtype::uint16;
        case DML_TENSOR_DATA_TYPE_UINT32: return param::dtype::uint32;
        case DML_TENSOR_DATA_TYPE_UINT64: return param::dtype::uint64;
        default: return param::dtype::none;
    }
}

param::itype kernel_itype(DML_TENSOR_DATA_TYPE type) {
    switch (type) {
        case DML_TENSOR_DATA_TYPE_INT32: return param::itype::int32;
        case DML_TENSOR_DATA_TYPE_INT64: return param::itype::int64;
        case DML_TENSOR_DATA_TYPE_UINT32: return param::itype::uint32;
        case DML_TENSOR_DATA_TYPE_UINT64: return param::itype::uint64;
        default: return param::itype::none;
    }
}

param::dtype uint_dtype(uint32_t bytes) {
    switch (bytes) {
        case 1: return param::dtype::uint8;
        case 2: return param::dtype::uint16;
        case 4: return param::dtype::uint32;
        case 8: return param::dtype::uint64;
        default: return param::dtype::none;
    }
}

const char *family_name(Family family) {
    switch (family) {
        case Family::reduce: return "reduce";
        case Family::arg_reduce: return "arg_reduce";
        case Family::gather: return "gather";
        case Family::normalize_indices: return "normalize_indices";
        case Family::copy: return "copy";
        case Family::copy_parts: return "copy_parts";
        case Family::split_parts: return "split_parts";
        case Family::scan: return "scan";
        case Family::scan_carry_row: return "scan_carry_row";
    }
    return "?";
}

}  // namespace hdml
