// GPU mapping, inner layout, RowMapping::Lanes (many short rows): gpu_row_lanes
// threads per row read the row in the output kernel, several rows per block;
// one kernel, no partials (H100, [4M,64] SUM: 1045 GB/s a thread per row,
// 2695 with 4 lanes, 2508 with 8).
#pragma once

#include "Halide.h"
#include "schedules/gpu/lane_merge.h"
#include "schedules/reduce_params.h"

namespace hdml {

inline void schedule_row_lanes(const GpuLoops &g, Halide::Func consumer, Halide::Func f, Halide::RVar r,
                               const Halide::Expr &r_stride, const ReduceTuning &p) {
    row_tiles(g, consumer, p.gpu_row_lanes);
    reduce_in_lanes(g, consumer, f, r, p.gpu_row_lanes, p.gpu_unroll);
    consumer.specialize(r_stride == 1);  // loads at constant offsets, as the split kernel's
}

}  // namespace hdml
