#!/usr/bin/env bash
# exstar demo: the same ill-conditioned problems on every back end present.
# Usage: examples/demo.sh PATH/TO/exstar
set -uo pipefail
exstar=${1:?usage: demo.sh PATH/TO/exstar}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export STARPU_SILENT=1

backends=()
for b in cpu opencl cuda; do
  "$exstar" sum --backend "$b" <(printf '%s\n' '%%MatrixMarket matrix array real general' '1 1' '1') \
    > /dev/null 2>&1 && backends+=("$b")
done
echo "back ends present: ${backends[*]}"

show() { # label, command...: runs it on every back end, prints the results and whether they agree
  local label=$1; shift
  local first="" same=1
  for b in "${backends[@]}"; do
    local r
    r=$("$@" --backend "$b" --hex 2>&1) || { echo "  $b: failed: $r"; same=0; continue; }
    printf '  %-7s %s\n' "$b" "$r"
    [ -z "$first" ] && first=$r
    [ "$r" = "$first" ] || same=0
  done
  [ $same = 1 ] && echo "  -> identical bits on ${#backends[@]} back end(s)" || echo "  -> DIFFERENT"
}

echo
echo "1. dot product with condition number 1e30 (n = 10000):"
"$exstar" gen vector --n 10000 --cond 1e30 --seed 7 -o "$work/x.mtx" -o2 "$work/y.mtx" | sed 's/^/  gen: /'
show "exact dot" "$exstar" dot "$work/x.mtx" "$work/y.mtx"
printf '  %-7s %s\n' "plain" "$("$exstar" dot "$work/x.mtx" "$work/y.mtx" --plain --hex 2>/dev/null)"

gesv_probe=$("$exstar" gesv 2>&1 || true)
if [[ $gesv_probe != *"not available"* ]]; then
  echo
  echo "2. linear system with condition number about 1e14 (n = 64), exact LU vs plain double:"
  "$exstar" gen matrix --n 64 --cond 1e14 --seed 3 -o "$work/A.mtx" > /dev/null
  "$exstar" gen vector --n 64 --seed 4 -o "$work/b.mtx" -o2 "$work/unused.mtx" > /dev/null
  for b in "${backends[@]}"; do
    "$exstar" gesv "$work/A.mtx" "$work/b.mtx" -o "$work/x_$b.mtx" --backend "$b" && sha=$(sha256sum < "$work/x_$b.mtx" | cut -c1-16)
    printf '  %-7s solution file sha256 %s\n' "$b" "$sha"
  done
  "$exstar" gesv "$work/A.mtx" "$work/b.mtx" -o "$work/x_plain.mtx" --plain 2>/dev/null &&
    printf '  %-7s solution file sha256 %s\n' plain "$(sha256sum < "$work/x_plain.mtx" | cut -c1-16)"
fi
