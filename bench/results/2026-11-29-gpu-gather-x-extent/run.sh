#!/bin/bash
# On the GPU machine (device tool, carry .device-bin): the CUDA gather and kernel-choice suites with the
# fixed library, then gpu_bench.py's GATHER cases, base.so.0.xz and fix.so.0.xz alternated 3 times
# (cold L2) into $OUT/ab-<lib>-<round>.json; ../2026-11-27-gpu-gather-vectors/compare.py $OUT prints them.
set -u
bin=.device-bin
for lib in base fix; do xz -dkf $bin/$lib.so.0.xz; done
mkdir -p $bin/run && cp $bin/fix.so.0 $bin/run/libhdml.so.0 && cp $bin/gather_test $bin/kernel_choice_test $bin/libstdc++.so.6 $bin/run/
for s in gather_test kernel_choice_test; do
    LD_LIBRARY_PATH=$bin/run HDML_TEST_DEVICE=cuda $bin/run/$s > $OUT/$s.cuda.log 2>&1
    echo "$s.cuda rc $?: $(tail -n 2 $OUT/$s.cuda.log | tr '\n' ' ')"
done
for r in 1 2 3; do
    for lib in base fix; do
        python3 bench/cuda/gpu_bench.py --hdml $bin/$lib.so.0 --only GATHER --json $OUT/ab-$lib-$r.json > /dev/null 2>> $OUT/bench.err
        echo "$lib round $r rc $?"
    done
done
python3 bench/results/2026-11-27-gpu-gather-vectors/compare.py $OUT
