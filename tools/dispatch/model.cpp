#include "tools/dispatch/model.h"

#include "tools/dispatch/npy.h"
#include "tools/dispatch/values.h"

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

namespace hdml_dispatch {

namespace {

std::vector<uint8_t> read_file_bytes(const std::string &file, const std::string &path) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw ModelError(path, "cannot open '" + file + "'");
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string extension_of(const std::string &file) {
    const size_t dot = file.find_last_of('.'), slash = file.find_last_of('/');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
    std::string ext = file.substr(dot);
    for (char &c : ext) c = (char)std::tolower((unsigned char)c);
    return ext;
}

std::string resolve(const std::string &dir, const std::string &file) {
    if (dir.empty() || file.empty() || file[0] == '/') return file;
    return dir + "/" + file;
}

bool is_float_type(DML_TENSOR_DATA_TYPE t) {
    return t == DML_TENSOR_DATA_TYPE_FLOAT16 || t == DML_TENSOR_DATA_TYPE_FLOAT32 || t == DML_TENSOR_DATA_TYPE_FLOAT64;
}

// One element of an initialValues array: a number, or "nan", "inf", "-inf" for float types.
double read_initial_value(const Json &value, DML_TENSOR_DATA_TYPE type, const std::string &path) {
    if (value.is_number()) return value.get<double>();
    if (value.is_string() && is_float_type(type)) {
        const std::string s = value.get<std::string>();
        if (s == "nan" || s == "NaN") return std::numeric_limits<double>::quiet_NaN();
        if (s == "inf" || s == "+inf") return INFINITY;
        if (s == "-inf") return -INFINITY;
    }
    throw ModelError(path, std::string("expected a number") + (is_float_type(type) ? " or \"nan\", \"inf\", \"-inf\"" : "") +
                               ", found " + (value.is_string() ? "\"" + value.get<std::string>() + "\"" : json_kind(value)));
}

void require_within_limit(uint64_t bytes, const LoadOptions &options, const std::string &path) {
    if (bytes > options.max_resource_bytes) {
        throw ModelError(path, "a resource of " + std::to_string(bytes) + " bytes exceeds the limit of " +
                                   std::to_string(options.max_resource_bytes) + " bytes");
    }
}

Resource read_resource(const Json &json, const std::string &path, const LoadOptions &options) {
    require_object(json, path);
    for (const char *unsupported : {"initialValuesOffsetInBytes", "resampleSize", "resampleMode"}) {
        if (json.contains(unsupported)) throw ModelError(member_path(path, unsupported), "is not supported by hdml-dispatch");
    }
    reject_unknown_fields(json, {"initialValues", "initialValuesDataType", "sizeInBytes"}, path, "unknown resource field");
    Resource r;
    bool typed = false;
    if (const Json *type = optional_member(json, "initialValuesDataType")) {
        const std::string type_path = member_path(path, "initialValuesDataType");
        if (!parse_data_type(read_string(*type, type_path), &r.type)) {
            throw ModelError(type_path, "'" + type->get<std::string>() + "' is not a DML_TENSOR_DATA_TYPE");
        }
        if (element_size(r.type) == 0) {
            throw ModelError(type_path, std::string("resources of type ") + type_suffix(r.type) + " are not supported");
        }
        typed = true;
    }
    const std::string values_path = member_path(path, "initialValues");
    const Json &values = require_member(json, "initialValues", path);
    auto value_count = [&]() {
        return read_uint(require_member(values, "valueCount", values_path), member_path(values_path, "valueCount"),
                         UINT64_MAX);
    };
    auto require_type = [&]() {
        if (!typed) throw ModelError(member_path(path, "initialValuesDataType"), "required field is missing");
    };
    auto fill = [&](uint64_t count, auto value_at) {
        if (count > (1ull << 32)) throw ModelError(values_path, "more than 2^32 values");
        const uint32_t esize = element_size(r.type);
        require_within_limit(count * esize, options, values_path);
        r.element_count = count;
        r.bytes.assign(count * esize, 0);
        for (uint64_t k = 0; k < count; ++k) store_value(r.type, value_at(k), r.bytes.data() + k * esize);
    };
    if (values.is_array()) {
        require_type();
        fill(values.size(), [&](uint64_t k) { return read_initial_value(values[k], r.type, element_path(values_path, k)); });
    } else if (values.is_object() && values.contains("sourcePath")) {
        const std::string source_path = member_path(values_path, "sourcePath");
        const std::string file = resolve(options.input_dir, read_string(values["sourcePath"], source_path));
        const std::string ext = extension_of(file);
        if (ext == ".npy") {
            const std::vector<uint8_t> bytes = read_file_bytes(file, source_path);
            NpyArray array;
            try {
                array = parse_npy(bytes);
            } catch (const std::exception &e) {
                throw ModelError(source_path, "'" + file + "' is " + e.what());
            }
            if (typed && array.type != r.type) {
                throw ModelError(member_path(path, "initialValuesDataType"),
                                 std::string(type_suffix(r.type)) + " does not match the file's dtype " +
                                     type_suffix(array.type));
            }
            r.type = array.type;
            r.element_count = array.data.size() / element_size(array.type);
            r.bytes = std::move(array.data);
            r.shape = array.shape;
        } else if (ext == ".bin" || ext == ".dat") {
            require_type();
            r.bytes = read_file_bytes(file, source_path);
            r.element_count = r.bytes.size() / element_size(r.type);
        } else {
            throw ModelError(source_path, "'" + file + "': only .npy, .bin and .dat files are supported");
        }
    } else if (values.is_object() && values.contains("valueStart")) {
        require_type();
        const uint64_t count = value_count();
        const double start = read_number(values["valueStart"], member_path(values_path, "valueStart"));
        const double delta = read_number(require_member(values, "valueDelta", values_path), member_path(values_path, "valueDelta"));
        fill(count, [&](uint64_t k) { return start + delta * (double)k; });
    } else if (values.is_object() && values.contains("value")) {
        require_type();
        const uint64_t count = value_count();
        const double value = read_initial_value(values["value"], r.type, member_path(values_path, "value"));
        fill(count, [&](uint64_t) { return value; });
    } else {
        throw ModelError(values_path, "expected an array of values, {valueCount, value}, {valueCount, valueStart, "
                                      "valueDelta} or {sourcePath}");
    }
    if (r.shape.empty()) r.shape = {r.element_count};
    const uint64_t data_bytes = r.bytes.size();
    uint64_t size = (data_bytes + 3) / 4 * 4;  // DirectML's 4-byte buffer alignment
    if (const Json *explicit_size = optional_member(json, "sizeInBytes")) {
        size = read_uint(*explicit_size, member_path(path, "sizeInBytes"), UINT64_MAX);
        if (size < data_bytes) {
            throw ModelError(member_path(path, "sizeInBytes"), std::to_string(size) + " is smaller than the " +
                                                                   std::to_string(data_bytes) + " bytes of initialValues");
        }
    }
    require_within_limit(size, options, member_path(path, "sizeInBytes"));
    r.bytes.resize(size, 0);
    return r;
}

Binding read_binding(const Json &json, const std::string &path, const Model &model, const DML_BUFFER_TENSOR_DESC &tensor) {
    Binding b;
    uint64_t element_offset = 0, element_size_bytes = 0, element_count = 0;
    bool has_count = false;
    if (json.is_string()) {
        b.resource = json.get<std::string>();
    } else if (json.is_object()) {
        reject_unknown_fields(json, {"name", "elementCount", "elementSizeInBytes", "elementOffset", "format", "counter",
                                     "counterOffsetBytes", "shape"},
                              path, "unknown binding field");
        b.resource = read_string(require_member(json, "name", path), member_path(path, "name"));
        if (const Json *v = optional_member(json, "elementOffset")) element_offset = read_uint(*v, member_path(path, "elementOffset"), UINT64_MAX);
        if (const Json *v = optional_member(json, "elementSizeInBytes")) element_size_bytes = read_uint(*v, member_path(path, "elementSizeInBytes"));
        if (const Json *v = optional_member(json, "elementCount")) {
            element_count = read_uint(*v, member_path(path, "elementCount"), UINT64_MAX);
            has_count = true;
        }
    } else {
        throw ModelError(path, std::string("a binding is a resource name or {name, elementOffset, ...}, found ") + json_kind(json));
    }
    const auto it = model.resources.find(b.resource);
    if (it == model.resources.end()) throw ModelError(path, "no resource named '" + b.resource + "'");
    const Resource &r = it->second;
    if (element_size_bytes == 0) element_size_bytes = element_size(r.type);
    if (element_size_bytes == 0) element_size_bytes = element_size(tensor.DataType);
    const uint64_t total = r.bytes.size();
    if (element_offset > total / element_size_bytes) {
        throw ModelError(path, "elementOffset " + std::to_string(element_offset) + " lies past the end of resource '" +
                                   b.resource + "' (" + std::to_string(total) + " bytes)");
    }
    b.offset = element_offset * element_size_bytes;
    b.size = has_count ? element_count * element_size_bytes : total - b.offset;
    if (has_count && (element_count > total / element_size_bytes || b.offset + b.size > total)) {
        throw ModelError(path, "elements [" + std::to_string(element_offset) + ", " +
                                   std::to_string(element_offset + element_count) + ") run past the end of resource '" +
                                   b.resource + "' (" + std::to_string(total / element_size_bytes) + " elements)");
    }
    if (b.size < tensor.TotalTensorSizeInBytes) {
        throw ModelError(path, "binds " + std::to_string(b.size) + " bytes of resource '" + b.resource +
                                   "' but the tensor needs TotalTensorSizeInBytes = " +
                                   std::to_string(tensor.TotalTensorSizeInBytes));
    }
    return b;
}

Command read_dispatch(const Json &json, const std::string &path, const Model &model) {
    Command c{Command::Kind::Dispatch, path, {}, {}, {}};
    c.target = read_string(require_member(json, "dispatchable", path), member_path(path, "dispatchable"));
    const auto it = model.dispatchables.find(c.target);
    if (it == model.dispatchables.end()) {
        throw ModelError(member_path(path, "dispatchable"), "no dispatchable named '" + c.target + "'");
    }
    const std::string bindings_path = member_path(path, "bindings");
    const Json &bindings = require_member(json, "bindings", path);
    require_object(bindings, bindings_path);
    const auto &points = it->second->bind_points();
    for (auto b = bindings.begin(); b != bindings.end(); ++b) {
        if (std::none_of(points.begin(), points.end(), [&](const BindPoint &p) { return p.name == b.key(); })) {
            std::string names;
            for (const auto &p : points) names += (names.empty() ? "" : ", ") + p.name;
            throw ModelError(member_path(bindings_path, b.key()),
                             "is not a bind point of " + it->second->type_name() + " (" + names + ")");
        }
    }
    for (const BindPoint &point : points) {
        const std::string point_path = member_path(bindings_path, point.name);
        const Json &value = require_member(bindings, point.name, bindings_path);
        std::vector<Binding> bound;
        if (point.array) {
            require_array(value, point_path);
            if (value.size() != point.tensors.size()) {
                throw ModelError(point_path, "has " + std::to_string(value.size()) + " bindings; the operator has " +
                                                 std::to_string(point.tensors.size()) + " tensors there");
            }
            for (size_t k = 0; k < value.size(); ++k) {
                bound.push_back(read_binding(value[k], element_path(point_path, k), model, *point.tensors[k]));
            }
        } else {
            bound.push_back(read_binding(value, point_path, model, *point.tensors[0]));
        }
        c.bindings.push_back(std::move(bound));
    }
    return c;
}

Command read_command(const Json &json, const std::string &path, const Model &model, const LoadOptions &options) {
    require_object(json, path);
    const std::string type = read_string(require_member(json, "type", path), member_path(path, "type"));
    auto resource_of = [&](const char *key) {
        const std::string name = read_string(require_member(json, key, path), member_path(path, key));
        if (!model.resources.count(name)) throw ModelError(member_path(path, key), "no resource named '" + name + "'");
        return name;
    };
    if (type == "dispatch") return read_dispatch(json, path, model);
    if (type == "print") {
        if (const Json *verbose = optional_member(json, "verbose")) read_bool(*verbose, member_path(path, "verbose"));
        return Command{Command::Kind::Print, path, resource_of("resource"), {}, {}};
    }
    if (type == "writeFile") {
        const std::string file = read_string(require_member(json, "targetPath", path), member_path(path, "targetPath"));
        if (file.empty()) throw ModelError(member_path(path, "targetPath"), "is empty");
        return Command{Command::Kind::WriteFile, path, resource_of("resource"), {}, resolve(options.output_dir, file)};
    }
    throw ModelError(member_path(path, "type"), "unknown command '" + type + "' (dispatch, print, writeFile)");
}

}  // namespace

Model load_model_text(const std::string &text, const LoadOptions &options) {
    Json root;
    try {
        root = Json::parse(text);
    } catch (const Json::exception &e) {  // parse_error, and out_of_range for numbers such as 1e999
        throw ModelError("", std::string("malformed JSON: ") + e.what());
    }
    require_object(root, "(model)");
    Model model;
    reject_unknown_fields(root, {"$schema", "resources", "dispatchables", "commands"}, "",
                          "unknown top-level field (resources, dispatchables, commands)");
    const Json &resources = require_member(root, "resources", "");
    require_object(resources, "resources");
    for (auto it = resources.begin(); it != resources.end(); ++it) {
        model.resources[it.key()] = read_resource(it.value(), member_path("resources", it.key()), options);
    }
    const Json &dispatchables = require_member(root, "dispatchables", "");
    require_object(dispatchables, "dispatchables");
    for (auto it = dispatchables.begin(); it != dispatchables.end(); ++it) {
        model.dispatchables[it.key()] = build_operator_desc(it.value(), member_path("dispatchables", it.key()));
    }
    const Json &commands = require_member(root, "commands", "");
    require_array(commands, "commands");
    for (size_t k = 0; k < commands.size(); ++k) {
        model.commands.push_back(read_command(commands[k], element_path("commands", k), model, options));
    }
    return model;
}

Model load_model_file(const std::string &path, LoadOptions options) {
    std::ifstream in(path);
    if (!in) throw ModelError("", "cannot open model '" + path + "'");
    std::stringstream text;
    text << in.rdbuf();
    if (options.input_dir.empty()) {
        const size_t slash = path.find_last_of('/');
        options.input_dir = slash == std::string::npos ? "" : path.substr(0, slash);
    }
    return load_model_text(text.str(), options);
}

}  // namespace hdml_dispatch
