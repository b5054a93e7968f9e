# The manifest: every operator and every kernel variant hdml builds, listed once.
# From it the build derives the Halide libraries (one per variant and platform),
# the runtime's typed kernel tables (runtime/kernel_params.h), its operator
# table, the tests and the benchmarks.
#
# Adding an operator touches, besides this file:
#  - include/hdml/directml.h: its DML_*_OPERATOR_DESC (if DirectML's header has one);
#  - runtime/ops/<op>.cpp: the factory (validation per DirectML's page, then the
#    shape planner of runtime/shape/ and the kernel choice); a new canonical shape
#    goes in runtime/shape/, a family with variants gets a list in runtime/variants/;
#  - a new kernel family: generators/<family>_generator.cpp (listed below), its
#    schedules (schedules/<family>_schedule.h dispatching to cpu/ and gpu/ files),
#    its numbers in schedules/params/<platform>.json, its signature in
#    runtime/kernels.h and its name in runtime/kernel_params.h's Family; a new
#    GeneratorParam key or value in kernel_params.h's lists and, for the kernel
#    names, cmake/HdmlKernels.cmake's _hdml_param_spelling;
#  - test/<op>_test.cpp (against test/reference.h), bench/<op>_bench.cpp,
#    models/<op>.json + .expected, tools/dispatch/operators.cpp (DxDispatch's
#    field names), test/fuzz/descriptor_fuzzer.cpp, the README's status table.

hdml_generators(SOURCES
    generators/cpu_functions.cpp
    generators/exp.cpp
    generators/float16.cpp
    generators/runtime_anchor_generator.cpp
    generators/reduce_generator.cpp
    generators/gather_generator.cpp
    generators/copy_generator.cpp
    generators/copy_parts_generator.cpp
    generators/split_parts_generator.cpp
    generators/scan_generator.cpp)

hdml_operator(TYPE DML_OPERATOR_REDUCE FACTORY create_reduce_operator
    SOURCES runtime/ops/reduce.cpp
    TESTS test/reduce_test.cpp
    BENCHMARKS bench/reduce_bench.cpp)
hdml_operator(TYPE DML_OPERATOR_ARGMAX FACTORY create_argmax_operator
    SOURCES runtime/ops/arg_reduce.cpp
    TESTS test/arg_reduce_test.cpp
    BENCHMARKS bench/arg_reduce_bench.cpp)
hdml_operator(TYPE DML_OPERATOR_ARGMIN FACTORY create_argmin_operator
    SOURCES runtime/ops/arg_reduce.cpp
    TESTS test/arg_reduce_test.cpp
    BENCHMARKS bench/arg_reduce_bench.cpp)
hdml_operator(TYPE DML_OPERATOR_GATHER FACTORY create_gather_operator
    SOURCES runtime/ops/gather.cpp
    TESTS test/gather_test.cpp
    BENCHMARKS bench/gather_bench.cpp)
hdml_operator(TYPE DML_OPERATOR_SPLIT FACTORY create_split_operator
    SOURCES runtime/ops/split_join.cpp
    TESTS test/split_join_test.cpp
    BENCHMARKS bench/split_join_bench.cpp)
hdml_operator(TYPE DML_OPERATOR_JOIN FACTORY create_join_operator
    SOURCES runtime/ops/split_join.cpp
    TESTS test/split_join_test.cpp
    BENCHMARKS bench/split_join_bench.cpp)
hdml_operator(TYPE DML_OPERATOR_CUMULATIVE_SUMMATION FACTORY create_cumulative_summation_operator
    SOURCES runtime/ops/cumulative.cpp
    TESTS test/cumulative_test.cpp
    BENCHMARKS bench/cumulative_bench.cpp)
hdml_operator(TYPE DML_OPERATOR_CUMULATIVE_PRODUCT FACTORY create_cumulative_product_operator
    SOURCES runtime/ops/cumulative.cpp
    TESTS test/cumulative_test.cpp
    BENCHMARKS bench/cumulative_bench.cpp)

