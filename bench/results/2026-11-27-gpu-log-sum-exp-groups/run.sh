#!/usr/bin/env bash
# LOG_SUM_EXP A/B on the GPU: libraries <name>.so.0.xz in .device-bin/libs, alternated.
set -u
out=$1
shift
for name in "$@"; do mkdir -p .device-bin/libs/$name && xz -dc .device-bin/libs/$name.so.0.xz > .device-bin/libs/$name/libhdml.so.0; done
for r in 1 2; do
  for lib in "$@"; do
    python3 bench/cuda/gpu_bench.py --hdml .device-bin/libs/$lib/libhdml.so.0 --only "LOG_SUM_EXP" --types f32,f16 \
        --json $out/lse-$lib-$r.json > /dev/null 2>&1
    echo "$lib round $r: rc $?"
  done
done
