// Schedules of the scan kernel (see generators/scan_generator.cpp).
#pragma once

#include "Halide.h"
#include "generators/common.h"

namespace hdml {

struct ScanStages {
    Halide::Func output;  // (i, r, o)
    Halide::Func acc;     // running totals; its update walks rr serially
    Halide::Var i, r, o;
    Halide::RDom rr;
    Layout layout;
    Halide::Type type;
};

struct ScanTuning {
    // CPU, outer layout: vectors of i scanned together per task.
    Halide::GeneratorParam<int> tile_vectors{"tile_vectors", 4};
    // GPU: threads per block.
    Halide::GeneratorParam<int> gpu_threads{"gpu_threads", 128};
};

inline void schedule_scan(ScanStages &s, const ScanTuning &p, const Halide::Target &target) {
    using namespace Halide;
    Var io("io"), ii("ii"), t("t"), bo("bo"), to("to");
    if (target.has_gpu_feature()) {
        // One thread per scanned line (i, o); chunked 3-phase scans come with the CUDA issue.
        if (s.layout == Layout::Inner) {
            s.output.split(s.o, bo, to, p.gpu_threads, TailStrategy::GuardWithIf).gpu_blocks(bo).gpu_threads(to);
        } else {
            s.output.split(s.i, bo, to, p.gpu_threads, TailStrategy::GuardWithIf).gpu_blocks(bo, s.o).gpu_threads(to);
        }
        s.acc.compute_at(s.output, to);
        return;
    }
    const int lanes = target.natural_vector_size(s.type.bits() > 32 ? s.type : Float(32));
    if (s.layout == Layout::Inner) {
        // One line per task: the scan itself is serial (latency-bound); loads
        // and stores around it are vectorised.
        s.output.parallel(s.o).vectorize(s.r, lanes, TailStrategy::GuardWithIf);
        s.acc.compute_at(s.output, s.o).vectorize(s.r, lanes, TailStrategy::GuardWithIf);
        s.acc.update().unscheduled();  // the recurrence is serial by nature
    } else {
        // Tiles of i scanned together: each r step is a vector op across i.
        const int tile = lanes * p.tile_vectors;
        s.output.split(s.i, io, ii, tile, TailStrategy::GuardWithIf)
            .reorder(ii, s.r, io, s.o)
            .fuse(io, s.o, t)
            .parallel(t)
            .vectorize(ii, lanes, TailStrategy::GuardWithIf);
        s.acc.compute_at(s.output, t).vectorize(s.i, lanes, TailStrategy::GuardWithIf);
        s.acc.update().reorder(s.i, s.rr).vectorize(s.i, lanes, TailStrategy::GuardWithIf);
    }
}

}  // namespace hdml