# --- Reducing family: input(i, r, o) -> output(i, o) -------------------------
# Every function and type of REDUCE, ARGMAX and ARGMIN, for one variant.
# D3D12 (HLSL SM 5.1) has no 64-bit integers, so 64-bit types skip it, and its
# ARGMAX/ARGMIN find the best value, then its index (two passes), where other
# targets pack a 64-bit (value, index) key.
# FLOAT_OPS: the functions built for float types (all of them by default).
function(hdml_reducing_kernels)
    cmake_parse_arguments(ARG "" "" "PARAMS;PLATFORMS;FLOAT_OPS" ${ARGN})
    if (NOT ARG_FLOAT_OPS)
        set(ARG_FLOAT_OPS sum multiply min max log_sum_exp)
    endif ()
    set(no_d3d12 ${ARG_PLATFORMS})
    list(REMOVE_ITEM no_d3d12 d3d12)
    foreach (dtype float32 float16)
        foreach (op IN LISTS ARG_FLOAT_OPS)
            hdml_kernel(FAMILY reduce GENERATOR reduce PARAMS op=${op} dtype=${dtype} ${ARG_PARAMS} PLATFORMS ${ARG_PLATFORMS})
        endforeach ()
    endforeach ()
    foreach (dtype int32 uint32 int64 uint64)
        set(platforms ${ARG_PLATFORMS})
        if (dtype MATCHES "64")
            set(platforms ${no_d3d12})
        endif ()
        foreach (op sum multiply min max)
            hdml_kernel(FAMILY reduce GENERATOR reduce PARAMS op=${op} dtype=${dtype} ${ARG_PARAMS} PLATFORMS ${platforms})
        endforeach ()
    endforeach ()
    foreach (dtype int8 int16 uint8 uint16)
        foreach (op min max)
            hdml_kernel(FAMILY reduce GENERATOR reduce PARAMS op=${op} dtype=${dtype} ${ARG_PARAMS} PLATFORMS ${ARG_PLATFORMS})
        endforeach ()
    endforeach ()
    foreach (dtype float32 float16 int8 int16 int32 int64 uint8 uint16 uint32 uint64)
        set(platforms ${ARG_PLATFORMS})
        if (dtype MATCHES "64")
            set(platforms ${no_d3d12})
        endif ()
        hdml_kernel(FAMILY arg_reduce GENERATOR arg_reduce PARAMS dtype=${dtype} ${ARG_PARAMS} PLATFORMS ${platforms})
    endforeach ()
endfunction()
set(_all x86 arm cuda d3d12)
set(_no_d3d12 x86 arm cuda)
foreach (layout inner outer)
    hdml_reducing_kernels(PARAMS layout=${layout} PLATFORMS ${_all})
endforeach ()
# CUDA, many columns: a thread reduces whole columns, one kernel (ColumnMapping).
hdml_reducing_kernels(PARAMS layout=outer columns=whole PLATFORMS cuda)
# CUDA, few columns: their many runs merged by a warp per column (ColumnMapping).
hdml_reducing_kernels(PARAMS layout=outer columns=warp_merge PLATFORMS cuda)
# CUDA, a thread per short row, rows read in 16-byte vectors (vector_bytes;
# the runtime takes them for unit-stride rows of whole vectors at an aligned
# address). 32-bit types only: their loads come out 16 bytes wide (float32
# SUM, MULTIPLY and LOG_SUM_EXP one ld.v4, the others two 8-byte loads), while
# Halide 14's 8-, 16- and 64-bit vectors reach PTX as element loads.
hdml_kernel(FAMILY reduce GENERATOR reduce
            PARAMS op=log_sum_exp dtype=float32 layout=outer columns=whole vector_bytes=16 PLATFORMS cuda)
