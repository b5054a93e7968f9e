// N-D strided copies (SPLIT, JOIN, reduce's packing, gather's index
// normalisation on CUDA) onto the copy kernel output(x, y, z) = input(x, y, z):
// x the densest output dim, y and z the largest others, the rest C++ loops.
#pragma once

#include "runtime/shape/dims.h"

#include <string>
#include <vector>

namespace hdml {

struct CopyShape {
    Dim x, y, z;
    std::vector<Dim> loops;
    std::string describe() const;
};

// Dims outermost first (in_stride, out_stride; role kept).
CopyShape plan_copy(const std::vector<Dim> &dims);

}  // namespace hdml
