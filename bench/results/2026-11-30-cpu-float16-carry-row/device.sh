# On the GPU machine's CPU: the library before float16's carry-row walk (base:
# 384d8ad's kernels, x86 single-ISA AVX-512) and with it (new), paired at 16 and
# 2 threads over corpus.json (its float32 cases a control: the own-width row walk
# is unchanged); then new against PyTorch on peer-corpus.json. .device-bin holds
# the libraries as .xz and cpu_roofline. Earlier builds, same script shape:
# first/ (carry rows not aligned to cache lines: tasks sharing a line at every
# row), aligned/ (aligned; `new128`: 128 columns per thread as an overlay),
# vector-first/ (every row walk's vectors before its blocks, float32's too;
# `new32`: the float16 walk from 32 columns per thread).
set -x
for f in crbase crnew; do xz -dk -f .device-bin/$f.so.0.xz; done
R=bench/results/2026-11-30-cpu-float16-carry-row
for t in 2 16; do .device-bin/cpu_roofline --threads $t 2>&1 | tail -2; done > $OUT/roofline.jsonl
for t in 16 2; do
    python3 bench/cpu/lib_ab.py --threads $t --repeats 3 --corpus $R/corpus.json base=.device-bin/crbase.so.0 \
        new=.device-bin/crnew.so.0 > $OUT/xeon-$t.jsonl
    python3 bench/cpu/lib_ab.py --summary $OUT/xeon-$t.jsonl
done
for t in 16 2; do
    python3 bench/cpu/cpu_bench.py --hdml .device-bin/crnew.so.0 --roofline .device-bin/cpu_roofline --threads $t \
        --corpus $R/peer-corpus.json --rounds 2 > $OUT/xeon-peer-$t.jsonl
    python3 bench/cpu/table.py $OUT/xeon-peer-$t.jsonl
done
