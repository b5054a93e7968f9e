// hdml-tune-bench: times the cases of a tuning corpus through hdml's public C
// API (hdmlCreateOperator, then hdmlExecute), exactly what users run, on the
// CPU device or on a CUDA device over device memory; hdml-tune measure runs it
// once per candidate libhdml.
//
//   hdml-tune-bench CORPUS [--device cpu|cuda] [--family F ...] [--repeats N] [--min-seconds S]
//       one JSON line per case: {"case", "family", "bytes", "kernels", "seconds": [N]},
//       each second the mean of calls repeated for at least S (0.05) seconds
//       (on CUDA, the stream is synchronised before the clock is read).
//   hdml-tune-bench CORPUS --kernels     the kernels each case calls, no timing.
#include "hdml/hdml.h"
#include "tools/cuda_host.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
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

// Fast deterministic filler (splitmix64): a 256 MiB GPU case fills in a
// fraction of a second, so a candidate's run is mostly timing.
struct Random {
    uint64_t state;
    uint64_t next() {
        uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
};

// Where tensors live: host memory (CPU device) or device memory (CUDA).
struct Target {
    hdml_cuda::CudaHost *cuda = nullptr;  // null on the CPU device
    hdml_device *device = nullptr;
    void synchronize() const {
        if (cuda) cuda->synchronize();
    }
};

// A contiguous tensor: random bytes (floats: values in [0.5, 1.5), so sums and
// products stay finite and no NaN, infinity or subnormal costs a CPU's
// microcode assist; any bit pattern is a valid integer), mirrored into device
// memory on CUDA.
struct Tensor {
    std::vector<uint32_t> sizes;
    DML_BUFFER_TENSOR_DESC buffer{};
    DML_TENSOR_DESC desc{};
    std::vector<uint8_t> bytes;
    const Target &target;
    hdml_cuda::CudaHost::CUdeviceptr device_copy = 0;

    Tensor(const TypeInfo &t, std::vector<uint32_t> s, Random &rng, const Target &on) : sizes(std::move(s)), target(on) {
        uint64_t count = 1;
        for (uint32_t n : sizes) count *= n;
        bytes.resize((count * t.bytes + 7) & ~uint64_t(7));
        for (size_t k = 0; k < bytes.size(); k += 8) {
            const uint64_t r = rng.next();
            std::memcpy(&bytes[k], &r, 8);
        }
        if (t.type == DML_TENSOR_DATA_TYPE_FLOAT32) {
            for (size_t k = 0; k + 4 <= bytes.size(); k += 4) {
                uint32_t bits;
                std::memcpy(&bits, &bytes[k], 4);
                const float v = 0.5f + float(bits >> 9) * (1.0f / 8388608.0f);
                std::memcpy(&bytes[k], &v, 4);
            }
        }
        if (t.type == DML_TENSOR_DATA_TYPE_FLOAT16) {
            for (size_t k = 0; k + 2 <= bytes.size(); k += 2) {
                uint16_t bits;
                std::memcpy(&bits, &bytes[k], 2);
                // [0.5, 1): exponent 0x3800, any mantissa; [1, 1.5): 0x3C00, mantissa below 0x200.
                const uint16_t half = (bits & 0x8000) ? uint16_t(0x3800 | (bits & 0x3FF)) : uint16_t(0x3C00 | (bits & 0x1FF));
                std::memcpy(&bytes[k], &half, 2);
            }
        }
        describe(t);
    }
    // Indices in [0, extent), as uint32.
    Tensor(std::vector<uint32_t> s, uint32_t extent, Random &rng, const Target &on) : sizes(std::move(s)), target(on) {
        uint64_t count = 1;
        for (uint32_t n : sizes) count *= n;
        bytes.resize(count * 4);
        for (size_t k = 0; k < bytes.size(); k += 4) {
            const uint32_t v = uint32_t(rng.next() % extent);
            std::memcpy(&bytes[k], &v, 4);
        }
        describe(type_of("uint32"));
    }
    ~Tensor() {
        if (device_copy) target.cuda->release(device_copy);
    }
    Tensor(const Tensor &) = delete;
    void describe(const TypeInfo &t) {
        buffer.DataType = t.type;
        buffer.DimensionCount = (UINT)sizes.size();
        buffer.Sizes = sizes.data();
        buffer.TotalTensorSizeInBytes = bytes.size();
        desc = {DML_TENSOR_TYPE_BUFFER, &buffer};
        if (target.cuda) device_copy = target.cuda->upload(bytes.data(), bytes.size());
    }
    HDML_BUFFER_BINDING binding() {
        void *where = target.cuda ? reinterpret_cast<void *>(device_copy) : bytes.data();
        return {where, 0, bytes.size()};
    }
};

void check(HRESULT hr, const std::string &what) {
    if (FAILED(hr)) throw std::runtime_error(what + ": " + hdmlGetLastErrorMessage());
}

// One case of the corpus: its operator on the target's device and the tensors it binds.
struct Case {
    std::string name, family;
    std::vector<std::unique_ptr<Tensor>> inputs, outputs;
    hdml_operator *op = nullptr;
    uint64_t bytes = 0;
    const Target &target;
    ~Case() { hdmlReleaseOperator(op); }

