// Errors of hdml-dispatch name the place in the model they come from, as a
// JSON path ("dispatchables.sum.desc.Axes[1]"), and the problem.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace hdml_dispatch {

using Json = nlohmann::json;

class ModelError : public std::runtime_error {
public:
    ModelError(const std::string &path, const std::string &problem)
        : std::runtime_error(path.empty() ? problem : path + ": " + problem) {}
};

inline std::string member_path(const std::string &path, const std::string &key) {
    return path.empty() ? key : path + "." + key;
}
inline std::string element_path(const std::string &path, size_t index) {
    return path + "[" + std::to_string(index) + "]";
}

// "an object", "a string", ... for messages about mistyped values.
const char *json_kind(const Json &value);

// Typed reads of a JSON value at `path`: throw ModelError when the kind or range is wrong.
const Json &require_member(const Json &object, const std::string &key, const std::string &path);
const Json *optional_member(const Json &object, const std::string &key);
void require_object(const Json &value, const std::string &path);
void require_array(const Json &value, const std::string &path);
std::string read_string(const Json &value, const std::string &path);
bool read_bool(const Json &value, const std::string &path);
uint64_t read_uint(const Json &value, const std::string &path, uint64_t max = UINT32_MAX);
double read_number(const Json &value, const std::string &path);
// Throws "<path>.<key>: <problem>" for the first key of `object` not in `known`
// (a misspelt field is an error, never silently ignored).
void reject_unknown_fields(const Json &object, const std::vector<std::string> &known, const std::string &path,
                           const std::string &problem);

}  // namespace hdml_dispatch
