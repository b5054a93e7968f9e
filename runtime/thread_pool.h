// hdml's CPU kernels run their parallel loops on this pool (installed as
// Halide's do_par_for by init_halide_runtime). Halide 14's own pool hands out
// every iteration under one mutex and puts idle workers to sleep after a few
// yields, so each call pays a wake-up of every worker through that mutex:
// on 16 cores a 4 MiB reduction took longer than on 2. Here iterations are
// claimed with atomic adds, each thread's own block first (a contiguous
// share: a repeated loop finds its data in the same cores' caches),
// workers spin a while before they sleep, and a caller waiting for its loop
// helps with any other (nested or concurrent) loop.
#pragma once

#include "HalideRuntime.h"

namespace hdml {

// Runs task(user_context, i, closure) for i in [min, min + extent), each once,
// on the calling thread and the pool's workers; returns 0 or the first nonzero
// value a task returned (iterations not yet started then do not run).
// Callable from any thread, from inside a task too (nested loops).
int thread_pool_do_par_for(void *user_context, halide_task_t task, int min, int extent, uint8_t *closure);

// Threads that run a loop (the caller included): HL_NUM_THREADS when set
// (1 to 256), otherwise the hardware's.
int thread_pool_threads();

}  // namespace hdml
