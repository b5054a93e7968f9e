#!/bin/bash
# As built: .device-bin/blocks.so.0.xz (copy_pieces_block_bytes_per_thread 65536 on x86) paired against
# new.so.0.xz (a4d275e, before the rule), twice named for the floor, over copies-sizes.json and the corpus's
# SPLIT/JOIN at 16 and 2 threads of the GPU machine's Xeon. Output: $OUT/asbuilt-{sizes,corpus}-<threads>.jsonl.
set -eu
here=bench/results/2026-11-30-cpu-dispatch-sweep
bin=$(cd .device-bin && pwd)
for lib in new blocks; do xz -dkf "$bin/$lib.so.0.xz"; done
for t in ${THREADS:-16 2}; do
    for corpus in sizes corpus; do
        if [ $corpus = sizes ]; then args=(--corpus $here/copies-sizes.json); else args=(--cases '^(split|join)/'); fi
        python3 bench/cpu/lib_ab.py --threads "$t" --repeats "${REPEATS:-3}" "${args[@]}" \
            def="$bin/new.so.0" def2="$bin/new.so.0" new="$bin/blocks.so.0" \
            > "$OUT/asbuilt-$corpus-$t.jsonl" 2>>"$OUT/bench.err"
        python3 bench/cpu/lib_ab.py --summary "$OUT/asbuilt-$corpus-$t.jsonl"
    done
done
