#include "runtime/variants/thresholds.h"

#include "runtime/error.h"
#include "runtime/operator.h"  // log_verbose

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

namespace hdml {

namespace {

// Generated from each built platform's params file: HDML_THRESHOLD(name, value)
// rows, and HDML_CPU_THRESHOLD(cpu, name, value) rows that replace them on that CPU.
void set_builtin_cpu(DispatchThresholds *t) {
#define HDML_THRESHOLD(name, value) t->name = value;
#define HDML_CPU_THRESHOLD(cpu, name, value)
#include HDML_CPU_DISPATCH_TABLE
#undef HDML_CPU_THRESHOLD
#undef HDML_THRESHOLD
    (void)t;
}

// The CPU rows of `cpu`; false where the params file has none of that name.
bool set_builtin_cpu_rows(const std::string &cpu, DispatchThresholds *t) {
    bool known = false;
#define HDML_THRESHOLD(name, value)
#define HDML_CPU_THRESHOLD(row_cpu, name, value) \
    if (cpu == #row_cpu) {                       \
        t->name = value;                         \
        known = true;                            \
    }
#include HDML_CPU_DISPATCH_TABLE
#undef HDML_CPU_THRESHOLD
#undef HDML_THRESHOLD
    (void)cpu;
    (void)t;
    return known;
}

// The CPUs the params file has rows for, for messages.
std::string builtin_cpus() {
    std::vector<std::string> cpus;
#define HDML_THRESHOLD(name, value)
#define HDML_CPU_THRESHOLD(row_cpu, name, value) \
    if (std::find(cpus.begin(), cpus.end(), #row_cpu) == cpus.end()) cpus.push_back(#row_cpu);
#include HDML_CPU_DISPATCH_TABLE
#undef HDML_CPU_THRESHOLD
#undef HDML_THRESHOLD
    std::string list;
    for (const std::string &cpu : cpus) list += (list.empty() ? "" : ", ") + cpu;
    return list.empty() ? "none" : list;
}

// The host's name among the "dispatch_by_cpu" rows: Intel's AVX-512 cores,
// where the rows were measured (a 16-core Xeon) and lost on Zen 4; "" elsewhere.
std::string host_cpu() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    if (__builtin_cpu_is("intel") && __builtin_cpu_supports("avx512f")) return "intel_avx512";
#endif
    return "";
}

// The CPU rows in force: HDML_CPU_DEFAULTS names a CPU's rows or "none"
// (tests pin them so; a machine's numbers checked on another), else the host's.
HRESULT set_cpu_rows(const char *platform, DispatchThresholds *t) {
    const char *forced = std::getenv("HDML_CPU_DEFAULTS");
    const std::string cpu = forced && *forced ? forced : host_cpu();
    if (cpu.empty() || cpu == "none") return S_OK;
    if (!set_builtin_cpu_rows(cpu, t)) {
        if (!forced || !*forced) return S_OK;  // the host has no rows in this platform's file
        return invalid_arg(format("HDML_CPU_DEFAULTS is '%s'; it must be 'none' or a CPU of schedules/params/%s.json's "
                                  "\"dispatch_by_cpu\" (%s).",
                                  cpu.c_str(), platform, builtin_cpus().c_str()));
    }
    log_verbose(format("%s dispatch: the %s rows of \"dispatch_by_cpu\"%s", platform, cpu.c_str(),
                       forced && *forced ? " (HDML_CPU_DEFAULTS)" : ""));
    return S_OK;
}

void set_builtin_cuda(DispatchThresholds *t) {
#if HDML_HAVE_CUDA
#define HDML_THRESHOLD(name, value) t->name = value;
#define HDML_CPU_THRESHOLD(cpu, name, value)
#include "hdml/dispatch_cuda.inc"
#undef HDML_CPU_THRESHOLD
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
        HDML_RETURN_IF_FAILED(set_cpu_rows(platform, t));
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
