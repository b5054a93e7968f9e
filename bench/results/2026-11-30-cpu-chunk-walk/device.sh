# On the GPU machine's CPU (bench/cpu/lib_ab.py through ab.sh): the library
# before the chunk walk (base), with it (new), and with it over the row walk's
# columns too (chunk: an overlay), at 16 and 2 threads. .device-bin holds the
# single-ISA (AVX-512) libraries as .xz and cpu_roofline.
set -x
cd .device-bin && for f in *.xz; do xz -dk -f $f; done; cd ..
R=bench/results/2026-11-30-cpu-chunk-walk
D=.device-bin
lscpu | grep -E "Model name|^CPU\(s\)"
for t in 2 16; do $D/cpu_roofline --threads $t 2>&1 | tail -2; done > $OUT/roofline.jsonl
CORPUS=$R/corpus.json REPEATS=3 bash $R/../2026-11-30-cpu-row-walk-prefetch/ab.sh 16 2 -- base=$D/base.so.0 new=$D/new.so.0 chunk=$D/new.so.0 \
    --overlay chunk=$R/chunk-everywhere.json > $OUT/xeon.jsonl
python3 bench/cpu/lib_ab.py --summary $OUT/xeon.jsonl
cat $OUT/roofline.jsonl
