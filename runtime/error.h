// Failure reporting: every failing path sets a thread-local message and
// returns an HRESULT, so the C API can hand both back.
#pragma once

#include "hdml/directml.h"

#include <cstdint>
#include <cstring>
#include <string>

namespace hdml {

// The longest message kept, with its terminator; a longer one is cut and ends in " [...]".
constexpr size_t kLastErrorCapacity = 4096;

// Records `message` as this thread's last error and returns `code`.
HRESULT fail(HRESULT code, const std::string &message);

inline HRESULT invalid_arg(const std::string &message) {
    return fail(E_INVALIDARG, message);
}

void clear_last_error();
const char *last_error();

// The stored value of an enum field read as an integer. Callers may hand in
// values outside the enum (the validators must reject them), and loading
// such a value through the enum type would be undefined behaviour.
template <typename Enum>
int32_t raw_enum(const Enum &field) {
    static_assert(sizeof(Enum) == sizeof(int32_t), "DirectML enums are 32-bit");
    int32_t value;
    std::memcpy(&value, &field, sizeof value);
    return value;
}

// printf-style formatting into a std::string. MinGW's C++ library formats with
// its C99 printf (%zu, %lld), which `gnu_printf` checks; plain `printf` there
// would mean Microsoft's.
#ifdef __MINGW32__
#define HDML_PRINTF_FORMAT gnu_printf
#else
#define HDML_PRINTF_FORMAT printf
#endif
std::string format(const char *fmt, ...) __attribute__((format(HDML_PRINTF_FORMAT, 1, 2)));

}  // namespace hdml

#define HDML_RETURN_IF_FAILED(expr)         \
    do {                                    \
        const HRESULT hdml_hr_ = (expr);    \
        if (FAILED(hdml_hr_)) return hdml_hr_; \
    } while (0)
