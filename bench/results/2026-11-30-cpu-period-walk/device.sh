# On the GPU machine's CPU: the library before the period walk (base, 4679565),
# with it (new), and with it but no line walked in chunks (whole: an overlay),
# paired at 16 and 2 threads (bench/cpu/lib_ab.py through ab.sh); then the new
# library against PyTorch (bench/cpu/cpu_bench.py). .device-bin holds the
# single-ISA (AVX-512) libraries as .xz and cpu_roofline.
set -x
cd .device-bin && for f in base2 period; do xz -dk -f $f.so.0.xz; done; cd ..
R=bench/results/2026-11-30-cpu-period-walk
D=.device-bin
lscpu | grep -E "Model name|^CPU\(s\)"
for t in 2 16; do $D/cpu_roofline --threads $t 2>&1 | tail -2; done > $OUT/roofline.jsonl
CORPUS=$R/corpus.json REPEATS=3 bash $R/../2026-11-30-cpu-row-walk-prefetch/ab.sh 16 2 -- base=$D/base2.so.0 \
    new=$D/period.so.0 whole=$D/period.so.0 --overlay whole=$R/no-chunks.json > $OUT/xeon.jsonl
python3 bench/cpu/lib_ab.py --summary $OUT/xeon.jsonl
for t in 16 2; do
    python3 bench/cpu/cpu_bench.py --hdml $D/period.so.0 --roofline $D/cpu_roofline --threads $t --corpus $R/corpus.json \
        --rounds 2 > $OUT/xeon-peer-$t.jsonl
    python3 bench/cpu/table.py $OUT/xeon-peer-$t.jsonl
done
cat $OUT/roofline.jsonl
