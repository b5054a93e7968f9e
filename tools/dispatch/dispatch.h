// hdml-dispatch: the command line, as a function (main.cpp calls it; the tests
// call it with their own streams).
#pragma once

#include <iosfwd>

namespace hdml_dispatch {

// Returns the process exit status: 0 success, 1 model or execution error, 2 usage error.
int run_dispatch(int argc, const char *const *argv, std::ostream &out, std::ostream &err);

}  // namespace hdml_dispatch
