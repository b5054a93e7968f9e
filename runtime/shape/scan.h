// Scans (CUMULATIVE_SUMMATION, CUMULATIVE_PRODUCT) onto the scan kernel
// input(i, r, o) -> output(i, r, o): r the axis (reversed with negative
// strides for DECREASING), i a kept dim moving faster than r (scanned as
// vectors), o the largest other kept dim, the rest C++ loops.
#pragma once

#include "runtime/shape/dims.h"
#include "runtime/tensor.h"

#include <string>
#include <vector>

namespace hdml {

struct ScanShape {
    bool outer_layout = false;  // i is a kept dim faster in memory than r
    Dim i, r, o;
    std::vector<Dim> loops;
    int64_t base_in = 0, base_out = 0;  // element offsets of each line's first element (DECREASING: its last)
    bool too_long = false;              // the axis's size or strides exceed a kernel dim
    std::string describe() const;
};

ScanShape plan_scan(const Tensor &input, const Tensor &output, uint32_t axis, bool reverse);

// The outer layout's rows as one line of i.extent interleaved scans (the CPU
// period walk): where, in input and output, the columns (i) are dense and each
// row follows the one before (r's stride is i's extent; so not reversed),
// element k of column j is element k * i.extent + j of an inner line. False,
// `line` untouched, otherwise or where the line outgrows a kernel dim.
bool interleaved_line(const ScanShape &shape, ScanShape *line);

}  // namespace hdml
