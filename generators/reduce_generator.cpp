// The reducing family: DML_OPERATOR_REDUCE (all 12 functions) and the
// ARGMAX/ARGMIN operators. Each pipeline reduces input(i, r, o) over r into
// output(i, o); the runtime maps any DirectML descriptor onto that shape.
#include "generators/common.h"
#include "generators/exp.h"
#include "generators/float16.h"
#include "generators/prefetch.h"
#include "generators/reduce_chunking.h"
#include "runtime/shape/limits.h"
#include "schedules/reduce_schedule.h"

#include <functional>
#include <vector>

namespace hdml {

using namespace Halide;

// The combining operator. SUM, AVERAGE, L1, L2, LOG_SUM and SUM_SQUARE all
// share `sum`: the element map (identity, |x|, x^2) and the final step
// (none, /N, sqrt, log) are run-time inputs, so one pipeline serves six functions.
enum class ReduceOp { Sum, Multiply, Min, Max, LogSumExp };

// The buffers' contract of a reducing kernel: its layout's (any strides
// included; CPUs' rows=whole also takes few columns as rows: any i), a
// vector_bytes kernel's rows, a loads=words kernel's unit-stride rows of
// words, and a loads=column_words kernel's unit-stride columns of words (mins
// 0: so a thread's two columns are provably one word's).
// `output_i_dim` as in apply_layout_contract.
template <typename In, typename Out>
void apply_reducing_contract(Layout layout, const ReduceMapping &mapping, const Target &target, In &input, Out &output,
                             int output_i_dim = 0) {
    const bool columns_as_rows = mapping.rows == RowMapping::Whole && !target.has_gpu_feature();
    apply_layout_contract(layout, input, output, output_i_dim, columns_as_rows);
    if (mapping.vector_bytes > 0) apply_vector_row_contract(input, vector_lanes(mapping, input.type()));
    if (mapping.loads == RowLoads::Words) input.dim(1).set_stride(1);
    if (mapping.loads == RowLoads::ColumnWords) {
        input.dim(0).set_stride(1);
        for (int d = 0; d < 3; ++d) input.dim(d).set_min(0);
        output.dim(output_i_dim).set_min(0);
    }
}

// Where a CPU kernel's outer layout prefetches (outer_prefetch_bytes): for
// inputs of outer_prefetch_min_bytes or more (in the caches the prefetches
// only cost: 4 MiB calls with them 0.83-0.90x on the Xeon). Undefined where
// it never does.
template <typename In>
Expr outer_prefetching(In &input, Layout layout, const ReduceTuning &tuning, const Target &target) {
    if (layout != Layout::Outer || tuning.outer_prefetch_bytes <= 0 || target.has_gpu_feature()) return Expr();
    return spans_at_least(input, tuning.outer_prefetch_min_bytes);
}

// What every reducing generator does once its Funcs are defined: state the
// buffers' contract and hand the Funcs to the schedule.
// `word`: the first output dimension of ARGMAX/ARGMIN (see ReduceStages).
template <typename In, typename Out>
void finish_reducing_pipeline(In &input, Out &output, const std::vector<Func> &reductions, Var i, Var o,
                              const RowDomain &row, Layout layout, const ReduceMapping &mapping, const ReduceTuning &tuning,
                              const Target &target, std::optional<Var> word = std::nullopt,
                              Expr plain_terms = Expr(), std::optional<ZeroSumSigns> zero_sum_signs = std::nullopt,
                              std::optional<ChunkPartials> chunk_partials = std::nullopt,
                              std::vector<Expr> plain_finishes = {}, int vector_lanes = 0,
                              std::vector<Func> row_values = {}) {
    apply_reducing_contract(layout, mapping, target, input, output, word ? 1 : 0);
    const Expr prefetching = outer_prefetching(input, layout, tuning, target);
    if (prefetching.defined()) {
        // Columns from 0 (the runtime's buffers' mins), so each vector's
        // prefetch is one call (schedule_outer_cpu bounds the partials so too).
        input.dim(0).set_min(0);
        output.dim(word ? 1 : 0).set_min(0);
    }
    ReduceStages stages{output, reductions, input, i, o, row, layout, input.type(),
                        input.dim(0).stride(), input.dim(1).stride(), input.dim(2).stride(), input.dim(0).extent(),
                        input.dim(1).extent(), input.dim(2).extent(), word, plain_terms, zero_sum_signs,
                        chunk_partials};
    stages.outer_prefetching = prefetching;
    stages.plain_finishes = std::move(plain_finishes);
    stages.vector_lanes = vector_lanes;
    stages.row_values = std::move(row_values);
    schedule_reduce(stages, mapping, tuning, target);
}

// A row's start value, in rows=whole's dense rows of a vector (the CPU
// schedule's specialisation), with a prefetch of the row `prefetch_bytes`
// ahead tied to it (its bits OR the prefetch's zero), so a vector of rows
// prefetches its rows' lines as it starts and its loads stay dense (tied to
// the load's index, they became gathers: rows of 5-24 0.18-0.91x on the VM).
// Rows of 16 ran 1.11-1.38x on the 16-core Xeon at 2 and 16 threads, 0.91-1.05x on the Zen 4 VM.
template <typename In>
Expr start_with_row_prefetch(In &input, const Expr &start, const Expr &i, const Expr &o, const ReduceMapping &mapping,
                             const ReduceTuning &tuning, const Target &target, GeneratorContext::ExternsMap &externs) {
    if (mapping.rows != RowMapping::Whole || target.has_gpu_feature() || tuning.prefetch_bytes <= 0) return start;
    const int lanes = cpu_reduce_lanes(target, input.type());
    const Expr dense =
        whole_rows_are_dense_vectors(input.dim(1).extent(), input.dim(1).stride(), input.dim(2).stride(), lanes);
    const Expr ahead((int64_t)tuning.prefetch_bytes);
    const Expr zero = prefetch_if(dense, prefetch_ahead_of(input, i, Expr(0), o, 1, ahead, target, externs));
    const Type bits = UInt(start.type().bits());
    return reinterpret(start.type(), reinterpret(bits, start) | cast(bits, zero));
}

// CPUs' LOG_SUM_EXP is m + log(sum of exp(x - shift)) over the row's maximum
// m: the shift is m, or 0 where m is not finite, and the result then m itself
// (all -inf gives -inf, any +inf gives +inf) unless the sum is NaN.
Expr log_sum_exp_shift(const Expr &m) {
    return select(is_finite_value(m), m, Internal::make_zero(m.type()));
}
Expr log_sum_exp_result(const Expr &m, const Expr &sum) {
    return select(is_nan_value(sum), sum, is_finite_value(m), m + log(sum), m);
}

// The elements one step of a row reads from `loaded` (input(i, r, o)): itself,
// or (loads=words) the `per_load` elements of type `t` packed in the word,
// lowest first (the element order in memory on little-endian devices).
std::vector<Expr> elements_of(const Expr &loaded, Type t, int per_load) {
    if (per_load == 1) return {loaded};
    std::vector<Expr> elements;
    for (int k = 0; k < per_load; ++k) {
        elements.push_back(reinterpret(t, cast(UInt(t.bits()), loaded >> (k * t.bits()))));
    }
    return elements;
}

// f(x) of the step's elements combined: a step's terms meet before they
// reach the accumulator (one update per step, whatever the elements per load).
template <typename F, typename Combine>
auto combine_terms(const std::vector<Expr> &elements, F f, Combine combine) {
    auto value = f(elements[0]);
    for (size_t k = 1; k < elements.size(); ++k) value = combine(value, f(elements[k]));
    return value;
}

Expr add(const Expr &a, const Expr &b) {
    return a + b;
}
Expr multiply(const Expr &a, const Expr &b) {
    return a * b;
}
Expr maximum(const Expr &a, const Expr &b) {
    return max(a, b);
}
Expr minimum(const Expr &a, const Expr &b) {
    return min(a, b);
}

// A row's float maximum (is_max) or minimum from three extremes of its
// elements' bits, NaN winning (NaN propagates, as in IEEE 754-2019
// maximum/minimum; -0 < +0). As signed integers the sign-clear elements
// order as their values and lie above every sign-set one; as unsigned, the
// sign-set elements lie above and order by magnitude. So the signed maximum is
// the largest sign-clear element (a positive NaN above +inf) if there is one,
// the unsigned minimum the smallest sign-clear one, else the sign-set one of
// least magnitude, and the unsigned maximum the sign-set one of most magnitude
// (a negative NaN above -inf) if there is one.
Expr extreme_from_bits(const Expr &signed_max, const Expr &unsigned_min, const Expr &unsigned_max, Type t,
                       bool is_max) {
    const Type u = UInt(t.bits());
    const Expr infinity = infinity_bits(t);
    const Expr any_nan =
        signed_max > reinterpret(signed_max.type(), infinity) || unsigned_max > (infinity | top_bit(u));
    const Expr bits = is_max ? select(signed_max >= 0, reinterpret(u, signed_max), unsigned_min)
                             : select((unsigned_max & top_bit(u)) != 0, unsigned_max, unsigned_min);
    // The NaNs the order keys made: all-ones keys for MAX, zero for MIN.
    const Expr nan = is_max ? all_ones(u) >> 1 : all_ones(u);
    return reinterpret(t, select(any_nan, nan, bits));
}

// The outer layout's row index r with a prefetch of the same columns
// ceil(outer_prefetch_bytes / row bytes) rows ahead tied to it (one call a
// vector: the buffers' and the partials' columns start at 0), the row bytes
// those of a task's tile of columns, where outer_prefetching holds. The
// hardware prefetchers stop at each page (a row of 1024 float32s is one):
// without it 16 Xeon cores read MAX at 50-70% of the read bandwidth, SUM at 75-90%.
template <typename In>
Expr outer_row_index_with_prefetch(In &input, const ReduceTuning &tuning, Type t, const Expr &i, const Expr &r,
                                   const Expr &o, const Target &target, GeneratorContext::ExternsMap &externs) {
    const Expr prefetching = outer_prefetching(input, Layout::Outer, tuning, target);
    if (!prefetching.defined()) return r;
    const Expr row_bytes = cast<int64_t>(clamp(input.dim(0).extent(), 1, (int)tuning.tile_columns)) * t.bytes();
    const Expr rows_ahead = rows_covering(Expr((int64_t)tuning.outer_prefetch_bytes), row_bytes);
    const Expr ahead = rows_ahead * cast<int64_t>(input.dim(1).stride()) * t.bytes();
    return row_index_with_prefetch(input, i, r, o, cpu_reduce_lanes(target, t), ahead, target, externs, 0,
                                   prefetching);
}

// The row index r of row part `part`'s loads: for the first part (its whole
// vectors) of the plain inner kernel (prefetch_bytes) and of
// rows=vectors_prefetched (row_vectors_prefetch_bytes), and for the outer
// layout's rows (outer_prefetch_bytes), with a prefetch ahead tied to it on
// CPUs (generators/prefetch.h, which leaves GPU targets r); r itself elsewhere.
// `lanes`: the kernel's vector where not the natural one (cpu_reduce_lanes).
template <typename In>
Expr load_index_of_vectors(In &input, Layout layout, const ReduceMapping &mapping, const ReduceTuning &tuning, Type t,
                           size_t part, const Expr &i, const Expr &r, const Expr &o, const Target &target,
                           GeneratorContext::ExternsMap &externs, int lanes = 0) {
    if (part != 0 || mapping.loads != RowLoads::Elements) return r;
    if (layout == Layout::Outer) return outer_row_index_with_prefetch(input, tuning, t, i, r, o, target, externs);
    const int ahead = mapping.rows == RowMapping::Split               ? (int)tuning.prefetch_bytes
                      : mapping.rows == RowMapping::VectorsPrefetched ? (int)tuning.row_vectors_prefetch_bytes
                                                                      : 0;
    if (ahead <= 0) return r;
    return row_index_with_prefetch(input, i, r, o, lanes > 0 ? lanes : cpu_reduce_lanes(target, t),
                                   Expr((int64_t)ahead), target, externs);
}

// The elements step r of the row of output (i, o) reads: input(i, r, o)
// itself; loads=words: that word's elements along the row; loads=column_words:
// column i's half of word i / 2 (a thread takes both columns of a word).
template <typename In>
std::vector<Expr> step_elements(In &input, const ReduceMapping &mapping, Type t, const Expr &i, const Expr &r,
                                const Expr &o) {
    if (mapping.loads == RowLoads::ColumnWords) {
        return {reinterpret(t, cast(UInt(t.bits()), input(i / 2, r, o) >> ((i % 2) * t.bits())))};
    }
    return elements_of(input(i, r, o), t, elements_per_load(mapping, t));
}

// The input's type: the data's, or its words' (loads=words, column_words).
Type loaded_type(ElemType dtype, const ReduceMapping &mapping) {
    const Type t = halide_type_of(dtype);
    elements_per_load(mapping, t);  // checks the type of a words kernel
    return mapping.loads == RowLoads::Elements ? t : UInt(32);
}

class Reduce : public Generator<Reduce> {
public:
    GeneratorParam<ReduceOp> op{"op",
                                ReduceOp::Sum,
                                {{"sum", ReduceOp::Sum},
                                 {"multiply", ReduceOp::Multiply},
                                 {"min", ReduceOp::Min},
                                 {"max", ReduceOp::Max},
                                 {"log_sum_exp", ReduceOp::LogSumExp}}};
    GeneratorParam<ElemType> dtype{"dtype", ElemType::Float32, elem_type_names()};
    GeneratorParam<Layout> layout{"layout", Layout::Inner, layout_names()};
    ReduceTuning tuning;
    ReduceMapping mapping;

