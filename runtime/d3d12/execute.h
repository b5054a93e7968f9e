// hdmlExecute on a D3D12 device: the bindings' ID3D12Resources become GPU
// address ranges, the operator records its dispatches into a command list of
// its own, which is submitted to the device's queue (recording.h).
#pragma once

#include "hdml/hdml.h"
#include "runtime/operator.h"

namespace hdml::d3d12 {

HRESULT execute(hdml_operator &op, uint32_t input_count, const HDML_BUFFER_BINDING *inputs, uint32_t output_count,
                const HDML_BUFFER_BINDING *outputs);

}  // namespace hdml::d3d12
