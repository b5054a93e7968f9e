// A dispatch overlay (HDML_DISPATCH_<PLATFORM>) for the scope of a test: the
// devices created meanwhile take its thresholds (runtime/variants/thresholds.h).
#pragma once

#include "test_device.h"

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>

namespace hdml_test {

// Sets an environment variable for one scope.
struct ScopedEnv {
    std::string name;
#ifdef _WIN32
    ScopedEnv(std::string n, const std::string &value) : name(std::move(n)) { _putenv_s(name.c_str(), value.c_str()); }
    ~ScopedEnv() { _putenv_s(name.c_str(), ""); }  // an empty value removes it
#else
    ScopedEnv(std::string n, const std::string &value) : name(std::move(n)) { setenv(name.c_str(), value.c_str(), 1); }
    ~ScopedEnv() { unsetenv(name.c_str()); }
#endif
};

// `text` in a file of the temporary directory named hdml_test_<name>; its path.
inline std::string write_temp(const std::string &name, const std::string &text) {
    const std::string path = (std::filesystem::temp_directory_path() / ("hdml_test_" + name)).string();
    std::ofstream(path) << text;
    return path;
}

// HDML_DISPATCH_<PLATFORM> of the device the suites run on.
inline std::string platform_variable() {
    std::string upper = test_on_cuda() ? "CUDA" : HDML_TEST_CPU_PLATFORM;
    for (char &c : upper) c = (char)std::toupper((unsigned char)c);
    return "HDML_DISPATCH_" + upper;
}

// The overlay `json` (a params-file object) in force for one scope.
struct ScopedDispatch {
    ScopedEnv env;
    ScopedDispatch(const std::string &name, const std::string &json)
        : env(platform_variable(), write_temp(name, json)) {}
};

}  // namespace hdml_test
