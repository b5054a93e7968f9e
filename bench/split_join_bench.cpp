// SPLIT into 3 uneven parts and JOIN of 3 parts, along the innermost and the
// outermost axis of a [4096, 16384] float32 tensor (256 MiB), against Eigen's
// slice (2-thread ThreadPoolDevice; join as slice assignments) and the machine's copy
// bandwidth (memcpy, read + write) measured in the same run.
#include "bench_common.h"

#define EIGEN_USE_THREADS
#include <unsupported/Eigen/CXX11/Tensor>

namespace {

constexpr uint32_t kRows = 4096, kCols = 16384;

std::vector<uint32_t> piece_lengths(uint32_t axis) {
    return axis == 1 ? std::vector<uint32_t>{1000, 2000, kCols - 3000} : std::vector<uint32_t>{250, 500, kRows - 750};
}

void bm_hdml(benchmark::State &state, bool split, uint32_t axis) {
    BenchTensor whole(DML_TENSOR_DATA_TYPE_FLOAT32, {kRows, kCols});
    fill_bench_data(whole.storage.data(), (uint64_t)kRows * kCols, false);
    std::vector<BenchTensor> pieces;
    pieces.reserve(3);
    for (uint32_t len : piece_lengths(axis)) {
        std::vector<uint32_t> sizes = {kRows, kCols};
        sizes[axis] = len;
        pieces.emplace_back(DML_TENSOR_DATA_TYPE_FLOAT32, sizes);
    }
    std::vector<DML_TENSOR_DESC> descs;
    std::vector<HDML_BUFFER_BINDING> piece_bindings;
    for (auto &p : pieces) descs.push_back(p.desc), piece_bindings.push_back(p.binding());
    DML_SPLIT_OPERATOR_DESC split_desc{&whole.desc, 3, descs.data(), axis};
    DML_JOIN_OPERATOR_DESC join_desc{3, descs.data(), &whole.desc, axis};
    BenchOperator op(split ? DML_OPERATOR_SPLIT : DML_OPERATOR_JOIN,
                     split ? (const void *)&split_desc : (const void *)&join_desc);
    if (!op.ok()) return state.SkipWithError(op.error.c_str());
    for (auto _ : state) {
        const bool ok = split ? op.run({whole.binding()}, piece_bindings) : op.run(piece_bindings, {whole.binding()});
        if (!ok) return state.SkipWithError(hdmlGetLastErrorMessage());
    }
    state.SetBytesProcessed((int64_t)state.iterations() * (int64_t)kRows * kCols * 4 * 2);
}

void bm_eigen(benchmark::State &state, bool split, uint32_t axis) {
    using Matrix = Eigen::Tensor<float, 2, Eigen::RowMajor>;
    Matrix whole(kRows, kCols);
    fill_bench_data(whole.data(), (uint64_t)kRows * kCols, false);
    const auto lengths = piece_lengths(axis);
    std::vector<Matrix> pieces;
    for (uint32_t len : lengths) pieces.emplace_back(axis == 0 ? len : kRows, axis == 1 ? len : kCols);
    static Eigen::ThreadPool pool(2);
    static Eigen::ThreadPoolDevice device(&pool, 2);
    for (auto _ : state) {
        // Join writes each piece into its slice of the whole: Eigen 3.4's nested
        // three-way concatenate does not compile on a ThreadPoolDevice.
        Eigen::Index offset = 0;
        for (size_t k = 0; k < 3; ++k) {
            Eigen::array<Eigen::Index, 2> start{axis == 0 ? offset : 0, axis == 1 ? offset : 0};
            Eigen::array<Eigen::Index, 2> extent{pieces[k].dimension(0), pieces[k].dimension(1)};
            if (split) {
                pieces[k].device(device) = whole.slice(start, extent);
            } else {
                whole.slice(start, extent).device(device) = pieces[k];
            }
            offset += lengths[k];
        }
    }
    state.SetBytesProcessed((int64_t)state.iterations() * (int64_t)kRows * kCols * 4 * 2);
}

void register_all() {
    register_copy_bandwidth("256MiB", (uint64_t)kRows * kCols * 4);
    for (bool split : {true, false}) {
        for (uint32_t axis : {1u, 0u}) {
            const std::string name = std::string(split ? "split3" : "join3") + "/f32/" + (axis == 1 ? "inner" : "outer") +
                                     "/256MiB/";
            benchmark::RegisterBenchmark((name + "hdml").c_str(), [=](benchmark::State &s) { bm_hdml(s, split, axis); })
                ->UseRealTime()
                ->MinTime(1.0);
            benchmark::RegisterBenchmark((name + "eigen").c_str(), [=](benchmark::State &s) { bm_eigen(s, split, axis); })
                ->UseRealTime()
                ->MinTime(1.0);
        }
    }
}

const bool registered = (register_all(), true);

}  // namespace
