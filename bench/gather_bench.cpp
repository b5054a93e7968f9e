// GATHER benchmarks: an embedding lookup (50 000 x 768 fp32 table, 4 096
// random rows, axis 0) and a gather along the last axis ([4096, 1024] fp32,
// 512 random columns, axis 1). Neither oneDNN 2.6 nor Eigen's Tensor module has
// a gather primitive; the peer is a straightforward C++ loop (memcpy per row
// for the lookup), two threads like hdml. Bytes = rows read + output + indices.
#include "bench_common.h"

#include <random>
#include <thread>

namespace {

struct Problem {
    uint32_t rows, cols, count, axis;
};

void bm_hdml(benchmark::State &state, Problem p) {
    std::vector<uint32_t> in_sizes = {p.rows, p.cols}, idx_sizes = {1, p.count};
    std::vector<uint32_t> out_sizes = p.axis == 0 ? std::vector<uint32_t>{p.count, p.cols}
                                                   : std::vector<uint32_t>{p.rows, p.count};
    BenchTensor in(DML_TENSOR_DATA_TYPE_FLOAT32, in_sizes), idx(DML_TENSOR_DATA_TYPE_INT32, idx_sizes),
        out(DML_TENSOR_DATA_TYPE_FLOAT32, out_sizes);
    fill_bench_data(in.storage.data(), (uint64_t)p.rows * p.cols, false);
    std::mt19937 rng(7);
    auto *indices = reinterpret_cast<int32_t *>(idx.storage.data());
    for (uint32_t k = 0; k < p.count; ++k) indices[k] = (int32_t)(rng() % (p.axis == 0 ? p.rows : p.cols));
    DML_GATHER_OPERATOR_DESC desc{&in.desc, &idx.desc, &out.desc, p.axis, 1};
    BenchOperator op(DML_OPERATOR_GATHER, &desc);
    if (!op.ok()) return state.SkipWithError(op.error.c_str());
    for (auto _ : state) {
        if (!op.run({in.binding(), idx.binding()}, {out.binding()})) return state.SkipWithError(hdmlGetLastErrorMessage());
    }
    const uint64_t moved = (uint64_t)(p.axis == 0 ? p.count * p.cols : p.rows * p.count) * 4 * 2 + p.count * 4;
    state.SetBytesProcessed((int64_t)(state.iterations() * moved));
}

void bm_loop(benchmark::State &state, Problem p) {
    std::vector<float> in((uint64_t)p.rows * p.cols), out((uint64_t)(p.axis == 0 ? p.count * p.cols : p.rows * p.count));
    fill_bench_data(in.data(), in.size(), false);
    std::mt19937 rng(7);
    std::vector<int32_t> indices(p.count);
    for (auto &i : indices) i = (int32_t)(rng() % (p.axis == 0 ? p.rows : p.cols));
    auto work = [&](uint32_t begin, uint32_t end) {
        if (p.axis == 0) {
            for (uint32_t k = begin; k < end; ++k)
                std::memcpy(&out[(uint64_t)k * p.cols], &in[(uint64_t)indices[k] * p.cols], p.cols * 4);
        } else {
            for (uint32_t r = begin; r < end; ++r)
                for (uint32_t k = 0; k < p.count; ++k) out[(uint64_t)r * p.count + k] = in[(uint64_t)r * p.cols + indices[k]];
        }
    };
    const uint32_t n = p.axis == 0 ? p.count : p.rows;
    for (auto _ : state) {
        std::thread t([&] { work(n / 2, n); });
        work(0, n / 2);
        t.join();
        benchmark::ClobberMemory();
    }
    const uint64_t moved = (uint64_t)(p.axis == 0 ? p.count * p.cols : p.rows * p.count) * 4 * 2 + p.count * 4;
    state.SetBytesProcessed((int64_t)(state.iterations() * moved));
}

void register_all() {
    register_read_bandwidth("256MiB", 256u << 20);
    const std::pair<const char *, Problem> problems[] = {
        {"gather/f32/embedding_50000x768_4096rows/", {50000, 768, 4096, 0}},
        {"gather/f32/last_axis_4096x1024_512cols/", {4096, 1024, 512, 1}},
    };
    for (const auto &problem : problems) {
        const Problem p = problem.second;
        benchmark::RegisterBenchmark((std::string(problem.first) + "hdml").c_str(),
                                     [=](benchmark::State &s) { bm_hdml(s, p); })
            ->UseRealTime();
        benchmark::RegisterBenchmark((std::string(problem.first) + "cpp_loop").c_str(),
                                     [=](benchmark::State &s) { bm_loop(s, p); })
            ->UseRealTime();
    }
}

const bool registered = (register_all(), true);

}  // namespace
