// Software prefetch ahead of a CPU kernel's streaming vector loads.
//
// Why: on the 2-core Xeon VM (2026-11-27), a streaming loop that does more than
// a load and an add per cache line reads memory more slowly: float32 MAX's
// three bit extremes read 23-24 GB/s where a sum reads 27-29, float16's
// conversions 19. A prefetch of every line 2 KiB ahead restored 28-30 (float16:
// 25). The loops' own loads run too few lines ahead of use for the hardware
// prefetchers, which restart at every page.
//
// How: Halide 14's prefetch directive keeps only the buffer's dimension 0 (i,
// of extent 1 in the inner layout) and loops over the other dimensions'
// elements: 32 prefetches of the same line per step. So the algorithm ties the
// prefetch to the load instead: the row index r becomes r + p, p a pure call
// that prefetches `bytes_ahead` past the first element of r's vector and
// returns 0 (hdml_prefetch, cpu_functions.ll). One call per line of a vector
// load (a Tuple's loads of one element share it).
//
// Who: the reductions' plain inner kernel, ARGMAX/ARGMIN's packed keys and
// LOG_SUM_EXP's pieces (along the row); the reductions' and ARGMAX/ARGMIN's
// outer layout (the same columns rows ahead, large inputs only); the inner
// scans' vector loads (along the line, large inputs only); the copies of
// SPLIT/JOIN (along the row, or the same columns rows ahead where rows are
// short); GATHER's rows (the row gathered next, which no hardware prefetcher
// foresees).
#pragma once

#include "Halide.h"
#include "generators/cpu_functions.h"

#include <cstdint>

namespace hdml {

// Calls that prefetch `bytes_ahead` (int64) past the first element of the
// vector input(i, r, o) belongs to, a call per 64-byte line of the vector, and
// return 0 (their sum): `lanes` elements along r
// (vector_dim 1) or along i (vector_dim 0: the outer layout's columns, whose
// loop must start at 0) from a multiple of `lanes`, so the vector's call is one
// prefetch; 0 itself where the target has no CPU functions. Add it to the index
// of the load it goes with (bounds inference cannot see through it: the sum
// needs a clamp, or a promise, after it).
template <typename In>
Halide::Expr prefetch_ahead_of(In &input, const Halide::Expr &i, const Halide::Expr &r, const Halide::Expr &o,
                               int lanes, const Halide::Expr &bytes_ahead, const Halide::Target &target,
                               Halide::GeneratorContext::ExternsMap &externs, int vector_dim = 1) {
    using namespace Halide;
    const CpuBitcode *functions = cpu_bitcode_for(target);
    if (!functions) return Expr(0);
    link_cpu_functions(target, externs, *functions);
    auto offset = [&](int d, const Expr &x) { return cast<int64_t>(x - input.dim(d).min()) * input.dim(d).stride(); };
    auto vector_start = [&](const Expr &x) { return (x / lanes) * lanes; };
    const Expr first =
        vector_dim == 0 ? offset(0, vector_start(i)) + offset(1, r) : offset(0, i) + offset(1, vector_start(r));
    const Expr bytes = (first + offset(2, o)) * input.type().bytes() + bytes_ahead;
    const Expr base = Internal::Variable::make(Handle(), input.name(), ExternFuncArgument(input).image_param);
    constexpr int kLineBytes = 64;
    Expr zero;
    for (int line = 0; line == 0 || line * kLineBytes < lanes * input.type().bytes(); ++line) {
        const Expr call = Internal::Call::make(Int(32), "hdml_prefetch", {base, bytes + Expr((int64_t)line * kLineBytes)},
                                               Internal::Call::PureExtern);
        zero = zero.defined() ? zero + call : call;
    }
    return zero;
}

// `zero` (a prefetch_ahead_of) where `condition` holds, else 0: the
// prefetch's guard as a pure if-then-else, so that loop-invariant conditions
// hoist and known ones fold.
inline Halide::Expr prefetch_if(const Halide::Expr &condition, const Halide::Expr &zero) {
    using namespace Halide::Internal;
    return Call::make(Halide::Int(32), Call::if_then_else, {condition, zero, 0}, Call::PureIntrinsic);
}

// Whether input(i, r, o) spans at least `min_bytes`: the kernels that
// prefetch only large inputs guard their calls with it (in the caches the
// prefetches only cost), a condition their schedules specialise on.
template <typename In>
Halide::Expr spans_at_least(In &input, int64_t min_bytes) {
    using Halide::cast;
    const Halide::Expr bytes = cast<int64_t>(input.dim(0).extent()) * input.dim(1).extent() * input.dim(2).extent() *
                               input.type().bytes();
    return bytes >= Halide::Expr(min_bytes);
}

// Rows of `row_bytes` (int64, > 0) needed to cover `bytes_ahead` bytes of
// work: how far ahead a copy of short rows prefetches (at least one row where
// bytes_ahead > 0).
inline Halide::Expr rows_covering(const Halide::Expr &bytes_ahead, const Halide::Expr &row_bytes) {
    return (bytes_ahead + row_bytes - 1) / row_bytes;
}

// The copies' (SPLIT/JOIN, GATHER) prefetch: prefetch_ahead_of with vectors
// along x (input(x, r, o)'s dim 0), where rows are dense in the input and a
// vector long; else 0. The guard names the input alone (Halide refuses the
// output's dims before its definition); loop-invariant, LLVM hoists it.
template <typename In>
Halide::Expr prefetch_along_dense_rows(In &input, const Halide::Expr &x, const Halide::Expr &r, const Halide::Expr &o,
                                       int lanes, const Halide::Expr &bytes_ahead, const Halide::Target &target,
                                       Halide::GeneratorContext::ExternsMap &externs) {
    const Halide::Expr zero = prefetch_ahead_of(input, x, r, o, lanes, bytes_ahead, target, externs, 0);
    return prefetch_if(input.dim(0).stride() == 1 && input.dim(0).extent() >= lanes, zero);
}

// The copies' constraints where they prefetch: each vector's prefetch is one
// call because its columns start at a multiple of the vector (the runtime's
// mins are 0), and the guard's x extent (the input's) is the schedule's too
// because the output's is the same one.
template <typename In, typename Out>
void constrain_rows_for_prefetch(In &input, Out &output) {
    input.dim(0).set_min(0);
    output.dim(0).set_min(0);
    output.dim(0).set_extent(input.dim(0).extent());
}

// input(i, r, o)'s row index r with prefetch_ahead_of tied to it (where
// `guard`, if given, holds: prefetch_if), promised inside the row (on every
// target), so a caller whose r runs past it under a `where` (unseen by bounds
// inference) needs no other guard.
template <typename In>
Halide::Expr row_index_with_prefetch(In &input, const Halide::Expr &i, const Halide::Expr &r, const Halide::Expr &o,
                                     int lanes, const Halide::Expr &bytes_ahead, const Halide::Target &target,
                                     Halide::GeneratorContext::ExternsMap &externs, int vector_dim = 1,
                                     const Halide::Expr &guard = Halide::Expr()) {
    Halide::Expr zero = prefetch_ahead_of(input, i, r, o, lanes, bytes_ahead, target, externs, vector_dim);
    if (guard.defined()) zero = prefetch_if(guard, zero);
    return Halide::unsafe_promise_clamped(r + zero, 0, input.dim(1).extent() - 1);
}

}  // namespace hdml
