#!/usr/bin/env bash
# README command (1): installs the missing Debian packages, builds hdml's x86
# libraries and runs the example (DirectML's seed examples through hdml).
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/common.sh
hdml_install_packages
hdml_configure_and_build build
./build/examples/seed_examples
