#!/usr/bin/env bash
# Plots benchmark CSV (op,n,backend,implementation,seconds,GBps) into one PNG with gnuplot.
#
#   bench/plot.sh RESULTS.csv [OUT.png] [--metric both|seconds|gbps] [--title TEXT]
#
# One row of panels per op found in the CSV (dot, gemv, trsv, ...); per row a panel of time
# and/or of GB/s (both log scale) against n on a log2 axis; one line per implementation/backend.
# OUT defaults to RESULTS.png. Needs gnuplot (Debian: gnuplot-nox).
set -euo pipefail

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit "${1:-2}"; }
[ $# -ge 1 ] || usage
case $1 in -h|--help) usage 0 ;; esac
csv=$1; shift
out="${csv%.csv}.png"
if [ $# -ge 1 ] && [ "${1#--}" = "$1" ]; then out=$1; shift; fi
metric=both
title=""
while [ $# -gt 0 ]; do
  case $1 in
    --metric) metric=${2:?}; shift 2 ;;
    --title) title=${2:?}; shift 2 ;;
    -h|--help) usage 0 ;;
    *) usage ;;
  esac
done
case $metric in both|seconds|gbps) ;; *) usage ;; esac
[ -r "$csv" ] || { echo "plot.sh: cannot read $csv" >&2; exit 1; }
command -v gnuplot >/dev/null || { echo "plot.sh: gnuplot not found (apt-get install gnuplot-nox)" >&2; exit 1; }
[ -n "$title" ] || title=$(basename "${csv%.csv}")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One data file per (op, implementation, backend): "n seconds GBps", sorted by n. The series
# list keeps first-seen order so colours stay stable from one run to the next.
awk -F, -v dir="$tmp" '
  NR == 1 || $1 == "op" || NF < 6 { next }
  {
    key = $1 "\t" $4 "/" $3
    if (!(key in seen)) { seen[key] = ++nseries; print key > (dir "/series") }
    f = dir "/s" seen[key] ".dat"
    print $2, $5, $6 >> f
  }
  END { for (k in seen) close(dir "/s" seen[k] ".dat") }' "$csv"
[ -s "$tmp/series" ] || { echo "plot.sh: no data rows in $csv" >&2; exit 1; }
for f in "$tmp"/s*.dat; do sort -n -k1,1 "$f" -o "$f"; done

ops=$(cut -f1 "$tmp/series" | awk '!seen[$0]++')
cut -f2 "$tmp/series" | awk '!seen[$0]++' > "$tmp/labels"
nops=$(echo "$ops" | wc -l)
ncols=2; [ "$metric" = both ] || ncols=1

{
  echo "set terminal pngcairo size $((620 * ncols)),$((470 * nops)) font 'sans,10'"
  echo "set output '$out'"
  echo "set datafile separator ' '"
  echo "set multiplot layout $nops,$ncols title '${title//\'/}' font 'sans,12' noenhanced"
  echo "set logscale x 2"
  echo "set format x '2^{%L}'"
  echo "set grid"
  echo "set key below font 'sans,8' maxrows 3"
  echo "set xlabel 'n'"
  for op in $ops; do
    series=$(awk -F'\t' -v op="$op" '$1 == op { print NR }' "$tmp/series")
    for m in seconds gbps; do
      [ "$metric" = both ] || [ "$metric" = "$m" ] || continue
      if [ "$m" = seconds ]; then
        echo "set logscale y 10; set format y '10^{%L}'; set ylabel 'seconds (median)'"
        echo "set title '$op: time'"
        col=2
      else
        echo "set logscale y 10; set format y '%g'; set ylabel 'GB/s (nominal bytes read)'"
        echo "set title '$op: bandwidth'"
        col=3
      fi
      plot="plot"
      sep=" "
      for s in $series; do
        label=$(sed -n "${s}p" "$tmp/series" | cut -f2)
        color=$(grep -nxF -- "$label" "$tmp/labels" | cut -d: -f1) # one colour per label, all ops
        plot+="$sep'$tmp/s$s.dat' using 1:$col with linespoints lw 2 pt 7 ps 0.6 lc $color title '$label' noenhanced"
        sep=", "
      done
      echo "$plot"
      echo "set autoscale y"
    done
  done
  echo "unset multiplot"
} > "$tmp/plot.gp"

gnuplot "$tmp/plot.gp"
echo "plot.sh: wrote $out"
