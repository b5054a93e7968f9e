// GATHER onto the gather kernel output(x, j, y) = input(x, indices(j), y):
// j the largest index dim; x the kept dim densest in the output when it is
// denser than j (rows of copies, vectorised along x), else a unit dim (the
// kernel vectorises across j: gathering along the innermost axis); y the
// largest remaining kept dim; the rest C++ loops.
#pragma once

#include "runtime/shape/dims.h"

#include <string>
#include <vector>

namespace hdml {

struct GatherShape {
    Dim x, j, y;
    std::vector<Dim> loops;
    std::string describe() const;
};

// The output's dims outermost first: index dims (Role::index, idx_stride into
// the normalised indices) and kept dims (in_stride into the input).
GatherShape plan_gather(const std::vector<Dim> &output_dims);

}  // namespace hdml
