// hdml-dispatch: the .npy reader/writer, value conversion and printing,
// resource initializers, bindings, writeFile, options, and malformed models
// (each must fail with exit status 1 or 2 and a message naming the JSON path).
// The models in models/ run through the executable as ctest "model.*" tests.
#include "catch.hpp"
#include "tools/dispatch/dispatch.h"
#include "tools/dispatch/npy.h"
#include "tools/dispatch/values.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace hdml_dispatch;

namespace {

struct Result {
    int status;
    std::string out, err;
};

// A scratch directory per test run, removed with its files at exit.
const std::string &scratch_dir() {
    struct Scratch {
        std::filesystem::path path;
        Scratch() {
            const auto tmp = std::filesystem::temp_directory_path();
            std::random_device random;
            for (int attempt = 0; path.empty() && attempt < 100; ++attempt) {
                const auto candidate = tmp / ("hdml_dispatch_test_" + std::to_string(random()));
                if (std::filesystem::create_directory(candidate)) path = candidate;
            }
        }
        ~Scratch() {
            std::error_code ignored;
            if (!path.empty()) std::filesystem::remove_all(path, ignored);
        }
    };
    static const Scratch scratch;
    static const std::string dir = scratch.path.generic_string();  // forward slashes: it goes into JSON too
    REQUIRE(!dir.empty());
    return dir;
}

std::string write_text(const std::string &name, const std::string &text) {
    const std::string path = scratch_dir() + "/" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

bool file_exists(const std::string &path) { return std::ifstream(path).good(); }

std::vector<uint8_t> read_bytes(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

Result run(std::vector<std::string> args) {
    args.insert(args.begin(), "hdml-dispatch");
    std::vector<const char *> argv;
    for (const auto &a : args) argv.push_back(a.c_str());
    std::ostringstream out, err;
    const int status = run_dispatch((int)argv.size(), argv.data(), out, err);
    return {status, out.str(), err.str()};
}

Result run_model(const std::string &json, std::vector<std::string> extra = {}) {
    extra.push_back(write_text("model.json", json));
    return run(extra);
}

// A model around one REDUCE SUM of `input` (3 floats) into `output`, with pieces replaceable for the error tests.
std::string sum_model(const std::string &resources, const std::string &desc, const std::string &commands) {
    return R"({"resources": {)" + resources + R"(}, "dispatchables": {"sum": {"type": "DML_OPERATOR_REDUCE", "desc": {)" +
           desc + R"(}}}, "commands": [)" + commands + "]}";
}
const std::string kResources =
    R"("input": {"initialValuesDataType": "FLOAT32", "initialValues": [1, 2, 3]},
       "output": {"initialValuesDataType": "FLOAT32", "initialValues": {"valueCount": 1, "value": 0}})";
const std::string kDesc = R"("Function": "SUM", "InputTensor": {"DataType": "FLOAT32", "Sizes": [3]},
                              "OutputTensor": {"DataType": "FLOAT32", "Sizes": [1]}, "AxisCount": 1, "Axes": [0])";
const std::string kCommands = R"({"type": "dispatch", "dispatchable": "sum", "bindings": {"InputTensor": "input", "OutputTensor": "output"}},
                                  {"type": "print", "resource": "output"})";

}  // namespace

TEST_CASE(".npy files round-trip every supported dtype and shape", "[dispatch][npy]") {
    for (DML_TENSOR_DATA_TYPE type : {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT16, DML_TENSOR_DATA_TYPE_FLOAT64,
                                      DML_TENSOR_DATA_TYPE_INT8, DML_TENSOR_DATA_TYPE_UINT8, DML_TENSOR_DATA_TYPE_INT16,
                                      DML_TENSOR_DATA_TYPE_UINT16, DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_DATA_TYPE_UINT32,
                                      DML_TENSOR_DATA_TYPE_INT64, DML_TENSOR_DATA_TYPE_UINT64}) {
        for (const std::vector<uint64_t> &shape : std::vector<std::vector<uint64_t>>{{}, {5}, {2, 3}, {1, 2, 1, 4}}) {
            NpyArray a;
            a.type = type;
            a.shape = shape;
            uint64_t count = 1;
            for (uint64_t d : shape) count *= d;
            for (uint64_t k = 0; k < count * element_size(type); ++k) a.data.push_back((uint8_t)(k * 7 + 1));
            const std::vector<uint8_t> bytes = serialize_npy(a);
            INFO(type_suffix(type) << " rank " << shape.size());
            REQUIRE((bytes.size() - a.data.size()) % 64 == 0);  // data starts 64-byte aligned
            const NpyArray b = parse_npy(bytes);
            CHECK(b.type == a.type);
            CHECK(b.shape == a.shape);
            CHECK(b.data == a.data);
        }
    }
}