foreach (dtype float32 int32 uint32)
    foreach (op sum multiply min max)
        hdml_kernel(FAMILY reduce GENERATOR reduce
                    PARAMS op=${op} dtype=${dtype} layout=outer columns=whole vector_bytes=16 PLATFORMS cuda)
    endforeach ()
    hdml_kernel(FAMILY arg_reduce GENERATOR arg_reduce
                PARAMS dtype=${dtype} layout=outer columns=whole vector_bytes=16 PLATFORMS cuda)
endforeach ()
# CUDA, float16 rows read as 32-bit words (loads=words: two elements per
# load, where Halide 14 loads 16-bit elements one at a time, even in vectors):
# the twins of the kernels unit-stride rows take (inner rows, the lanes of
# short rows, a thread per short row, also in 16-byte vectors of words); the
# runtime passes them rows of whole words at word-aligned addresses.
foreach (op sum multiply min max log_sum_exp)
    foreach (mapping "layout=inner" "layout=inner;rows=lanes" "layout=outer;columns=whole"
                     "layout=outer;columns=whole;vector_bytes=16")
        hdml_kernel(FAMILY reduce GENERATOR reduce PARAMS op=${op} dtype=float16 ${mapping} loads=words PLATFORMS cuda)
    endforeach ()
endforeach ()
foreach (mapping "layout=inner" "layout=inner;rows=lanes" "layout=outer;columns=whole"
                 "layout=outer;columns=whole;vector_bytes=16")
    hdml_kernel(FAMILY arg_reduce GENERATOR arg_reduce PARAMS dtype=float16 ${mapping} loads=words PLATFORMS cuda)
endforeach ()
foreach (rows "" rows=lanes)
    foreach (op sum multiply min max)
        hdml_kernel(FAMILY reduce GENERATOR reduce SMALL_BUFFERS
                    PARAMS op=${op} dtype=float16 layout=inner ${rows} lane_merge=shuffles loads=words PLATFORMS cuda)
    endforeach ()
endforeach ()
# ... and the outer layout's split runs with two adjacent columns to a word, a
# thread reading both (loads=column_words: unit-stride columns of whole words),
# merged by a thread per column or (few columns) a warp per column. Not
# LOG_SUM_EXP: its tree's chains for two columns ran 0.80x the element kernel
# on the H100 ([16K,16K] outer 53% -> 42% of copy).
foreach (merge "" columns=warp_merge)
    foreach (op sum multiply min max)
        hdml_kernel(FAMILY reduce GENERATOR reduce
                    PARAMS op=${op} dtype=float16 layout=outer ${merge} loads=column_words PLATFORMS cuda)
    endforeach ()
    hdml_kernel(FAMILY arg_reduce GENERATOR arg_reduce PARAMS dtype=float16 layout=outer ${merge} loads=column_words
                PLATFORMS cuda)
endforeach ()
# CUDA, many short rows: a few threads per row, several rows per block, one
# kernel (RowMapping).
hdml_reducing_kernels(PARAMS layout=inner rows=lanes PLATFORMS cuda)
# CPUs, many short rows: each row reduced whole, a vector lane per row, rows
# in tasks sized by bytes (RowMapping).
hdml_reducing_kernels(PARAMS layout=inner rows=whole PLATFORMS x86 arm)
# CPUs, many contiguous rows of several vectors: each row reduced in vectors,
# a vector of rows merged across lanes at once (RowMapping). Float types only:
# the cases users meet (a softmax-style reduction over a short last axis).
# x86 also with the rows' whole vectors prefetched, for the profiles that turn
# it on (a Xeon's gain; reduce_row_vectors_prefetched_max_row).
foreach (dtype float32 float16)
    foreach (op sum multiply min max log_sum_exp)
        hdml_kernel(FAMILY reduce GENERATOR reduce PARAMS op=${op} dtype=${dtype} layout=inner rows=vectors
                    PLATFORMS x86 arm)
        hdml_kernel(FAMILY reduce GENERATOR reduce PARAMS op=${op} dtype=${dtype} layout=inner
                    rows=vectors_prefetched PLATFORMS x86)
    endforeach ()
    hdml_kernel(FAMILY arg_reduce GENERATOR arg_reduce PARAMS dtype=${dtype} layout=inner rows=vectors PLATFORMS x86 arm)
    hdml_kernel(FAMILY arg_reduce GENERATOR arg_reduce PARAMS dtype=${dtype} layout=inner rows=vectors_prefetched
                PLATFORMS x86)
