#include "tools/dispatch/model_error.h"

#include <algorithm>
#include <cmath>

namespace hdml_dispatch {

const char *json_kind(const Json &value) {
    switch (value.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::object: return "an object";
    case Json::value_t::array: return "an array";
    case Json::value_t::string: return "a string";
    case Json::value_t::boolean: return "a boolean";
    case Json::value_t::number_float: return "a fractional number";
    default: return "a number";
    }
}

const Json &require_member(const Json &object, const std::string &key, const std::string &path) {
    require_object(object, path);
    const auto it = object.find(key);
    if (it == object.end()) throw ModelError(member_path(path, key), "required field is missing");
    return *it;
}

const Json *optional_member(const Json &object, const std::string &key) {
    const auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

void require_object(const Json &value, const std::string &path) {
    if (!value.is_object()) throw ModelError(path, std::string("expected an object, found ") + json_kind(value));
}

void require_array(const Json &value, const std::string &path) {
    if (!value.is_array()) throw ModelError(path, std::string("expected an array, found ") + json_kind(value));
}

std::string read_string(const Json &value, const std::string &path) {
    if (!value.is_string()) throw ModelError(path, std::string("expected a string, found ") + json_kind(value));
    return value.get<std::string>();
}

bool read_bool(const Json &value, const std::string &path) {
    if (!value.is_boolean()) {
        throw ModelError(path, std::string("expected a JSON boolean (true or false), found ") + json_kind(value));
    }
    return value.get<bool>();
}

uint64_t read_uint(const Json &value, const std::string &path, uint64_t max) {
    if (value.is_number_unsigned() || (value.is_number_integer() && value.get<int64_t>() >= 0)) {
        const uint64_t v = value.get<uint64_t>();
        if (v > max) throw ModelError(path, std::to_string(v) + " is larger than " + std::to_string(max));
        return v;
    }
    if (value.is_number_float()) {
        const double d = value.get<double>();
        if (d >= 0 && d <= (double)max && std::floor(d) == d) return (uint64_t)d;
    }
    throw ModelError(path, std::string("expected a non-negative integer, found ") +
                               (value.is_number() ? value.dump() : json_kind(value)));
}

double read_number(const Json &value, const std::string &path) {
    if (!value.is_number()) throw ModelError(path, std::string("expected a number, found ") + json_kind(value));
    return value.get<double>();
}

void reject_unknown_fields(const Json &object, const std::vector<std::string> &known, const std::string &path,
                           const std::string &problem) {
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (std::find(known.begin(), known.end(), it.key()) == known.end()) {
            throw ModelError(member_path(path, it.key()), problem);
        }
    }
}

}  // namespace hdml_dispatch