    Input<Buffer<>> input{"input", 3};
    Input<int32_t> element_map{"element_map"};  // 0: x, 1: |x|, 2: x*x   (sum only)
    Input<int32_t> finish{"finish"};            // 0: none, 1: /N, 2: sqrt, 3: log   (float sum only)
    Output<Buffer<>> output{"output", 2};

    void configure() {
        input.set_type(loaded_type(dtype, mapping));
        output.set_type(halide_type_of(dtype));
    }

    void generate() {
        // LOG_SUM_EXP on GPUs: one pass, an explicit tree (generate_log_sum_exp_tree),
        // but for the thread-per-row kernel (vector_bytes), whose thread reads
        // its short row twice, the second time from cache: its two passes
        // (generate_log_sum_exp_two_passes) cost ~6 instructions an element.
        if (op == ReduceOp::LogSumExp && get_target().has_gpu_feature() && mapping.vector_bytes == 0) {
            return generate_log_sum_exp_tree();
        }
        const Type t = halide_type_of(dtype);
        // float16 accumulates in float32; signed integers accumulate in the
        // unsigned type of their width, so SUM and MULTIPLY wrap (defined behaviour).
        const Type acc_t = t.is_float() ? Float(std::max(32, t.bits())) : UInt(t.bits());
        const Conversions convert(get_target(), get_externs_map());
        const int per_load = elements_per_load(mapping, t);
        Var i("i"), o("o");
        const RowDomain row = row_domain(input.dim(1).extent(), layout, mapping, tuning, get_target(), t);
        const auto for_each_part = row_parts(row, i, o);
        Func acc("acc");
        std::optional<ZeroSumSigns> zero_sum_signs;
        std::vector<Func> reductions;
        Expr result, plain_terms;

        switch ((ReduceOp)op) {
        case ReduceOp::Sum: {
            auto term = [&](const Expr &x) {
                const Expr v = convert.widen(x, acc_t);
                const Expr magnitude = t.is_float() ? abs(v) : cast(acc_t, abs(x));
                return select(element_map == 1, magnitude, element_map == 2, v * v, v);
            };
            if (!t.is_float()) {
                acc(i, o) = row_start(cast(acc_t, 0), i, o);
                for_each_part([&](const std::vector<Expr> &xs) { acc(i, o) += combine_terms(xs, term, add); });
                result = acc(i, o);
                reductions = {acc};
                break;
            }
            // IEEE's sum starts at -0.0, but rfactor starts partial sums at
            // its identity, +0.0, so a sum of only -0.0 would be +0.0. A zero
            // sum of elements whose sign bits are all set (the top bit of the
            // minimum of sign_at_top) can only come from -0.0s: it is -0.0.
            if (mapping.rows == RowMapping::Whole && !get_target().has_gpu_feature()) {
                // CPUs' rows=whole: a row is a vector lane, its terms added to
                // the accumulator with no rfactor, so the sum starts at -0.0 as
                // IEEE's does (the sign pair's minimum cost rows of 16 a second
                // tree of shuffles per vector of rows).
                acc(i, o) = row_start(negative_zero(acc_t), i, o);
                for_each_part([&](const std::vector<Expr> &xs) { acc(i, o) += combine_terms(xs, term, add); });
                result = acc(i, o);
            } else if (get_target().has_gpu_feature()) {
                // GPUs carry the sign minimum beside the sum: a pair in registers.
                const Type sign_t = sum_sign_type(get_target(), t);
                acc(i, o) = Tuple(cast(acc_t, 0), all_ones(sign_t));
                auto sign = [&](const Expr &x) { return sign_at_top(x, sign_t); };
                for_each_part([&](const std::vector<Expr> &xs) {
                    acc(i, o) = Tuple(acc(i, o)[0] + combine_terms(xs, term, add),
                                      min(acc(i, o)[1], combine_terms(xs, sign, minimum)));
                });
                const Expr all_signs_set = acc(i, o)[1] >= top_bit(sign_t);
                result = select(element_map == 0 && acc(i, o)[0] == cast(acc_t, 0) && all_signs_set,
                                negative_zero(acc_t), acc(i, o)[0]);
            } else {
                // Other CPU mappings sum alone (the pair cost SUM 1.1-1.5x at
                // 16 threads) and read the signs again only where they can matter.
                acc(i, o) = cast(acc_t, 0);
                for_each_part([&](const std::vector<Expr> &xs) { acc(i, o) += combine_terms(xs, term, add); });
                zero_sum_signs = signs_of_zero_sums(acc, i, o);
                // No constant near the select: LLVM made each a masked
                // instruction reading it from memory (vmovdqu16 {k}, vandps
                // (%rip){1to16} {k}, a compare with 0.0 masked by the other
                // compare), ~370 cycles a vector of rows on Zen 4 in some builds
                // and processes (float16 SUM over rows of 64 2-3x slower). So
                // -0.0 is the signs' minimum itself (where the sum is zero and
                // every sign is set, every element is -0.0; with denormals as
                // zero, a negative denormal's top bits), and the test one
                // compare: the sum's bits past its sign (even) plus 1 where a
                // sign is clear are 0 exactly for a zero sum of set signs.
                const Type bits_t = UInt(acc_t.bits());
                const int top = acc_t.bits() - 1;
                const Expr negative_zero_bits = sign_at_top(zero_sum_signs->signs_here, bits_t);
                const Expr magnitude_twice = reinterpret(bits_t, acc(i, o)) << 1;
                const Expr a_sign_clear = ~negative_zero_bits >> top;
                result = select(element_map == 0 && magnitude_twice + a_sign_clear == cast(bits_t, 0),
                                reinterpret(acc_t, negative_zero_bits), acc(i, o));
            }
            const Expr n = cast(acc_t, input.dim(1).extent() * per_load);
            result = select(finish == 1, result / n, finish == 2, sqrt(result), finish == 3, log_ieee(result), result);
            reductions = {acc};
            plain_terms = element_map == 0;
            break;
        }
        case ReduceOp::Multiply: {
            acc(i, o) = row_start(cast(acc_t, 1), i, o);
            auto widen = [&](const Expr &x) { return convert.widen(x, acc_t); };
            for_each_part([&](const std::vector<Expr> &xs) { acc(i, o) *= combine_terms(xs, widen, multiply); });
            result = acc(i, o);
            reductions = {acc};
            break;
        }
        case ReduceOp::Min:
        case ReduceOp::Max: {
            const bool is_max = op == ReduceOp::Max;
            if (t.is_float() && cpu_walks_row_chunks(layout, mapping, get_target())) {
                // CPUs' plain inner kernel: three integer extremes of the
                // bits, an instruction each per vector, where an order key
                // costs ~7 (MAX f32 1.07-1.21x, f16 1.16-1.19x; where
                // accumulators live in memory (the outer layout) or a row is a
                // lane (rows=whole), three cost 0.74-0.9x).
                const Type signed_bits = Int(t.bits()), unsigned_bits = UInt(t.bits());
                auto as_signed = [&](const Expr &x) { return reinterpret(signed_bits, x); };
                auto as_unsigned = [&](const Expr &x) { return reinterpret(unsigned_bits, x); };
                acc(i, o) = Tuple(signed_bits.min(), unsigned_bits.max(), unsigned_bits.min());
                for_each_part([&](const std::vector<Expr> &xs) {
                    acc(i, o) = Tuple(max(acc(i, o)[0], combine_terms(xs, as_signed, maximum)),
                                      min(acc(i, o)[1], combine_terms(xs, as_unsigned, minimum)),
                                      max(acc(i, o)[2], combine_terms(xs, as_unsigned, maximum)));
                });
                result = extreme_from_bits(acc(i, o)[0], acc(i, o)[1], acc(i, o)[2], t, is_max);
            } else if (t.is_float()) {
                // Reduce order-preserving keys so NaN can be made to win
                // (NaN propagates, as in IEEE 754-2019 minimum/maximum).
                const Type k = UInt(t.bits());
                const Expr nan_key = is_max ? all_ones(k) : cast(k, 0);
                acc(i, o) = row_start(is_max ? cast(k, 0) : all_ones(k), i, o);
                auto key = [&](const Expr &x) { return select(is_nan_value(x), nan_key, order_key(x)); };
                for_each_part([&](const std::vector<Expr> &xs) {
                    acc(i, o) = is_max ? max(acc(i, o), combine_terms(xs, key, maximum))
                                       : min(acc(i, o), combine_terms(xs, key, minimum));
                });
                result = float_from_order_key(acc(i, o), t);
            } else {
                acc(i, o) = row_start(is_max ? t.min() : t.max(), i, o);
                auto itself = [](const Expr &x) { return x; };
                for_each_part([&](const std::vector<Expr> &xs) {
                    acc(i, o) = is_max ? max(acc(i, o), combine_terms(xs, itself, maximum))
                                       : min(acc(i, o), combine_terms(xs, itself, minimum));
                });
                result = acc(i, o);
            }
            reductions = {acc};
            break;
        }
        case ReduceOp::LogSumExp:
            // CPUs (their own kernels), and GPUs' thread-per-row kernel: two passes.
            generate_log_sum_exp_two_passes(row, i, o);
            return;
        }
        output(i, o) = convert.narrow(result, t);
        // SUM and AVERAGE, the plain terms' usual finishes, get loops of their own (plain_finishes).
        std::vector<Expr> plain_finishes;
        if (plain_terms.defined()) plain_finishes = {finish == 0, finish == 1};
        finish_reducing_pipeline(input, output, reductions, i, o, row, layout, mapping, tuning, get_target(),
                                 std::nullopt, plain_terms, zero_sum_signs, std::nullopt, plain_finishes);
    }