endforeach ()
# ARGMAX/ARGMIN of 8- and 16-bit types: (value, index) keys packed in 32 bits
# (a 16-bit index) for rows of at most 65536 elements (the CPUs' outer layout:
# any row, the index local to a chunk of rows), the runtime taking these twins
# where a row fits. On CPUs twice the lanes of the 64-bit keys; on CUDA
# half the key arithmetic, and the lanes merge through warp shuffles; on D3D12
# one pass where the others take two. Every mapping of the types on each
# platform (and CUDA's float16 word loads).
foreach (dtype float16 int8 int16 uint8 uint16)
    foreach (mapping "layout=inner" "layout=outer")
        hdml_kernel(FAMILY arg_reduce GENERATOR arg_reduce PARAMS dtype=${dtype} ${mapping} key_bits=32
                    PLATFORMS x86 arm cuda d3d12)
    endforeach ()
    hdml_kernel(FAMILY arg_reduce GENERATOR arg_reduce PARAMS dtype=${dtype} layout=inner rows=whole key_bits=32
                PLATFORMS x86 arm)
    foreach (mapping "layout=outer;columns=whole" "layout=outer;columns=warp_merge" "layout=inner;rows=lanes")
        hdml_kernel(FAMILY arg_reduce GENERATOR arg_reduce PARAMS dtype=${dtype} ${mapping} key_bits=32 PLATFORMS cuda)
    endforeach ()
    foreach (rows "" rows=lanes)
        hdml_kernel(FAMILY arg_reduce GENERATOR arg_reduce SMALL_BUFFERS
                    PARAMS dtype=${dtype} layout=inner ${rows} lane_merge=shuffles key_bits=32 PLATFORMS cuda)
    endforeach ()
endforeach ()
hdml_kernel(FAMILY arg_reduce GENERATOR arg_reduce PARAMS dtype=float16 layout=inner rows=vectors key_bits=32
            PLATFORMS x86 arm)
hdml_kernel(FAMILY arg_reduce GENERATOR arg_reduce PARAMS dtype=float16 layout=inner rows=vectors_prefetched
            key_bits=32 PLATFORMS x86)
foreach (mapping "layout=inner" "layout=inner;rows=lanes" "layout=outer;columns=whole"
                 "layout=outer;columns=whole;vector_bytes=16" "layout=outer;loads=column_words"
                 "layout=outer;columns=warp_merge;loads=column_words")
    set(loads loads=words)
    if (mapping MATCHES "loads=")
        set(loads "")
    endif ()
    hdml_kernel(FAMILY arg_reduce GENERATOR arg_reduce PARAMS dtype=float16 ${mapping} ${loads} key_bits=32
                PLATFORMS cuda)
endforeach ()
foreach (rows "" rows=lanes)
    hdml_kernel(FAMILY arg_reduce GENERATOR arg_reduce SMALL_BUFFERS
                PARAMS dtype=float16 layout=inner ${rows} lane_merge=shuffles loads=words key_bits=32 PLATFORMS cuda)
endforeach ()
# CUDA, inner rows whose lanes (a warp per row merging its chunks, or the
# lanes variant's few per row) merge through a warp-shuffle butterfly
# (lane_merge=shuffles): accumulators of at most 32 bits, so every function of
# the 8- to 32-bit types but LOG_SUM_EXP (an explicit tree) and ARGMAX/ARGMIN
# (64-bit keys; their 32-bit-key twins above shuffle); built without
# large_buffers (see LaneMerge), the runtime takes them for buffers under 2 GiB.
foreach (rows "" rows=lanes)  # the split kernel (no rows= parameter) and the lanes one
    foreach (dtype float32 float16 int32 uint32 int8 int16 uint8 uint16)
        set(ops sum multiply min max)
        if (dtype MATCHES "int(8|16)")
            set(ops min max)
        endif ()
        foreach (op IN LISTS ops)
            hdml_kernel(FAMILY reduce GENERATOR reduce SMALL_BUFFERS
                        PARAMS op=${op} dtype=${dtype} layout=inner ${rows} lane_merge=shuffles PLATFORMS cuda)
        endforeach ()
    endforeach ()
