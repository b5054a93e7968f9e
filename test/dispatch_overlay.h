// A dispatch overlay (HDML_DISPATCH_<PLATFORM>) for the scope of a test: the
// devices created meanwhile take its thresholds (runtime/variants/thresholds.h).
#pragma once

#include "test_device.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#ifdef _WIN32
#include <process.h>
#else
#include <unistd.h>
#endif
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>

namespace hdml_test {

// Sets an environment variable for one scope, then puts back what it was
// (a suite run under an overlay of its own keeps it past a test's).
struct ScopedEnv {
    std::string name;
    bool had = false;
    std::string before;
    ScopedEnv(std::string n, const std::string &value) : name(std::move(n)) {
        if (const char *old = std::getenv(name.c_str())) {
            had = true;
            before = old;
        }
        set(value.c_str());
    }
    ~ScopedEnv() { set(had ? before.c_str() : nullptr); }

  private:
#ifdef _WIN32
    void set(const char *value) { _putenv_s(name.c_str(), value ? value : ""); }  // an empty value removes it
#else
    void set(const char *value) { value ? setenv(name.c_str(), value, 1) : unsetenv(name.c_str()); }
#endif
};

inline long process_id() {
#ifdef _WIN32
    return (long)_getpid();
#else
    return (long)getpid();
#endif
}

// `text` in a file of the temporary directory named hdml_test_<pid>_<name>; its
// path. The process id keeps suites that ctest runs at once (a suite and its
// .threads4 twin) from rewriting each other's overlay while a device reads it.
inline std::string write_temp(const std::string &name, const std::string &text) {
    const std::string file = "hdml_test_" + std::to_string(process_id()) + "_" + name;
    const std::string path = (std::filesystem::temp_directory_path() / file).string();
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
    std::string path;
    ScopedEnv env;
    ScopedDispatch(const std::string &name, const std::string &json)
        : path(write_temp(name, json)), env(platform_variable(), path) {}
    ~ScopedDispatch() { std::remove(path.c_str()); }
};

}  // namespace hdml_test
