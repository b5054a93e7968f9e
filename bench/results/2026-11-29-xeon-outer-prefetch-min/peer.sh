#!/bin/bash
# On the GPU machine's CPU (device tool, carry .device-bin with cpu_roofline and LIB.so.0.xz: profile, the
# library built with -DHDML_TUNED=xeon-16core (x86, AVX-512 only); defaults, the same build without it):
#   peer.sh LIB [THREADS...]   bench/cpu/cpu_bench.py, the whole CPU corpus against PyTorch and the
#                              measured roofline (default 16 threads) -> peer-LIB-THREADS.jsonl
set -u
lib=$1; shift
xz -dkf .device-bin/$lib.so.0.xz
for t in "${@:-16}"; do
    python3 bench/cpu/cpu_bench.py --hdml .device-bin/$lib.so.0 --roofline .device-bin/cpu_roofline \
        --threads $t --rounds 2 > $OUT/peer-$lib-$t.jsonl 2>> $OUT/err.log
    python3 bench/cpu/table.py $OUT/peer-$lib-$t.jsonl
done
