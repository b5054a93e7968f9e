#!/usr/bin/env bash
# Runs hdml's GPU checks on a machine with an NVIDIA GPU and no build tools:
# the CUDA test suites (gather's and split/join's also with 64-bit data in
# word pairs), the models/ through hdml-dispatch -d cuda, then the GPU
# benchmark against PyTorch. The binaries come from an x86-64 build made
# elsewhere, gathered by `tools/gpu-check.sh --pack <build> <dir>` (test
# executables, libhdml.so.0 and the build machine's libstdc++, since the GPU
# machine's may be older).
#
#   tools/gpu-check.sh --pack build .device-bin          # on the build machine
#   tools/gpu-check.sh .device-bin out [--no-bench]      # on the GPU machine
set -euo pipefail
suites=(reduce_test arg_reduce_test gather_test split_join_test cumulative_test special_values_test kernel_choice_test)
# Suites run again with 64-bit data moved as pairs of 32-bit words (test/CMakeLists.txt).
word_pair_suites=(gather_test split_join_test)
# CPU-device suites worth a run on the GPU machine's many cores.
cpu_suites=(hardening_test concurrency_test thread_pool_test)

if [[ "${1:-}" == "--pack" ]]; then
    build=$2 bin=$3
    mkdir -p "$bin"
    for s in "${suites[@]}" "${cpu_suites[@]}" validation_test dispatch_test; do cp "$build/test/$s" "$bin/"; done
    cp "$build/tools/dispatch/hdml-dispatch" "$bin/"
    cp -L "$build/runtime/libhdml.so.0" "$bin/"
    cp -L "$(g++ -print-file-name=libstdc++.so.6)" "$bin/"
    exit 0
fi

bin=$(realpath "$1") out=$2
mkdir -p "$out"
export LD_LIBRARY_PATH=$bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
status=0
for s in "${suites[@]}"; do
    echo "== $s.cuda"
    if HDML_TEST_DEVICE=cuda "$bin/$s" > "$out/$s.cuda.log" 2>&1; then
        tail -n 2 "$out/$s.cuda.log"
    else
        status=1
        tail -n 40 "$out/$s.cuda.log"
    fi
done
for s in "${word_pair_suites[@]}"; do
    echo "== $s.cuda.word_pairs (64-bit data and indices as D3D12 moves them)"
    if HDML_TEST_DEVICE=cuda HDML_64BIT_MOVES=word_pairs "$bin/$s" > "$out/$s.cuda.word_pairs.log" 2>&1; then
        tail -n 2 "$out/$s.cuda.word_pairs.log"
    else
        status=1
        tail -n 40 "$out/$s.cuda.word_pairs.log"
    fi
done
for s in "${cpu_suites[@]}"; do
    echo "== $s (CPU device, $(nproc) cores)"
    if "$bin/$s" > "$out/$s.log" 2>&1; then tail -n 2 "$out/$s.log"; else status=1; tail -n 40 "$out/$s.log"; fi
done
echo "== models/ on the CUDA device (hdml-dispatch -d cuda, output compared with .expected)"
here=$(dirname "$0")
models=0 model_failures=0
for model in "$here"/../models/*.json; do
    models=$((models + 1))
    if ! "$bin/hdml-dispatch" -d cuda "$model" 2> "$out/model.err" | cmp -s - "${model%.json}.expected"; then
        model_failures=$((model_failures + 1)) status=1
        echo "model $(basename "$model"): output differs or failed"; cat "$out/model.err"
    fi
done
echo "$((models - model_failures)) of $models models match"
echo "== dispatch_test (its -d cuda case runs the model)"
"$bin/dispatch_test" > "$out/dispatch_test.log" 2>&1 && tail -n 2 "$out/dispatch_test.log" || { status=1; tail -n 40 "$out/dispatch_test.log"; }
echo "== validation_test (CUDA device rules)"
"$bin/validation_test" > "$out/validation_test.log" 2>&1 && tail -n 2 "$out/validation_test.log" || { status=1; tail -n 40 "$out/validation_test.log"; }
if [[ "${3:-}" != "--no-bench" ]]; then
    python3 "$here/../bench/cuda/gpu_bench.py" --hdml "$bin/libhdml.so.0" --json "$out/bench.json" | tee "$out/bench.txt"
fi
exit $status
