# On the GPU machine's CPU: the library before the float16 outer chunk walk
# (base: e0fff4c, single-ISA AVX-512) and with it (new), paired at 16 and 2
# threads over corpus.json; then new against PyTorch on peer-corpus.json.
# .device-bin holds the libraries as .xz and cpu_roofline.
set -x
for f in f16def f16outer; do xz -dk -f .device-bin/$f.so.0.xz; done
R=bench/results/2026-11-30-cpu-float16-outer-chunk-walk
for t in 2 16; do .device-bin/cpu_roofline --threads $t 2>&1 | tail -2; done > $OUT/roofline.jsonl
for t in 16 2; do
    python3 bench/cpu/lib_ab.py --threads $t --repeats 3 --corpus $R/corpus.json base=.device-bin/f16def.so.0 \
        new=.device-bin/f16outer.so.0 > $OUT/xeon-$t.jsonl
    python3 bench/cpu/lib_ab.py --summary $OUT/xeon-$t.jsonl
done
for t in 16 2; do
    python3 bench/cpu/cpu_bench.py --hdml .device-bin/f16outer.so.0 --roofline .device-bin/cpu_roofline --threads $t \
        --corpus $R/peer-corpus.json --rounds 2 > $OUT/xeon-peer-$t.jsonl
    python3 bench/cpu/table.py $OUT/xeon-peer-$t.jsonl
done
