// Kernel choice for the reducing families (REDUCE: reduce; ARGMAX/ARGMIN:
// arg_reduce) over a planned ReduceShape.
#pragma once

#include "runtime/device.h"
#include "runtime/kernels.h"
#include "runtime/shape/reduce.h"

#include <string>

namespace hdml {

struct ReduceQuery {
    ReduceShape shape;  // as planned
    const DispatchThresholds *limits = nullptr;
    int64_t in_bytes = 0, out_bytes = 0;  // element sizes
    bool arg = false;                     // ARGMAX/ARGMIN: (value, index) keys
    // ARGMAX/ARGMIN of 8- and 16-bit types over rows a 16-bit index spans,
    // or any row of the CPUs' outer layout: key_bits=32 twins first (filled
    // in by choose_reduce_kernel).
    bool narrow_keys = false;
    // REDUCE's term (ReduceArgs::element_map): 0 the element, 1 |x|, 2 x*x.
    int32_t element_map = 0;
    // Sums and products of the elements themselves (kernel op sum or
    // multiply, element_map 0: SUM, AVERAGE, LOG_SUM, MULTIPLY): rows=vectors
    // up to a row length of their own (filled in by choose_reduce_kernel).
    bool sums_or_products = false;
    // float16 elements: their sums and products take rows=vectors from a row
    // length of their own (filled in by choose_reduce_kernel).
    bool float16 = false;
    // MIN, MAX, ARGMIN, ARGMAX (kernel op min or max, or arg): rows=vectors up
    // to a row length of their own (filled in by choose_reduce_kernel).
    bool extremes = false;
};

struct ReduceChoice {
    const KernelEntry *kernel = nullptr;
    // Taken instead of kernel by calls whose input address is aligned_bytes-aligned; nullptr when none.
    // It reads aligned_words elements per input element: 2 for a loads=words
    // twin (float16 rows passed as their 32-bit words) or, words_along_columns,
    // a loads=column_words twin (pairs of adjacent columns); else 1.
    const KernelEntry *aligned_kernel = nullptr;
    int64_t aligned_bytes = 0;
    int64_t aligned_words = 1;
    bool words_along_columns = false;
    ReduceShape shape;      // what the kernel runs: the planned shape, or its rows as columns
    std::string variant;    // the chosen list entry
    std::string passed_over;  // earlier entries and why they did not serve
};

// `function` holds the function's parameters (dtype, and op for reduce); the
// layout comes from the shape. E_INVALIDARG naming `what` when nothing was built.
HRESULT choose_reduce_kernel(const hdml_device &device, Family family, const KernelParams &function,
                             const ReduceQuery &query, const std::string &what, ReduceChoice *choice);

}  // namespace hdml
