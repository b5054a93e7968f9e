#!/usr/bin/env bash
# Checks that every kernel library the manifest lists for the given platforms
# was generated in the build dir: check-kernels.sh <build-dir> <platform>...
set -euo pipefail
build="$1"
shift
status=0
for platform in "$@"; do
    list="$build/generated/hdml/kernels_${platform}.h"
    [ -f "$list" ] || { echo "missing kernel list $list"; exit 1; }
    count=0
    for name in $(sed -n 's/^#include "\(.*\)\.h"$/\1/p' "$list"); do
        found=""
        for file in "$build/$name.a" "$build/lib$name.a" "$build/$name.lib"; do
            [ -s "$file" ] && found="$file"
        done
        if [ -z "$found" ]; then
            echo "missing static library for $name ($platform)"
            status=1
        fi
        count=$((count + 1))
    done
    runtime=""
    for file in "$build"/*anchor*.runtime.a "$build"/*anchor*.runtime.lib; do
        [ -s "$file" ] && runtime="$file"
    done
    [ -n "$runtime" ] || { echo "missing Halide runtime for $platform"; status=1; }
    echo "$platform: $count kernel libraries present"
done
exit $status
