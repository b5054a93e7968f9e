#!/usr/bin/env bash
# On the GPU machine (`run.sh OUT`, from the repository root, binaries in .device-bin):
# the CUDA split/join suites, align.py with the rows' heads apart (copy_sector_min_bytes
# as built) and not (0), and gpu_bench.py's SPLIT/JOIN cases both ways, two rounds interleaved.
set -u
OUT=$1
RES=$(mktemp -d)
source bench/results/2026-11-28-gpu-join-parts/suites.sh
echo '{"dispatch": {"copy_sector_min_bytes": 0}}' > /tmp/off.json
lib=.device-bin/libhdml.so.0
python3 bench/results/2026-11-28-gpu-join-alignment/align.py $lib | tee "$RES/align_on.md"
HDML_DISPATCH_CUDA=/tmp/off.json python3 bench/results/2026-11-28-gpu-join-alignment/align.py $lib | tee "$RES/align_off.md"
for round in 1 2; do
    python3 bench/cuda/gpu_bench.py --hdml $lib --only "SPLIT|JOIN" --json "$RES/join_on_$round.json" > /dev/null 2>&1
    HDML_DISPATCH_CUDA=/tmp/off.json python3 bench/cuda/gpu_bench.py --hdml $lib --only "SPLIT|JOIN" --json "$RES/join_off_$round.json" > /dev/null 2>&1
done
python3 bench/results/2026-11-28-gpu-join-parts/compare.py "$RES"
nvidia-smi --query-gpu=name --format=csv,noheader > "$RES/gpu.txt"
tar -C "$RES" -czf "$OUT/results.tgz" .
