#include "runtime/error.h"

#include <cstdarg>
#include <cstdio>

namespace hdml {

namespace {

// A plain array, not a std::string: MinGW-w64's GCC frees a thread_local's
// emulated-TLS block before it runs the object's destructor at thread exit
// (msys2/MINGW-packages#2519), so a std::string here freed a stale pointer
// and corrupted the heap of every Windows process whose threads called hdml.
thread_local char g_last_error[kLastErrorCapacity];

}  // namespace

HRESULT fail(HRESULT code, const std::string &message) {
    constexpr char kTruncated[] = " [...]";
    if (message.size() < kLastErrorCapacity) {
        std::memcpy(g_last_error, message.c_str(), message.size() + 1);
    } else {
        const size_t kept = kLastErrorCapacity - sizeof kTruncated;
        std::memcpy(g_last_error, message.data(), kept);
        std::memcpy(g_last_error + kept, kTruncated, sizeof kTruncated);
    }
    return code;
}

void clear_last_error() {
    g_last_error[0] = '\0';
}

const char *last_error() {
    return g_last_error;
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
