// exp for LOG_SUM_EXP, lowered for the target: its sum of exp(x - max) is most
// of the kernels' instructions, so each target gets the cheapest exact-enough form.
#pragma once

#include "Halide.h"

namespace hdml {

// exp(x) on CUDA: the MUFU's 2^x (ex2.approx, max relative error 2 ulp;
// results below 2^-126 flush to 0) of x * log2(e), 2 instructions where Halide
// 14's exp expands to a ~20-instruction polynomial, which made LOG_SUM_EXP
// compute-bound on the H100. Elsewhere Halide's exp (D3D12's HLSL exp is
// already the hardware's).
Halide::Expr exp_for(const Halide::Target &target, const Halide::Expr &x);

// exp(d) on CPUs for float32 d <= 0 (LOG_SUM_EXP's x - max): its polynomial's
// relative error below 2e-7, plus d * log2(e)'s rounding in float32 (up to
// |d| * 2^-24: 4e-6 near d = -87); exactly 1 at d = 0 (a row's maximum adds
// exactly 1), NaN for NaN; -inf gives 0, and terms below 2^-126 (which add nothing to a sum of at
// least 1) may give 0 or up to 2^-126. d > 0 gives a value of at least 1 (1,
// or exp(d) up to +inf): callers pass it only where the sum is then +inf or
// NaN anyway, or clamp d first.
Halide::Expr exp_of_nonpositive(const Halide::Target &target, Halide::GeneratorContext::ExternsMap &externs,
                                const Halide::Expr &d);

}  // namespace hdml
