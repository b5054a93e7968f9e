// N-D strided copies (SPLIT, JOIN, reduce's packing, gather's index
// normalisation on CUDA) onto the copy kernel output(x, y, z) = input(x, y, z):
// x the densest output dim, y and z the largest others, the rest C++ loops.
#pragma once

#include "runtime/shape/dims.h"
#include "runtime/variants/thresholds.h"

#include <string>
#include <vector>

namespace hdml {

struct CopyShape {
    Dim x, y, z;
    std::vector<Dim> loops;
    std::string describe() const;
};

// Elements per row a long contiguous run is cut into where no threshold says.
constexpr int64_t kDefaultCopyRunRow = 1 << 16;

// Dims outermost first (in_stride, out_stride; role kept). A lone contiguous
// run of at least twice `run_row` (>= 1024) elements becomes rows of the
// longest power of two <= run_row (and >= 1024) that divides it: the kernel's
// tasks are rows_per_task of them.
CopyShape plan_copy(const std::vector<Dim> &dims, int64_t run_row = kDefaultCopyRunRow);

// run_row for elements of `element_bytes` from the copy_run_row_bytes
// threshold (CPUs; the default elsewhere).
int64_t copy_run_row(const DispatchThresholds &thresholds, uint32_t element_bytes);

}  // namespace hdml
