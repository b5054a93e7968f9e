set -x
cd .device-bin && for f in *.xz; do xz -dk -f $f; done; cd ..
R=bench/results/2026-11-30-cpu-row-walk-prefetch
D=.device-bin
lscpu | grep -E "Model name|^CPU\(s\)"
python3 -c "import torch; print(torch.__version__)"
for t in 2 16; do HL_NUM_THREADS=$t $D/cpu_roofline --threads $t 2>&1 | tail -2; done > $OUT/roofline.jsonl
REPEATS=3 bash $R/ab.sh 2 16 -- before=$D/nopf.so.0 after=$D/def.so.0 > $OUT/xeon-def.jsonl
REPEATS=3 bash $R/ab.sh 16 2 -- before=$D/x64n.so.0 after=$D/x64.so.0 far=$D/x64f8.so.0 > $OUT/xeon-x64.jsonl
g++ -O2 -std=c++20 -mavx512f -o /tmp/cw $D/cw.cpp -lpthread && /tmp/cw 65536 1024 16 64 > $OUT/model.txt; /tmp/cw 65536 1024 2 64 >> $OUT/model.txt
python3 bench/cpu/lib_ab.py --summary $OUT/xeon-def.jsonl $OUT/xeon-x64.jsonl
cat $OUT/model.txt $OUT/roofline.jsonl
