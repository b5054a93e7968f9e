#!/bin/bash
# LOG_SUM_EXP before/after on the GPU machine's CPU, 2 and 16 threads, two alternating rounds.
set -u
c=.device-bin
cd $c && unxz -k -f after.so.0.xz before.so.0.xz && cd ..
mkdir -p $c/after $c/before; cp $c/after.so.0 $c/after/libhdml.so.0; cp $c/before.so.0 $c/before/libhdml.so.0
lscpu | head -20 > $OUT/lscpu.txt
for round in 1 2; do for t in 16 2; do for v in before after; do
  python3 bench/cpu/cpu_bench.py --hdml $c/$v.so.0 --roofline $c/cpu_roofline --threads $t --rounds 2 \
      --cases 'log_sum_exp' | sed "s|^{|{\"variant\": \"$v\", \"round\": $round, |" >> $OUT/xeon-lse.jsonl
done; done; done
for t in 16 2; do
  LD_LIBRARY_PATH=$c/after HL_NUM_THREADS=$t $c/reduce_test "REDUCE second passes over groups of rows" 2>&1 | tail -2
  LD_LIBRARY_PATH=$c/after HL_NUM_THREADS=$t $c/reduce_test "REDUCE LOG_SUM_EXP over the whole range of exp" 2>&1 | tail -2
  LD_LIBRARY_PATH=$c/after HL_NUM_THREADS=$t $c/reduce_test 2>&1 | tail -2
done