TEST_CASE(".npy headers that hdml cannot read are rejected with the reason", "[dispatch][npy]") {
    auto npy = [](const std::string &header, size_t data_bytes) {
        const uint8_t prefix[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (uint8_t)header.size(), 0};
        std::vector<uint8_t> bytes(sizeof prefix + header.size() + data_bytes, 0);
        std::memcpy(bytes.data(), prefix, sizeof prefix);
        std::memcpy(bytes.data() + sizeof prefix, header.data(), header.size());
        return bytes;
    };
    auto reason = [](const std::vector<uint8_t> &bytes) {
        try {
            parse_npy(bytes);
        } catch (const std::exception &e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    CHECK(reason(npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }\n", 8)) == "accepted");
    CHECK(reason(npy("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }\n", 16)).find("fortran_order") != std::string::npos);
    CHECK(reason(npy("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }\n", 8)).find("dtype '>f4'") != std::string::npos);
    CHECK(reason(npy("{'descr': '|O', 'fortran_order': False, 'shape': (2,), }\n", 16)).find("dtype '|O'") != std::string::npos);
    CHECK(reason(npy("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }\n", 8)).find("the shape needs 3") != std::string::npos);
    CHECK(reason(npy("{'descr': '<f4', 'fortran_order': False, }\n", 8)).find("'shape'") != std::string::npos);
    CHECK(reason({'P', 'K', 3, 4, 0, 0, 0, 0, 0, 0, 0}).find("magic") != std::string::npos);
}

TEST_CASE("values convert and print as DxDispatch prints them", "[dispatch][values]") {
    uint8_t buffer[8];
    store_value(DML_TENSOR_DATA_TYPE_FLOAT16, 65504.0, buffer);
    CHECK(format_value(DML_TENSOR_DATA_TYPE_FLOAT16, buffer) == "65504");
    store_value(DML_TENSOR_DATA_TYPE_FLOAT16, 1e6, buffer);
    CHECK(format_value(DML_TENSOR_DATA_TYPE_FLOAT16, buffer) == "inf");
    store_value(DML_TENSOR_DATA_TYPE_FLOAT16, std::ldexp(1.0, -24), buffer);  // smallest subnormal
    CHECK(format_value(DML_TENSOR_DATA_TYPE_FLOAT16, buffer) == "5.96046e-08");
    store_value(DML_TENSOR_DATA_TYPE_FLOAT32, NAN, buffer);
    CHECK(format_value(DML_TENSOR_DATA_TYPE_FLOAT32, buffer) == "nan");
    store_value(DML_TENSOR_DATA_TYPE_FLOAT32, -INFINITY, buffer);
    CHECK(format_value(DML_TENSOR_DATA_TYPE_FLOAT32, buffer) == "-inf");
    store_value(DML_TENSOR_DATA_TYPE_FLOAT32, 2.5, buffer);
    CHECK(format_value(DML_TENSOR_DATA_TYPE_FLOAT32, buffer) == "2.5");
    store_value(DML_TENSOR_DATA_TYPE_INT8, -3, buffer);
    CHECK(format_value(DML_TENSOR_DATA_TYPE_INT8, buffer) == "-3");
    store_value(DML_TENSOR_DATA_TYPE_UINT64, 18446744073709549568.0, buffer);
    CHECK(format_value(DML_TENSOR_DATA_TYPE_UINT64, buffer) == "18446744073709549568");
    store_value(DML_TENSOR_DATA_TYPE_INT64, -9007199254740993.0, buffer);
    CHECK(format_value(DML_TENSOR_DATA_TYPE_INT64, buffer) == "-9007199254740992");
    for (uint32_t h = 0; h < 0x10000; ++h) {  // every float16 survives float16 -> float -> float16
        const float f = half_to_float((uint16_t)h);
        if (std::isnan(f)) continue;
        REQUIRE(float_to_half(f) == h);
    }
}

TEST_CASE("initializers: arrays with nan/inf, constants, sequences, .npy and raw files, sizeInBytes", "[dispatch]") {
    NpyArray npy{DML_TENSOR_DATA_TYPE_INT16, {2, 2}, {}};
    for (int16_t v : {-1, 2, -3, 4}) {
        npy.data.push_back((uint8_t)v);
        npy.data.push_back((uint8_t)((uint16_t)v >> 8));
    }
    const std::vector<uint8_t> npy_bytes = serialize_npy(npy);
    write_text("values.npy", std::string(npy_bytes.begin(), npy_bytes.end()));
    const uint32_t raw[3] = {7, 8, 9};
    write_text("values.bin", std::string(reinterpret_cast<const char *>(raw), sizeof raw));
    const Result r = run_model(R"({"resources": {
        "array": {"initialValuesDataType": "DML_TENSOR_DATA_TYPE_FLOAT32", "initialValues": [1.5, "nan", "inf", "-inf", -0.25]},
        "constant": {"initialValuesDataType": "INT32", "initialValues": {"valueCount": 3, "value": -7}},
        "sequence": {"initialValuesDataType": "FLOAT16", "initialValues": {"valueCount": 4, "valueStart": 1, "valueDelta": 2.5}},
        "npy": {"initialValues": {"sourcePath": "values.npy"}},
        "raw": {"initialValuesDataType": "UINT32", "initialValues": {"sourcePath": "values.bin"}},
        "padded": {"initialValuesDataType": "UINT8", "initialValues": [1, 2], "sizeInBytes": 6}},
      "dispatchables": {}, "commands": [
        {"type": "print", "resource": "array"}, {"type": "print", "resource": "constant"},
        {"type": "print", "resource": "sequence"}, {"type": "print", "resource": "npy"},
        {"type": "print", "resource": "raw"}, {"type": "print", "resource": "padded", "verbose": true}]})");
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(r.out == "Resource 'array': 1.5, nan, inf, -inf, -0.25\n"
                   "Resource 'constant': -7, -7, -7\n"
                   "Resource 'sequence': 1, 3.5, 6, 8.5\n"
                   "Resource 'npy': -1, 2, -3, 4\n"
                   "Resource 'raw': 7, 8, 9\n"
                   "Resource 'padded': 1, 2\n");
}

TEST_CASE("writeFile writes .npy and raw files, only once every command has succeeded", "[dispatch]") {
    const std::string npy_path = scratch_dir() + "/out.npy", raw_path = scratch_dir() + "/out.bin";
    const std::string writes = R"(, {"type": "writeFile", "targetPath": ")" + npy_path +
                               R"(", "resource": "output"}, {"type": "writeFile", "targetPath": ")" + raw_path +
                               R"(", "resource": "input"})";
    Result r = run_model(sum_model(kResources, kDesc, kCommands + writes));
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(r.out == "Resource 'output': 6\n");
    const NpyArray out = parse_npy(read_bytes(npy_path));
    CHECK(out.type == DML_TENSOR_DATA_TYPE_FLOAT32);
    CHECK(out.shape == std::vector<uint64_t>{1});
    float value;
    std::memcpy(&value, out.data.data(), 4);
    CHECK(value == 6.0f);
    CHECK(read_bytes(raw_path).size() == 12);
    std::remove(npy_path.c_str());
    std::remove(raw_path.c_str());
    // A dispatch that fails after the writeFile command: no file appears.
    const std::string failing = writes + R"(, {"type": "dispatch", "dispatchable": "sum", "bindings": {"InputTensor": {"name": "input", "elementOffset": 1}, "OutputTensor": "output"}})";
    r = run_model(sum_model(kResources, kDesc, kCommands + failing));
    CHECK(r.status == 1);
    CHECK(r.err.find("commands[4].bindings.InputTensor") != std::string::npos);
    CHECK_FALSE(file_exists(npy_path));
    CHECK_FALSE(file_exists(raw_path));
}

