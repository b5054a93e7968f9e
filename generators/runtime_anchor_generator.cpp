// A trivial pipeline whose only purpose is to own the one Halide runtime of a
// platform triple. Halide 14 has no add_halide_runtime(); every kernel library
// of a triple names this anchor's runtime in USE_RUNTIME, so exactly one copy of
// the runtime is linked (mandatory on Windows, where COFF has no weak symbols).
#include "Halide.h"

namespace hdml {

class RuntimeAnchor : public Halide::Generator<RuntimeAnchor> {
public:
    Output<Halide::Buffer<uint8_t>> output{"output", 1};

    void generate() {
        Halide::Var x("x");
        output(x) = Halide::cast<uint8_t>(0);
    }
};

}  // namespace hdml

HALIDE_REGISTER_GENERATOR(hdml::RuntimeAnchor, runtime_anchor)
