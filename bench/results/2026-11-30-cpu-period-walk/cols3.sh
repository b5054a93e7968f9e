# On the GPU machine's CPU: 3 packed columns, the period walk with period 3
# (p3) against the library before it (before: the chunk walk there), paired at
# 16 and 2 threads; then p3 against PyTorch.
set -x
cd .device-bin && for f in final p3; do xz -dk -f $f.so.0.xz; done; cd ..
R=bench/results/2026-11-30-cpu-period-walk
D=.device-bin
CORPUS=$R/cols3-corpus.json REPEATS=3 bash $R/../2026-11-30-cpu-row-walk-prefetch/ab.sh 16 2 -- \
    before=$D/final.so.0 p3=$D/p3.so.0 > $OUT/cols3-xeon.jsonl
python3 bench/cpu/lib_ab.py --summary $OUT/cols3-xeon.jsonl
for t in 16 2; do
    python3 bench/cpu/cpu_bench.py --hdml $D/p3.so.0 --roofline $D/cpu_roofline --threads $t --corpus $R/cols3-corpus.json \
        --rounds 2 > $OUT/cols3-xeon-peer-$t.jsonl
    python3 bench/cpu/table.py $OUT/cols3-xeon-peer-$t.jsonl
done
