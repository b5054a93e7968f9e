// The data-movement kernels (copy, gather): the Funcs their generators hand
// the schedules, and their tuning numbers (schedules/params/<platform>.json).
#pragma once

#include "Halide.h"

namespace hdml {

struct CopyStages {
    Halide::Func output;  // (x, y, z)
    Halide::Var x, y, z;
    Halide::Expr x_dense;  // x has unit stride in both tensors
    Halide::Expr x_extent, z_extent;
};

struct GatherStages {
    Halide::Func output;  // (x, j, y)
    Halide::Var x, j, y;
    Halide::Expr x_stride, x_extent;  // output's x dim: vectorise when it is dense and long
    Halide::Expr input_x_stride;      // ...and dense in the input too
    // Gathering along the innermost axis is fastest when j is dense in the
    // output and the indices, and the gathered axis dense in the input.
    Halide::Expr j_dense;
    Halide::Expr y_extent;
    Halide::Expr j_extent;
};

// The copy kernel's numbers; the gather kernel's too (GatherTuning), which
// copies rows the same way.
struct CopyTuning {
    // CPU: rows (y, z pairs) per parallel task, and vector width in natural vectors.
    Halide::GeneratorParam<int> rows_per_task{"rows_per_task", 16};
    Halide::GeneratorParam<int> vectors{"vectors", 2};
    // CPU: how far ahead of the dense rows' vector loads a software prefetch
    // reads, in bytes of the row's work (0: none; generators/prefetch.h).
    Halide::GeneratorParam<int> prefetch_bytes{"prefetch_bytes", 0};
    // GPU: threads per block (gpu_threads_x of them along x), and rows copied per thread.
    Halide::GeneratorParam<int> gpu_threads{"gpu_threads", 128};
    Halide::GeneratorParam<int> gpu_threads_x{"gpu_threads_x", 64};
    Halide::GeneratorParam<int> gpu_rows{"gpu_rows", 4};
};

// CPU: elements per vector of a dense row's copy.
inline int copy_vector_lanes(const Halide::Type &t, const CopyTuning &p, const Halide::Target &target) {
    return target.natural_vector_size(t) * p.vectors;
}

// CPU copies with a software prefetch ahead of their dense rows (prefetch_bytes set; GPUs never).
inline bool copy_prefetches(const CopyTuning &p, const Halide::Target &target) {
    return p.prefetch_bytes > 0 && !target.has_gpu_feature();
}

// Gathered rows are copied as the copy kernel copies rows (rows are j values here).
using GatherTuning = CopyTuning;

// split_parts (CUDA): a block is a row of gpu_threads threads, each copying
// gpu_rows rows (the rows are the scatter's innermost reduction dimension:
// generators/split_parts_generator.cpp).
struct ScatterTuning {
    Halide::GeneratorParam<int> gpu_threads{"gpu_threads", 128};
    Halide::GeneratorParam<int> gpu_rows{"gpu_rows", 8};
};

}  // namespace hdml
