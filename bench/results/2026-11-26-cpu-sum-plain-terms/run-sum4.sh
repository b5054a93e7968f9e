#!/bin/bash
# 2026-11-26: float SUM specialised on element_map == 0 (new) against the build before it (cur), $1 threads, 4 rounds.
set -u
c=.device-bin
cd $c && for v in cur new; do unxz -k -f $v.so.0.xz && mkdir -p $v && cp $v.so.0 $v/libhdml.so.0; done && cd ..
lscpu | head -20 > $OUT/lscpu.txt
b() { python3 bench/cpu/cpu_bench.py --roofline $c/cpu_roofline --threads $1 --rounds 1 "${@:2}"; }
for round in 1 2 3 4; do
  for v in cur new; do
    b $1 --hdml $c/$v/libhdml.so.0 --cases "${2}" | sed "s|^{|{\"lib\": \"$v\", \"round\": $round, |" >> $OUT/xeon-sum4-$1.jsonl
  done
done