    // The minimum of sign_at_top over row (i, o) of the plain terms where
    // their sum `sum` is zero and the row's first element is negative (-0.0
    // sums start so; a zero sum of +0.0s costs one more load), else the first
    // element's alone. Rows are walked in blocks (ZeroSumSigns) whose condition
    // does not change along the rows, so a block that fails it costs one
    // compare (the walk is unswitched).
    ZeroSumSigns signs_of_zero_sums(Func sum, Var i, Var o) {
        const Type t = halide_type_of(dtype), sign_t = UInt(t.bits());
        ZeroSumSigns z;
        z.columns = layout == Layout::Outer ? ZeroSumSigns::kOuterColumns : 1;
        // Column `k` of block b, clamped into the input: the last block may pass its end.
        auto column_of_block = [&](const Expr &k) {
            return clamp(z.b * z.columns + k, input.dim(0).min(), input.dim(0).max());
        };
        const Expr column = column_of_block(z.k);
        auto signs_at = [&](const Expr &c, const Expr &r) {
            auto sign = [&](const Expr &x) { return sign_at_top(x, sign_t); };
            return combine_terms(step_elements(input, mapping, t, c, r, o), sign, minimum);
        };
        auto starts_a_negative_zero_sum = [&](const Expr &c) {
            return sum(c, o) == 0 && signs_at(c, 0) >= top_bit(sign_t);
        };
        Expr walk;
        if (z.columns == 1) {
            walk = starts_a_negative_zero_sum(column);
        } else {
            RDom in_block(0, z.columns, "in_block");
            z.blocks = Func("zero_sum_blocks");
            z.blocks(z.b, o) = cast<uint8_t>(0);
            z.blocks(z.b, o) =
                max(z.blocks(z.b, o), cast<uint8_t>(starts_a_negative_zero_sum(column_of_block(in_block))));
            walk = z.blocks(z.b, o) != 0;
        }
        z.rest = RDom(1, input.dim(1).extent() - 1, "rest");
        z.rest.where(element_map == 0 && walk);
        z.signs = Func("zero_sum_signs");
        z.signs(z.k, z.b, o) = signs_at(column, 0);
        z.signs(z.k, z.b, o) = min(z.signs(z.k, z.b, o), signs_at(column, z.rest));
        z.signs_here = z.signs(i % z.columns, i / z.columns, o);
        return z;
    }

