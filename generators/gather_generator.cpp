// DML_OPERATOR_GATHER as data movement keyed by element size:
//   output(x, j, y) = input(x, indices(j), y)
// x and y are kept dims, j runs over (flattened) index positions, input's dim 1
// is the gathered axis. The runtime normalises indices (negative ones count
// from the end, out-of-range ones clamp) to int32; the clamp here keeps every
// read inside the input whatever the indices hold.
#include "generators/common.h"
#include "generators/prefetch.h"
#include "schedules/copy_schedule.h"
#include "schedules/reduce_params.h"

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
        const bool prefetches = copy_prefetches(tuning, get_target());
        // x + 0: the prefetch's calls ride on the load's index (generators/prefetch.h).
        const Expr column = prefetches ? unsafe_promise_clamped(x + prefetch_ahead(x, j, y), x, x) : Expr(x);
        output(x, j, y) = input(column, row(j), y);

        allow_any_strides(input);
        allow_any_strides(indices);
        allow_any_strides(output);
        if (prefetches) constrain_rows_for_prefetch(input, output);
        const Expr j_dense = output.dim(1).stride() == 1 && indices.dim(0).stride() == 1 && input.dim(1).stride() == 1;
        // x's extent: where the copies prefetch, the input's (constrained to the output's), so the prefetch's
        // guard folds in every specialisation; elsewhere the output's, whose x loop a specialisation on it
        // removes (named by the input's, the GPU kernels along the innermost axis looped over x = 1: 0.62-0.82x
        // PyTorch on the H200 where they ran 0.91-0.99x).
        const Expr x_extent = prefetches ? input.dim(0).extent() : output.dim(0).extent();
        GatherStages stages{output, x, j, y, output.dim(0).stride(), x_extent, input.dim(0).stride(),
                            j_dense, output.dim(2).extent(), output.dim(1).extent()};
        schedule_gather(stages, tuning, get_target());
    }

private:
    // The input row index position j gathers, clamped inside the input.
    Expr row(const Expr &j) { return clamp(indices(j), 0, input.dim(1).extent() - 1); }

    // Where the copies prefetch (copy_prefetches: CPUs, prefetch_bytes set):
    // each vector of a gathered row prefetches the same columns of the row
    // gathered about prefetch_bytes of work later (at least the next one:
    // rows are anywhere, which no hardware prefetcher foresees).
    Expr prefetch_ahead(Var x, Var j, Var y) {
        const int lanes = copy_vector_lanes(input.type(), tuning, get_target());
        const Expr row_bytes = cast<int64_t>(input.dim(0).extent()) * input.type().bytes();  // the output's too
        const Expr rows_ahead = rows_covering(Expr((int64_t)tuning.prefetch_bytes), row_bytes);
        const Expr later = row(cast<int32_t>(min(j + rows_ahead, indices.dim(0).extent() - 1)));
        return prefetch_along_dense_rows(input, x, later, y, lanes, Expr((int64_t)0), get_target(), *get_externs_map());
    }
};

// GATHER's index normalisation where the indices live in device memory: a
// strided rank-3 copy of the indices into int32 with DirectML's rules applied
// (negative values count from the end for signed types; out-of-range values
// clamp to the nearest valid index along an axis of `extent` elements).
// loads=words reads 64-bit indices as (low, high) pairs of 32-bit words, an
// input dim 0 of its own, for D3D12, whose kernels have no 64-bit integers.
class NormalizeIndices : public Generator<NormalizeIndices> {
public:
    GeneratorParam<ElemType> itype{"itype", ElemType::Int32, elem_type_names()};
    GeneratorParam<RowLoads> loads{"loads", RowLoads::Elements, row_loads_names()};
    CopyTuning tuning;

    Input<Buffer<>> input{"input"};
    Input<int32_t> extent{"extent"};
    Output<Buffer<int32_t>> output{"output", 3};

    void configure() {
        const bool words = loads == RowLoads::Words;
        _halide_user_assert(loads != RowLoads::ColumnWords && (!words || halide_type_of(itype).bits() == 64))
            << "normalize_indices: loads=words reads 64-bit indices";
        input.set_type(words ? UInt(32) : halide_type_of(itype));
        input.set_dimensions(words ? 4 : 3);
    }

    void generate() {
        const Type t = halide_type_of(itype);
        Var x("x"), y("y"), z("z");
        Expr index;
        if (loads == RowLoads::Words) {
            index = from_words(t, input(0, x, y, z), input(1, x, y, z));
        } else if (t.bits() <= 32 && t.is_int()) {
            // 32-bit indices in 32-bit arithmetic (D3D12 has no 64-bit integers): v + extent
            // for v < 0 and the clamps cannot overflow.
            index = from_int32(cast<int32_t>(input(x, y, z)));
        } else if (t.bits() <= 32) {
            index = cast<int32_t>(min(cast<uint32_t>(input(x, y, z)), cast<uint32_t>(extent - 1)));
        } else if (t.is_int()) {
            const Expr wide = cast<int64_t>(input(x, y, z));
            index = clamp(select(wide < 0, wide + extent, wide), cast<int64_t>(0), cast<int64_t>(extent - 1));
        } else {
            index = min(cast<uint64_t>(input(x, y, z)), cast<uint64_t>(extent - 1));
        }
        output(x, y, z) = cast<int32_t>(index);
        allow_any_strides(input);
        allow_any_strides(output);
        Expr dense_x = input.dim(0).stride() == 1;
        if (loads == RowLoads::Words) {
            input.dim(0).set_bounds(0, 2).set_stride(1);
            dense_x = input.dim(1).stride() == 2;
        }
        CopyStages stages{output, x, y, z, dense_x && output.dim(0).stride() == 1, output.dim(0).extent(),
                          output.dim(2).extent()};
        schedule_copy(stages, tuning, get_target());
    }

private:
    Expr from_int32(const Expr &s) const {
        return clamp(select(s < 0, s + extent, s), 0, extent - 1);
    }

    // A 64-bit index from its words, in 32-bit arithmetic: values that fit
    // int32 as above; others lie beyond either end of any axis.
    Expr from_words(const Type &t, const Expr &low, const Expr &high) const {
        if (!t.is_int()) return select(high != 0, extent - 1, cast<int32_t>(min(low, cast<uint32_t>(extent - 1))));
        const Expr low_signed = cast<int32_t>(low), high_signed = cast<int32_t>(high);
        const Expr fits = select(low_signed < 0, high_signed == -1, high_signed == 0);
        return select(fits, from_int32(low_signed), select(high_signed < 0, 0, extent - 1));
    }
};

}  // namespace hdml

HALIDE_REGISTER_GENERATOR(hdml::Gather, gather)
HALIDE_REGISTER_GENERATOR(hdml::NormalizeIndices, normalize_indices)
