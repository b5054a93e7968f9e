#include "tools/dispatch/operators.h"

#include "tools/dispatch/values.h"

#include <algorithm>
#include <cstring>
#include <map>

namespace hdml_dispatch {

namespace {

struct EnumType {
    const char *prefix;  // names may be written with or without it
    std::vector<std::pair<const char *, int32_t>> values;
};

const EnumType kReduceFunction{"DML_REDUCE_FUNCTION_",
                               {{"ARGMAX", DML_REDUCE_FUNCTION_ARGMAX},
                                {"ARGMIN", DML_REDUCE_FUNCTION_ARGMIN},
                                {"AVERAGE", DML_REDUCE_FUNCTION_AVERAGE},
                                {"L1", DML_REDUCE_FUNCTION_L1},
                                {"L2", DML_REDUCE_FUNCTION_L2},
                                {"LOG_SUM", DML_REDUCE_FUNCTION_LOG_SUM},
                                {"LOG_SUM_EXP", DML_REDUCE_FUNCTION_LOG_SUM_EXP},
                                {"MAX", DML_REDUCE_FUNCTION_MAX},
                                {"MIN", DML_REDUCE_FUNCTION_MIN},
                                {"MULTIPLY", DML_REDUCE_FUNCTION_MULTIPLY},
                                {"SUM", DML_REDUCE_FUNCTION_SUM},
                                {"SUM_SQUARE", DML_REDUCE_FUNCTION_SUM_SQUARE}}};
const EnumType kAxisDirection{"DML_AXIS_DIRECTION_",
                              {{"INCREASING", DML_AXIS_DIRECTION_INCREASING},
                               {"DECREASING", DML_AXIS_DIRECTION_DECREASING}}};
const EnumType kTensorFlag{"DML_TENSOR_FLAG_", {{"NONE", DML_TENSOR_FLAG_NONE}, {"OWNED_BY_DML", DML_TENSOR_FLAG_OWNED_BY_DML}}};

enum class Kind { Tensor, TensorArray, UInt, UIntArray, Enum, Bool };

struct Field {
    const char *name;
    Kind kind;
    const char *count = nullptr;        // TensorArray/UIntArray: the UINT field holding the length
    const EnumType *values = nullptr;  // Enum
};

struct OperatorSchema {
    const char *name;  // without DML_OPERATOR_
    DML_OPERATOR_TYPE type;
    std::vector<Field> fields;  // in the C struct's order
};

// The one table to extend when hdml gains an operator.
const std::vector<OperatorSchema> &schemas() {
    // DML_ARGMIN_OPERATOR_DESC and DML_ARGMAX_OPERATOR_DESC have the same fields.
    static const std::vector<Field> arg_reduce = {{"InputTensor", Kind::Tensor},
                                                  {"OutputTensor", Kind::Tensor},
                                                  {"AxisCount", Kind::UInt},
                                                  {"Axes", Kind::UIntArray, "AxisCount"},
                                                  {"AxisDirection", Kind::Enum, nullptr, &kAxisDirection}};
    static const std::vector<OperatorSchema> table = {
        {"REDUCE", DML_OPERATOR_REDUCE,
         {{"Function", Kind::Enum, nullptr, &kReduceFunction},
          {"InputTensor", Kind::Tensor},
          {"OutputTensor", Kind::Tensor},
          {"AxisCount", Kind::UInt},
          {"Axes", Kind::UIntArray, "AxisCount"}}},
        {"ARGMIN", DML_OPERATOR_ARGMIN, arg_reduce},
        {"ARGMAX", DML_OPERATOR_ARGMAX, arg_reduce},
        {"GATHER", DML_OPERATOR_GATHER,
         {{"InputTensor", Kind::Tensor},
          {"IndicesTensor", Kind::Tensor},
          {"OutputTensor", Kind::Tensor},
          {"Axis", Kind::UInt},
          {"IndexDimensions", Kind::UInt}}},
        {"CUMULATIVE_SUMMATION", DML_OPERATOR_CUMULATIVE_SUMMATION,
         {{"InputTensor", Kind::Tensor},
          {"OutputTensor", Kind::Tensor},
          {"Axis", Kind::UInt},
          {"AxisDirection", Kind::Enum, nullptr, &kAxisDirection},
          {"HasExclusiveSum", Kind::Bool}}},
        {"CUMULATIVE_PRODUCT", DML_OPERATOR_CUMULATIVE_PRODUCT,
         {{"InputTensor", Kind::Tensor},
          {"OutputTensor", Kind::Tensor},
          {"Axis", Kind::UInt},
          {"AxisDirection", Kind::Enum, nullptr, &kAxisDirection},
          {"HasExclusiveProduct", Kind::Bool}}},
        {"SPLIT", DML_OPERATOR_SPLIT,
         {{"InputTensor", Kind::Tensor},
          {"OutputCount", Kind::UInt},
          {"OutputTensors", Kind::TensorArray, "OutputCount"},
          {"Axis", Kind::UInt}}},
        {"JOIN", DML_OPERATOR_JOIN,
         {{"InputCount", Kind::UInt},
          {"InputTensors", Kind::TensorArray, "InputCount"},
          {"OutputTensor", Kind::Tensor},
          {"Axis", Kind::UInt}}},
    };
    return table;
}

std::string strip_prefix(const std::string &name, const std::string &prefix) {
    return name.compare(0, prefix.size(), prefix) == 0 ? name.substr(prefix.size()) : name;
}

int32_t read_enum(const EnumType &type, const Json &value, const std::string &path) {
    if (!value.is_string()) {
        throw ModelError(path, std::string("enum values are strings (e.g. \"") + type.prefix + type.values[0].first +
                                   "\"), found " + json_kind(value));
    }
    const std::string name = strip_prefix(value.get<std::string>(), type.prefix);
    for (const auto &v : type.values) {
        if (name == v.first) return v.second;
    }
    std::string known;
    for (const auto &v : type.values) known += std::string(known.empty() ? "" : ", ") + v.first;
    throw ModelError(path, "'" + value.get<std::string>() + "' is not a " +
                               std::string(type.prefix).substr(0, std::strlen(type.prefix) - 1) + " (" + known + ")");
}

// Flags: a string or an array of strings, OR-ed.
int32_t read_flags(const EnumType &type, const Json &value, const std::string &path) {
    if (!value.is_array()) return read_enum(type, value, path);
    int32_t flags = 0;
    for (size_t k = 0; k < value.size(); ++k) flags |= read_enum(type, value[k], element_path(path, k));
    return flags;
}

std::vector<UINT> read_uint_array(const Json &value, const std::string &path) {
    require_array(value, path);
    std::vector<UINT> out;
    for (size_t k = 0; k < value.size(); ++k) out.push_back((UINT)read_uint(value[k], element_path(path, k)));
    return out;
}

// Lays fields out with C's natural alignment: UINT, enums and BOOL take 4
// bytes, pointers 8 (the DirectML structs contain nothing else).
class StructWriter {
public:
    explicit StructWriter(std::vector<uint64_t> *blob) : blob_(blob) {}
    void put_u32(uint32_t v) { put(&v, 4); }
    void put_pointer(const void *p) { put(&p, sizeof p); }

private:
    void put(const void *data, size_t size) {
        offset_ = (offset_ + size - 1) / size * size;
        blob_->resize((offset_ + size + 7) / 8);
        std::memcpy(reinterpret_cast<uint8_t *>(blob_->data()) + offset_, data, size);
        offset_ += size;
    }
    std::vector<uint64_t> *blob_;
    size_t offset_ = 0;
};

}  // namespace

std::vector<std::string> known_operator_names() {
    std::vector<std::string> names;
    for (const auto &s : schemas()) names.push_back(std::string("DML_OPERATOR_") + s.name);
    return names;
}

namespace {

// A DML_TENSOR_DESC in short {DataType, Sizes, ...} or full {Type, Desc: {...}} form, with DxDispatch's defaults.
DML_BUFFER_TENSOR_DESC read_tensor_desc(const Json &value, const std::string &path, std::deque<std::vector<UINT>> *arrays) {
    require_object(value, path);
    const Json *body = &value;
    std::string body_path = path;
    if (const Json *type = optional_member(value, "Type")) {
        const std::string name = strip_prefix(read_string(*type, member_path(path, "Type")), "DML_TENSOR_TYPE_");
        if (name != "BUFFER") throw ModelError(member_path(path, "Type"), "only DML_TENSOR_TYPE_BUFFER tensors exist");
        body_path = member_path(path, "Desc");
        body = &require_member(value, "Desc", path);
        require_object(*body, body_path);
    }
    reject_unknown_fields(*body,
                          {"DataType", "Flags", "DimensionCount", "Sizes", "Strides", "TotalTensorSizeInBytes",
                           "GuaranteedBaseOffsetAlignment"},
                          body_path, "unknown field of DML_BUFFER_TENSOR_DESC");
    DML_BUFFER_TENSOR_DESC desc{};
    const std::string type_path = member_path(body_path, "DataType");
    if (!parse_data_type(read_string(require_member(*body, "DataType", body_path), type_path), &desc.DataType)) {
        throw ModelError(type_path, "'" + (*body)["DataType"].get<std::string>() + "' is not a DML_TENSOR_DATA_TYPE");
    }
    if (const Json *flags = optional_member(*body, "Flags")) {
        desc.Flags = (DML_TENSOR_FLAGS)read_flags(kTensorFlag, *flags, member_path(body_path, "Flags"));
    }
    arrays->push_back(read_uint_array(require_member(*body, "Sizes", body_path), member_path(body_path, "Sizes")));
    const std::vector<UINT> &sizes = arrays->back();
    desc.Sizes = sizes.data();
    desc.DimensionCount = (UINT)sizes.size();
    if (const Json *count = optional_member(*body, "DimensionCount")) {
        const uint64_t n = read_uint(*count, member_path(body_path, "DimensionCount"));
        if (n != sizes.size()) {
            throw ModelError(member_path(body_path, "DimensionCount"),
                             std::to_string(n) + " does not match the " + std::to_string(sizes.size()) +
                                 " entries of Sizes");
        }
    }
    if (const Json *strides = optional_member(*body, "Strides"); strides && !strides->is_null()) {
        arrays->push_back(read_uint_array(*strides, member_path(body_path, "Strides")));
        if (arrays->back().size() != sizes.size()) {
            throw ModelError(member_path(body_path, "Strides"),
                             "has " + std::to_string(arrays->back().size()) + " entries; Sizes has " +
                                 std::to_string(sizes.size()));
        }
        desc.Strides = arrays->back().data();
    }
    if (const Json *total = optional_member(*body, "TotalTensorSizeInBytes")) {
        desc.TotalTensorSizeInBytes = read_uint(*total, member_path(body_path, "TotalTensorSizeInBytes"), UINT64_MAX);
    }
    if (desc.TotalTensorSizeInBytes == 0) {
        desc.TotalTensorSizeInBytes =
            DMLCalcBufferTensorSize(desc.DataType, desc.DimensionCount, desc.Sizes, desc.Strides);
    }
    if (const Json *align = optional_member(*body, "GuaranteedBaseOffsetAlignment")) {
        desc.GuaranteedBaseOffsetAlignment = (UINT)read_uint(*align, member_path(body_path, "GuaranteedBaseOffsetAlignment"));
    }
    return desc;
}

}  // namespace

std::unique_ptr<OperatorDesc> build_operator_desc(const Json &dispatchable, const std::string &path) {
    require_object(dispatchable, path);
    const char *type_key = dispatchable.contains("Type") ? "Type" : "type";
    const char *desc_key = dispatchable.contains("Desc") ? "Desc" : "desc";
    const std::string type_path = member_path(path, type_key);
    const std::string type_name =
        strip_prefix(read_string(require_member(dispatchable, type_key, path), type_path), "DML_OPERATOR_");
    const auto &table = schemas();
    const auto schema = std::find_if(table.begin(), table.end(), [&](const OperatorSchema &s) { return type_name == s.name; });
    if (schema == table.end()) {
        std::string known;
        for (const auto &s : table) known += std::string(known.empty() ? "" : ", ") + s.name;
        throw ModelError(type_path, "unknown or unsupported operator '" + dispatchable[type_key].get<std::string>() +
                                        "' (hdml implements " + known + ")");
    }
    if (const Json *compile = optional_member(dispatchable, "dmlCompileType")) {
        const std::string kind = read_string(*compile, member_path(path, "dmlCompileType"));
        if (kind != "DmlCompileOp") {
            throw ModelError(member_path(path, "dmlCompileType"), "'" + kind + "' is not supported (only DmlCompileOp)");
        }
    }
    for (const char *unsupported : {"bindings", "executionFlags"}) {
        if (const Json *v = optional_member(dispatchable, unsupported); v && !v->empty()) {
            throw ModelError(member_path(path, unsupported),
                             "is not supported by hdml (no operator initializers, no execution flags)");
        }
    }
    const std::string desc_path = member_path(path, desc_key);
    const Json &json = require_member(dispatchable, desc_key, path);
    require_object(json, desc_path);
    std::vector<std::string> field_names;
    for (const Field &f : schema->fields) field_names.push_back(f.name);
    reject_unknown_fields(json, field_names, desc_path, std::string("unknown field of DML_") + schema->name + "_OPERATOR_DESC");

    auto result = std::make_unique<OperatorDesc>();
    result->type_ = schema->type;
    result->type_name_ = std::string("DML_OPERATOR_") + schema->name;
    std::map<std::string, uint64_t> counts;
    StructWriter writer(&result->blob_);
    for (const Field &field : schema->fields) {
        const std::string field_path = member_path(desc_path, field.name);
        const Json &value = require_member(json, field.name, desc_path);
        switch (field.kind) {
        case Kind::UInt: {
            const uint64_t v = read_uint(value, field_path);
            counts[field.name] = v;
            writer.put_u32((uint32_t)v);
            break;
        }
        case Kind::Enum: writer.put_u32((uint32_t)read_enum(*field.values, value, field_path)); break;
        case Kind::Bool: writer.put_u32(read_bool(value, field_path) ? 1 : 0); break;
        case Kind::UIntArray: {
            result->uint_arrays_.push_back(read_uint_array(value, field_path));
            const auto &array = result->uint_arrays_.back();
            if (array.size() != counts[field.count]) {
                throw ModelError(field_path, "has " + std::to_string(array.size()) + " entries but " + field.count +
                                                 " is " + std::to_string(counts[field.count]));
            }
            writer.put_pointer(array.data());
            break;
        }
        case Kind::Tensor:
        case Kind::TensorArray: {
            BindPoint bind{field.name, std::strncmp(field.name, "Output", 6) == 0, field.kind == Kind::TensorArray, {}};
            std::vector<DML_TENSOR_DESC> descs;
            auto add = [&](const Json &tensor, const std::string &tensor_path) {
                result->buffer_descs_.push_back(read_tensor_desc(tensor, tensor_path, &result->uint_arrays_));
                descs.push_back({DML_TENSOR_TYPE_BUFFER, &result->buffer_descs_.back()});
                bind.tensors.push_back(&result->buffer_descs_.back());
            };
            if (bind.array) {
                require_array(value, field_path);
                if (value.size() != counts[field.count]) {
                    throw ModelError(field_path, "has " + std::to_string(value.size()) + " tensor descs but " +
                                                     field.count + " is " + std::to_string(counts[field.count]));
                }
                for (size_t k = 0; k < value.size(); ++k) add(value[k], element_path(field_path, k));
            } else {
                add(value, field_path);
            }
            result->tensor_descs_.push_back(std::move(descs));
            writer.put_pointer(result->tensor_descs_.back().data());
            result->bind_points_.push_back(std::move(bind));
            break;
        }
        }
    }
    return result;
}

}  // namespace hdml_dispatch
