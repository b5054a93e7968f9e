// CPU copies far larger than the caches, written with non-temporal stores:
// each output line goes to memory without being read in first. Halide 14 has
// no non-temporal store, so these rows move in this runtime code instead of a
// copy kernel (256 MiB in 256 KiB tasks: 1.4x regular stores on 2 Xeon cores,
// 1.5x on 16; bench/results/2026-12-02-cpu-stream-copy/). x86-64 only: other
// CPUs keep the copy kernels.
#pragma once

#include "runtime/shape/copy.h"

#include <cstdint>

namespace hdml {

// Whether this build has the streaming copy (x86-64).
bool stream_copy_available();

// Shorter rows leave a partial line at each end that the stores write apart.
constexpr int64_t kStreamMinRowBytes = 256;

// Whether stream_copy pays for `shape` in this build: rows contiguous in input
// and output (x strides 1) of at least kStreamMinRowBytes (elements of `element_size`).
bool stream_copy_takes(const CopyShape &shape, uint32_t element_size);

// Copies `shape` (any shape whose x strides are 1; stream_copy_takes says
// where it pays) from `input` to `output`: in tasks of about `task_bytes` of
// whole rows on hdml's pool where `parallel`, else on the calling thread.
// Each row's head up to a line of the output and its tail go through memcpy.
void stream_copy(const CopyShape &shape, const uint8_t *input, uint8_t *output, uint32_t element_size,
                 int64_t task_bytes, bool parallel);

}  // namespace hdml