    // A row's start value, with rows=whole's prefetch (start_with_row_prefetch).
    Expr row_start(const Expr &start, Var i, Var o) {
        return start_with_row_prefetch(input, start, i, o, mapping, tuning, get_target(), *get_externs_map());
    }

    // Defines a reduction's update over each part of the row (RowDomain), from
    // the elements of its step (one, or a word's). The plain CPU inner kernel's
    // first part, its vectors, prefetches ahead of its loads.
    using PartUpdate = std::function<void(const std::vector<Expr> &xs)>;
    std::function<void(const PartUpdate &)> row_parts(const RowDomain &row, Var i, Var o) {
        const Type t = halide_type_of(dtype);
        return [this, row, i, o, t](const PartUpdate &update) {
            for (size_t part = 0; part < row.at.size(); ++part) {
                const Expr r = load_index_of_vectors(input, layout, mapping, tuning, t, part, i, row.at[part], o,
                                                     get_target(), *get_externs_map());
                update(step_elements(input, mapping, t, i, r, o));
            }
        };
    }

    // LOG_SUM_EXP on CPUs: in pieces (below), but for the many short rows of
    // rows=whole and rows=vectors (either walk), and CUDA's thread-per-row kernel
    // (vector_bytes: its thread reads its short row twice, the second time
    // from cache), two passes: a plain float maximum (one instruction an
    // element, where order keys that let NaN win took ~7, and on CUDA split
    // each 16-byte load in two), then the sum of exp(x - max). NaN reaches
    // the result through the sum, whose exp keeps NaN (exp_of_nonpositive;
    // CUDA's ex2.approx), whatever the maximum made of it (a float max may
    // drop a NaN, and with it a larger element: then x - max > 0 for that
    // element, which the same NaN sum discards). A non-finite maximum (+inf
    // present, or every element -inf) shifts by 0, so no +inf - +inf: +inf
    // adds at least 1 (AVX-512 and CUDA: +inf) and the result is that maximum
    // unless the sum is NaN.
    void generate_log_sum_exp_two_passes(const RowDomain &row, Var i, Var o) {
        const bool cuda = get_target().has_feature(Target::CUDA);
        auto &externs = *get_externs_map();
        if (!cuda && (layout == Layout::Outer || mapping.rows == RowMapping::Split)) {
            return generate_log_sum_exp_pieces_cpu(row, i, o);
        }
        const Type t = halide_type_of(dtype), acc_t = Float(32);
        const Conversions convert(get_target(), get_externs_map());
        Func peak("peak"), shift("shift"), acc("acc");
        const auto for_each_part = row_parts(row, i, o);
        auto widen = [&](const Expr &x) { return convert.widen(x, acc_t); };
        peak(i, o) = row_start(acc_t.min(), i, o);  // -inf
        for_each_part([&](const std::vector<Expr> &xs) { peak(i, o) = max(peak(i, o), combine_terms(xs, widen, maximum)); });
        const Expr m = peak(i, o);
        shift(i, o) = log_sum_exp_shift(m);
        acc(i, o) = cast(acc_t, 0);
        auto term = [&](const Expr &x) {
            const Expr d = widen(x) - shift(i, o);
            return cuda ? exp_for(get_target(), d) : exp_of_nonpositive(get_target(), externs, d);
        };
        for_each_part([&](const std::vector<Expr> &xs) { acc(i, o) += combine_terms(xs, term, add); });
        output(i, o) = convert.narrow(log_sum_exp_result(m, acc(i, o)), t);
        finish_reducing_pipeline(input, output, {peak, acc}, i, o, row, layout, mapping, tuning, get_target(),
                                 std::nullopt, Expr(), std::nullopt, std::nullopt, {}, 0, {shift});
    }

