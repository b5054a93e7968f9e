# On the GPU machine's CPU: one library (the float16 chunk threshold added,
# off by default), paired three ways over corpus.json at 2 and 16 threads:
# its defaults (the vector scan for float16 lines past 256), the line walk
# for every float16 line (walk.json), chunks for float16 lines from 512
# (chunks.json). .device-bin holds the library as .xz and cpu_roofline.
set -x
xz -dk -f .device-bin/f16long.so.0.xz
R=bench/results/2026-11-30-cpu-float16-long-lines
L=.device-bin/f16long.so.0
lscpu | grep -E "Model name|^CPU\(s\)|L2|L3"
for t in 2 16; do .device-bin/cpu_roofline --threads $t 2>&1 | tail -2; done > $OUT/roofline.jsonl
for t in 16 2; do
    python3 bench/cpu/lib_ab.py --threads $t --repeats 3 --corpus $R/corpus.json base=$L walk=$L chunks=$L \
        --overlay walk=$R/walk.json --overlay chunks=$R/chunks.json > $OUT/xeon-first-$t.jsonl
    python3 bench/cpu/lib_ab.py --summary $OUT/xeon-first-$t.jsonl
done
cat $OUT/roofline.jsonl
