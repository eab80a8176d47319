#!/usr/bin/env bash
# Instructions and allocations per call of bm_function's call benchmarks, from callgrind (the
# load does not change them): runs build/bench/instr_function under callgrind with collection
# off except around each case's measured calls, one dump per case.
#   bench/function_instructions.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
bin=$build/bench/instr_function
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file="$dir/cg.out" "$bin" \
  2>"$dir/valgrind.log" | tee "$dir/allocs.txt"
for f in "$dir"/cg.out.*; do
  name=$(sed -n 's/^desc: Trigger: Client Request: //p' "$f")
  total=$(sed -n 's/^totals: //p' "$f" | awk '{print $1}')
  calls=$(awk -v n="$name" '$1 == n {print $(NF-1)}' "$dir/allocs.txt" | tr -d '(')
  [ -n "$name" ] && [ -n "$calls" ] &&
    awk -v n="$name" -v t="$total" -v c="$calls" 'BEGIN {printf "%-28s %8.0f instructions per call\n", n, t / c}'
done
