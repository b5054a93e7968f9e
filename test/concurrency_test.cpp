// Threads: one operator executed from 8 threads at once on distinct buffers
// (bit for bit the serial result), operators and devices created and released
// from 8 threads, and error messages that stay with the thread that failed.
// Built a second time against a ThreadSanitizer libhdml (concurrency_test.tsan).
#include "catch.hpp"
#include "test_tensor.h"

#include <atomic>
#include <random>
#include <string>
#include <thread>

using namespace hdml_test;

namespace {

constexpr int kThreads = 8;
constexpr DML_TENSOR_DATA_TYPE F32 = DML_TENSOR_DATA_TYPE_FLOAT32;

// Runs fn(thread) on kThreads threads released together, and joins them.
template <typename Fn>
void on_threads(Fn fn) {
    std::atomic<int> ready{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            ++ready;
            while (ready.load() < kThreads) std::this_thread::yield();
            fn(t);
        });
    }
    for (std::thread &thread : threads) thread.join();
}

void randomise(TestTensor &t, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> value(-4, 4);
    t.for_each_index([&](const std::vector<uint32_t> &index) { t.set_float(t.offset(index), value(rng)); });
}

// Executes `op` on kThreads threads at once, each on its own input (seeded by
// the thread) and output, `rounds` times, and compares each output with the
// same input executed serially beforehand.
void check_concurrent_executions(hdml_operator *op, const TestTensor &input_shape, const TestTensor &output_shape,
                                 int rounds) {
    std::vector<TestTensor> inputs(kThreads, input_shape), expected(kThreads, output_shape);
    for (int t = 0; t < kThreads; ++t) {
        randomise(inputs[t], 1000 + t);
        HDML_BUFFER_BINDING in = inputs[t].binding(), out = expected[t].binding();
        REQUIRE(hdmlExecute(op, 1, &in, 1, &out) == S_OK);
    }
    std::atomic<int> mismatches{0}, failures{0};
    on_threads([&](int t) {
        TestTensor output = output_shape;
        for (int round = 0; round < rounds; ++round) {
            HDML_BUFFER_BINDING in = inputs[t].binding(), out = output.binding();
            if (hdmlExecute(op, 1, &in, 1, &out) != S_OK) ++failures;
            if (output.storage != expected[t].storage) ++mismatches;
        }
    });
    CHECK(failures == 0);
    CHECK(mismatches == 0);
}

hdml_operator *create(hdml_device *device, DML_OPERATOR_TYPE type, const void *desc) {
    DML_OPERATOR_DESC op_desc{type, desc};
    hdml_operator *op = nullptr;
    REQUIRE(hdmlCreateOperator(device, &op_desc, &op) == S_OK);
    return op;
}

}  // namespace

TEST_CASE("one operator executed from 8 threads matches its serial results", "[threads]") {
    hdml_device *device = nullptr;
    REQUIRE(hdmlCreateDevice(HDML_DEVICE_TYPE_CPU, 0, &device) == S_OK);
    SECTION("REDUCE SUM over long rows (parallel kernels inside each call)") {
        TestTensor in(F32, {16, 4099}), out(F32, {16, 1});
        uint32_t axis = 1;
        DML_REDUCE_OPERATOR_DESC desc{DML_REDUCE_FUNCTION_SUM, &in.desc, &out.desc, 1, &axis};
        hdml_operator *op = create(device, DML_OPERATOR_REDUCE, &desc);
        check_concurrent_executions(op, in, out, 50);
        hdmlReleaseOperator(op);
    }
    SECTION("ARGMAX over a packed pair of axes (a scratch copy per call)") {
        TestTensor in(F32, {6, 30, 7}), out(DML_TENSOR_DATA_TYPE_UINT32, {1, 30, 1});
        const uint32_t axes[2] = {0, 2};
        DML_ARGMAX_OPERATOR_DESC desc{&in.desc, &out.desc, 2, axes, DML_AXIS_DIRECTION_INCREASING};
        hdml_operator *op = create(device, DML_OPERATOR_ARGMAX, &desc);
        check_concurrent_executions(op, in, out, 50);
        hdmlReleaseOperator(op);
    }
    SECTION("CUMULATIVE_SUMMATION along an outer axis (blocked scan)") {
        TestTensor in(F32, {3000, 9}), out(F32, {3000, 9});
        DML_CUMULATIVE_SUMMATION_OPERATOR_DESC desc{&in.desc, &out.desc, 0, DML_AXIS_DIRECTION_DECREASING, TRUE};
        hdml_operator *op = create(device, DML_OPERATOR_CUMULATIVE_SUMMATION, &desc);
        check_concurrent_executions(op, in, out, 20);
        hdmlReleaseOperator(op);
    }
    SECTION("float16 CUMULATIVE_SUMMATION down a middle axis (the operator's totals, or a call's own)") {
        TestTensor in(DML_TENSOR_DATA_TYPE_FLOAT16, {300, 6, 16}), out(DML_TENSOR_DATA_TYPE_FLOAT16, {300, 6, 16});
        DML_CUMULATIVE_SUMMATION_OPERATOR_DESC desc{&in.desc, &out.desc, 1, DML_AXIS_DIRECTION_INCREASING, FALSE};
        hdml_operator *op = create(device, DML_OPERATOR_CUMULATIVE_SUMMATION, &desc);
        check_concurrent_executions(op, in, out, 20);
        hdmlReleaseOperator(op);
    }
    hdmlReleaseDevice(device);
}

