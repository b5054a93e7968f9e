// CUMULATIVE_SUMMATION and CUMULATIVE_PRODUCT: one scan over r of
// input(i, r, o) into output(i, r, o). The runtime maps any axis onto r and
// reverses r (negative strides) for DML_AXIS_DIRECTION_DECREASING.
// The running total lives in `acc` (float32 for float16 data; integers wrap in
// the unsigned type of their width), computed over a whole r range before the
// output of those (i, o) is written: so the output may alias the input.
#include "generators/common.h"
#include "schedules/scan_schedule.h"

namespace hdml {

using namespace Halide;

enum class ScanOp { Sum, Product };

class Scan : public Generator<Scan> {
public:
    GeneratorParam<ScanOp> op{"op", ScanOp::Sum, {{"sum", ScanOp::Sum}, {"product", ScanOp::Product}}};
    GeneratorParam<ElemType> dtype{"dtype", ElemType::Float32, elem_type_names()};
    GeneratorParam<Layout> layout{"layout", Layout::Inner, layout_names()};
    ScanTuning tuning;

    Input<Buffer<>> input{"input", 3};
    Input<int32_t> exclusive{"exclusive"};  // 1: the current element is left out of its own total
    Output<Buffer<>> output{"output", 3};

    void configure() {
        input.set_type(halide_type_of(dtype));
        output.set_type(halide_type_of(dtype));
    }

    void generate() {
        const Type t = halide_type_of(dtype);
        const Type acc_t = t.is_float() ? Float(32) : UInt(t.bits());
        Var i("i"), r("r"), o("o");
        RDom rr(1, input.dim(1).extent() - 1, "rr");
        Func x("x");
        x(i, r, o) = widen(input(i, r, o), acc_t);
        const bool sum = op == ScanOp::Sum;
        const Expr identity = cast(acc_t, sum ? 0 : 1);
        auto combine = [&](const Expr &a, const Expr &b) { return sum ? a + b : a * b; };

        Func acc("acc");
        acc(i, r, o) = select(exclusive != 0, identity, x(i, r, o));  // r = 0 is final; the scan rewrites r >= 1
        acc(i, rr, o) = combine(acc(i, rr - 1, o), select(exclusive != 0, x(i, rr - 1, o), x(i, rr, o)));
        output(i, r, o) = t.is_int() ? reinterpret(t, acc(i, r, o)) : cast(t, acc(i, r, o));

        allow_any_strides(input);
        allow_any_strides(output);
        apply_layout_contract(layout, input, output);
        ScanStages stages{output, acc, i, r, o, rr, layout, t};
        schedule_scan(stages, tuning, get_target());
    }
};

}  // namespace hdml

HALIDE_REGISTER_GENERATOR(hdml::Scan, scan)
