#include "tools/dispatch/dispatch.h"

#include "hdml/hdml.h"
#include "tools/cuda_host.h"
#include "tools/d3d12_host.h"
#include "tools/dispatch/model.h"
#include "tools/dispatch/npy.h"
#include "tools/dispatch/values.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>

namespace hdml_dispatch {

namespace {

struct Options {
    std::string model;
    HDML_DEVICE_TYPE device = HDML_DEVICE_TYPE_CPU;
    uint64_t iterations = 1, repeat = 1, warmup = 0, verbosity = 0;
    bool print_commands = false, help = false;
    LoadOptions paths;
};

const char kUsage[] =
    "Usage: hdml-dispatch [OPTION...] <model.json>\n"
    "Runs a DxDispatch JSON model (resources, DirectML operator dispatchables, commands) on an hdml device.\n"
    "\n"
    "  -m, --model <path>             the model (or give it as the last argument)\n"
    "  -d, --device <cpu|cuda|d3d12>  hdml device to run on (default cpu; cuda and d3d12 keep the resources\n"
    "                                 in GPU memory; d3d12 on Windows only)\n"
    "  -i, --dispatch_iterations <n>  timed samples per dispatch command (default 1)\n"
    "  -r, --dispatch_repeat <n>      dispatches per sample (default 1)\n"
    "  -w, --warmup_samples <n>       untimed samples before the timed ones (default 0)\n"
    "  -v, --timing_verbosity <n>     0: median per dispatch when timing; 1: min/median/max; 2: every sample\n"
    "      --print_commands           print each command before it runs\n"
    "      --input_path <dir>         directory of relative sourcePath files (default: the model's)\n"
    "      --output_path <dir>        directory of relative writeFile targets (default: current)\n"
    "  -h, --help                     this text\n"
    "\n"
    "Timings are printed when -i > 1 or -v > 0: per dispatch, the wall time of one\n"
    "hdmlExecute (samples of -r dispatches, divided by -r).\n";

// DxDispatch options that have no meaning off DirectX (or for DirectML operators) in hdml.
const char *const kDirectXOptions[] = {
    "-S", "--show_dependencies", "-t", "--milliseconds_to_run", "-I", "--dispatch_interval",
    "--max_gpu_time_measurements", "--debug", "-a", "--adapter", "-s", "--show_adapters", "-q", "--queue_type",
    "--disable_custom_heaps", "--clear_shader_caches", "--disable_gpu_timeout", "--enable_dred",
    "--disable_background_processing", "--set_stable_power_state", "--disable_agility_sdk",
    "--print_hlsl_disassembly", "--post_dispatch_barriers", "--dml_feature_level", "--xbox_allow_precompile", "-c",
    "--pix_capture_type", "-o", "--pix_capture_name", "--present_separator", "-f", "-F", "-e", "-b", "-l", "-L",
    "-p", "-x", "--enable_ort_extensions", "--enable_onnx_profiling"};

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

uint64_t parse_count(const std::string &option, const std::string &text, uint64_t min) {
    char *end = nullptr;
    const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || text[0] == '-' || v < min) {
        throw UsageError("option " + option + " expects an integer >= " + std::to_string(min) + ", got '" + text + "'");
    }
    return v;
}

Options parse_options(int argc, const char *const *argv) {
    Options o;
    for (int k = 1; k < argc; ++k) {
        std::string arg = argv[k], value;
        const size_t eq = arg.find('=');
        const bool has_inline = arg.rfind("--", 0) == 0 && eq != std::string::npos;
        if (has_inline) {
            value = arg.substr(eq + 1);
            arg = arg.substr(0, eq);
        }
        auto next = [&]() -> std::string {
            if (has_inline) return value;
            if (k + 1 >= argc) throw UsageError("option " + arg + " needs a value");
            return argv[++k];
        };
        if (arg == "-h" || arg == "--help") {
            o.help = true;
        } else if (arg == "-m" || arg == "--model") {
            o.model = next();
        } else if (arg == "-d" || arg == "--device") {
            const std::string d = next();
            if (d == "cpu") o.device = HDML_DEVICE_TYPE_CPU;
            else if (d == "cuda") o.device = HDML_DEVICE_TYPE_CUDA;
            else if (d == "d3d12") o.device = HDML_DEVICE_TYPE_D3D12;
            else throw UsageError("unknown device '" + d + "' (cpu, cuda, d3d12)");
        } else if (arg == "-i" || arg == "--dispatch_iterations") {
            o.iterations = parse_count(arg, next(), 1);
        } else if (arg == "-r" || arg == "--dispatch_repeat") {
            o.repeat = parse_count(arg, next(), 1);
        } else if (arg == "-w" || arg == "--warmup_samples") {
            o.warmup = parse_count(arg, next(), 0);
        } else if (arg == "-v" || arg == "--timing_verbosity") {
            o.verbosity = parse_count(arg, next(), 0);
        } else if (arg == "--print_commands") {
            o.print_commands = true;
        } else if (arg == "--input_path") {
            o.paths.input_dir = next();
        } else if (arg == "--output_path") {
            o.paths.output_dir = next();
        } else if (std::find(std::begin(kDirectXOptions), std::end(kDirectXOptions), arg) != std::end(kDirectXOptions)) {
            throw UsageError("option " + arg + " is a DxDispatch option for DirectX, PIX or ONNX Runtime; hdml-dispatch "
                             "does not support it");
        } else if (arg.size() > 1 && arg[0] == '-') {
            throw UsageError("unknown option " + arg);
        } else if (o.model.empty()) {
            o.model = arg;
        } else {
            throw UsageError("more than one model given ('" + o.model + "' and '" + arg + "')");
        }
    }
    if (!o.help && o.model.empty()) throw UsageError("no model given");
    return o;
}

struct DeviceDeleter {
    void operator()(hdml_device *d) const { hdmlReleaseDevice(d); }
};
struct OperatorDeleter {
    void operator()(hdml_operator *op) const { hdmlReleaseOperator(op); }
};
using DevicePtr = std::unique_ptr<hdml_device, DeviceDeleter>;
using OperatorPtr = std::unique_ptr<hdml_operator, OperatorDeleter>;

std::string hresult_text(HRESULT hr) {
    char text[16];
    std::snprintf(text, sizeof text, "0x%08X", (unsigned)hr);
    return text;
}

void print_resource(const std::string &name, const Resource &r, std::ostream &out) {
    out << "Resource '" << name << "': ";
    const uint32_t esize = element_size(r.type);
    for (uint64_t k = 0; k < r.element_count; ++k) out << (k ? ", " : "") << format_value(r.type, r.bytes.data() + k * esize);
    out << "\n";
}

std::vector<uint8_t> file_contents(const Resource &r, const std::string &file) {
    const uint64_t data_bytes = r.element_count * element_size(r.type);
    const std::vector<uint8_t> data(r.bytes.begin(), r.bytes.begin() + (long)data_bytes);
    const size_t dot = file.find_last_of('.');
    if (dot != std::string::npos && file.substr(dot) == ".npy") {
        NpyArray array{r.type, r.shape, data};
        return serialize_npy(array);
    }
    return data;
}

void report_timing(const std::string &name, std::vector<double> ms, const Options &o, std::ostream &out) {
    if (o.iterations <= 1 && o.verbosity == 0) return;
    std::vector<double> sorted = ms;
    std::sort(sorted.begin(), sorted.end());
    const double median = sorted.size() % 2 ? sorted[sorted.size() / 2]
                                            : (sorted[sorted.size() / 2 - 1] + sorted[sorted.size() / 2]) / 2;
    out << "Dispatch '" << name << "': " << ms.size() << " iterations, ";
    if (o.verbosity >= 1) out << "min " << sorted.front() << " ms, ";
    out << "median " << median << " ms";
    if (o.verbosity >= 1) out << ", max " << sorted.back() << " ms";
    out << " (CPU wall time)\n";
    if (o.verbosity >= 2) {
        for (size_t k = 0; k < ms.size(); ++k) out << "  sample " << k << ": " << ms[k] << " ms\n";
    }
}

// Where the model's resources live while it runs: host memory for the cpu
// device; for cuda (d3d12), device memory (buffers) of the tool's own context
// and stream (device and queue), from which the hdml device is created,
// uploaded once, read back for print and writeFile after the GPU has drained.
#ifndef _WIN32
namespace hdml_d3d12 {
class D3d12Host;  // Windows only
}
#endif

class ResourceMemory {
public:
    ResourceMemory(Model &model, hdml_cuda::CudaHost *cuda, hdml_d3d12::D3d12Host *d3d12)
        : model_(model), cuda_(cuda), d3d12_(d3d12) {
        for (auto &[name, r] : model_.resources) {
            if (cuda_) cuda_device_[name] = cuda_->upload(r.bytes.data(), r.bytes.size());
#ifdef _WIN32
            if (d3d12_) d3d12_buffers_[name] = d3d12_->upload(r.bytes.data(), r.bytes.size());
#endif
        }
    }
    ~ResourceMemory() {
        try {
            for (const auto &[name, pointer] : cuda_device_) cuda_->release(pointer);
#ifdef _WIN32
            if (d3d12_) d3d12_->synchronize();
            for (const auto &[name, buffer] : d3d12_buffers_) d3d12_->release(buffer);
#endif
        } catch (const std::exception &) {  // the process is failing anyway; keep the first error
        }
    }
    void *binding(const std::string &name) {
        if (cuda_) return reinterpret_cast<void *>((uintptr_t)cuda_device_.at(name));
#ifdef _WIN32
        if (d3d12_) return d3d12_buffers_.at(name);
#endif
        return model_.resources.at(name).bytes.data();
    }
    // The resource as it is now, in host memory.
    const Resource &read(const std::string &name) {
        Resource &r = model_.resources.at(name);
        wait();
        if (cuda_) cuda_->download(r.bytes.data(), cuda_device_.at(name), r.bytes.size());
#ifdef _WIN32
        if (d3d12_) d3d12_->download(r.bytes.data(), d3d12_buffers_.at(name), r.bytes.size());
#endif
        return r;
    }
    void wait() {
        if (cuda_) cuda_->synchronize();
#ifdef _WIN32
        if (d3d12_) d3d12_->synchronize();
#endif
    }

private:
    Model &model_;
    hdml_cuda::CudaHost *cuda_;
    hdml_d3d12::D3d12Host *d3d12_;
    std::map<std::string, hdml_cuda::CudaHost::CUdeviceptr> cuda_device_;
#ifdef _WIN32
    std::map<std::string, ID3D12Resource *> d3d12_buffers_;
#endif
};

int run(const Options &o, std::ostream &out, std::ostream &err) {
    Model model = load_model_file(o.model, o.paths);
    hdml_cuda::CudaHost *cuda = nullptr;
    hdml_d3d12::D3d12Host *d3d12 = nullptr;
    hdml_device *raw_device = nullptr;
    HRESULT hr;
    if (o.device == HDML_DEVICE_TYPE_CUDA) {
        std::string why;
        cuda = hdml_cuda::CudaHost::get(&why);
        if (!cuda) {
            err << "hdml-dispatch: no CUDA device (" << why << ")\n";
            return 1;
        }
        hr = hdmlCreateDeviceFromCudaContext(cuda->context(), cuda->stream(), &raw_device);
#ifdef _WIN32
    } else if (o.device == HDML_DEVICE_TYPE_D3D12) {
        std::string why;
        d3d12 = hdml_d3d12::D3d12Host::get(&why);
        if (!d3d12) {
            err << "hdml-dispatch: no D3D12 device (" << why << ")\n";
            return 1;
        }
        hr = hdmlCreateDeviceFromD3D12(d3d12->device(), d3d12->queue(), &raw_device);
#endif
    } else {
        hr = hdmlCreateDevice(o.device, 0, &raw_device);
    }
    if (hr != S_OK) {
        err << "hdml-dispatch: cannot create the device (" << hresult_text(hr) << "): " << hdmlGetLastErrorMessage() << "\n";
        return 1;
    }
    DevicePtr device(raw_device);
    std::map<std::string, OperatorPtr> operators;
    for (const auto &[name, desc] : model.dispatchables) {
        const DML_OPERATOR_DESC op_desc = desc->desc();
        hdml_operator *op = nullptr;
        hr = hdmlCreateOperator(device.get(), &op_desc, &op);
        if (hr != S_OK) {
            throw ModelError(member_path("dispatchables", name),
                             "hdmlCreateOperator failed (" + hresult_text(hr) + "): " + hdmlGetLastErrorMessage());
        }
        operators[name].reset(op);
    }
    ResourceMemory memory(model, cuda, d3d12);
    std::vector<std::pair<std::string, std::vector<uint8_t>>> files;  // written once every command has succeeded
    for (const Command &c : model.commands) {
        if (o.print_commands) {
            static const char *const kinds[] = {"dispatch", "print", "writeFile"};
            out << "Running command: " << kinds[(int)c.kind] << " '" << c.target << "'"
                << (c.kind == Command::Kind::WriteFile ? " -> " + c.file : "") << "\n";
        }
        if (c.kind == Command::Kind::Print) {
            print_resource(c.target, memory.read(c.target), out);
        } else if (c.kind == Command::Kind::WriteFile) {
            files.emplace_back(c.file, file_contents(memory.read(c.target), c.file));
        } else {
            const CommandBindings bound = command_bindings(
                c, *model.dispatchables.at(c.target), [&](const std::string &name) { return memory.binding(name); });
            hdml_operator *op = operators.at(c.target).get();
            std::vector<double> samples;
            for (uint64_t s = 0; s < o.warmup + o.iterations; ++s) {
                const auto start = std::chrono::steady_clock::now();
                for (uint64_t rep = 0; rep < o.repeat; ++rep) {
                    hr = hdmlExecute(op, (uint32_t)bound.inputs.size(), bound.inputs.data(),
                                     (uint32_t)bound.outputs.size(), bound.outputs.data());
                    if (hr != S_OK) {
                        throw ModelError(c.path, "hdmlExecute of '" + c.target + "' failed (" + hresult_text(hr) +
                                                     "): " + hdmlGetLastErrorMessage());
                    }
                }
                memory.wait();  // on a GPU, the time until the work is done, not until it is enqueued
                const std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - start;
                if (s >= o.warmup) samples.push_back(elapsed.count() / (double)o.repeat);
            }
            report_timing(c.target, samples, o, out);
        }
    }
    // Files go to a temporary name first: a failure leaves no partial file behind.
    for (const auto &[file, bytes] : files) {
        const std::string temporary = file + ".partial";
        std::ofstream f(temporary, std::ios::binary);
        f.write(reinterpret_cast<const char *>(bytes.data()), (std::streamsize)bytes.size());
        f.close();
        if (!f || std::rename(temporary.c_str(), file.c_str()) != 0) {
            std::remove(temporary.c_str());
            err << "hdml-dispatch: cannot write '" << file << "'\n";
            return 1;
        }
    }
    return 0;
}

}  // namespace

int run_dispatch(int argc, const char *const *argv, std::ostream &out, std::ostream &err) {
    Options options;
    try {
        options = parse_options(argc, argv);
    } catch (const UsageError &e) {
        err << "hdml-dispatch: " << e.what() << "\n" << kUsage;
        return 2;
    }
    if (options.help) {
        out << kUsage << "\nOperators:";
        for (const auto &name : known_operator_names()) out << " " << name;
        out << "\n";
        return 0;
    }
    try {
        return run(options, out, err);
    } catch (const std::exception &e) {
        err << "hdml-dispatch: " << options.model << ": " << e.what() << "\n";
        return 1;
    }
}

}  // namespace hdml_dispatch
