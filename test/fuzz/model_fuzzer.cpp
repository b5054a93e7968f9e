// libFuzzer target: hdml-dispatch's model loader on arbitrary JSON, then each
// dispatchable it accepted created, and every dispatch command run on the
// model's own resources, as hdml-dispatch runs them. Errors must surface as
// ModelError (a message with a JSON path) or a failed HRESULT, never a crash.
#include "cpu_device.h"
#include "hdml/hdml.h"
#include "tools/dispatch/model.h"

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace {

// Runs the model's dispatch commands on its resources; bindings the loader
// checked (names, ranges inside the resource) are passed as the tool passes them.
void run_dispatches(hdml_dispatch::Model &model) {
    for (const hdml_dispatch::Command &command : model.commands) {
        if (command.kind != hdml_dispatch::Command::Kind::Dispatch) continue;
        const hdml_dispatch::OperatorDesc &desc = *model.dispatchables.at(command.target);
        const DML_OPERATOR_DESC op_desc = desc.desc();
        hdml_operator *op = nullptr;
        if (FAILED(hdmlCreateOperator(fuzz_cpu_device(), &op_desc, &op))) continue;
        hdml_dispatch::CommandBindings bound = hdml_dispatch::command_bindings(
            command, desc, [&](const std::string &name) { return model.resources.at(name).bytes.data(); });
        hdmlExecute(op, (uint32_t)bound.inputs.size(), bound.inputs.data(), (uint32_t)bound.outputs.size(),
                    bound.outputs.data());
        hdmlReleaseOperator(op);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const std::string text(reinterpret_cast<const char *>(data), size);
    hdml_dispatch::LoadOptions options;
    options.input_dir = options.output_dir = "/nonexistent-hdml-fuzz";  // sourcePath files are never read
    options.max_resource_bytes = 1 << 20;  // a model may ask for gigabytes: not what is fuzzed here
    try {
        hdml_dispatch::Model model = hdml_dispatch::load_model_text(text, options);
        run_dispatches(model);
    } catch (const hdml_dispatch::ModelError &) {
    } catch (const std::runtime_error &) {  // unreadable sourcePath files
    }
    return 0;
}
