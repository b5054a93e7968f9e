#!/bin/bash
# ab_gbench.sh OUTDIR FILTER ROUNDS LIB...: a Google Benchmark executable (BENCH, default build/bench/reduce_bench)
# run ROUNDS times, alternating libraries (each $LIBDIR/LIB/libhdml.so.0, default /tmp/libs, through LD_LIBRARY_PATH); prints
# each benchmark's GB/s per round and the last library's median over the first's.
out=$1; filter=$2; rounds=$3; shift 3; bench=${BENCH:-build/bench/reduce_bench}; libs=${LIBDIR:-/tmp/libs}
mkdir -p $out
for r in $(seq $rounds); do
  for lib in "$@"; do
    LD_LIBRARY_PATH=$libs/$lib $bench --benchmark_filter="$filter" --benchmark_format=json 2>/dev/null > $out/$lib-$r.json
  done
done
python3 - "$out" "$@" <<'PY'
import json,sys,glob,collections
out=sys.argv[1]; libs=sys.argv[2:]
d=collections.defaultdict(lambda: collections.defaultdict(list))
for lib in libs:
    for f in sorted(glob.glob(f"{out}/{lib}-*.json")):
        for b in json.load(open(f))["benchmarks"]:
            d[b["name"]][lib].append(b.get("bytes_per_second",0)/1e9)
for n in d:
    v=d[n]; med={k:sorted(x)[len(x)//2] for k,x in v.items()}
    print(f"{n[:60]:60s}", "  ".join(f"{k}: "+" ".join(f"{x:5.1f}" for x in v[k]) for k in libs), "  %s/%s %.2f"%(libs[-1],libs[0],med[libs[-1]]/med[libs[0]]) if med.get(libs[0]) else "")
PY