    // LOG_SUM_EXP on CPUs, the plain inner kernel and the outer layout: a
    // row's maximum before its sum read a long row (or a column) from memory
    // twice. Here the row is cut into pieces (inner: blocks of about
    // block_elements of its full vector chunks; outer: the layout's chunks of
    // rows, cpu_outer_row_chunks), each with its own pair (its maximum m_c,
    // the sum s_c of its exp(x - m_c)), both computed in one task
    // (ChunkPartials::in_task), so the sum reads the piece from cache; the
    // row's sum is then that of s_c * exp(m_c - max), with the remaining
    // elements' terms (inner), at its maximum. A piece's non-finite maximum
    // shifts it by 0, as a row's does above: all -inf adds 0 (or count *
    // 2^-126) to a sum of at least 1; a +inf or NaN piece leaves the row's
    // own maximum non-finite (its answer, or NaN through the sum).
    void generate_log_sum_exp_pieces_cpu(const RowDomain &row, Var i, Var o) {
        _halide_user_assert(mapping.loads == RowLoads::Elements) << "CPU kernels load elements, not words";
        auto &externs = *get_externs_map();
        const Type t = halide_type_of(dtype), acc_t = Float(32);
        const Conversions convert(get_target(), get_externs_map());
        auto widen = [&](const Expr &x) { return convert.widen(x, acc_t); };
        const Expr extent = input.dim(1).extent();
        Var c("c"), sub("sub");
        RDom in_piece, piece, subs;
        Expr at;
        std::vector<Expr> rest;  // the elements no piece holds
        Expr next_piece;         // how far a task's next piece starts past this one, in elements
        if (layout == Layout::Outer) {
            // A chunk of rows is a task's; it is read in sub-pieces of about
            // the bytes of block_elements float32s (the task's columns times
            // sub_rows), each with its own pair, merged into the chunk's as
            // they come: a chunk is megabytes, and its sums read back from L2
            // left memory idle. Chunks of at least 4 sub-pieces, so most
            // have a next one to prefetch (one a chunk: [16, 64K, 64] 0.96x).
            // float16 in sub-pieces of as many elements: 4 MiB calls 0.85x.
            const Expr task_columns = clamp(input.dim(0).extent(), 1, (int)tuning.tile_columns);
            const int block_elements = tuning.block_elements * 4 / t.bytes();
            const Expr block_rows = max(block_elements / task_columns, 1);
            const CpuRowChunks chunks = cpu_outer_row_chunks(extent, tuning, 0, 4 * block_rows);
            const Expr sub_rows = min(block_rows, chunks.rows);
            in_piece = RDom(0, sub_rows, "in_sub");
            const Expr in_chunk = sub * sub_rows + in_piece;
            at = c * chunks.rows + in_chunk;
            in_piece.where(in_chunk < chunks.rows && at < extent);
            subs = RDom(0, (chunks.rows + sub_rows - 1) / sub_rows, "subs");
            piece = RDom(0, chunks.chunks, "chunk");
            piece.where(piece * chunks.rows < extent);  // the last chunks may be empty
            // The chunk's next sub-piece; none after the last (the next
            // chunk is another task's, read by its own core).
            next_piece = select(sub + 1 < subs.x.extent(), cast<int64_t>(sub_rows) * input.dim(1).stride(), 0);
        } else {
            const int block = cpu_block_steps(tuning, row.chunk);
            const Expr steps = extent / row.chunk;
            in_piece = RDom(0, row.chunk, 0, block, "in_block");  // (lane, step)
            const Expr step = c * block + in_piece.y;
            in_piece.where(step < steps);
            at = step * row.chunk + in_piece.x;
            piece = RDom(0, cpu_row_blocks(steps, block), "block");
            rest = {row.at[1]};
            // The row's next block, or (rows of one block) the next group of rows.
            next_piece = select(steps > block, cast<int64_t>(block * row.chunk) * input.dim(1).stride(),
                                cast<int64_t>(cpu_block_group_rows(extent, tuning)) * input.dim(2).stride());
        }
        // Bounds inference does not see the `where`: the promise keeps the
        // loads inside the row (a clamp would cost the inner layout its dense loads).
        const Expr x = widen(input(i, unsafe_promise_clamped(at, 0, extent - 1), o));
        // The sum reads its piece from cache, and memory would idle meanwhile
        // (the two passes in turn held float32 to ~60% of the read
        // bandwidth): where prefetch_bytes is set, the sum's loads prefetch
        // the piece its task takes next (the row's next block, the next
        // group of rows, the chunk's next sub-piece), so its maximum reads cache.
        Expr x_in_sum = x;
        const bool prefetch = tuning.prefetch_bytes > 0;
        if (prefetch) {
            const bool columns = layout == Layout::Outer;
            const Expr r = row_index_with_prefetch(input, i, at, o, cpu_reduce_lanes(get_target(), t),
                                                   next_piece * t.bytes(), get_target(), *get_externs_map(),
                                                   columns ? 0 : 1);
            x_in_sum = widen(input(i, r, o));
        }
        Func piece_peak("piece_peak"), piece_sum("piece_sum"), pair("piece_pair");
        const std::vector<Expr> piece_at = layout == Layout::Outer ? std::vector<Expr>{i, sub, c, o}
                                                                  : std::vector<Expr>{i, c, o};
        piece_peak(piece_at) = acc_t.min();  // -inf
        piece_peak(piece_at) = max(piece_peak(piece_at), x);
        // Outer: each column's shift in a Func of its own, loaded with the
        // column's element (not a finiteness test an element).
        Expr shift_in_sum = log_sum_exp_shift(piece_peak(piece_at));
        Func piece_shift("piece_shift");
        std::vector<Func> in_task{piece_peak, piece_sum};
        if (layout == Layout::Outer) {
            piece_shift(piece_at) = shift_in_sum;
            shift_in_sum = piece_shift(piece_at);
            in_task = {piece_peak, piece_shift, piece_sum};
        }
        piece_sum(piece_at) = cast(acc_t, 0);
        piece_sum(piece_at) += exp_of_nonpositive(get_target(), externs, x_in_sum - shift_in_sum);
        if (layout == Layout::Outer) {
            // The larger maximum stays, the other sum scaled by exp of the
            // shifts' difference (at most 1: the difference is never positive).
            auto merge = [&](const Tuple &a, const Tuple &b) {
                const Expr b_larger = b[0] > a[0];
                const Expr scale =
                    exp_of_nonpositive(get_target(), externs, -abs(log_sum_exp_shift(a[0]) - log_sum_exp_shift(b[0])));
                return Tuple(select(b_larger, b[0], a[0]), select(b_larger, a[1] * scale + b[1], a[1] + b[1] * scale));
            };
            pair(i, c, o) = Tuple(acc_t.min(), cast(acc_t, 0));
            pair(i, c, o) = merge(pair(i, c, o), Tuple(piece_peak(i, subs, c, o), piece_sum(i, subs, c, o)));
        } else {
            pair(i, c, o) = Tuple(piece_peak(i, c, o), piece_sum(i, c, o));
        }
        Func peak("peak"), acc("acc");
        peak(i, o) = acc_t.min();
        peak(i, o) = max(peak(i, o), pair(i, piece, o)[0]);
        for (const Expr &r : rest) peak(i, o) = max(peak(i, o), widen(input(i, r, o)));
        const Expr m = peak(i, o), shift = log_sum_exp_shift(m);
        acc(i, o) = cast(acc_t, 0);
        // A piece of -inf (shift 0, sum 0) under a row's finite negative
        // maximum has d > 0: clamped, so its 0 never meets an infinite scale.
        const Expr piece_scale =
            exp_of_nonpositive(get_target(), externs, min(log_sum_exp_shift(pair(i, piece, o)[0]) - shift, 0.0f));
        acc(i, o) += pair(i, piece, o)[1] * piece_scale;
        for (const Expr &r : rest) {
            acc(i, o) += exp_of_nonpositive(get_target(), externs, widen(input(i, r, o)) - shift);
        }
        output(i, o) = convert.narrow(log_sum_exp_result(m, acc(i, o)), t);
        // The runtime's buffers start at 0 (KernelBuffer): a vector of
        // columns then starts at a multiple of lanes, one prefetch a vector.
        if (prefetch && layout == Layout::Outer) output.dim(0).set_min(0);
        RowDomain merged{{piece}, {piece.x}, row.chunk};
        if (!rest.empty()) merged.parts.push_back(row.parts[1]), merged.at.push_back(rest[0]);
        const ChunkPartials pieces{pair, c, in_piece, in_task, subs};
        finish_reducing_pipeline(input, output, {peak, acc}, i, o, merged, layout, mapping, tuning, get_target(),
                                 std::nullopt, Expr(), std::nullopt, pieces);
    }

