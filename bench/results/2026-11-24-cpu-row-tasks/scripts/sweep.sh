#!/usr/bin/env bash
d=$(realpath "$1"); out=$2
xz -dkf "$d/new/libhdml.so.0.xz"
for round in 1 2; do for pool in hdml halide; do for t in 4 8 12 14 16; do
  HDML_THREAD_POOL=$pool LD_LIBRARY_PATH=$d/new HL_NUM_THREADS=$t "$d/hdml-tune-bench" "$d/sweep-corpus.json" --repeats 3 --min-seconds 0.1 |
    sed "s|^|{\"pool\": \"$pool\", \"round\": $round, \"threads\": $t, \"r\": |; s|$|}|" >> "$out/sweep.jsonl"
done; done; done