TEST_CASE("options: timing, print_commands, help, devices, unknown and DirectX-only options", "[dispatch]") {
    const std::string model = sum_model(kResources, kDesc, kCommands);
    Result r = run_model(model, {"-i", "5", "-r", "2", "-w", "1", "-v", "1", "--print_commands"});
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(r.out.find("Running command: dispatch 'sum'") != std::string::npos);
    CHECK(r.out.find("Dispatch 'sum': 5 iterations, min ") != std::string::npos);
    CHECK(r.out.find(", max ") != std::string::npos);
    CHECK(r.out.find("Resource 'output': 6\n") != std::string::npos);  // 10 + 2 more dispatches: still one sum
    r = run({"--help"});
    CHECK(r.status == 0);
    CHECK(r.out.find("DML_OPERATOR_CUMULATIVE_PRODUCT") != std::string::npos);
    r = run_model(model, {"--adapter", "NVIDIA"});
    CHECK(r.status == 2);
    CHECK(r.err.find("option --adapter is a DxDispatch option for DirectX") != std::string::npos);
    r = run_model(model, {"--frobnicate"});
    CHECK(r.status == 2);
    CHECK(r.err.find("unknown option --frobnicate") != std::string::npos);
    r = run_model(model, {"-i", "0"});
    CHECK(r.status == 2);
    CHECK(r.err.find("expects an integer >= 1") != std::string::npos);
    // cuda and d3d12: the same output as the cpu device where a GPU runs hdml's
    // kernels, a message saying why not elsewhere (no device; on Linux, no D3D12
    // in the build; under wine, D3DCompile failing on the kernels' HLSL).
    const auto on_cpu = run_model(model, {});
    for (const std::string gpu : {"cuda", "d3d12"}) {
        r = run_model(model, {"-d", gpu});
        if (r.status == 0) {
            CHECK(r.out == on_cpu.out);
        } else {
            CHECK(r.status == 1);
            CHECK(r.out.empty());
            CHECK(r.err.find(gpu == "cuda" ? "hdml-dispatch: no CUDA device (" : "D3D12") != std::string::npos);
        }
    }
    r = run({});
    CHECK(r.status == 2);
    CHECK(r.err.find("no model given") != std::string::npos);
}

