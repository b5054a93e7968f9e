// The run-time numbers that choose between kernel variants. The built-in
// values are the "dispatch" object of schedules/params/<platform>.json, baked
// in at build time; HDML_DISPATCH_<PLATFORM> (e.g. HDML_DISPATCH_CUDA) may name
// a JSON file in the same format (a tuned overlay) whose "dispatch" entries
// replace them when a device is created, so a retune needs no rebuild. On a
// CPU the params file names in "dispatch_by_cpu" (intel_avx512), its rows there
// replace the built-in values first (HDML_CPU_DEFAULTS=none|<cpu> forces the choice).
#pragma once

#include "hdml/directml.h"

#include <cstdint>
#include <string>

namespace hdml {

// X(name, platform): each threshold chooses between the variants of one platform
// kind (cuda, or cpu: x86 and arm), whose params file must set it (d3d12 reads none).
#define HDML_DISPATCH_THRESHOLDS(X)                                                                            \
    X(reduce_row_lanes_min_row, cuda)          /* CUDA: shortest row the lanes variant takes */                \
    X(reduce_row_lanes_max_row, cuda)          /* ... and longest */                                           \
    X(reduce_row_lanes_min_rows, cuda)         /* ... fewest rows per call */                                  \
    X(reduce_thread_per_row_max, cuda)         /* CUDA: longest row reduced by a thread of the outer kernel */ \
    X(reduce_thread_per_row_min_rows, cuda)    /* ... fewest rows per call */                                  \
    X(reduce_whole_columns_min_outputs, cuda)  /* CUDA: fewest columns (outputs) per call for whole columns */ \
    X(reduce_warp_merge_max_outputs, cuda)     /* CUDA: most columns per call for warp merge */                \
    X(reduce_whole_rows_max_row, cpu)          /* CPUs: longest inner row reduced whole (rows=whole) */        \
    X(reduce_whole_rows_plain_multiple, cpu)   /* ... but rows a multiple of it go plain (0: none) */          \
    X(reduce_whole_rows_max_columns, cpu)      /* ... and the outer layout's rows of at most this many columns */ \
    X(reduce_whole_rows_max_columns_bytes, cpu) /* ... whose vector of rows spans at most this many bytes */   \
    X(reduce_row_vectors_min_row, cpu)         /* CPUs: shortest contiguous row for rows=vectors */            \
    X(reduce_row_vectors_max_row, cpu)         /* ... longest (LOG_SUM_EXP, L1, L2, SUM_SQUARE) */             \
    X(reduce_row_vectors_max_sum_row, cpu)     /* ... longest: sums and products of the elements themselves */ \
    X(reduce_row_vectors_max_extreme_row, cpu) /* ... longest: MIN, MAX, ARGMIN, ARGMAX */                     \
    X(reduce_row_vectors_float16_min_sum_row, cpu) /* ... shortest: float16 sums and products */             \
    X(reduce_row_vectors_prefetched_max_row, cpu) /* x86: longest of those rows prefetched (0: none) */        \
    X(scan_staged_min_line, cuda)              /* CUDA: shortest inner line staged in shared memory */         \
    X(scan_columns_min_columns, cuda)          /* CUDA: fewest columns per call for the column walk */         \
    X(scan_walk_min_columns, cpu)              /* CPUs: fewest columns per call for the row walk */            \
    X(scan_walk_columns_per_thread, cpu)       /* ... and at least this many per thread of the pool (0: none) */ \
    X(scan_carry_row_task_columns, cpu)        /* ... float16's (a carry row) a task per thread, of these columns */ \
    X(scan_carry_row_slab_bytes, cpu)          /* ... its float32 totals per kernel call, in slabs of o (0: one call) */ \
    X(scan_line_walk_multiple, cpu)            /* CPUs: the line walk takes lines of a multiple of it (<= 1: any) */ \
    X(scan_line_walk_max_line, cpu)            /* ... at most this long in a call ... */                       \
    X(scan_line_walk_min_bytes, cpu)           /* ... of fewer input bytes than this (0: any line, any size) */ \
    X(scan_line_walk_float16_max_line, cpu)    /* ... and float16 lines at most this long (0: none) */          \
    X(scan_line_chunks_min_bytes, cpu)         /* CPUs: fewer inner lines than threads walk in chunks from this long */ \
    X(scan_line_chunks_float16_min_line, cpu)  /* ... and float16 lines this long, however many (0: none) */  \
    X(scan_period_chunks_min_bytes, cpu)       /* ... and the period walk's lines from this long */             \
    X(scan_line_walk_min_line, cuda)           /* CUDA: shortest inner line for the line walk */               \
    X(scan_line_walk_min_lines, cuda)          /* ... fewest lines per call */                                 \
    X(copy_pieces_block_bytes, cpu)            /* CPUs: bytes of the whole per SPLIT/JOIN task (0: by piece) */ \
    X(copy_pieces_block_bytes_per_thread, cpu) /* ... or this many per thread of the pool, up to a block each (0: none) */ \
    X(copy_run_row_bytes, cpu)                 /* CPUs: bytes per row a long contiguous copy is cut into */     \
    X(copy_stream_min_bytes, cpu)              /* x86: SPLIT/JOIN of this many bytes with non-temporal stores (0: never) */ \
    X(copy_parts_min_pieces, cuda)             /* CUDA: fewest pieces alike SPLIT/JOIN move 16 per launch (0: never) */ \
    X(copy_sector_min_bytes, cuda)             /* CUDA: fewest bytes of a copy whose rows' heads go apart (0: never) */

struct DispatchThresholds {
#define HDML_FIELD(name, platform) int64_t name = -1;  // -1: not set for this platform
    HDML_DISPATCH_THRESHOLDS(HDML_FIELD)
#undef HDML_FIELD
};

// The thresholds for devices of `platform` ("x86", "arm", "cuda"): the
// built-in values (a CPU's with its "dispatch_by_cpu" rows), overlaid by the
// file HDML_DISPATCH_<PLATFORM> names.
// E_INVALIDARG with a message for an unreadable file, malformed JSON, an
// unknown name or a value that is not an integer >= 0.
HRESULT load_thresholds(const char *platform, DispatchThresholds *thresholds);

// Overlays the "dispatch" object of the JSON text `json` (from `origin`, for messages).
HRESULT overlay_thresholds(const std::string &json, const std::string &origin, DispatchThresholds *thresholds);

}  // namespace hdml
