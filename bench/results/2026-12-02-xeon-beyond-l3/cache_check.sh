#!/bin/bash
# Is the Xeon's 256 MiB roofline (and hdml's 256 MiB cases) helped by its 300 MiB L3? Rooflines at 256 MiB-4 GiB
# and the same cases at 256 MiB and 1 GiB, 16 and 2 threads.
bin=$(cd .device-bin && pwd)
xz -dkf "$bin/new.so.0.xz"
lscpu > "$OUT/lscpu.txt"; nproc >> "$OUT/lscpu.txt"
for t in 16 2; do
  for m in 256 512 1024 4096; do "$bin/cpu_roofline" --threads $t --mib $m --repeats 3; done > "$OUT/roof-$t.jsonl"
  python3 bench/cpu/cpu_bench.py --hdml "$bin/new.so.0" --roofline "$bin/cpu_roofline" --threads $t --rounds 2 \
      --corpus "$bin/corpus-mix.json" > "$OUT/mix-$t.jsonl" 2>> "$OUT/bench.err"
  echo "threads $t done $SECONDS s"
done
