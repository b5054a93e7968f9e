// hdml-tune-bench: times the cases of a tuning corpus through hdml's public C
// API (hdmlCreateOperator, then hdmlExecute on the CPU device), exactly what
// users run; hdml-tune measure runs it once per candidate libhdml.
//
//   hdml-tune-bench CORPUS [--family F ...] [--repeats N] [--min-seconds S]
//       one JSON line per case: {"case", "family", "bytes", "kernels", "seconds": [N]},
//       each second the mean of calls repeated for at least S (0.05) seconds.
//   hdml-tune-bench CORPUS --kernels     the kernels each case calls, no timing.
#include "hdml/hdml.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using nlohmann::json;

struct TypeInfo {
    const char *name;
    DML_TENSOR_DATA_TYPE type;
    uint32_t bytes;
};
const TypeInfo kTypes[] = {{"float32", DML_TENSOR_DATA_TYPE_FLOAT32, 4}, {"float16", DML_TENSOR_DATA_TYPE_FLOAT16, 2},
                           {"int32", DML_TENSOR_DATA_TYPE_INT32, 4},     {"uint32", DML_TENSOR_DATA_TYPE_UINT32, 4},
                           {"int64", DML_TENSOR_DATA_TYPE_INT64, 8},     {"uint8", DML_TENSOR_DATA_TYPE_UINT8, 1}};
const char *kFunctions[] = {"ARGMAX", "ARGMIN", "AVERAGE", "L1",       "L2",  "LOG_SUM",
                            "LOG_SUM_EXP", "MAX", "MIN", "MULTIPLY", "SUM", "SUM_SQUARE"};

const TypeInfo &type_of(const std::string &name) {
    for (const TypeInfo &t : kTypes) {
        if (name == t.name) return t;
    }
    throw std::runtime_error("unknown type '" + name + "'");
}

// A contiguous tensor and its bytes (filled with small random values: finite
// sums and products, any bit pattern is a valid float16 or integer anyway).
struct Tensor {
    std::vector<uint32_t> sizes;
    DML_BUFFER_TENSOR_DESC buffer{};
    DML_TENSOR_DESC desc{};
    std::vector<uint8_t> bytes;
    Tensor(const TypeInfo &t, std::vector<uint32_t> s, std::mt19937 &rng) : sizes(std::move(s)) {
        uint64_t count = 1;
        for (uint32_t n : sizes) count *= n;
        bytes.resize((count * t.bytes + 3) & ~uint64_t(3));
        std::uniform_int_distribution<int> byte(0, 255);
        for (size_t k = 0; k < bytes.size(); ++k) bytes[k] = (uint8_t)byte(rng);
        if (t.type == DML_TENSOR_DATA_TYPE_FLOAT32) {
            std::uniform_real_distribution<float> value(0.5f, 1.5f);
            for (size_t k = 0; k + 4 <= bytes.size(); k += 4) {
                const float v = value(rng);
                std::memcpy(&bytes[k], &v, 4);
            }
        }
        buffer.DataType = t.type;
        buffer.DimensionCount = (UINT)sizes.size();
        buffer.Sizes = sizes.data();
        buffer.TotalTensorSizeInBytes = bytes.size();
        desc = {DML_TENSOR_TYPE_BUFFER, &buffer};
    }
    Tensor(const Tensor &) = delete;
    HDML_BUFFER_BINDING binding() { return {bytes.data(), 0, bytes.size()}; }
};

void check(HRESULT hr, const std::string &what) {
    if (FAILED(hr)) throw std::runtime_error(what + ": " + hdmlGetLastErrorMessage());
}

// One case of the corpus: its operator on `device` and the tensors it binds.
struct Case {
    std::string name, family;
    std::vector<std::unique_ptr<Tensor>> inputs, outputs;
    hdml_operator *op = nullptr;
    uint64_t bytes = 0;
    ~Case() { hdmlReleaseOperator(op); }

