#!/bin/bash
# rows=vectors against the previous choice (overlay novec: rows=whole or plain), one library, alternated; $1 threads.
set -u
c=.device-bin
cd $c && unxz -k -f vec.so.0.xz && mkdir -p vec && cp vec.so.0 vec/libhdml.so.0 && cd ..
lscpu | head -20 > $OUT/lscpu.txt
for round in 1 2; do for v in novec vec; do
  HDML_DISPATCH_X86=$c/ov-$v.json python3 bench/cpu/cpu_bench.py --hdml $c/vec/libhdml.so.0 --roofline $c/cpu_roofline --threads $1 --rounds 1 \
      --corpus $c/rows-corpus2.json --cases "${2:-.}" | sed "s|^{|{\"lib\": \"$v\", \"round\": $round, |" >> $OUT/xeon-vectors-$1.jsonl
done; done
