// The one CPU device a fuzzer process creates (and never releases: libFuzzer
// exits without returning from its loop).
#pragma once

#include "hdml/hdml.h"

#include <cstdlib>

inline hdml_device *fuzz_cpu_device() {
    static hdml_device *cpu = [] {
        hdml_device *d = nullptr;
        if (FAILED(hdmlCreateDevice(HDML_DEVICE_TYPE_CPU, 0, &d))) std::abort();
        return d;
    }();
    return cpu;
}
