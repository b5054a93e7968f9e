#!/bin/bash
# On the GPU machine (device tool, carry .device-bin): the CUDA scan suites with the new
# library (cumulative, special values, kernel choice), then gpu_bench.py's scan cases,
# base.so.0.xz and new.so.0.xz alternated 3 times (cold L2) into $OUT/ab-<lib>-<round>.json;
# ../2026-11-27-gpu-gather-vectors/compare.py $OUT prints them.
set -u
bin=.device-bin
for lib in base new; do xz -dkf $bin/$lib.so.0.xz; done
mkdir -p $bin/run && cp $bin/new.so.0 $bin/run/libhdml.so.0 && cp $bin/cumulative_test $bin/special_values_test $bin/kernel_choice_test $bin/libstdc++.so.6 $bin/run/
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt
for s in cumulative_test special_values_test kernel_choice_test; do
    LD_LIBRARY_PATH=$bin/run HDML_TEST_DEVICE=cuda $bin/run/$s > $OUT/$s.cuda.log 2>&1
    echo "$s.cuda rc $?: $(tail -n 2 $OUT/$s.cuda.log | tr '\n' ' ')"
done
for r in 1 2 3; do
    for lib in base new; do
        python3 bench/cuda/gpu_bench.py --hdml $bin/$lib.so.0 --only CUMULATIVE --types f32,f16,i32 --json $OUT/ab-$lib-$r.json > /dev/null 2>> $OUT/bench.err
        echo "$lib round $r rc $?"
    done
done
python3 bench/results/2026-11-27-gpu-gather-vectors/compare.py $OUT | tee $OUT/compare.txt
