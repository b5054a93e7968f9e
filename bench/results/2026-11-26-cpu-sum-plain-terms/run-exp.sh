#!/bin/bash
# 2026-11-26 experiments at $1 threads: SUM without the sign tuple / without the function selects
# (notuple, noselect: measuring only, wrong -0), outer tile 2048 (tile), copy run rows (overlays run*.json).
set -u
c=.device-bin
cd $c && for v in cur notuple noselect tile; do unxz -k -f $v.so.0.xz && mkdir -p $v && cp $v.so.0 $v/libhdml.so.0; done && cd ..
lscpu | head -20 > $OUT/lscpu.txt
b() { python3 bench/cpu/cpu_bench.py --roofline $c/cpu_roofline --threads $1 --rounds 1 "${@:2}"; }
for round in 1 2; do
  for v in cur notuple noselect; do
    b $1 --hdml $c/$v/libhdml.so.0 --cases 'reduce/(sum|max)/f32/(inner|outer|all|rows64)' | sed "s|^{|{\"lib\": \"$v\", \"round\": $round, |" >> $OUT/xeon-sum-$1.jsonl
  done
  for v in cur tile; do
    b $1 --hdml $c/$v/libhdml.so.0 --cases 'reduce/(sum|max)/f(32|16)/outer' | sed "s|^{|{\"lib\": \"$v\", \"round\": $round, |" >> $OUT/xeon-tile-$1.jsonl
  done
  for v in 262144 65536 16384; do
    HDML_DISPATCH_X86=$c/run$v.json b $1 --hdml $c/cur/libhdml.so.0 --cases '(split|join)/f32/axis0' | sed "s|^{|{\"lib\": \"$v\", \"round\": $round, |" >> $OUT/xeon-run-$1.jsonl
  done
done
