// Does Halide 14 lower a walk's carry load at `first - P + lane % P` (vectorised lane) to a dense load + shuffle?
#include "Halide.h"
using namespace Halide;
int main() {
    const int P = 2, lanes = 16;
    ImageParam in(Float(32), 1, "in");
    Func out("out");
    Var e("e");
    out(e) = undef(Float(32));
    RDom w(0, lanes, 0, in.dim(0).extent() / lanes, "w");
    Expr first = w.y * lanes;
    Expr partner = first - P + (w.x % P);
    Expr carry = select(partner >= 0, out(max(partner, 0)), 0.0f);
    out(first + w.x) = carry + in(first + w.x);
    out.update(0).allow_race_conditions().vectorize(w.x);
    out.output_buffer().dim(0).set_min(0);
    in.dim(0).set_min(0);
    Target t("x86-64-linux-avx-avx2-avx512-avx512_skylake-f16c-fma-sse41-no_runtime");
    out.compile_to_assembly("pt.s", {in}, "pt", t);
    out.compile_to_lowered_stmt("pt.stmt", {in}, Text, t);
    return 0;
}