TEST_CASE("malformed models fail cleanly with the JSON path and the problem", "[dispatch][errors]") {
    struct Case {
        std::string model, message;
    };
    const std::string float_input = R"("input": {"initialValuesDataType": "FLOAT32", "initialValues": [1, 2, 3]})";
    const std::string output = R"("output": {"initialValuesDataType": "FLOAT32", "initialValues": {"valueCount": 1, "value": 0}})";
    auto desc_with = [&](const std::string &from, const std::string &to) {
        std::string d = kDesc;
        d.replace(d.find(from), from.size(), to);
        return sum_model(kResources, d, kCommands);
    };
    auto commands_with = [&](const std::string &from, const std::string &to) {
        std::string c = kCommands;
        c.replace(c.find(from), from.size(), to);
        return sum_model(kResources, kDesc, c);
    };
    const std::vector<Case> cases = {
        {"{\"resources\": {", "malformed JSON"},
        {R"({"resources": {}, "dispatchables": {}, "commands": [], "x": 1e999})", "malformed JSON"},
        {"[1, 2]", "(model): expected an object"},
        {R"({"resources": {}, "dispatchables": {}})", "commands: required field is missing"},
        {R"({"resources": {}, "dispatchables": {}, "commands": [], "extra": 1})", "extra: unknown top-level field"},
        {sum_model(R"("input": {"initialValues": [1, 2, 3]}, )" + output, kDesc, kCommands),
         "resources.input.initialValuesDataType: required field is missing"},
        {sum_model(R"("input": {"initialValuesDataType": "FLOAT33", "initialValues": [1]}, )" + output, kDesc, kCommands),
         "resources.input.initialValuesDataType: 'FLOAT33' is not a DML_TENSOR_DATA_TYPE"},
        {sum_model(R"("input": {"initialValuesDataType": "INT32", "initialValues": [1, "nan"]}, )" + output, kDesc, kCommands),
         "resources.input.initialValues[1]: expected a number, found \"nan\""},
        {sum_model(R"("input": {"initialValuesDataType": "FLOAT32", "initialValues": {"valueCount": 3}}, )" + output, kDesc, kCommands),
         "resources.input.initialValues: expected an array of values"},
        {sum_model(R"("input": {"initialValuesDataType": "FLOAT32", "initialValues": {"sourcePath": "missing.npy"}}, )" + output, kDesc, kCommands),
         "resources.input.initialValues.sourcePath: cannot open"},
        {sum_model(R"("input": {"initialValuesDataType": "FLOAT32", "initialValues": {"sourcePath": "x.png"}}, )" + output, kDesc, kCommands),
         "only .npy, .bin and .dat files are supported"},
        {sum_model(float_input + R"(, "output": {"initialValuesDataType": "FLOAT32", "initialValues": [0], "sizeInBytes": 2})", kDesc, kCommands),
         "resources.output.sizeInBytes: 2 is smaller than the 4 bytes"},
        {sum_model(kResources, kDesc, kCommands).replace(sum_model(kResources, kDesc, kCommands).find("DML_OPERATOR_REDUCE"), 19, "DML_OPERATOR_GEMM"),
         "dispatchables.sum.type: unknown or unsupported operator 'DML_OPERATOR_GEMM'"},
        {desc_with("\"Axes\": [0]", "\"Axes\": [0, 1]"), "dispatchables.sum.desc.Axes: has 2 entries but AxisCount is 1"},
        {desc_with("\"AxisCount\": 1, \"Axes\": [0]", "\"AxisCount\": 2, \"Axes\": [0, -1]"),
         "dispatchables.sum.desc.Axes[1]: expected a non-negative integer, found -1"},
        {desc_with("\"AxisCount\": 1, ", ""), "dispatchables.sum.desc.AxisCount: required field is missing"},
        {desc_with("\"Function\": \"SUM\"", "\"Function\": 10"), "dispatchables.sum.desc.Function: enum values are strings"},
        {desc_with("\"Function\": \"SUM\"", "\"Function\": \"SUMM\""), "dispatchables.sum.desc.Function: 'SUMM' is not a DML_REDUCE_FUNCTION"},
        {desc_with("\"Function\": \"SUM\"", "\"Function\": \"SUM\", \"Axiss\": 1"), "dispatchables.sum.desc.Axiss: unknown field of DML_REDUCE_OPERATOR_DESC"},
        {desc_with("\"Sizes\": [3]", "\"Sizes\": 3"), "dispatchables.sum.desc.InputTensor.Sizes: expected an array"},
        // Sizes whose product wraps 2^64 (to 4): refused at creation, not a crash.
        {desc_with("\"Sizes\": [3]", "\"Sizes\": [4, 5, 5581, 8681, 49477, 384773], \"Strides\": [0, 0, 0, 0, 0, 0]"),
         "dispatchables.sum: hdmlCreateOperator failed (0x80070057): Tensor 'InputTensor' has 2^64 or more elements"},
        {desc_with("\"Sizes\": [3]", "\"Sizes\": [3], \"Strides\": [1, 1]"), "dispatchables.sum.desc.InputTensor.Strides: has 2 entries; Sizes has 1"},
        {desc_with("\"OutputTensor\": {\"DataType\": \"FLOAT32\"", "\"OutputTensor\": {\"DataType\": \"INT32\""),
         "dispatchables.sum: hdmlCreateOperator failed (0x80070057): Mismatched tensor data types"},
        {commands_with("\"dispatchable\": \"sum\"", "\"dispatchable\": \"product\""),
         "commands[0].dispatchable: no dispatchable named 'product'"},
        {commands_with("\"OutputTensor\": \"output\"", "\"OutputTensor\": \"missing\""),
         "commands[0].bindings.OutputTensor: no resource named 'missing'"},
        {commands_with(", \"OutputTensor\": \"output\"", ""), "commands[0].bindings.OutputTensor: required field is missing"},
        {commands_with("\"InputTensor\": \"input\"", "\"InputTensor\": \"input\", \"IndicesTensor\": \"input\""),
         "commands[0].bindings.IndicesTensor: is not a bind point of DML_OPERATOR_REDUCE (InputTensor, OutputTensor)"},
        {commands_with("\"InputTensor\": \"input\"", "\"InputTensor\": {\"name\": \"input\", \"elementOffset\": 1, \"elementCount\": 3}"),
         "commands[0].bindings.InputTensor: elements [1, 4) run past the end of resource 'input' (3 elements)"},
        {commands_with("\"InputTensor\": \"input\"", "\"InputTensor\": {\"name\": \"input\", \"elementCount\": 2}"),
         "commands[0].bindings.InputTensor: binds 8 bytes of resource 'input' but the tensor needs TotalTensorSizeInBytes = 12"},
        {commands_with("\"InputTensor\": \"input\"", "\"InputTensor\": 5"), "commands[0].bindings.InputTensor: a binding is a resource name"},
        {commands_with("\"type\": \"print\"", "\"type\": \"show\""), "commands[1].type: unknown command 'show'"},
        {commands_with("\"resource\": \"output\"", "\"resource\": \"nothing\""), "commands[1].resource: no resource named 'nothing'"},
    };
    for (const Case &c : cases) {
        INFO(c.model);
        const Result r = run_model(c.model);
        CHECK(r.status == 1);
        CHECK(r.out.empty());
        INFO(r.err);
        CHECK(r.err.find(c.message) != std::string::npos);
    }
}

