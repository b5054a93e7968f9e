// A strided rank-3 copy keyed by element size: output(x, y, z) = input(x, y, z).
// SPLIT and JOIN are one such copy per piece, the runtime offsetting the big
// tensor along the axis; leftover dims loop in C++.
#include "generators/common.h"
#include "generators/prefetch.h"
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
        // x + 0: the prefetch's calls ride on the load's index (generators/prefetch.h).
        output(x, y, z) = input(unsafe_promise_clamped(x + prefetch_ahead(x, y, z), x, x), y, z);
        const Expr x_dense = input.dim(0).stride() == 1 && output.dim(0).stride() == 1;
        allow_any_strides(input);
        allow_any_strides(output);
        if (copy_prefetches(tuning, get_target())) constrain_rows_for_prefetch(input, output);
        // x's extent as the input's (the output's too): the prefetch's guard then folds where x is dense.
        CopyStages stages{output, x, y, z, x_dense, input.dim(0).extent(), output.dim(2).extent()};
        schedule_copy(stages, tuning, get_target());
    }

private:
    // CPUs, where prefetch_bytes is set: each vector of a dense row prefetches
    // what the copy reads about prefetch_bytes of its work later: along the row
    // where rows are that long, else the same columns as many rows ahead (a
    // SPLIT's pieces take a few hundred bytes of each of the whole's rows, runs
    // the hardware prefetchers follow poorly).
    Expr prefetch_ahead(Var x, Var y, Var z) {
        const int lanes = copy_vector_lanes(input.type(), tuning, get_target());
        if (!copy_prefetches(tuning, get_target())) return 0;
        const Expr ahead = Expr((int64_t)tuning.prefetch_bytes), bytes = Expr((int64_t)input.type().bytes());
        const Expr row_bytes = cast<int64_t>(input.dim(0).extent()) * bytes;  // the output's x extent too
        const Expr bytes_ahead = select(row_bytes >= ahead, ahead,
                                        rows_covering(ahead, row_bytes) * cast<int64_t>(input.dim(1).stride()) * bytes);
        return prefetch_along_dense_rows(input, x, y, z, lanes, bytes_ahead, get_target(), *get_externs_map());
    }
};

}  // namespace hdml

HALIDE_REGISTER_GENERATOR(hdml::Copy, copy)
