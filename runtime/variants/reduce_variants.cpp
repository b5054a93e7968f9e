#include "runtime/variants/reduce_variants.h"

#include "runtime/checked.h"
#include "runtime/error.h"
#include "runtime/shape/limits.h"
#include "runtime/variants/variant_list.h"

#include <vector>

namespace hdml {

namespace {

// The shape a variant's kernel runs: the planned one; its short rows as the
// outer kernel's columns, a thread per row (CUDA); or the outer layout's
// columns as rows of the inner kernel (CPUs' rows=whole).
enum ShapeAs { kAsPlanned, kRowsAsColumns, kColumnsAsRows };

struct ReduceVariant {
    const char *name;
    unsigned platforms;
    KernelParams mapping;  // added to the function's parameters
    ShapeAs shape_as;
    // A twin built with this vector_bytes serves calls whose input is that aligned.
    int32_t aligned_twin_vector_bytes;
    std::string (*refusal)(const ReduceQuery &q);
};

using P = KernelParams;

std::string row_lanes(const ReduceQuery &q) {
    const ReduceShape &s = q.shape;
    const DispatchThresholds &t = *q.limits;
    if (s.outer_layout) return "outer layout";
    if (s.r.extent < t.reduce_row_lanes_min_row || s.r.extent > t.reduce_row_lanes_max_row) {
        return format("rows of %lld, outside reduce_row_lanes_min_row..max_row [%lld, %lld]", (long long)s.r.extent,
                      (long long)t.reduce_row_lanes_min_row, (long long)t.reduce_row_lanes_max_row);
    }
    if (s.o.extent < t.reduce_row_lanes_min_rows) {
        return format("%lld rows per call, fewer than reduce_row_lanes_min_rows %lld", (long long)s.o.extent,
                      (long long)t.reduce_row_lanes_min_rows);
    }
    return "";
}

// Accumulators merged through warp shuffles: at most 32 bits (ARGMAX/ARGMIN's
// narrow keys only), and 32-bit indexing (built without large_buffers).
std::string shuffles(const ReduceQuery &q) {
    if (q.arg && !q.narrow_keys) return "ARGMAX/ARGMIN's 64-bit keys do not shuffle";
    if (!fits_small_buffers({&q.shape.i, &q.shape.r, &q.shape.o}, q.in_bytes, q.out_bytes)) {
        return "a buffer of the call reaches 2^31 elements or bytes";
    }
    return "";
}

std::string row_lanes_shuffles(const ReduceQuery &q) {
    const std::string why = row_lanes(q);
    return why.empty() ? shuffles(q) : why;
}

std::string thread_per_row(const ReduceQuery &q) {
    const ReduceShape &s = q.shape;
    const DispatchThresholds &t = *q.limits;
    if (s.outer_layout) return "outer layout";
    if (s.r.extent > t.reduce_thread_per_row_max) {
        return format("rows of %lld, longer than reduce_thread_per_row_max %lld", (long long)s.r.extent,
                      (long long)t.reduce_thread_per_row_max);
    }
    if (s.o.extent < t.reduce_thread_per_row_min_rows) {
        return format("%lld rows per call, fewer than reduce_thread_per_row_min_rows %lld", (long long)s.o.extent,
                      (long long)t.reduce_thread_per_row_min_rows);
    }
    return "";
}

std::string whole_columns_of(const ReduceShape &s, const DispatchThresholds &t) {
    if (!s.outer_layout) return "inner layout";
    if (s.outputs_per_call() < t.reduce_whole_columns_min_outputs) {
        return format("%lld outputs per call, fewer than reduce_whole_columns_min_outputs %lld",
                      (long long)s.outputs_per_call(), (long long)t.reduce_whole_columns_min_outputs);
    }
    return "";
}

std::string warp_merge_of(const ReduceShape &s, const DispatchThresholds &t) {
    if (!s.outer_layout) return "inner layout";
    if (s.outputs_per_call() > t.reduce_warp_merge_max_outputs) {
        return format("%lld outputs per call, more than reduce_warp_merge_max_outputs %lld",
                      (long long)s.outputs_per_call(), (long long)t.reduce_warp_merge_max_outputs);
    }
    return "";
}

std::string rows_whole_columns(const ReduceQuery &q) {
    const std::string why = thread_per_row(q);
    return why.empty() ? whole_columns_of(q.shape.rows_as_columns(), *q.limits) : why;
}

std::string rows_warp_merge(const ReduceQuery &q) {
    const std::string why = thread_per_row(q);
    return why.empty() ? warp_merge_of(q.shape.rows_as_columns(), *q.limits) : why;
}

std::string whole_columns(const ReduceQuery &q) {
    return whole_columns_of(q.shape, *q.limits);
}

std::string warp_merge(const ReduceQuery &q) {
    return warp_merge_of(q.shape, *q.limits);
}

std::string inner_shuffles(const ReduceQuery &q) {
    return q.shape.outer_layout ? "outer layout" : shuffles(q);
}

// rows=whole and rows=vectors kernels reduce whole vectors of rows, a task's
// last vector shifted back over rows already done: a call needs a vector of
// rows, at most 16 (AVX-512's float32 lanes).
constexpr int64_t kVectorOfRows = 16;

std::string vectors_of_rows(const ReduceShape &s) {
    if (s.o.extent >= kVectorOfRows) return "";
    return format("%lld rows per call, fewer than a vector of rows (%lld)", (long long)s.o.extent,
                  (long long)kVectorOfRows);
}

std::string whole_rows(const ReduceQuery &q) {
    const ReduceShape &s = q.shape;
    if (s.outer_layout) return "outer layout";
    if (std::string why = vectors_of_rows(s); !why.empty()) return why;
    if (s.r.extent > q.limits->reduce_whole_rows_max_row) {
        return format("rows of %lld, longer than reduce_whole_rows_max_row %lld", (long long)s.r.extent,
                      (long long)q.limits->reduce_whole_rows_max_row);
    }
    // The plain kernel walks such rows in full chunks of its vectors, no tail:
    // rows of 64 ran 0.94-1.62x rows=whole on Zen 4 and the Xeon, rows of 40
    // or 48 (a partial chunk) mostly 0.35-0.87x.
    const int64_t multiple = q.limits->reduce_whole_rows_plain_multiple;
    if (multiple > 0 && s.r.extent % multiple == 0) {
        return format("rows of %lld, a multiple of reduce_whole_rows_plain_multiple %lld", (long long)s.r.extent,
                      (long long)multiple);
    }
    return "";
}

// The outer layout's few columns over short rows (a middle axis of few inner
// elements, e.g. [N, 8, 2] along 8) as rows=whole's rows: a vector of o's a
// lane each, the columns one after the other inside it (they share its lines,
// which stay in L1 while the vector of rows spans few bytes). The outer
// kernel's tasks, each o's merge and float SUM's zero-sum walk cost hundreds of
// cycles an o there (SUM over [4M, 8, 2] along 8: 0.17 GB/s on 2 Zen 4 cores).
std::string whole_columns_as_rows(const ReduceQuery &q) {
    const ReduceShape &s = q.shape;
    const DispatchThresholds &t = *q.limits;
    if (!s.outer_layout) return "inner layout";
    if (s.i.extent > t.reduce_whole_rows_max_columns) {
        return format("%lld columns, more than reduce_whole_rows_max_columns %lld", (long long)s.i.extent,
                      (long long)t.reduce_whole_rows_max_columns);
    }
    if (s.r.extent > t.reduce_whole_rows_max_row) {
        return format("rows of %lld, longer than reduce_whole_rows_max_row %lld", (long long)s.r.extent,
                      (long long)t.reduce_whole_rows_max_row);
    }
    int64_t bytes = 0;
    if (!checked_mul(kVectorOfRows * s.i.extent, s.r.extent * q.in_bytes, &bytes) ||
        bytes > t.reduce_whole_rows_max_columns_bytes) {
        return format("a vector of rows spans %lld columns x %lld rows x %lld o's, more than "
                      "reduce_whole_rows_max_columns_bytes %lld bytes",
                      (long long)s.i.extent, (long long)s.r.extent, (long long)kVectorOfRows,
                      (long long)t.reduce_whole_rows_max_columns_bytes);
    }
    return vectors_of_rows(s);
}

// rows=vectors kernels take contiguous rows (the kernel reads them in dense
// vectors; it is built for float types only). Sums and products of the
// elements take longer rows than the rest: the plain kernel pays ~60 cycles a
// row beside its loop (merging the row's vectors, its block and zero-sum
// bookkeeping), which rows=vectors does not (SUM over rows of 128-1024, 256
// MiB: 1.0-2.4x on the Zen 4 VM and the Xeon at 2 and 16 threads), while
// MAX and ARGMAX over such rows ran 0.55-0.84x on 16 Xeon threads, L2 float16
// over rows of 512 0.74-0.79x there (rows=vectors's partials go through the
// stack each step, a chain the extra term lengthens) and LOG_SUM_EXP 0.5-0.8x
// everywhere (its two passes, where the plain kernel runs prefetched pieces).
// MIN/MAX/ARG* have a length of their own: through rows=vectors_prefetched
// MAX and ARGMAX over rows of 128-256 ran 1.03-1.37x the plain kernel on the
// Xeon, where LOG_SUM_EXP over rows of 128 lost (0.85x at 2 threads).
// float16 sums and products have a shortest row of their own (x86 and ARM:
// rows=vectors' own, 32): on the Zen 4 VM rows=vectors ran float16 SUM over
// rows of 32-128 1.6-3.3x rows=whole and the plain kernel once its -0.0 was
// no masked load of a constant (reduce_generator.cpp), 0.39-0.86x before.
std::string row_vectors(const ReduceQuery &q) {
    const ReduceShape &s = q.shape;
    const DispatchThresholds &t = *q.limits;
    if (s.outer_layout) return "outer layout";
    if (s.r.in_stride != 1) return "rows not contiguous";
    if (std::string why = vectors_of_rows(s); !why.empty()) return why;
    const int64_t max_row = q.sums_or_products ? t.reduce_row_vectors_max_sum_row
                            : q.extremes       ? t.reduce_row_vectors_max_extreme_row
                                               : t.reduce_row_vectors_max_row;
    if (s.r.extent < t.reduce_row_vectors_min_row || s.r.extent > max_row) {
        return format("rows of %lld, outside reduce_row_vectors_min_row..%s [%lld, %lld]", (long long)s.r.extent,
                      q.sums_or_products ? "max_sum_row" : q.extremes ? "max_extreme_row" : "max_row",
                      (long long)t.reduce_row_vectors_min_row, (long long)max_row);
    }
    if (q.float16 && q.sums_or_products && s.r.extent < t.reduce_row_vectors_float16_min_sum_row) {
        return format("float16 rows of %lld, shorter than reduce_row_vectors_float16_min_sum_row %lld",
                      (long long)s.r.extent, (long long)t.reduce_row_vectors_float16_min_sum_row);
    }
    return "";
}

// rows=vectors' rows, each row's whole vectors read with a prefetch ahead and
// its last vector apart (x86 kernels): on 2 and 16 Xeon threads 1.13-1.71x
// rows=vectors over its short-row cases (float32 sums over rows of 256-1024
// and float16 sums over rows of 32 unchanged), but 0.66-0.74x on the Zen 4 VM
// (float32 SUM over rows of 64): off by default, a profile's threshold turns it on.
std::string row_vectors_prefetched(const ReduceQuery &q) {
    const int64_t max_row = q.limits->reduce_row_vectors_prefetched_max_row;
    if (q.shape.r.extent > max_row) {
        return format("rows of %lld, over reduce_row_vectors_prefetched_max_row %lld", (long long)q.shape.r.extent,
                      (long long)max_row);
    }
    return row_vectors(q);
}

const ReduceVariant kReduceVariants[] = {
    // CUDA, many short rows: a few lanes per row, several rows per block.
    {"rows=lanes lane_merge=shuffles", kOnCuda, P{}.with(param::rows::lanes).with(param::lane_merge::shuffles), kAsPlanned, 0,
     row_lanes_shuffles},
    {"rows=lanes", kOnCuda, P{}.with(param::rows::lanes), kAsPlanned, 0, row_lanes},
    // CUDA, many very short rows: a thread per row (the rows become columns).
    {"thread per row, columns=whole", kOnCuda, P{}.with(param::columns::whole), kRowsAsColumns, 16, rows_whole_columns},
    {"thread per row, columns=warp_merge", kOnCuda, P{}.with(param::columns::warp_merge), kRowsAsColumns, 0, rows_warp_merge},
    {"thread per row", kOnCuda, P{}, kRowsAsColumns, 0, thread_per_row},
    // CUDA, outer layout: many columns a thread each; few columns a warp each.
    {"columns=whole", kOnCuda, P{}.with(param::columns::whole), kAsPlanned, 16, whole_columns},
    {"columns=warp_merge", kOnCuda, P{}.with(param::columns::warp_merge), kAsPlanned, 0, warp_merge},
    // CUDA, other inner rows: the split kernel, its lanes merging through shuffles.
    {"lane_merge=shuffles", kOnCuda, P{}.with(param::lane_merge::shuffles), kAsPlanned, 0, inner_shuffles},
    // CPUs, many contiguous rows of several vectors: a row's vectors, then a vector of rows across lanes
    // (x86: with its whole vectors prefetched, where a profile's threshold turns that on).
    {"rows=vectors_prefetched", kOnCpu, P{}.with(param::rows::vectors_prefetched), kAsPlanned, 0, row_vectors_prefetched},
    {"rows=vectors", kOnCpu, P{}.with(param::rows::vectors), kAsPlanned, 0, row_vectors},
    // CPUs, many short rows: each row reduced whole, a vector lane per row.
    {"rows=whole", kOnCpu, P{}.with(param::rows::whole), kAsPlanned, 0, whole_rows},
    // CPUs, few columns over short rows (a middle axis): each column of each o a row of rows=whole.
    {"rows=whole, columns as rows", kOnCpu, P{}.with(param::rows::whole), kColumnsAsRows, 0, whole_columns_as_rows},
    // Every shape: the plain kernel of the shape's layout.
    {"plain", kOnAll, P{}, kAsPlanned, 0, serves_all<ReduceQuery>},
};

// Whether every row of `s` starts on a `vector_bytes` vector and holds whole
// vectors (dims of one element have no stride to speak of: calls pass 0).
bool on_vectors(const ReduceShape &s, int64_t element_bytes, int64_t vector_bytes) {
    const int64_t lanes = vector_bytes / element_bytes;
    auto aligned = [&](const Dim &d) { return d.extent == 1 || d.in_stride % lanes == 0; };
    return lanes >= 2 && s.r.in_stride == 1 && s.r.extent % lanes == 0 && aligned(s.i) && aligned(s.o);
}

// Whether every pair of adjacent columns of the outer layout `s` is one
// 32-bit word of 16-bit elements: unit-stride columns, an even count, rows
// and planes starting on a word.
bool on_column_words(const ReduceShape &s) {
    auto aligned = [](const Dim &d) { return d.extent == 1 || d.in_stride % 2 == 0; };
    return s.outer_layout && s.i.in_stride == 1 && s.i.extent % 2 == 0 && aligned(s.r) && aligned(s.o);
}

}  // namespace

HRESULT choose_reduce_kernel(const hdml_device &device, Family family, const KernelParams &function,
                             const ReduceQuery &planned, const std::string &what, ReduceChoice *choice) {
    // ARGMAX/ARGMIN of 8- and 16-bit types over rows that a 16-bit index
    // spans, or any row of the CPUs' outer layout (its index is local to a
    // chunk of rows): each variant's twin packing 32-bit keys first (CPUs:
    // twice the lanes of 64-bit keys; CUDA: half the key arithmetic, and shuffles).
    ReduceQuery query = planned;
    const bool index_in_chunks = !on_gpu(device) && query.shape.outer_layout;
    query.narrow_keys =
        query.arg && query.in_bytes <= 2 && (query.shape.r.extent <= kNarrowKeyMaxRow || index_in_chunks);
    query.sums_or_products =
        query.element_map == 0 && (function.op == param::op::sum || function.op == param::op::multiply);
    query.extremes = query.arg || function.op == param::op::min || function.op == param::op::max;
    query.float16 = function.dtype == param::dtype::float16;
    auto params_of = [&](const ReduceVariant &v) {
        const bool outer = v.shape_as == kRowsAsColumns || (query.shape.outer_layout && v.shape_as != kColumnsAsRows);
        return function.with(outer ? param::layout::outer : param::layout::inner).with_mapping(v.mapping);
    };
    auto twins_of = [&](const ReduceVariant &v) {
        std::vector<KernelParams> twins;
        if (query.narrow_keys) twins.push_back(params_of(v).with(param::key_bits{32}));
        twins.push_back(params_of(v));
        return twins;
    };
    const int index = choose_variant(kReduceVariants, 0, device, family, query, twins_of, &choice->kernel,
                                     &choice->passed_over);
    if (index < 0) {
        return no_kernel(device, family, params_of(kReduceVariants[std::size(kReduceVariants) - 1]), what);
    }
    const ReduceVariant &v = kReduceVariants[index];
    const int32_t key_bits = choice->kernel->params.key_bits;
    choice->variant = v.name;
    if (key_bits) choice->variant += format(" key_bits=%d", key_bits);
    choice->shape = v.shape_as == kRowsAsColumns   ? query.shape.rows_as_columns()
                    : v.shape_as == kColumnsAsRows ? query.shape.columns_as_rows()
                                                   : query.shape;
    // The aligned twins, the widest loads first: 16-bit rows as 32-bit words
    // (loads=words) in vectors, then words alone, then 16-bit columns in
    // pairs (loads=column_words); other types in vectors.
    struct Twin {
        int32_t vector_bytes;
        param::loads loads;
    };
    std::vector<Twin> twins;
    if (query.in_bytes == 2) {
        if (v.aligned_twin_vector_bytes) twins.push_back({v.aligned_twin_vector_bytes, param::loads::words});
        twins.push_back({0, param::loads::words});
        twins.push_back({0, param::loads::column_words});
    }
    if (v.aligned_twin_vector_bytes) twins.push_back({v.aligned_twin_vector_bytes, param::loads::none});
    for (const Twin &twin : twins) {
        const int64_t bytes = twin.vector_bytes ? twin.vector_bytes : kWordBytes;
        const bool columns = twin.loads == param::loads::column_words;
        if (columns ? !on_column_words(choice->shape) : !on_vectors(choice->shape, query.in_bytes, bytes)) continue;
        KernelParams params = params_of(v).with(twin.loads).with(param::key_bits{key_bits});
        if (twin.vector_bytes) params = params.with(param::vector_bytes{twin.vector_bytes});
        if (const KernelEntry *kernel = find_kernel(device, family, params)) {
            choice->aligned_kernel = kernel;
            choice->aligned_bytes = bytes;
            choice->aligned_words = twin.loads == param::loads::none ? 1 : kWordBytes / query.in_bytes;
            choice->words_along_columns = columns;
            break;
        }
    }
    return S_OK;
}

}  // namespace hdml
