// DML_OPERATOR_GATHER as data movement keyed by element size:
//   output(x, j, y) = input(x, indices(j), y)
// x and y are kept dims, j runs over (flattened) index positions, input's dim 1
// is the gathered axis. The runtime normalises indices (negative ones count
// from the end, out-of-range ones clamp) to int32; the clamp here keeps every
// read inside the input whatever the indices hold.
#include "generators/common.h"
#include "schedules/gather_schedule.h"

namespace hdml {

using namespace Halide;

class Gather : public Generator<Gather> {
public:
    GeneratorParam<ElemType> dtype{"dtype", ElemType::UInt32, elem_type_names()};
    GatherTuning tuning;

    Input<Buffer<>> input{"input", 3};
    Input<Buffer<int32_t>> indices{"indices", 1};
    Output<Buffer<>> output{"output", 3};

    void configure() {
        input.set_type(halide_type_of(dtype));
        output.set_type(halide_type_of(dtype));
    }

    void generate() {
        Var x("x"), j("j"), y("y");
        const Expr last = input.dim(1).extent() - 1;
        output(x, j, y) = input(x, clamp(indices(j), 0, last), y);

        allow_any_strides(input);
        allow_any_strides(indices);
        allow_any_strides(output);
        const Expr j_dense = output.dim(1).stride() == 1 && indices.dim(0).stride() == 1 && input.dim(1).stride() == 1;
        GatherStages stages{output, x, j, y, output.dim(0).stride(), output.dim(0).extent(), input.dim(0).stride(),
                            j_dense};
        schedule_gather(stages, tuning, get_target());
    }
};

}  // namespace hdml

HALIDE_REGISTER_GENERATOR(hdml::Gather, gather)
