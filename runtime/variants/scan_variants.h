// Kernel choice for the scan family (CUMULATIVE_SUMMATION, CUMULATIVE_PRODUCT)
// over a planned ScanShape.
#pragma once

#include "runtime/device.h"
#include "runtime/kernels.h"
#include "runtime/shape/scan.h"

#include <string>

namespace hdml {

struct ScanQuery {
    ScanShape shape;
    const DispatchThresholds *limits = nullptr;
    int64_t element_bytes = 0;
    int threads = 1;  // CPUs: the threads of hdml's pool, which the row walk's tasks must keep busy
    bool float16 = false;  // float16 data, whose totals are float32
};

struct ScanChoice {
    // A period walk (kernel->params.period > 0) takes the shape's rows as one
    // line (interleaved_line); in_place_exclusive takes the shape itself.
    const KernelEntry *kernel = nullptr;
    // Set when `kernel` is a walk, which reads each tile's predecessor after
    // writing it: in place, an exclusive scan takes this one instead.
    const KernelEntry *in_place_exclusive = nullptr;
    std::string variant, passed_over;
};

// `function`: dtype and op; the layout comes from the shape.
HRESULT choose_scan_kernel(const hdml_device &device, const KernelParams &function, const ScanQuery &query,
                           const std::string &what, ScanChoice *choice);

}  // namespace hdml