    // LOG_SUM_EXP in one pass over the input (GPUs, where the input's second
    // read would cost as much as the first): every lane keeps the pair
    // (m, s) = (the maximum of its elements, the sum of their exp(x - m)), and
    // pairs merge up an explicit tree (ReduceTreeStages; rfactor cannot build
    // it, as Halide cannot prove the pair's merge associative). The result is
    // m + log(s): all -inf gives -inf, any +inf gives +inf, any NaN gives NaN
    // (carried in s).
    void generate_log_sum_exp_tree() {
        const Type acc_t = Float(32);
        const Conversions convert(get_target(), get_externs_map());
        Var i("i"), o("o"), lane("lane"), c("c"), stream_lane("stream_lane");
        const Expr extent = input.dim(1).extent();
        const bool nan_passes_through = get_target().has_feature(Target::CUDA);
        const int group = nan_passes_through ? exp_group(tuning) : 1;
        const ReduceTreeShape shape =
            reduce_tree_shape(layout, input.dim(0).extent(), extent, input.dim(2).extent(), mapping, tuning, group);
        const Tuple empty(reinterpret(acc_t, Expr((int32_t)0xFF800000)), cast(acc_t, 0));  // (-inf, 0): the bits of -inf
        // The merge of (m1, s1) and (m2, s2): the larger maximum stays, the
        // other sum is scaled by exp(smaller - larger). Equal maxima (±inf
        // included) scale by 1, so no exp(inf - inf).
        auto merge = [&](const Tuple &a, const Tuple &b) {
            const Expr b_larger = b[0] > a[0];
            const Expr scale = select(a[0] == b[0], cast(acc_t, 1), exp_for(get_target(), -abs(a[0] - b[0])));
            return Tuple(select(b_larger, b[0], a[0]), select(b_larger, a[1] * scale + b[1], a[1] + b[1] * scale));
        };

        // A chunk's lane walks its steps (elements, or words of them)
        // serially; the tail past the row is skipped (and its reads clamped,
        // unless the chunks cover the row exactly: then the reads stay dense).
        // An element x is the pair (x, 1); NaN is (-inf, NaN), so the sum
        // carries it (Halide's exp and log need not return NaN for NaN). On
        // CUDA, (x, 1) as loaded: a NaN x leaves the maximum alone (PTX's max
        // and compares pass over NaN) and its exp(-|x - m|) is NaN (ex2.approx
        // returns NaN for NaN), so the sum carries it without the per-element
        // selects: 5 of ~28 instructions an element in this loop, which is
        // compute-bound on the H200.
        //
        // CUDA takes `group` steps at a time (gpu_exp_group): their elements
        // (-inf past the row) become one pair (g, the sum of exp(x - g)) over
        // their maximum g, merged once: a max, an exp and an add an element.
        // Where g is not finite the sum is of exp(x) itself (log_sum_exp_shift):
        // 0 for all -inf, +inf (or NaN) with a +inf, as the result wants.
        const Expr lane_at = shape.lanes > 1 ? Expr(lane) : Expr(0);
        const Expr lane_steps = shape.chunk / shape.lanes;
        RDom steps(0, group == 1 ? lane_steps : (lane_steps + group - 1) / group, "steps");
        const Expr at = c * shape.chunk + steps * shape.lanes + lane_at;
        const Expr nan = reinterpret(acc_t, Expr((int32_t)0x7FC00000));
        const Type t = halide_type_of(dtype);
        std::vector<Tuple> elements;
        // Rows read by the lanes of a few threads (RowMapping::Lanes) cut in
        // whole chunks (the row's one chunk holds whole groups of every lane):
        // no step passes the row's end, so where the schedule specializes on
        // it the reads need no clamp and no guard (a promise, unchecked: bounds
        // inference takes the union of both branches, which would otherwise
        // ask every call's input for the chunk's whole span). On the H200
        // [4M,64] 85% -> 87% of copy over the unit stride's specialization
        // alone; in the split kernels' blocks float16 ran 0.96x: not there.
        Expr whole_chunks;
        if (group > 1) {
            if (layout == Layout::Inner && mapping.rows == RowMapping::Lanes) whole_chunks = extent % shape.chunk == 0;
            std::vector<Expr> xs;
            for (int k = 0; k < group; ++k) {
                const Expr at_k = c * shape.chunk + (steps * group + k) * shape.lanes + lane_at;
                Expr read_at = min(at_k, extent - 1), inside = at_k < extent;
                if (whole_chunks.defined()) {
                    read_at = select(whole_chunks, unsafe_promise_clamped(at_k, 0, extent - 1), read_at);
                    inside = whole_chunks || inside;
                }
                for (const Expr &e : step_elements(input, mapping, t, i, read_at, o)) {
                    xs.push_back(select(inside, convert.widen(e, acc_t), empty[0]));
                }
            }
            Expr peak = xs[0];
            for (size_t k = 1; k < xs.size(); ++k) peak = max(peak, xs[k]);
            const Expr shift = log_sum_exp_shift(peak);
            Expr sum = exp_for(get_target(), xs[0] - shift);
            for (size_t k = 1; k < xs.size(); ++k) sum += exp_for(get_target(), xs[k] - shift);
            elements.emplace_back(peak, sum);
        } else {
            for (const Expr &e : step_elements(input, mapping, t, i, shape.exact ? at : min(at, extent - 1), o)) {
                const Expr x = convert.widen(e, acc_t);
                if (nan_passes_through) {
                    elements.emplace_back(x, cast(acc_t, 1));
                } else {
                    elements.emplace_back(select(is_nan_value(x), empty[0], x),
                                          select(is_nan_value(x), nan, cast(acc_t, 1)));
                }
            }
        }
        // The step's elements merged into `acc` where `cond` holds, `acc` elsewhere.
        auto merge_where = [&](const Expr &cond, const Tuple &acc, const std::vector<Tuple> &pairs) {
            Tuple merged = acc;
            for (const Tuple &pair : pairs) merged = merge(merged, pair);
            return Tuple(select(cond, merged[0], acc[0]), select(cond, merged[1], acc[1]));
        };
        auto accumulate = [&](Func f, const std::vector<Expr> &at_args) {
            f(at_args) = group > 1 ? merge(f(at_args), elements[0]) : merge_where(at < extent, f(at_args), elements);
        };
        Func lane_acc("lane_acc"), part_acc("part_acc"), chunk_acc("chunk_acc"), row_acc("row_acc");
        Var part("part");
        RDom lanes(0, shape.lanes, "lanes");
        RDom part_lanes(0, kLanesPerPart, "part_lanes"), parts(0, shape.lanes / kLanesPerPart, "parts");
        chunk_acc(i, c, o) = empty;
        if (shape.lanes > 1) {
            lane_acc(i, lane, c, o) = empty;
            accumulate(lane_acc, {i, lane, c, o});
            if (shape.lanes > kMergeLanes && shape.lanes % kLanesPerPart == 0) {  // a block's threads: in parts
                part_acc(i, part, c, o) = empty;
                part_acc(i, part, c, o) =
                    merge(part_acc(i, part, c, o), lane_acc(i, part * kLanesPerPart + part_lanes, c, o));
                chunk_acc(i, c, o) = merge(chunk_acc(i, c, o), part_acc(i, parts, c, o));
            } else {
                chunk_acc(i, c, o) = merge(chunk_acc(i, c, o), lane_acc(i, lanes, c, o));
            }
        } else {
            accumulate(chunk_acc, {i, c, o});
        }
        // A row's chunks merged in `merge_lanes` strided streams (stream k:
        // chunks k, k + merge_lanes, ...; the tail past the last chunk is
        // skipped), then the streams.
        Func stream_acc("stream_acc");
        RDom stream(0, (shape.chunks + shape.merge_lanes - 1) / shape.merge_lanes, "stream");
        RDom streams(0, shape.merge_lanes, "streams");
        const Expr chunk_at = stream * shape.merge_lanes + stream_lane;
        stream_acc(i, stream_lane, o) = empty;
        stream_acc(i, stream_lane, o) = merge_where(chunk_at < shape.chunks, stream_acc(i, stream_lane, o),
                                                    {Tuple(chunk_acc(i, min(chunk_at, shape.chunks - 1), o))});
        row_acc(i, o) = empty;
        row_acc(i, o) = merge(row_acc(i, o), stream_acc(i, streams, o));
        const Expr m = row_acc(i, o)[0], sum = row_acc(i, o)[1];
        output(i, o) = convert.narrow(select(is_nan_value(sum), sum, m + log(sum)), halide_type_of(dtype));

        apply_reducing_contract(layout, mapping, get_target(), input, output);
        ReduceTreeStages stages{output, lane_acc, part_acc, chunk_acc, stream_acc, row_acc, input, i, o, lane, part,
                                c, stream_lane, steps, lanes, part_lanes, parts, stream, streams, layout,
                                input.dim(0).extent(), input.dim(0).stride(), input.dim(1).stride(), whole_chunks,
                                shape.chunks};
        schedule_reduce_tree_gpu(stages, mapping, tuning, get_target());
    }
};

// Index of the maximum (or minimum) over r, first or last among ties, as uint32.
// NaN compares above everything for both ARGMAX and ARGMIN (so NaN is found).
// The output is (word, i, o): one word per index for 32-bit index tensors, two
// for 64-bit ones (the index, then its high half: 0), so one kernel writes
// either type.
class ArgReduce : public Generator<ArgReduce> {
public:
    GeneratorParam<ElemType> dtype{"dtype", ElemType::Float32, elem_type_names()};
    GeneratorParam<Layout> layout{"layout", Layout::Inner, layout_names()};
    // Bits of a packed (value, index) key: 64 (the value's key above a 32-bit
    // index), or 32 for 8- and 16-bit types (above a 16-bit index: rows of at
    // most 65536 elements, which the runtime checks; on CPUs' outer layout an
    // index within a chunk of rows, any row), twice the lanes per vector.
    GeneratorParam<int> key_bits{"key_bits", 64};
    ReduceTuning tuning;
    ReduceMapping mapping;

