# On the GPU machine's CPU: the library before the float16 line walk (base:
# f8c77c4's kernels, 84c835e's code) and with it (new), single-ISA AVX-512
# builds, paired at 16 and 2 threads (bench/cpu/lib_ab.py through ab.sh) on
# corpus.json; then the new library against PyTorch (bench/cpu/cpu_bench.py)
# on peer-corpus.json. .device-bin holds the libraries as .xz and cpu_roofline.
set -x
cd .device-bin && for f in p3 f16walk; do xz -dk -f $f.so.0.xz; done; cd ..
R=bench/results/2026-11-30-cpu-float16-line-walk
D=.device-bin
lscpu | grep -E "Model name|^CPU\(s\)"
for t in 2 16; do $D/cpu_roofline --threads $t 2>&1 | tail -2; done > $OUT/roofline.jsonl
CORPUS=$R/corpus.json REPEATS=3 bash $R/../2026-11-30-cpu-row-walk-prefetch/ab.sh 16 2 -- base=$D/p3.so.0 \
    new=$D/f16walk.so.0 > $OUT/xeon.jsonl
python3 bench/cpu/lib_ab.py --summary $OUT/xeon.jsonl
for t in 16 2; do
    python3 bench/cpu/cpu_bench.py --hdml $D/f16walk.so.0 --roofline $D/cpu_roofline --threads $t \
        --corpus $R/peer-corpus.json --rounds 2 > $OUT/xeon-peer-$t.jsonl
    python3 bench/cpu/table.py $OUT/xeon-peer-$t.jsonl
done
cat $OUT/roofline.jsonl
