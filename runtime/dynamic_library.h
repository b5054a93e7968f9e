// Opening a shared library at run time and resolving its symbols: dlopen/dlsym
// on Linux, LoadLibraryA/GetProcAddress on Windows. The CUDA driver is loaded
// this way (by libhdml and by the tools' CUDA host), so no build links it.
#pragma once

#ifdef _WIN32
#include <windows.h>
#else
#include <dlfcn.h>
#endif

#include <string>

namespace hdml::dynamic_library {

#ifdef _WIN32
inline const char *cuda_driver_name() { return "nvcuda.dll"; }
inline void *open(const char *name) { return reinterpret_cast<void *>(LoadLibraryA(name)); }
inline void *symbol(void *library, const char *name) {
    return reinterpret_cast<void *>(GetProcAddress(static_cast<HMODULE>(library), name));
}
// Why the last open() failed.
inline std::string open_error(const char *name) {
    return std::string(name) + ": Windows error " + std::to_string(GetLastError());
}
#else
inline const char *cuda_driver_name() { return "libcuda.so.1"; }
inline void *open(const char *name) { return dlopen(name, RTLD_NOW | RTLD_LOCAL); }
inline void *symbol(void *library, const char *name) { return dlsym(library, name); }
inline std::string open_error(const char *name) {
    const char *error = dlerror();
    return error ? error : name;
}
#endif

}  // namespace hdml::dynamic_library
