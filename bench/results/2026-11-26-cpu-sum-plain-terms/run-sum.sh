#!/bin/bash
# 2026-11-26: float SUM specialised on element_map == 0 (new) against the build before it (cur), $1 threads;
# at 2 threads also the copy run rows (overlays run*.json) of SPLIT/JOIN along axis 0.
set -u
c=.device-bin
cd $c && for v in cur new; do unxz -k -f $v.so.0.xz && mkdir -p $v && cp $v.so.0 $v/libhdml.so.0; done && cd ..
lscpu | head -20 > $OUT/lscpu.txt
b() { python3 bench/cpu/cpu_bench.py --roofline $c/cpu_roofline --threads $1 --rounds 1 "${@:2}"; }
for round in 1 2; do
  for v in cur new; do
    b $1 --hdml $c/$v/libhdml.so.0 --cases 'reduce/sum/f(32|16)/(inner|outer|all|rows16|rows64)' | sed "s|^{|{\"lib\": \"$v\", \"round\": $round, |" >> $OUT/xeon-sum-$1.jsonl
  done
  if [ $1 = 2 ]; then for v in 262144 65536; do
    HDML_DISPATCH_X86=$c/run$v.json b $1 --hdml $c/new/libhdml.so.0 --cases '(split|join)/f32/axis0' | sed "s|^{|{\"lib\": \"$v\", \"round\": $round, |" >> $OUT/xeon-run-$1.jsonl
  done; fi
done