TEST_CASE("arrays of bindings: SPLIT's OutputTensors must have OutputCount entries", "[dispatch][errors]") {
    const std::string model = R"({"resources": {"x": {"initialValuesDataType": "FLOAT32", "initialValues": [1, 2, 3, 4]},
        "a": {"initialValuesDataType": "FLOAT32", "initialValues": [0, 0]},
        "b": {"initialValuesDataType": "FLOAT32", "initialValues": [0, 0, 0, 0]}},
      "dispatchables": {"split": {"type": "SPLIT", "desc": {"InputTensor": {"DataType": "FLOAT32", "Sizes": [4]},
        "OutputCount": 2, "OutputTensors": [{"DataType": "FLOAT32", "Sizes": [2]}, {"Type": "DML_TENSOR_TYPE_BUFFER",
        "Desc": {"DataType": "DML_TENSOR_DATA_TYPE_FLOAT32", "Flags": "DML_TENSOR_FLAG_NONE", "DimensionCount": 1,
                 "Sizes": [2], "Strides": [1], "TotalTensorSizeInBytes": 8, "GuaranteedBaseOffsetAlignment": 0}}], "Axis": 0}}},
      "commands": [{"type": "dispatch", "dispatchable": "split", "bindings": {"InputTensor": "x", "OutputTensors": BINDINGS}},
                   {"type": "print", "resource": "a"}]})";
    auto with = [&](const std::string &bindings) {
        std::string m = model;
        m.replace(m.find("BINDINGS"), 8, bindings);
        return m;
    };
    Result r = run_model(with(R"(["a", {"name": "b", "elementOffset": 0, "elementCount": 2}])"));
    INFO(r.err);
    CHECK(r.status == 0);
    CHECK(r.out == "Resource 'a': 1, 2\n");
    // An output over the input it splits is refused by hdmlExecute's overlap rule.
    r = run_model(with(R"(["a", {"name": "x", "elementOffset": 0, "elementCount": 2}])"));
    CHECK(r.status == 1);
    CHECK(r.err.find("the binding of output tensor 'OutputTensors[1]'") != std::string::npos);
    CHECK(r.err.find("overlaps the binding of input tensor 'InputTensor'") != std::string::npos);
    r = run_model(with(R"(["a"])"));
    CHECK(r.status == 1);
    CHECK(r.err.find("commands[0].bindings.OutputTensors: has 1 bindings; the operator has 2 tensors there") != std::string::npos);
    r = run_model(with(R"("a")"));
    CHECK(r.status == 1);
    CHECK(r.err.find("commands[0].bindings.OutputTensors: expected an array") != std::string::npos);
}