endforeach ()

# --- Gather: data movement keyed by element size ----------------------------
# (D3D12 moves 64-bit elements as pairs of 32-bit words, with the uint32 kernel.)
foreach (dtype uint8 uint16 uint32)
    hdml_kernel(FAMILY gather GENERATOR gather PARAMS dtype=${dtype} PLATFORMS ${_all})
endforeach ()
hdml_kernel(FAMILY gather GENERATOR gather PARAMS dtype=uint64 PLATFORMS ${_no_d3d12})
# Index normalisation in device memory (CPU devices normalise on the host);
# 64-bit indices also as pairs of 32-bit words (loads=words): D3D12's, and
# CUDA's under HDML_64BIT_MOVES=word_pairs, which tests that path.
foreach (itype int32 uint32)
    hdml_kernel(FAMILY normalize_indices GENERATOR normalize_indices PARAMS itype=${itype} PLATFORMS cuda d3d12)
endforeach ()
foreach (itype int64 uint64)
    hdml_kernel(FAMILY normalize_indices GENERATOR normalize_indices PARAMS itype=${itype} PLATFORMS cuda)
    hdml_kernel(FAMILY normalize_indices GENERATOR normalize_indices PARAMS itype=${itype} loads=words
                PLATFORMS cuda d3d12)
endforeach ()

# --- Strided copy (SPLIT, JOIN): keyed by element size -----------------------
# (D3D12 moves 64-bit elements as pairs of 32-bit words, with the uint32 kernel.)
foreach (dtype uint8 uint16 uint32)
    hdml_kernel(FAMILY copy GENERATOR copy PARAMS dtype=${dtype} PLATFORMS ${_all})
endforeach ()
hdml_kernel(FAMILY copy GENERATOR copy PARAMS dtype=uint64 PLATFORMS ${_no_d3d12})
# CUDA JOIN and SPLIT: up to 16 pieces alike per launch, read (written) through
# one span of the address space (a launch per piece: ~3.5 us of GPU time lost per boundary).
foreach (dtype uint8 uint16 uint32 uint64)
    hdml_kernel(FAMILY copy_parts GENERATOR copy_parts PARAMS dtype=${dtype} PLATFORMS cuda)
    hdml_kernel(FAMILY split_parts GENERATOR split_parts PARAMS dtype=${dtype} PLATFORMS cuda)
endforeach ()

# --- Scans (CUMULATIVE_SUMMATION, CUMULATIVE_PRODUCT) --------------------------
foreach (layout inner outer)
    foreach (op sum product)
        foreach (dtype float32 float16 int32 uint32)
            hdml_kernel(FAMILY scan GENERATOR scan PARAMS op=${op} dtype=${dtype} layout=${layout} PLATFORMS ${_all})
        endforeach ()
        foreach (dtype int64 uint64)
            hdml_kernel(FAMILY scan GENERATOR scan PARAMS op=${op} dtype=${dtype} layout=${layout} PLATFORMS ${_no_d3d12})
        endforeach ()
    endforeach ()