TEST_CASE("operators and devices created and released from 8 threads", "[threads]") {
    hdml_device *shared = nullptr;
    REQUIRE(hdmlCreateDevice(HDML_DEVICE_TYPE_CPU, 0, &shared) == S_OK);
    std::atomic<int> failures{0};
    on_threads([&](int t) {
        for (int round = 0; round < 40; ++round) {
            // Half the rounds on the shared device, half on a device of the thread's own.
            hdml_device *device = shared;
            if (round % 2 && hdmlCreateDevice(HDML_DEVICE_TYPE_CPU, 0, &device) != S_OK) {
                ++failures;
                continue;
            }
            TestTensor in(F32, {4, (uint32_t)(5 + t)}), out(F32, {4, 1});
            uint32_t axis = 1;
            DML_REDUCE_OPERATOR_DESC desc{DML_REDUCE_FUNCTION_MAX, &in.desc, &out.desc, 1, &axis};
            DML_OPERATOR_DESC op_desc{DML_OPERATOR_REDUCE, &desc};
            hdml_operator *op = nullptr;
            HDML_BUFFER_BINDING in_b = in.binding(), out_b = out.binding();
            if (hdmlCreateOperator(device, &op_desc, &op) != S_OK || hdmlExecute(op, 1, &in_b, 1, &out_b) != S_OK) {
                ++failures;
            }
            hdmlReleaseOperator(op);
            if (device != shared) hdmlReleaseDevice(device);
        }
    });
    CHECK(failures == 0);
    hdmlReleaseDevice(shared);
}

TEST_CASE("error messages are thread-local", "[threads]") {
    hdml_device *device = nullptr;
    REQUIRE(hdmlCreateDevice(HDML_DEVICE_TYPE_CPU, 0, &device) == S_OK);
    std::atomic<int> wrong{0};
    on_threads([&](int t) {
        for (int round = 0; round < 200; ++round) {
            // Each thread fails with its own axis; even threads succeed every other round.
            TestTensor in(F32, {2, 3}), out(F32, {2, 1});
            const uint32_t axis = 100 + (uint32_t)t;
            const bool succeed = t % 2 == 0 && round % 2 == 0;
            const uint32_t good_axis = 1;
            DML_REDUCE_OPERATOR_DESC desc{DML_REDUCE_FUNCTION_SUM, &in.desc, &out.desc, 1, succeed ? &good_axis : &axis};
            DML_OPERATOR_DESC op_desc{DML_OPERATOR_REDUCE, &desc};
            hdml_operator *op = nullptr;
            const HRESULT hr = hdmlCreateOperator(device, &op_desc, &op);
            const std::string message = hdmlGetLastErrorMessage();
            if (succeed) {
                if (hr != S_OK || !message.empty()) ++wrong;
            } else if (hr != E_INVALIDARG || message.find("Axes[0] = " + std::to_string(axis)) == std::string::npos) {
                ++wrong;
            }
            hdmlReleaseOperator(op);
        }
    });
    CHECK(wrong == 0);
    hdmlReleaseDevice(device);
}
