#!/bin/bash
# Device run: the reduce suite's GPU-mapping cases on CUDA with the key_bits=32 library, then two more A/B rounds.
set -u
B=$(cd "$(dirname "$0")" && pwd)
cd "$B"
for v in cur new; do xz -dkf $v.so.0.xz; done
cp new.so.0 t/libhdml.so.0
export LD_LIBRARY_PATH=$B/t
nvidia-smi --query-gpu=name --format=csv,noheader
HDML_TEST_DEVICE=cuda timeout 400 ./t/reduce_test "REDUCE shapes of the GPU mappings*,REDUCE lanes merged*,REDUCE float16 rows read in words*,REDUCE short rows read in vectors*" > $OUT/reduce_test.cuda.log 2>&1; echo "reduce_test cuda rc=$? $(tail -2 $OUT/reduce_test.cuda.log | head -1)"
HDML_TEST_DEVICE=cuda ./t/kernel_choice_test > $OUT/kc.log 2>&1; echo "kernel_choice_test cuda rc=$? $(tail -2 $OUT/kc.log | head -1)"
cd "$B/.."
for r in 3 4; do
  for v in new cur; do
    python3 bench/cuda/gpu_bench.py --hdml $B/$v.so.0 --types f16,f32 --only 'ARGM' --json $OUT/argmax-$v-$r.json > /dev/null 2>&1
    echo "$v $r rc=$? $(date +%T)"
  done
done