endforeach ()
# Along the innermost axis on CUDA: long lines (segments staged through shared
# memory) and short lines (whole lines staged, one kernel; the runtime takes the
# smallest max_line that holds the line: a line of 16 ran 1.5x faster in the
# 16-element kernel than in the 32-element one).
foreach (op sum product)
    foreach (dtype float32 float16 int32 uint32 int64 uint64)
        hdml_kernel(FAMILY scan GENERATOR scan PARAMS op=${op} dtype=${dtype} layout=inner staging=shared PLATFORMS cuda)
        foreach (max_line 4 8 16 32 64)
            hdml_kernel(FAMILY scan GENERATOR scan
                        PARAMS op=${op} dtype=${dtype} layout=inner staging=lines max_line=${max_line} PLATFORMS cuda)
        endforeach ()
    endforeach ()
    # Lines of up to 128, 32-bit totals only: a block of 32 lines stages 33 KiB
    # (64-bit totals would need blocks of 16 lines).
    foreach (dtype float32 float16 int32 uint32)
        hdml_kernel(FAMILY scan GENERATOR scan
                    PARAMS op=${op} dtype=${dtype} layout=inner staging=lines max_line=128 PLATFORMS cuda)
    endforeach ()
endforeach ()
# CPUs, outer axis over many columns: a task per block of columns walks down
# every row, one pass over the input (the chunked scan reads it twice); own-width
# types carry from the output, as on CUDA, float16 from a float32 carry row
# (its own family: a second output).
# Fewer columns: chunks of rows in parallel, each walked whole from its carry
# (the blocked scan's totals and carries first); float16 into float32 totals of its own.
foreach (op sum product)
    foreach (dtype float32 int32 uint32 int64 uint64)
        hdml_kernel(FAMILY scan GENERATOR scan PARAMS op=${op} dtype=${dtype} layout=outer staging=columns PLATFORMS x86 arm)
        hdml_kernel(FAMILY scan GENERATOR scan PARAMS op=${op} dtype=${dtype} layout=outer staging=chunk_walk PLATFORMS x86 arm)
    endforeach ()
    hdml_kernel(FAMILY scan_carry_row GENERATOR scan_carry_row TUNING scan
                PARAMS op=${op} dtype=float16 layout=outer staging=columns PLATFORMS x86 arm)
    hdml_kernel(FAMILY scan GENERATOR scan PARAMS op=${op} dtype=float16 layout=outer staging=chunk_walk PLATFORMS x86 arm)
endforeach ()
# CPUs, inner axis: each line walked vector by vector, one pass (the vector
# scan keeps in-place exclusive scans).
# Lines fewer than the threads: each cut into chunks walked in parallel from
# their carries (staging=chunk_walk). The period walks: the packed rows of an
# outer scan over 2, 3, 4 or 8 columns walked as one line of interleaved scans
# (a row is narrower than a vector), whole or in chunks. float16 walks lines
# (or chunks of them) into float32 totals of their own, then narrows them.
foreach (op sum product)
    foreach (dtype float32 int32 uint32 int64 uint64 float16)
        foreach (staging line_walk chunk_walk)
            hdml_kernel(FAMILY scan GENERATOR scan PARAMS op=${op} dtype=${dtype} layout=inner staging=${staging}
                        PLATFORMS x86 arm)
            foreach (period 2 3 4 8)
                hdml_kernel(FAMILY scan GENERATOR scan PARAMS op=${op} dtype=${dtype} layout=inner period=${period}
                            staging=${staging} PLATFORMS x86 arm)
            endforeach ()
        endforeach ()
    endforeach ()
endforeach ()
# The CUDA walks, one pass over the input from memory: a block per line walks
# along the innermost axis (many long lines), a block per 32 columns down an
# outer axis (many columns). For the types that accumulate in their own width
# (not float16), without large_buffers (the runtime checks the buffers fit).
foreach (op sum product)
    foreach (dtype float32 int32 uint32 int64 uint64)
        foreach (walk inner:line_walk outer:columns)  # layout:staging
            string(REPLACE ":" ";" walk "${walk}")
            list(GET walk 0 layout)
            list(GET walk 1 staging)
            hdml_kernel(FAMILY scan GENERATOR scan SMALL_BUFFERS
                        PARAMS op=${op} dtype=${dtype} layout=${layout} staging=${staging} PLATFORMS cuda)
        endforeach ()
    endforeach ()
endforeach ()