    Input<Buffer<>> input{"input", 3};
    Input<int32_t> find_min{"find_min"};      // 0: argmax, 1: argmin
    Input<int32_t> last_index{"last_index"};  // 0: first index among ties, 1: last
    Output<Buffer<uint32_t>> output{"output", 3};

    void configure() {
        input.set_type(loaded_type(dtype, mapping));
    }

    // A row's start value, with rows=whole's prefetch (start_with_row_prefetch).
    Expr row_start(const Expr &start, Var i, Var o) {
        return start_with_row_prefetch(input, start, i, o, mapping, tuning, get_target(), *get_externs_map());
    }

    void generate() {
        const Type t = halide_type_of(dtype);
        const Type k = UInt(t.bits());
        const int per_load = elements_per_load(mapping, t);
        Var i("i"), o("o"), word("word");
        const RowDomain row = row_domain(input.dim(1).extent(), layout, mapping, tuning, get_target(), t);

        // Keys whose unsigned maximum is the wanted element: argmin flips the order.
        const Expr value_mask = select(find_min != 0, all_ones(k), cast(k, 0));
        auto key_of = [&](const Expr &x) {
            const Expr key = order_key(x) ^ value_mask;
            return t.is_float() ? select(is_nan_value(x), all_ones(k), key) : key;
        };
        auto value_key = [&](const Expr &r) { return key_of(step_elements(input, mapping, t, i, r, o)[0]); };
        // Likewise for the index: first-among-ties wants the smallest index to
        // win. Its key takes the low index_bits of a packed key.
        _halide_user_assert(key_bits == 64 || (key_bits == 32 && t.bits() <= 16))
            << "arg_reduce: key_bits is 64, or 32 for 8- and 16-bit types";
        const int index_bits = key_bits == 32 ? 16 : 32;
        const Type key_t = UInt(key_bits);
        // CPUs' plain inner kernel over 16-bit elements in 32-bit keys: its
        // vectors take two of the row chunk's accumulators at once, so the
        // elements' 16-bit keys fill a vector register (0: the natural lanes).
        const int natural_lanes = cpu_reduce_lanes(get_target(), t);
        const bool wide_vectors = key_bits == 32 && t.bits() == 16 &&
                                  cpu_walks_row_chunks(layout, mapping, get_target()) &&
                                  row.chunk % (2 * natural_lanes) == 0;
        const int key_lanes = wide_vectors ? 2 * natural_lanes : 0;
        auto index_mask_of = [&](int bits) {
            return select(last_index != 0, cast<uint32_t>(0), cast<uint32_t>(Halide::UInt(bits).max()));
        };
        const Expr index_ones = cast<uint32_t>(Halide::UInt(index_bits).max());
        auto index_key = [&](const Expr &r, int bits) { return cast<uint32_t>(r) ^ index_mask_of(bits); };
        // A key of type `packed_t`: the value's key above a `bits`-wide index key.
        auto pack = [](Type packed_t, const Expr &value, const Expr &index, int bits) {
            return (cast(packed_t, value) << bits) | cast(packed_t, index);
        };

        std::vector<Func> reductions;
        RowDomain reduced = row;
        std::optional<ChunkPartials> chunk_partials;
        Expr best_index;  // the index of the best element, its key undone
        // D3D12 (HLSL SM 5.1) has no 64-bit integers: there a 64-bit key is two passes.
        const bool packed_key =
            t.bits() <= 32 && !(key_bits == 64 && get_target().has_feature(Target::D3D12Compute));
        // CPUs' outer layout in 32-bit keys: the index is local to a chunk of
        // rows (partial rows of at most 65536), and the chunks merge in 64-bit
        // keys with their first row added, so a row of any length takes them.
        const bool chunk_local_index = key_bits == 32 && layout == Layout::Outer && !get_target().has_gpu_feature();
        if (chunk_local_index) {
            const Expr extent = input.dim(1).extent();
            const CpuRowChunks chunks = cpu_outer_row_chunks(extent, tuning, (int)kNarrowKeyMaxRow);
            Var c("c");
            RDom in_chunk(0, chunks.rows, "in_chunk");
            const Expr at = c * chunks.rows + in_chunk;
            in_chunk.where(at < extent);
            Func partial("partial");
            partial(i, c, o) = cast<uint32_t>(0);
            // (The clamp bounds the loads: `where` does not narrow what bounds inference sees.)
            const Expr load_at = outer_row_index_with_prefetch(input, tuning, t, i, min(at, extent - 1), o,
                                                               get_target(), *get_externs_map());
            partial(i, c, o) = max(partial(i, c, o), pack(UInt(32), value_key(load_at),
                                                          index_key(in_chunk, index_bits), index_bits));
            // The last chunks may be empty (chunks * rows passes the row by up to a chunk).
            RDom chunk(0, chunks.chunks, "chunk");
            chunk.where(chunk * chunks.rows < extent);
            const Expr part = partial(i, chunk, o);
            const Expr index = cast<uint32_t>(chunk * chunks.rows) + ((part & index_ones) ^ index_mask_of(index_bits));
            Func best("best");
            best(i, o) = cast<uint64_t>(0);
            best(i, o) = max(best(i, o), pack(UInt(64), part >> index_bits, index_key(index, 32), 32));
            best_index = cast<uint32_t>(best(i, o)) ^ index_mask_of(32);
            reductions = {best};
            reduced = RowDomain{{chunk}, {chunk.x}, 0};
            chunk_partials = ChunkPartials{partial, c, in_chunk, {}};
        } else if (packed_key) {
            // One pass over a packed (value, index) key: a plain max, which
            // rfactor and vectorisation keep exact (no tuple-argmax tie bug).
            // A step's elements (one, or a word's) pack their keys with their
            // own indices and meet before the accumulator.
            Func best("best");
            best(i, o) = row_start(cast(key_t, 0), i, o);
            for (size_t part = 0; part < row.at.size(); ++part) {
                const Expr &r = row.at[part];
                const Expr load_at = load_index_of_vectors(input, layout, mapping, tuning, t, part, i, r, o,
                                                           get_target(), *get_externs_map(), key_lanes);
                const std::vector<Expr> xs = step_elements(input, mapping, t, i, load_at, o);
                Expr step_best;
                for (int e = 0; e < per_load; ++e) {
                    const Expr packed = pack(key_t, key_of(xs[e]), index_key(r * per_load + e, index_bits), index_bits);
                    step_best = e == 0 ? packed : max(step_best, packed);
                }
                best(i, o) = max(best(i, o), step_best);
            }
            best_index = cast<uint32_t>(best(i, o) & cast(key_t, index_ones)) ^ index_mask_of(index_bits);
            reductions = {best};
        } else {
            // 64-bit values leave no room for the index (nor D3D12 for a 64-bit
            // key): find the best value, then the best index holding it.
            Func peak("peak"), where("where");
            peak(i, o) = row_start(cast(k, 0), i, o);
            for (const Expr &r : row.at) peak(i, o) = max(peak(i, o), value_key(r));
            where(i, o) = cast<uint32_t>(0);
            for (const Expr &r : row.at) {
                where(i, o) = max(where(i, o),
                                  select(value_key(r) == peak(i, o), index_key(r, index_bits), cast<uint32_t>(0)));
            }
            best_index = where(i, o) ^ index_mask_of(index_bits);
            reductions = {peak, where};
        }
        output(word, i, o) = select(word == 0, best_index, cast<uint32_t>(0));
        if (key_bits == 32 && !chunk_local_index) {  // (a requirement joins the pipeline: after the output's definition)
            const int most = (int)kNarrowKeyMaxRow;
            add_requirement(input.dim(1).extent() * per_load <= most, "arg_reduce key_bits=32: a row of ",
                            input.dim(1).extent() * per_load, " elements is longer than ", most);
        }
        finish_reducing_pipeline(input, output, reductions, i, o, reduced, layout, mapping, tuning, get_target(), word,
                                 Expr(), std::nullopt, chunk_partials, {}, key_lanes);
    }
};

}  // namespace hdml

HALIDE_REGISTER_GENERATOR(hdml::Reduce, reduce)
HALIDE_REGISTER_GENERATOR(hdml::ArgReduce, arg_reduce)
