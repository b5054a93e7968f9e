// DirectML operator descs from DxDispatch JSON. Each operator hdml implements
// is described once, as its C struct's fields in order (operators.cpp); the
// builder reads the JSON by those names, lays the struct out as the C compiler
// does, and names its bind points (the tensor fields).
#pragma once

#include "hdml/directml.h"
#include "tools/dispatch/model_error.h"

#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace hdml_dispatch {

struct BindPoint {
    std::string name;     // "InputTensor", "OutputTensors"
    bool output = false;  // fields named Output* are written by the operator
    bool array = false;   // takes `count` bindings (SPLIT's OutputTensors, JOIN's InputTensors)
    std::vector<const DML_BUFFER_TENSOR_DESC *> tensors;  // one per binding
};

// An operator desc read from JSON, with everything it points to.
class OperatorDesc {
public:
    DML_OPERATOR_DESC desc() const { return {type_, blob_.data()}; }
    const std::vector<BindPoint> &bind_points() const { return bind_points_; }
    const std::string &type_name() const { return type_name_; }

private:
    friend std::unique_ptr<OperatorDesc> build_operator_desc(const Json &, const std::string &);
    DML_OPERATOR_TYPE type_{};
    std::string type_name_;
    std::vector<uint64_t> blob_;  // the DML_*_OPERATOR_DESC struct (8-byte aligned)
    std::deque<DML_BUFFER_TENSOR_DESC> buffer_descs_;
    std::deque<std::vector<DML_TENSOR_DESC>> tensor_descs_;
    std::deque<std::vector<UINT>> uint_arrays_;
    std::vector<BindPoint> bind_points_;
};

// `dispatchable` is {"type": ..., "desc": {...}} ("Type"/"Desc" also accepted); `path` names it in errors.
std::unique_ptr<OperatorDesc> build_operator_desc(const Json &dispatchable, const std::string &path);

// The operators hdml-dispatch knows, for --help.
std::vector<std::string> known_operator_names();

}  // namespace hdml_dispatch
