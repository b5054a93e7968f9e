#!/bin/bash
# 2026-11-26: CPU float SUM without the sign pair (new) against the build before it (cur): $1 threads, $2 rounds,
# cases $3; with a 4th argument, also SUM over random, +0, -0 and cancelling data (zeros_bench.py) at $1 threads.
set -u
c=.device-bin
cd $c && for v in cur new; do unxz -k -f $v.so.0.xz && mkdir -p $v && cp $v.so.0 $v/libhdml.so.0; done && cd ..
lscpu | head -20 > $OUT/lscpu.txt
b() { python3 bench/cpu/cpu_bench.py --roofline $c/cpu_roofline --threads $1 --rounds 1 "${@:2}"; }
for round in $(seq $2); do
  for v in cur new; do
    b $1 --hdml $c/$v/libhdml.so.0 --cases "$3" | sed "s|^{|{\"lib\": \"$v\", \"round\": $round, |" >> $OUT/xeon-sign-$1.jsonl
  done
done
if [ $# -ge 4 ]; then for v in cur new; do
  HL_NUM_THREADS=$1 python3 $c/zeros_bench.py $c/$v/libhdml.so.0 bench | sed "s|^{|{\"lib\": \"$v\", |" >> $OUT/xeon-zeros-$1.jsonl
done; fi
