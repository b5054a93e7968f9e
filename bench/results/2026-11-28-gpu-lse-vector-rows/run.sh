#!/usr/bin/env bash
# On the GPU machine, from the repository root, binaries in .device-bin (tools/gpu-check.sh --pack)
# and the libraries to compare as .device-bin/libs/<name>.so.0.xz: the CUDA reduce suites with
# .device-bin's library, then LOG_SUM_EXP's benchmark for each library, alternated twice, the
# last library also as <name>-rows64: rows of 64 a thread each (vector_bytes) where the lanes of
# a few threads take them (reduce_row_lanes_min_row 65 in a dispatch overlay).
#   run.sh OUT base new
set -u
out=$1
shift
mkdir -p "$out"
export LD_LIBRARY_PATH=$PWD/.device-bin
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$out/gpu.txt"
for s in special_values_test reduce_test kernel_choice_test; do
    HDML_TEST_DEVICE=cuda .device-bin/$s > "$out/$s.cuda.log" 2>&1; echo "$s rc=$?"; tail -2 "$out/$s.cuda.log"
done
for name in "$@"; do mkdir -p .device-bin/libs/$name && xz -dc .device-bin/libs/$name.so.0.xz > .device-bin/libs/$name/libhdml.so.0; done
for r in 1 2; do
    for lib in "$@"; do
        python3 bench/cuda/gpu_bench.py --hdml .device-bin/libs/$lib/libhdml.so.0 --only "LOG_SUM_EXP" --types f32,f16 \
            --json "$out/lse-$lib-$r.json" > /dev/null 2>&1
        echo "$lib round $r: rc $?"
    done
    echo '{"dispatch": {"reduce_row_lanes_min_row": 65}}' > "$out/rows64.json"
    HDML_DISPATCH_CUDA=$PWD/$out/rows64.json python3 bench/cuda/gpu_bench.py --hdml .device-bin/libs/$lib/libhdml.so.0 \
        --only "LOG_SUM_EXP" --types f32,f16 --json "$out/lse-$lib-rows64-$r.json" > /dev/null 2>&1
    echo "$lib-rows64 round $r: rc $?"
done
