#include "runtime/error.h"

#include <cstdarg>
#include <cstdio>

namespace hdml {

namespace {
thread_local std::string g_last_error;
}

HRESULT fail(HRESULT code, const std::string &message) {
    g_last_error = message;
    return code;
}

void clear_last_error() {
    g_last_error.clear();
}

const char *last_error() {
    return g_last_error.c_str();
}

std::string format(const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    va_list copy;
    va_copy(copy, args);
    const int n = std::vsnprintf(nullptr, 0, fmt, copy);
    va_end(copy);
    std::string out(n > 0 ? n : 0, '\0');
    if (n > 0) std::vsnprintf(&out[0], n + 1, fmt, args);
    va_end(args);
    return out;
}

}  // namespace hdml