    Case(const json &spec, hdml_device *device, std::mt19937 &rng) {
        name = spec.at("case").get<std::string>();
        family = spec.at("family").get<std::string>();
        const std::string kind = spec.at("op").get<std::string>();
        const TypeInfo &t = type_of(spec.value("type", "float32"));
        const std::vector<uint32_t> sizes = spec.at("sizes").get<std::vector<uint32_t>>();
        auto add = [&](std::vector<std::unique_ptr<Tensor>> &to, const TypeInfo &type, std::vector<uint32_t> s) {
            to.push_back(std::make_unique<Tensor>(type, std::move(s), rng));
            return to.back().get();
        };
        Tensor *in = add(inputs, t, sizes);
        DML_OPERATOR_DESC desc{};
        DML_REDUCE_OPERATOR_DESC reduce{};
        DML_CUMULATIVE_SUMMATION_OPERATOR_DESC scan{};
        DML_SPLIT_OPERATOR_DESC split{};
        std::vector<uint32_t> axes;
        std::vector<DML_TENSOR_DESC> parts;
        if (kind == "reduce") {
            axes = spec.at("axes").get<std::vector<uint32_t>>();
            const std::string function = spec.at("function").get<std::string>();
            int f = -1;
            for (int k = 0; k < 12; ++k) {
                if (function == kFunctions[k]) f = k;
            }
            if (f < 0) throw std::runtime_error(name + ": unknown function " + function);
            std::vector<uint32_t> out_sizes = sizes;
            for (uint32_t a : axes) out_sizes.at(a) = 1;
            const bool arg = f <= 1;
            Tensor *out = add(outputs, arg ? type_of("uint32") : t, out_sizes);
            reduce = {(DML_REDUCE_FUNCTION)f, &in->desc, &out->desc, (UINT)axes.size(), axes.data()};
            desc = {DML_OPERATOR_REDUCE, &reduce};
        } else if (kind == "cumsum" || kind == "cumprod") {
            Tensor *out = add(outputs, t, sizes);
            scan = {&in->desc, &out->desc, spec.at("axis").get<UINT>(), DML_AXIS_DIRECTION_INCREASING, FALSE};
            desc = {kind == "cumsum" ? DML_OPERATOR_CUMULATIVE_SUMMATION : DML_OPERATOR_CUMULATIVE_PRODUCT, &scan};
        } else if (kind == "split") {
            const uint32_t axis = spec.at("axis").get<uint32_t>();
            for (uint32_t extent : spec.at("parts").get<std::vector<uint32_t>>()) {
                std::vector<uint32_t> s = sizes;
                s.at(axis) = extent;
                parts.push_back(add(outputs, t, s)->desc);
            }
            split = {&in->desc, (UINT)parts.size(), parts.data(), axis};
            desc = {DML_OPERATOR_SPLIT, &split};
        } else {
            throw std::runtime_error(name + ": unknown op '" + kind + "' (reduce, cumsum, cumprod, split)");
        }
        check(hdmlCreateOperator(device, &desc, &op), name);
        for (auto *list : {&inputs, &outputs}) {
            for (auto &tensor : *list) bytes += tensor->bytes.size();
        }
    }

    void run() {
        std::vector<HDML_BUFFER_BINDING> in, out;
        for (auto &t : inputs) in.push_back(t->binding());
        for (auto &t : outputs) out.push_back(t->binding());
        check(hdmlExecute(op, (uint32_t)in.size(), in.data(), (uint32_t)out.size(), out.data()), name);
    }

    // Mean seconds per call over calls repeated for at least `min_seconds`.
    double time(double min_seconds) {
        using clock = std::chrono::steady_clock;
        const auto start = clock::now();
        int calls = 0;
        double elapsed = 0;
        do {
            run();
            ++calls;
            elapsed = std::chrono::duration<double>(clock::now() - start).count();
        } while (elapsed < min_seconds);
        return elapsed / calls;
    }
};

int run(int argc, char **argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: hdml-tune-bench CORPUS [--family F ...] [--repeats N] [--min-seconds S] [--kernels]\n");
        return 2;
    }
    std::set<std::string> families;
    int repeats = 5;
    double min_seconds = 0.05;
    bool list_kernels = false;
    for (int k = 2; k < argc; ++k) {
        const std::string arg = argv[k];
        if (arg == "--kernels") {
            list_kernels = true;
        } else if (arg == "--family" && k + 1 < argc) {
            families.insert(argv[++k]);
        } else if (arg == "--repeats" && k + 1 < argc) {
            repeats = std::stoi(argv[++k]);
        } else if (arg == "--min-seconds" && k + 1 < argc) {
            min_seconds = std::stod(argv[++k]);
        } else {
            std::fprintf(stderr, "hdml-tune-bench: unknown argument '%s'\n", arg.c_str());
            return 2;
        }
    }
    std::ifstream file(argv[1]);
    if (!file) throw std::runtime_error(std::string("cannot read ") + argv[1]);
    const json corpus = json::parse(file);
    hdml_device *device = nullptr;
    check(hdmlCreateDevice(HDML_DEVICE_TYPE_CPU, 0, &device), "hdmlCreateDevice");
    std::mt19937 rng(7);
    for (const json &spec : corpus.at("cases")) {
        if (!families.empty() && !families.count(spec.at("family").get<std::string>())) continue;
        Case c(spec, device, rng);
        json line = {{"case", c.name}, {"family", c.family}, {"bytes", c.bytes}, {"kernels", hdmlGetOperatorKernels(c.op)}};
        if (!list_kernels) {
            c.run();  // warm-up: first-touch pages, thread pool
            std::vector<double> seconds;
            for (int r = 0; r < repeats; ++r) seconds.push_back(c.time(min_seconds));
            line["seconds"] = seconds;
        }
        std::printf("%s\n", line.dump().c_str());
        std::fflush(stdout);
    }
    hdmlReleaseDevice(device);
    return 0;
}

}  // namespace

int main(int argc, char **argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "hdml-tune-bench: %s\n", e.what());
        return 1;
    }
}
