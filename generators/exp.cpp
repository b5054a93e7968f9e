#include "generators/exp.h"

#include "generators/cpu_functions.h"

namespace hdml {

using namespace Halide;

Expr exp_for(const Target &target, const Expr &x) {
    if (!target.has_feature(Target::CUDA)) return exp(x);
    return Internal::Call::make(Float(32), "llvm.nvvm.ex2.approx.ftz.f", {x * 1.44269504f}, Internal::Call::PureExtern);
}

namespace {

Expr call(const char *name, const std::vector<Expr> &args) {
    return Internal::Call::make(args[0].type(), name, args, Internal::Call::PureExtern);
}

// Horner's rule over `coefficients`, highest degree first.
Expr polynomial(const Expr &x, std::initializer_list<float> coefficients) {
    Expr p;
    for (float c : coefficients) p = p.defined() ? p * x + c : Expr(c);
    return p;
}

// With AVX-512: 2^t = p(f) * 2^floor(t), f = t - floor(t) in [0, 1), p a
// degree-5 fit of 2^f with p(0) = 1 (1.4e-7 relative error, evaluated in
// float32). vreduceps takes f and vscalefps the power, which saturates (-inf
// gives 0, +inf +inf, NaN NaN), so no clamps: 10 instructions a vector where
// the integer 2^n below takes 16 (a loop of exp and add 1.37x on a Zen 4 core).
Expr exp2_avx512(const Target &target, GeneratorContext::ExternsMap &externs, const Expr &t) {
    link_cpu_functions(target, externs, *avx512_bitcode_for(target));
    const Expr f = call("hdml_fraction_above_floor", {t});
    const Expr p = polynomial(f, {0.00186713238f, 0.00901702512f, 0.0557999164f, 0.240164444f, 0.693151295f, 1.0f});
    return call("hdml_times_exp2_floor", {p, t});
}

// Elsewhere: 2^n * p(f), n = round(t), f the rest in [-1/2, 1/2], p a degree-5
// fit of 2^f with p(0) = 1 (1.7e-7 relative error), with t clamped to [-126, 0]:
// 2^n stays a normal float, and +inf gives 1. NaN gives NaN: the clamps are
// selects that keep it (strict_float: the simplifier would turn them into max
// and min, which drop it). Halide 14's exp (~20 vector instructions, with
// overflow and underflow selects) made the sum compute-bound.
Expr exp2_of_nonpositive_portable(const Expr &scaled) {
    const Expr t = strict_float(select(scaled > 0.0f, 0.0f, select(scaled < -126.0f, -126.0f, scaled)));
    // 1.5 * 2^23 + t holds round(t) in its low mantissa bits (strict: the
    // simplifier would cancel the magic number).
    const Expr shifted = strict_float(t + 12582912.0f);
    const Expr f = t - strict_float(shifted - 12582912.0f);
    const Expr p = polynomial(f, {0.00132647261f, 0.00967151299f, 0.0555073358f, 0.240222424f, 0.693147004f, 1.0f});
    const Expr two_to_n = reinterpret(Float(32), (reinterpret(UInt(32), shifted) + cast<uint32_t>(127)) << 23);
    return p * two_to_n;
}

}  // namespace

Expr exp_of_nonpositive(const Target &target, GeneratorContext::ExternsMap &externs, const Expr &d) {
    const Expr t = d * 1.44269504f;
    return avx512_bitcode_for(target) ? exp2_avx512(target, externs, t) : exp2_of_nonpositive_portable(t);
}

}  // namespace hdml
