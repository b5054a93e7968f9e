#!/usr/bin/env bash
# 16-core CPU: hdml rows=whole vs the plain kernel (overlay), 2 and 16 threads, then PyTorch.
# Run from a packed bin dir (tools/gpu-check.sh --pack build .device-bin, plus
# build/tools/tune/hdml-tune-bench) with this folder copied to <bin>/rows.
set -u
bin=$(realpath "$(dirname "$0")/..")
export LD_LIBRARY_PATH=$bin
lscpu | grep -E "Model name|^CPU\(s\)"
for t in 2 16; do
  for mode in whole plain; do
    ov=""; [[ $mode == plain ]] && ov=$bin/rows/plain.json
    HL_NUM_THREADS=$t HDML_DISPATCH_X86=$ov "$bin/hdml-tune-bench" "$bin/rows/corpus.json" --repeats 3 --min-seconds 0.2 | sed "s/^/{\"threads\": $t, \"mode\": \"$mode\", \"r\": /; s/$/}/"
  done
done
python3 "$bin/rows/torch_rows.py" "$bin/rows/corpus.json"
