// The runtime's view of devices and operators. An operator is created from a
// validated desc (its factory does validation, canonicalisation and kernel
// choice once) and afterwards only binds pointers and calls kernels.
#pragma once

#include "hdml/hdml.h"
#include "runtime/device.h"
#include "runtime/tensor.h"

#include <memory>
#include <string>
#include <vector>

struct hdml_operator {
    virtual ~hdml_operator() = default;

    // The device it was created for (kernels, memory kind, CUDA stream).
    hdml_device device;

    // The tensors in binding order; hdmlExecute checks bindings against them.
    std::vector<hdml::Tensor> inputs;
    std::vector<hdml::Tensor> outputs;

    // The kernels it calls, space-separated, as hdmlGetOperatorKernels reports them.
    std::string kernel_names;

    // Whether output `output` may be bound at exactly the address of input
    // `input` (in-place execution); any other overlap is rejected (bindings.h).
    virtual bool may_alias(size_t output, size_t input) const {
        (void)output, (void)input;
        return false;
    }

    // Called with validated, offset-applied pointers, one per tensor.
    virtual HRESULT run(const void *const *inputs, void *const *outputs) = 0;
};

namespace hdml {

// A new operator of type Op for `device` (factories create operators with this,
// so kernel choice in their init sees the device).
template <typename Op>
std::unique_ptr<Op> make_operator(const hdml_device &device) {
    auto op = std::make_unique<Op>();
    op->device = device;
    return op;
}

using OperatorFactory = HRESULT (*)(const hdml_device &device, const void *desc, std::unique_ptr<hdml_operator> *op);

// True when HDML_VERBOSE=1: operators log the kernel they chose and why.
bool verbose();
void log_verbose(const std::string &line);

}  // namespace hdml
