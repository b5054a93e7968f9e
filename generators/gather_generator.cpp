// DML_OPERATOR_GATHER as data movement keyed by element size:
//   output(x, j, y) = input(x, indices(j), y)
// x and y are kept dims, j runs over (flattened) index positions, input's dim 1
// is the gathered axis. The runtime normalises indices (negative ones count
// from the end, out-of-range ones clamp) to int32; the clamp here keeps every
// read inside the input whatever the indices hold.
#include "generators/common.h"
#include "schedules/copy_schedule.h"

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
                            j_dense, output.dim(2).extent(), output.dim(1).extent()};
        schedule_gather(stages, tuning, get_target());
    }
};

// GATHER's index normalisation where the indices live in device memory: a
// strided rank-3 copy of the indices into int32 with DirectML's rules applied
// (negative values count from the end for signed types; out-of-range values
// clamp to the nearest valid index along an axis of `extent` elements).
class NormalizeIndices : public Generator<NormalizeIndices> {
public:
    GeneratorParam<ElemType> itype{"itype", ElemType::Int32, elem_type_names()};
    CopyTuning tuning;

    Input<Buffer<>> input{"input", 3};
    Input<int32_t> extent{"extent"};
    Output<Buffer<int32_t>> output{"output", 3};

    void configure() {
        input.set_type(halide_type_of(itype));
    }

    void generate() {
        const Type t = halide_type_of(itype);
        Var x("x"), y("y"), z("z");
        const Expr v = input(x, y, z);
        Expr index;
        // 32-bit indices in 32-bit arithmetic (D3D12 has no 64-bit integers): v + extent
        // for v < 0 and the clamps cannot overflow.
        if (t.bits() <= 32 && t.is_int()) {
            const Expr s = cast<int32_t>(v);
            index = clamp(select(s < 0, s + extent, s), 0, extent - 1);
        } else if (t.bits() <= 32) {
            index = cast<int32_t>(min(cast<uint32_t>(v), cast<uint32_t>(extent - 1)));
        } else if (t.is_int()) {
            const Expr wide = cast<int64_t>(v);
            index = clamp(select(wide < 0, wide + extent, wide), cast<int64_t>(0), cast<int64_t>(extent - 1));
        } else {
            index = min(cast<uint64_t>(v), cast<uint64_t>(extent - 1));
        }
        output(x, y, z) = cast<int32_t>(index);
        allow_any_strides(input);
        allow_any_strides(output);
        CopyStages stages{output, x, y, z, input.dim(0).stride() == 1 && output.dim(0).stride() == 1,
                          output.dim(0).extent(), output.dim(2).extent()};
        schedule_copy(stages, tuning, get_target());
    }
};

}  // namespace hdml

HALIDE_REGISTER_GENERATOR(hdml::Gather, gather)
HALIDE_REGISTER_GENERATOR(hdml::NormalizeIndices, normalize_indices)
