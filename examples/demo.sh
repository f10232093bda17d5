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

echo
echo "2. linear system A x = b, n = 64, cond(A) = 1e14: x_true = small integers, b = RN(A x_true)"
echo "   (exact gemv: one rounding per entry), solved by the exact LU and by plain double LU:"
"$exstar" gen matrix --n 64 --cond 1e14 --seed 3 -o "$work/A.mtx" > /dev/null
{ echo '%%MatrixMarket matrix array real general'; echo '64 1'
  for ((i = 0; i < 64; i++)); do echo $(((i * 7) % 11 - 5)); done; } > "$work/x_true.mtx"
"$exstar" gemv "$work/A.mtx" "$work/x_true.mtx" -o "$work/b.mtx"
sha() { sha256sum < "$1" | cut -c1-16; }
# relerr X REF: max_i |x_i - ref_i| / max_i |ref_i| (awk doubles: enough for an error estimate)
relerr() {
  awk 'FNR <= 2 || /^%/ { next } FNR == NR { r[FNR] = $1; next }
       { d = $1 - r[FNR]; if (d < 0) d = -d; if (d > e) e = d; a = r[FNR]; if (a < 0) a = -a; if (a > m) m = a }
       END { printf "%.1e", e / m }' "$2" "$1"
}
first="" same=1
for b in "${backends[@]}"; do
  if "$exstar" gesv "$work/A.mtx" "$work/b.mtx" -o "$work/x_$b.mtx" --backend "$b" &&
     "$exstar" gesv "$work/A.mtx" "$work/b.mtx" -o "$work/xr_$b.mtx" --refine 3 --backend "$b"; then
    r="$(sha "$work/x_$b.mtx")   --refine 3: $(sha "$work/xr_$b.mtx")"
    printf '  %-7s solution sha256 %s\n' "$b" "$r"
    [ -z "$first" ] && first=$r
    [ "$r" = "$first" ] || same=0
  else
    echo "  $b: failed"; same=0
  fi
done
[ $same = 1 ] && echo "  -> identical bits on ${#backends[@]} back end(s)" || echo "  -> DIFFERENT"
# x*: the solution of A x = b (b as rounded) to about one ulp per entry: refinement with exact
# residuals (the refinement's fixed point, up to last-bit oscillation of a few entries).
"$exstar" gesv "$work/A.mtx" "$work/b.mtx" -o "$work/x5.mtx" --refine 5
"$exstar" gesv "$work/A.mtx" "$work/b.mtx" -o "$work/x6.mtx" --refine 6
"$exstar" gesv "$work/A.mtx" "$work/b.mtx" -o "$work/x_plain.mtx" --plain 2> /dev/null
b=${backends[0]}
printf '  %-30s %-12s %s\n' "max relative error of" "vs x*" "vs x_true"
printf '  %-30s %-12s %s\n' "plain double LU (--plain)" "$(relerr "$work/x_plain.mtx" "$work/x6.mtx")" \
  "$(relerr "$work/x_plain.mtx" "$work/x_true.mtx")"
printf '  %-30s %-12s %s\n' "exact LU" "$(relerr "$work/x_$b.mtx" "$work/x6.mtx")" \
  "$(relerr "$work/x_$b.mtx" "$work/x_true.mtx")"
printf '  %-30s %-12s %s\n' "exact LU, --refine 3" "$(relerr "$work/xr_$b.mtx" "$work/x6.mtx")" \
  "$(relerr "$work/xr_$b.mtx" "$work/x_true.mtx")"
echo "  x* = exstar gesv --refine 6: the exact residual makes refinement converge to about one ulp"
echo "  per entry (steps 5 and 6 differ by $(relerr "$work/x5.mtx" "$work/x6.mtx")). x* differs from x_true by"
echo "  $(relerr "$work/x6.mtx" "$work/x_true.mtx") because b was rounded once (up to cond(A) x 1e-16): the limit of any solver in double."
