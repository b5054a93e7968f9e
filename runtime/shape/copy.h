// N-D strided copies (SPLIT, JOIN, reduce's packing, gather's index
// normalisation on CUDA) onto the copy kernel output(x, y, z) = input(x, y, z):
// x the densest output dim, y and z the largest others, the rest C++ loops.
#pragma once

#include "runtime/shape/dims.h"
#include "runtime/variants/thresholds.h"

#include <cstdint>
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

// GPU stores that fill part of a 32-byte sector cost a copy ~20% of its
// bandwidth (H100: JOIN rows starting 8 or 16 bytes into a sector 2310 GB/s,
// sector-aligned 2904), even where the next store fills the rest.
constexpr int64_t kSectorBytes = 32;

// Elements at the head of each row of `shape` (output at `output`, elements
// of `element_size` bytes) to copy apart, so that the rest of every row
// starts on a sector: 0 (copy it whole) unless the rows are contiguous, at
// least a 128-byte line long, all start equally far into a sector, and the
// copy moves at least `min_bytes` (the copy_sector_min_bytes threshold; 0 or
// unset: never), where one more launch pays.
inline int64_t sector_head(const CopyShape &shape, uintptr_t output, uint32_t element_size, int64_t min_bytes) {
    const int64_t into_sector = (int64_t)(output % kSectorBytes);
    if (min_bytes <= 0 || into_sector == 0 || into_sector % element_size != 0 || shape.x.out_stride != 1 ||
        shape.x.extent * element_size < 4 * kSectorBytes) {
        return 0;
    }
    int64_t bytes = shape.x.extent * element_size;  // <= 2^31 elements of <= 8 bytes
    // Whether every row of `dim` starts as far into a sector; counts its bytes (saturating at min_bytes).
    auto rows_alike = [&](const Dim &dim) {
        bytes = dim.extent > 0 && bytes > min_bytes / dim.extent ? min_bytes : bytes * dim.extent;
        return dim.extent <= 1 || (dim.out_stride * (int64_t)element_size) % kSectorBytes == 0;
    };
    if (!rows_alike(shape.y) || !rows_alike(shape.z)) return 0;
    for (const Dim &loop : shape.loops) {
        if (!rows_alike(loop)) return 0;
    }
    const int64_t head = (kSectorBytes - into_sector) / element_size;
    return bytes >= min_bytes && head < shape.x.extent ? head : 0;
}

}  // namespace hdml
