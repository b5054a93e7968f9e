// hdml-dispatch: runs DxDispatch JSON models on hdml devices (see dispatch.h).
#include "tools/dispatch/dispatch.h"

#include <iostream>

int main(int argc, char **argv) {
    return hdml_dispatch::run_dispatch(argc, argv, std::cout, std::cerr);
}
