#!/bin/bash
# cpu_bench.py on the GPU machine's CPU, run through the device tool over a copy of the tree. The machine has no
# Halide: BIN (default .device-bin, git-ignored, passed in `carry`) holds cpu_roofline and each library as
# <name>.so.0.xz, built here. Output lines go to $OUT (the tool's folder); PYTHON (default python3) must import torch.
#
#   bench/cpu/device_run.sh table   LIB (default new) over the whole corpus, ROUNDS rounds at each thread count
#                                   of THREADS: $OUT/xeon-table-<threads>.jsonl, for bench/cpu/table.py; SCALE=K
#                                   runs the cases and rooflines K times larger (cpu_bench.py --scale):
#                                   $OUT/xeon-table-<threads>-x<K>.jsonl
#   bench/cpu/device_run.sh ab      the libraries LIBS (default "def new") alternated ROUNDS times over the cases
#                                   CASES, one round each in turn: $OUT/ab-<threads>.jsonl, each line tagged with
#                                   its library and round (which library runs second can lose at 16 threads:
#                                   alternate the order too)
#   bench/cpu/device_run.sh pairs   the libraries LIBS (default "def new", the baseline first) paired by
#                                   bench/cpu/lib_ab.py, REPEATS (default 3) times over the cases CASES (a regex)
#                                   of CORPUS (default bench/cpu/corpus.json), at each thread count of THREADS:
#                                   $OUT/pairs-<threads>.jsonl, its summary on stdout. An entry NAME=LIB runs
#                                   LIB's library under another name (def2=def: the baseline against itself);
#                                   OVERLAYS ("NAME=FILE ...") runs NAME with that dispatch overlay
set -u
mode=${1:?usage: device_run.sh table|ab|pairs}
bin=$(cd "${BIN:-.device-bin}" && pwd)
threads=${THREADS:-16 2}
rounds=${ROUNDS:-3}
bench() {  # library, threads, rounds, extra arguments
    ${PYTHON:-python3} bench/cpu/cpu_bench.py --hdml "$bin/$1.so.0" --roofline "$bin/cpu_roofline" --threads "$2" \
        --rounds "$3" ${SCALE:+--scale "$SCALE"} "${@:4}" 2>>"$OUT/bench.err"
}
start=$(date +%s)
case $mode in
table)
    lib=${LIB:-new}
    xz -dkf "$bin/$lib.so.0.xz"
    for t in $threads; do
        bench "$lib" "$t" "$rounds" > "$OUT/xeon-table-$t${SCALE:+-x$SCALE}.jsonl"
        echo "threads $t done $(( $(date +%s) - start )) s"
    done ;;
ab)
    libs=${LIBS:-def new}
    for lib in $libs; do xz -dkf "$bin/$lib.so.0.xz"; done
    for r in $(seq "$rounds"); do
        for t in $threads; do
            for lib in $libs; do
                bench "$lib" "$t" 1 --cases "${CASES:?CASES: a regex of corpus cases}" |
                    sed "s/^{/{\"lib\":\"$lib\",\"round\":$r,/" >> "$OUT/ab-$t.jsonl"
            done
        done
        echo "round $r done $(( $(date +%s) - start )) s"
    done ;;
pairs)
    named=()
    for entry in ${LIBS:-def new}; do
        name=${entry%%=*} lib=${entry#*=}
        xz -dkf "$bin/$lib.so.0.xz"
        named+=("$name=$bin/$lib.so.0")
    done
    overlays=()
    for entry in ${OVERLAYS:-}; do overlays+=(--overlay "$entry"); done
    for t in $threads; do
        ${PYTHON:-python3} bench/cpu/lib_ab.py --threads "$t" --repeats "${REPEATS:-3}" \
            --corpus "${CORPUS:-bench/cpu/corpus.json}" --cases "${CASES:-.}" "${named[@]}" "${overlays[@]}" \
            > "$OUT/pairs-$t.jsonl" 2>>"$OUT/bench.err"
        ${PYTHON:-python3} bench/cpu/lib_ab.py --summary "$OUT/pairs-$t.jsonl"
        echo "threads $t done $(( $(date +%s) - start )) s"
    done ;;
*) echo "device_run.sh: mode is table, ab or pairs, not '$mode'" >&2; exit 2 ;;
esac
