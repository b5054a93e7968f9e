// hdmlExecute's binding rules, checked before any kernel runs: counts, null
// buffers, sizes, alignment, ranges that wrap the address space, and overlap.
#pragma once

#include "hdml/hdml.h"
#include "runtime/operator.h"

#include <vector>

namespace hdml {

// Checks `inputs` and `outputs` against the operator's tensors and fills the
// offset-applied pointers, one per tensor. Overlap rule: an output's bytes
// [Offset, Offset + TotalTensorSizeInBytes) share nothing with any other
// binding's (DirectML may write anywhere inside an output's
// TotalTensorSizeInBytes), except an output the operator lets alias an input
// (hdml_operator::may_alias) bound at exactly that input's address.
HRESULT check_bindings(const hdml_operator &op, uint32_t input_count, const HDML_BUFFER_BINDING *inputs,
                       uint32_t output_count, const HDML_BUFFER_BINDING *outputs, std::vector<void *> *in_pointers,
                       std::vector<void *> *out_pointers);

}  // namespace hdml
