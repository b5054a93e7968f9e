# On the GPU machine's CPU: the library before the float16 period walk
# (base: f8e13ef's kernels, single-ISA AVX-512: float16 outer scans in the
# chunk walk) and with it (new), paired at 16 and 2 threads over corpus.json;
# then new against PyTorch on peer-corpus.json.
set -x
for f in f16outer f16period; do xz -dk -f .device-bin/$f.so.0.xz; done
R=bench/results/2026-11-30-cpu-float16-period-walk
for t in 2 16; do .device-bin/cpu_roofline --threads $t 2>&1 | tail -2; done > $OUT/roofline.jsonl
for t in 16 2; do
    python3 bench/cpu/lib_ab.py --threads $t --repeats 3 --corpus $R/corpus.json base=.device-bin/f16outer.so.0 \
        new=.device-bin/f16period.so.0 > $OUT/xeon-$t.jsonl
    python3 bench/cpu/lib_ab.py --summary $OUT/xeon-$t.jsonl
done
for t in 16 2; do
    python3 bench/cpu/cpu_bench.py --hdml .device-bin/f16period.so.0 --roofline .device-bin/cpu_roofline --threads $t \
        --corpus $R/peer-corpus.json --rounds 2 > $OUT/xeon-peer-$t.jsonl
    python3 bench/cpu/table.py $OUT/xeon-peer-$t.jsonl
done
