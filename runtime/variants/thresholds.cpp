#include "runtime/variants/thresholds.h"

#include "runtime/error.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace hdml {

namespace {

// Generated from each built platform's params file: HDML_THRESHOLD(name, value) rows.
void set_builtin_cpu(DispatchThresholds *t) {
#define HDML_THRESHOLD(name, value) t->name = value;
#include HDML_CPU_DISPATCH_TABLE
#undef HDML_THRESHOLD
    (void)t;
}

void set_builtin_cuda(DispatchThresholds *t) {
#if HDML_HAVE_CUDA
#define HDML_THRESHOLD(name, value) t->name = value;
#include "hdml/dispatch_cuda.inc"
#undef HDML_THRESHOLD
#endif
    (void)t;
}

int64_t *field(DispatchThresholds *t, const std::string &name) {
#define HDML_LOOKUP(field_name, platform) \
    if (name == #field_name) return &t->field_name;
    HDML_DISPATCH_THRESHOLDS(HDML_LOOKUP)
#undef HDML_LOOKUP
    return nullptr;
}

}  // namespace

HRESULT overlay_thresholds(const std::string &text, const std::string &origin, DispatchThresholds *t) {
    const nlohmann::json json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (json.is_discarded() || !json.is_object()) {
        return invalid_arg(format("%s is not a JSON object.", origin.c_str()));
    }
    const auto dispatch = json.find("dispatch");
    if (dispatch == json.end()) return S_OK;  // kernel parameters only: nothing chosen at run time
    if (!dispatch->is_object()) return invalid_arg(format("%s: \"dispatch\" is not an object.", origin.c_str()));
    for (const auto &[name, value] : dispatch->items()) {
        int64_t *target = field(t, name);
        if (!target) {
            return invalid_arg(format("%s: \"dispatch\" has \"%s\", which is not one of hdml's dispatch thresholds "
                                      "(runtime/variants/thresholds.h lists them).",
                                      origin.c_str(), name.c_str()));
        }
        const bool valid = value.is_number_unsigned() ? value.get<uint64_t>() <= (uint64_t)INT64_MAX
                                                      : value.is_number_integer() && value.get<int64_t>() >= 0;
        if (!valid) {
            return invalid_arg(format("%s: \"dispatch\".\"%s\" is %s; it must be an integer >= 0.", origin.c_str(),
                                      name.c_str(), value.dump().c_str()));
        }
        *target = value.get<int64_t>();
    }
    return S_OK;
}

HRESULT load_thresholds(const char *platform, DispatchThresholds *t) {
    *t = DispatchThresholds{};
    if (std::strcmp(platform, "cuda") == 0) {
        set_builtin_cuda(t);
    } else if (std::strcmp(platform, "d3d12") == 0) {
        // D3D12 takes only the variants every platform has (variant_list.h): none reads a threshold.
    } else {
        set_builtin_cpu(t);
    }
    std::string variable = "HDML_DISPATCH_";
    for (const char *c = platform; *c; ++c) variable += (char)std::toupper((unsigned char)*c);
    const char *path = std::getenv(variable.c_str());
    if (path && *path) {
        std::ifstream file(path, std::ios::binary);
        std::stringstream text;
        text << file.rdbuf();
        if (!file) return invalid_arg(format("%s names %s, which cannot be read.", variable.c_str(), path));
        HDML_RETURN_IF_FAILED(overlay_thresholds(text.str(), format("%s (%s)", path, variable.c_str()), t));
    }
    // Each platform kind's thresholds must be set by its params file.
    const char *kind = std::strcmp(platform, "cuda") == 0 ? "cuda" : std::strcmp(platform, "d3d12") == 0 ? "d3d12" : "cpu";
#define HDML_REQUIRE(name, of)                                                                                  \
    if (std::strcmp(kind, #of) == 0 && t->name < 0) {                                                           \
        return invalid_arg(format("The %s dispatch threshold " #name " is not set (schedules/params/%s.json's " \
                                  "\"dispatch\").",                                                             \
                                  platform, platform));                                                         \
    }
    HDML_DISPATCH_THRESHOLDS(HDML_REQUIRE)
#undef HDML_REQUIRE
    return S_OK;
}

}  // namespace hdml
