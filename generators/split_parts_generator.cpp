// SPLIT's pieces, several per kernel launch, out of the whole: piece k's
// element (x, y, z) = whole(x, y, z, k). The pieces share sizes and strides
// and lie in one device address space (CUDA), written through one span buffer
// at piece_offsets[k] elements: copy_parts (JOIN's) turned around, a scatter
// (copy_parts_generator.cpp says why a launch per piece cost so much).
#include "generators/common.h"
#include "generators/parts.h"
#include "schedules/copy_schedule.h"

namespace hdml {

using namespace Halide;

class SplitParts : public Generator<SplitParts> {
public:
    GeneratorParam<ElemType> dtype{"dtype", ElemType::UInt32, elem_type_names()};
    ScatterTuning tuning;

    Input<Buffer<>> whole{"whole", 4};  // (x, y, z, k): piece k's view of the whole
    Input<int32_t> x_stride{"x_stride"}, y_stride{"y_stride"}, z_stride{"z_stride"};  // a piece's, in span elements
    Input<int32_t[kPiecesPerLaunch]> piece_offsets{"piece_offsets"};  // piece k's first element in span
    Output<Buffer<>> span{"span", 1};                                 // every piece's elements

    void configure() {
        whole.set_type(halide_type_of(dtype));
        span.set_type(halide_type_of(dtype));
    }

    void generate() {
        _halide_user_assert(tuning.gpu_rows >= 1) << "gpu_rows must be at least 1";
        const int rows = tuning.gpu_rows;
        const Expr y_extent = whole.dim(1).extent();
        // The rows a thread copies are r's innermost dimension (Halide keeps an
        // update's loops in its RDom's order); the last group's rows past the
        // end copy the last row again, the same values to the same elements.
        RDom r(0, rows, 0, whole.dim(0).extent(), 0, (y_extent + rows - 1) / rows, 0, whole.dim(2).extent(), 0,
               whole.dim(3).extent(), "r");
        const Expr x = r[1], y = min(r[2] * rows + r[0], y_extent - 1), z = r[3], k = r[4];
        Var i("i");
        span(i) = undef(span.type());  // only the pieces' elements are written
        span(span_index(piece_offsets, k, x, y, z, x_stride, y_stride, z_stride)) = whole(x, y, z, k);
        allow_any_strides(whole);
        schedule_split_parts(span, r, whole.dim(2).extent(), tuning, get_target());
    }
};

}  // namespace hdml

HALIDE_REGISTER_GENERATOR(hdml::SplitParts, split_parts)
