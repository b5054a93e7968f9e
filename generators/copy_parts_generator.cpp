// JOIN's pieces, several per kernel launch, into the whole:
// output(x, y, z, k) = piece k's element (x, y, z). The pieces share sizes and
// strides and lie in one device address space (CUDA), read through one span
// buffer at piece_offsets[k] elements: a launch per piece cost ~3.5 us of GPU
// time at each kernel boundary and ~4 us of host time per launch
// (bench/results/2026-11-27-gpu-join-launches/).
#include "generators/common.h"
#include "generators/parts.h"
#include "schedules/copy_schedule.h"

namespace hdml {

using namespace Halide;

class CopyParts : public Generator<CopyParts> {
public:
    GeneratorParam<ElemType> dtype{"dtype", ElemType::UInt32, elem_type_names()};
    CopyTuning tuning;

    Input<Buffer<>> span{"span", 1};  // every piece's elements
    Input<int32_t> x_stride{"x_stride"}, y_stride{"y_stride"}, z_stride{"z_stride"};  // a piece's, in span elements
    Input<int32_t[kPiecesPerLaunch]> piece_offsets{"piece_offsets"};  // piece k's first element in span
    Output<Buffer<>> output{"output", 4};

    void configure() {
        span.set_type(halide_type_of(dtype));
        output.set_type(halide_type_of(dtype));
    }

    void generate() {
        Var x("x"), y("y"), z("z"), k("k");
        output(x, y, z, k) = span(span_index(piece_offsets, k, x, y, z, x_stride, y_stride, z_stride));
        allow_any_strides(output);
        CopyStages stages{output, x, y, z, Expr(), output.dim(0).extent(), output.dim(2).extent()};
        schedule_copy_parts(stages, k, tuning, get_target());
    }
};

}  // namespace hdml

HALIDE_REGISTER_GENERATOR(hdml::CopyParts, copy_parts)
