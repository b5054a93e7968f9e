#!/bin/bash
# Rows of a vector read densely (dense.so.0, AVX-512 only) against the LOG_SUM_EXP commit's library (after.so.0).
set -u
c=.device-bin
cd $c && unxz -k -f after.so.0.xz dense.so.0.xz && cd ..
for round in 1 2; do for t in 16 2; do for v in after dense; do
  python3 bench/cpu/cpu_bench.py --hdml $c/$v.so.0 --roofline $c/cpu_roofline --threads $t --rounds 2 \
      --cases 'rows16' | sed "s|^{|{\"variant\": \"$v\", \"round\": $round, |" >> $OUT/xeon-rows16.jsonl
done; done; done