    Case(const json &spec, const Target &on, Random &rng) : target(on) {
        name = spec.at("case").get<std::string>();
        family = spec.at("family").get<std::string>();
        const std::string kind = spec.at("op").get<std::string>();
        const TypeInfo &t = type_of(spec.value("type", "float32"));
        const std::vector<uint32_t> sizes = spec.at("sizes").get<std::vector<uint32_t>>();
        auto add = [&](std::vector<std::unique_ptr<Tensor>> &to, const TypeInfo &type, std::vector<uint32_t> s) {
            to.push_back(std::make_unique<Tensor>(type, std::move(s), rng, target));
            return to.back().get();
        };
        DML_OPERATOR_DESC desc{};
        DML_REDUCE_OPERATOR_DESC reduce{};
        DML_CUMULATIVE_SUMMATION_OPERATOR_DESC scan{};
        DML_SPLIT_OPERATOR_DESC split{};
        DML_JOIN_OPERATOR_DESC join{};
        DML_GATHER_OPERATOR_DESC gather{};
        std::vector<uint32_t> axes;
        std::vector<DML_TENSOR_DESC> parts;
        if (kind == "reduce") {
            Tensor *in = add(inputs, t, sizes);
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
            Tensor *in = add(inputs, t, sizes);
            Tensor *out = add(outputs, t, sizes);
            scan = {&in->desc, &out->desc, spec.at("axis").get<UINT>(), DML_AXIS_DIRECTION_INCREASING, FALSE};
            desc = {kind == "cumsum" ? DML_OPERATOR_CUMULATIVE_SUMMATION : DML_OPERATOR_CUMULATIVE_PRODUCT, &scan};
        } else if (kind == "split" || kind == "join") {
            // SPLIT: `sizes` in, `parts` out along `axis`; JOIN: the reverse.
            const uint32_t axis = spec.at("axis").get<uint32_t>();
            auto &pieces = kind == "split" ? outputs : inputs;
            for (uint32_t extent : spec.at("parts").get<std::vector<uint32_t>>()) {
                std::vector<uint32_t> s = sizes;
                s.at(axis) = extent;
                parts.push_back(add(pieces, t, s)->desc);
            }
            Tensor *whole = add(kind == "split" ? inputs : outputs, t, sizes);
            split = {&whole->desc, (UINT)parts.size(), parts.data(), axis};
            join = {(UINT)parts.size(), parts.data(), &whole->desc, axis};
            desc = kind == "split" ? DML_OPERATOR_DESC{DML_OPERATOR_SPLIT, &split}
                                   : DML_OPERATOR_DESC{DML_OPERATOR_JOIN, &join};
        } else if (kind == "gather") {
            // `indices` random indices along `axis` of a rank-2 input.
            const uint32_t axis = spec.at("axis").get<uint32_t>();
            const uint32_t count = spec.at("indices").get<uint32_t>();
            Tensor *in = add(inputs, t, sizes);
            inputs.push_back(std::make_unique<Tensor>(std::vector<uint32_t>{1, count}, sizes.at(axis), rng, target));
            Tensor *indices = inputs.back().get();
            std::vector<uint32_t> out_sizes = sizes;
            out_sizes.at(axis) = count;
            Tensor *out = add(outputs, t, out_sizes);
            gather = {&in->desc, &indices->desc, &out->desc, axis, 1};
            desc = {DML_OPERATOR_GATHER, &gather};
        } else {
            throw std::runtime_error(name + ": unknown op '" + kind + "' (reduce, cumsum, cumprod, split, join, gather)");
        }
        check(hdmlCreateOperator(target.device, &desc, &op), name);
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

    // Mean seconds per call over calls repeated for at least `min_seconds`,
    // in doubling batches, each finished (stream synchronised) before the clock
    // is read: CUDA calls only enqueue.
    double time(double min_seconds) {
        using clock = std::chrono::steady_clock;
        const auto start = clock::now();
        int calls = 0, batch = 1;
        double elapsed = 0;
        do {
            for (int k = 0; k < batch; ++k) run();
            target.synchronize();
            calls += batch;
            batch *= 2;
            elapsed = std::chrono::duration<double>(clock::now() - start).count();
        } while (elapsed < min_seconds);
        return elapsed / calls;
    }
};

int run(int argc, char **argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: hdml-tune-bench CORPUS [--device cpu|cuda] [--family F ...] [--repeats N] "
                             "[--min-seconds S] [--kernels]\n");
        return 2;
    }
    std::set<std::string> families;
    std::string device_kind = "cpu";
    int repeats = 5;
    double min_seconds = 0.05;
    bool list_kernels = false;
    for (int k = 2; k < argc; ++k) {
        const std::string arg = argv[k];
        if (arg == "--kernels") {
            list_kernels = true;
        } else if (arg == "--device" && k + 1 < argc) {
            device_kind = argv[++k];
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
    Target target;
    if (device_kind == "cuda") {
        std::string why;
        target.cuda = hdml_cuda::CudaHost::get(&why);
        if (!target.cuda) throw std::runtime_error("no CUDA device: " + why);
        check(hdmlCreateDeviceFromCudaContext(target.cuda->context(), target.cuda->stream(), &target.device),
              "hdmlCreateDeviceFromCudaContext");
    } else if (device_kind == "cpu") {
        check(hdmlCreateDevice(HDML_DEVICE_TYPE_CPU, 0, &target.device), "hdmlCreateDevice");
    } else {
        throw std::runtime_error("unknown device '" + device_kind + "' (cpu, cuda)");
    }
    Random rng{7};
    for (const json &spec : corpus.at("cases")) {
        if (!families.empty() && !families.count(spec.at("family").get<std::string>())) continue;
        Case c(spec, target, rng);
        json line = {{"case", c.name}, {"family", c.family}, {"bytes", c.bytes}, {"kernels", hdmlGetOperatorKernels(c.op)}};
        if (!list_kernels) {
            c.run();  // warm-up: first-touch pages, thread pool, module loading
            target.synchronize();
            std::vector<double> seconds;
            for (int r = 0; r < repeats; ++r) seconds.push_back(c.time(min_seconds));
            line["seconds"] = seconds;
        }
        std::printf("%s\n", line.dump().c_str());
        std::fflush(stdout);
    }
    hdmlReleaseDevice(target.device);
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
