// A DxDispatch JSON model: resources (buffers with initial values),
// dispatchables (DirectML operator descs) and commands, fully checked when
// loaded, before anything runs.
#pragma once

#include "hdml/hdml.h"
#include "tools/dispatch/model_error.h"
#include "tools/dispatch/operators.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace hdml_dispatch {

struct Resource {
    DML_TENSOR_DATA_TYPE type = DML_TENSOR_DATA_TYPE_UNKNOWN;
    uint64_t element_count = 0;  // what print and writeFile show
    std::vector<uint8_t> bytes;  // sizeInBytes, or the values' bytes rounded up to 4
    std::vector<uint64_t> shape;  // from an .npy initializer, else {element_count}
};

struct Binding {
    std::string resource;
    uint64_t offset = 0, size = 0;  // bytes
};

struct Command {
    enum class Kind { Dispatch, Print, WriteFile } kind;
    std::string path;  // "commands[2]"
    std::string target;  // dispatchable (Dispatch) or resource (Print, WriteFile)
    std::vector<std::vector<Binding>> bindings;  // Dispatch: per bind point of the operator, in desc order
    std::string file;  // WriteFile: the path to write
};

struct Model {
    std::map<std::string, Resource> resources;
    std::map<std::string, std::unique_ptr<OperatorDesc>> dispatchables;
    std::vector<Command> commands;
};

struct LoadOptions {
    std::string input_dir;   // where relative sourcePath files are read from
    std::string output_dir;  // where relative writeFile targets go
    uint64_t max_resource_bytes = UINT64_MAX;  // larger resources are a ModelError (the fuzzer sets one)
};

// A dispatch command's bindings as hdmlExecute takes them, inputs and outputs in
// the desc's order; `buffer_of(resource)` gives the memory a resource lives in.
struct CommandBindings {
    std::vector<HDML_BUFFER_BINDING> inputs, outputs;
};
template <typename BufferOf>
CommandBindings command_bindings(const Command &command, const OperatorDesc &desc, BufferOf buffer_of) {
    CommandBindings result;
    const std::vector<BindPoint> &points = desc.bind_points();
    for (size_t p = 0; p < points.size(); ++p) {
        for (const Binding &b : command.bindings[p]) {
            (points[p].output ? result.outputs : result.inputs).push_back({buffer_of(b.resource), b.offset, b.size});
        }
    }
    return result;
}

// Throws ModelError (or std::runtime_error for unreadable files).
Model load_model_text(const std::string &text, const LoadOptions &options);
Model load_model_file(const std::string &path, LoadOptions options);

}  // namespace hdml_dispatch
