# On the GPU machine's CPU: float16 lines in chunks. The library before the
# float16 walks (base: f8c77c4's kernels) against the one with the walk and
# its chunks (chunks), single-ISA AVX-512 builds, paired at 16 and 2 threads on
# chunks-corpus.json (1-D float16 scans of 4 KiB to 256 MiB, 4 lines of 64 MiB),
# then the float16 cases against PyTorch 2.11 (peer-chunks-corpus.json).
set -x
cd .device-bin && for f in p3 f16chunks; do xz -dk -f $f.so.0.xz; done; cd ..
R=bench/results/2026-11-30-cpu-float16-line-walk
D=.device-bin
CORPUS=$R/chunks-corpus.json REPEATS=3 bash $R/../2026-11-30-cpu-row-walk-prefetch/ab.sh 16 2 -- base=$D/p3.so.0 \
    chunks=$D/f16chunks.so.0 > $OUT/xeon-chunks.jsonl
python3 bench/cpu/lib_ab.py --summary $OUT/xeon-chunks.jsonl
for t in 16 2; do
    python3 bench/cpu/cpu_bench.py --hdml $D/f16chunks.so.0 --roofline $D/cpu_roofline --threads $t \
        --corpus $R/peer-chunks-corpus.json --rounds 2 > $OUT/xeon-peer-chunks-$t.jsonl
    python3 bench/cpu/table.py $OUT/xeon-peer-chunks-$t.jsonl
done
