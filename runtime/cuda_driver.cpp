#include "runtime/cuda_driver.h"

#include "runtime/dynamic_library.h"

#include <cstdio>

namespace hdml::cuda {

namespace {

// Resolves the driver's exported `name` into `slot`, noting it when missing.
template <typename Fn>
void resolve(void *library, const char *name, Fn *slot, std::string *missing) {
    *slot = reinterpret_cast<Fn>(dynamic_library::symbol(library, name));
    if (!*slot) *missing += std::string(missing->empty() ? "" : ", ") + name;
}

std::string describe_with(const Driver &d, CUresult result) {
    const char *text = nullptr;
    if (d.cuGetErrorString) d.cuGetErrorString(result, &text);
    char code[32];
    std::snprintf(code, sizeof code, " (%d)", result);
    return std::string(text ? text : "CUDA error") + code;
}

struct Loaded {
    Driver driver{};
    std::string why;
    bool ok = false;
};

Loaded load() {
    Loaded loaded;
    const char *name = dynamic_library::cuda_driver_name();
    void *library = dynamic_library::open(name);
    if (!library) {
        loaded.why = "the CUDA driver could not be loaded (" + dynamic_library::open_error(name) + ")";
        return loaded;
    }
    // The _v2 names are the ABI the current cuda.h maps the plain names to.
    Driver &d = loaded.driver;
    std::string missing;
    resolve(library, "cuInit", &d.cuInit, &missing);
    resolve(library, "cuDeviceGetCount", &d.cuDeviceGetCount, &missing);
    resolve(library, "cuDeviceGet", &d.cuDeviceGet, &missing);
    resolve(library, "cuDeviceGetName", &d.cuDeviceGetName, &missing);
    resolve(library, "cuDevicePrimaryCtxRetain", &d.cuDevicePrimaryCtxRetain, &missing);
    resolve(library, "cuCtxPushCurrent_v2", &d.cuCtxPushCurrent, &missing);
    resolve(library, "cuCtxPopCurrent_v2", &d.cuCtxPopCurrent, &missing);
    resolve(library, "cuCtxGetDevice", &d.cuCtxGetDevice, &missing);
    resolve(library, "cuStreamCreate", &d.cuStreamCreate, &missing);
    resolve(library, "cuStreamDestroy_v2", &d.cuStreamDestroy, &missing);
    resolve(library, "cuMemAllocAsync", &d.cuMemAllocAsync, &missing);
    resolve(library, "cuMemFreeAsync", &d.cuMemFreeAsync, &missing);
    resolve(library, "cuGetErrorString", &d.cuGetErrorString, &missing);
    if (!missing.empty()) {
        loaded.why = "the CUDA driver is older than hdml needs (11.2, stream-ordered allocation); it lacks " + missing;
        return loaded;
    }
    const CUresult init = d.cuInit(0);
    if (init != 0) {
        loaded.why = "cuInit failed: " + describe_with(d, init);
        return loaded;
    }
    loaded.ok = true;
    return loaded;
}

}  // namespace

const Driver *driver(std::string *why) {
    static const Loaded loaded = load();  // thread-safe, once per process
    if (!loaded.ok) {
        if (why) *why = loaded.why;
        return nullptr;
    }
    return &loaded.driver;
}

std::string describe(CUresult result) {
    const Driver *d = driver(nullptr);
    return d ? describe_with(*d, result) : describe_with(Driver{}, result);
}

ScopedContext::ScopedContext(const Driver &driver, CUcontext context)
    : driver_(driver), status_(driver.cuCtxPushCurrent(context)) {}

ScopedContext::~ScopedContext() {
    if (status_ == 0) {
        CUcontext popped;
        driver_.cuCtxPopCurrent(&popped);
    }
}

}  // namespace hdml::cuda
