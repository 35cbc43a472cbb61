#!/usr/bin/env bash
# compile-times.sh - cold compiles (no cache) of every tutorial kernel to a
# loadable binary with `tessera compile --emit bin`, timed one by one: the
# compile commands of runtime/test/cpu/*.test, on the backend given
# (default cpu). Prints the wall time of each and the median.
# Usage: bench/compile-times.sh [BACKEND]   (from a built tree)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
tessera="${TESSERA_BUILD_DIR:-$root/build}/bin/tessera"
backend="${1:-cpu}"
times=()
while IFS= read -r line; do
  cmd="${line#*RUN: }"
  cmd="${cmd//%conformance_kernels/$root/conformance/kernels}"
  cmd="${cmd/tessera compile/$tessera compile}"
  cmd="${cmd/--backend cpu/--backend $backend}"
  cmd="${cmd%%| FileCheck*}"
  kernel=$(sed -E 's/.*--kernel ([^ ]+).*/\1/' <<<"$cmd")
  start=$(date +%s.%N)
  eval "$cmd" > /dev/null
  end=$(date +%s.%N)
  t=$(echo "$end - $start" | bc)
  times+=("$t")
  printf '%-45s %6.3f s\n' "$(basename "$(sed -E 's/.*kernels\/([^ ]+).*/\1/' <<<"$cmd")") $kernel" "$t"
done < <(cat "$root"/runtime/test/cpu/*.test | sed -e ':a' -e '/\\$/N; s/\\\n# RUN: *//; ta' |
         grep -E '^# RUN: tessera compile .*--emit bin')
printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "median of %d kernels: %.3f s\n", NR, a[int((NR+1)/2)]}'
