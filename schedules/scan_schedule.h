// Schedules of the scan kernel (generators/scan_generator.cpp): which mapping
// a kernel takes, by target and staging (scan_params.h). The mappings are
// cpu/scan.h and gpu/scan_*.h.
#pragma once

#include "Halide.h"
#include "schedules/cpu/scan.h"
#include "schedules/gpu/scan_carries.h"
#include "schedules/gpu/scan_chunked.h"
#include "schedules/gpu/scan_columns.h"
#include "schedules/gpu/scan_line_walk.h"
#include "schedules/gpu/scan_lines.h"
#include "schedules/gpu/scan_shared.h"
#include "schedules/scan_params.h"
#include "schedules/scan_stages.h"

namespace hdml {

inline void schedule_scan_gpu(ScanStages &s, const ScanTuning &p, const Halide::Target &target) {
    if (s.staging == ScanStaging::Lines) return schedule_scan_lines(s, p, target);
    if (s.staging == ScanStaging::LineWalk) return schedule_scan_line_walk(s, p, target);
    // The blocked scans: carries per chunk, or per segment of chunks (shared).
    schedule_scan_carries(s, p);
    if (s.staging == ScanStaging::Shared) return schedule_scan_segments(s, p, target);
    schedule_scan_chunks(s, p, target);
}

inline void schedule_scan(ScanStages &s, const ScanTuning &p, const Halide::Target &target) {
    if (target.has_gpu_feature()) {
        schedule_scan_gpu(s, p, target);
    } else {
        schedule_scan_cpu(s, p, target);
    }
}

}  // namespace hdml
