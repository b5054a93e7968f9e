// A strided rank-3 copy keyed by element size: output(x, y, z) = input(x, y, z).
// SPLIT and JOIN are one such copy per piece, the runtime offsetting the big
// tensor along the axis; leftover dims loop in C++.
#include "generators/common.h"
#include "schedules/copy_schedule.h"

namespace hdml {

using namespace Halide;

class Copy : public Generator<Copy> {
public:
    GeneratorParam<ElemType> dtype{"dtype", ElemType::UInt32, elem_type_names()};
    CopyTuning tuning;

    Input<Buffer<>> input{"input", 3};
    Output<Buffer<>> output{"output", 3};

    void configure() {
        input.set_type(halide_type_of(dtype));
        output.set_type(halide_type_of(dtype));
    }

    void generate() {
        Var x("x"), y("y"), z("z");
        output(x, y, z) = input(x, y, z);
        allow_any_strides(input);
        allow_any_strides(output);
        CopyStages stages{output, x, y, z, input.dim(0).stride() == 1 && output.dim(0).stride() == 1,
                          output.dim(0).extent(), output.dim(2).extent()};
        schedule_copy(stages, tuning, get_target());
    }
};

}  // namespace hdml

HALIDE_REGISTER_GENERATOR(hdml::Copy, copy)
