#!/usr/bin/env bash
set -uo pipefail
root=$PWD; dir=.gpu; out=$OUT/r4; mkdir -p $out/x
. scripts/gpu-env.sh >/dev/null 2>&1
T=$root/$dir/build/tests/kernels_cuda/test_cuda_lu_tiled
x=$out/x; t0=$(date +%s)
CU=/usr/local/cuda/bin
EXSTAR_CUDA_PANEL_BLOCKS=44 EXSTAR_LU_TIME="16384 1024" timeout 250 $CU/ncu --metrics gpu__time_duration.sum --launch-count 120 --csv $T "[.time]" > $x/ncu16.csv 2> $x/ncu16.err
echo "ncu rc $? $(( $(date +%s)-t0 ))s"; tail -2 $x/ncu16.err
python3 - $x/ncu16.csv <<'PY' > $x/sum16.txt 2>&1
import csv, sys, collections
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
h = rows[0]; ki = h.index("Kernel Name"); vi = h.index("Metric Value"); ui = h.index("Metric Unit")
tot = collections.OrderedDict(); cnt = collections.Counter(); seq = []
for r in rows[1:]:
    v = float(r[vi].replace(",", "")); u = r[ui]
    us = v / 1000 if u == "nsecond" else v * 1000 if u == "msecond" else v
    n = r[ki].split("(")[0][:60]
    tot[n] = tot.get(n, 0) + us; cnt[n] += 1; seq.append((n, us))
for n, t in sorted(tot.items(), key=lambda a: -a[1]): print(f"{t:10.1f} us {cnt[n]:4d}x  {n}")
print("sequence:")
for n, t in seq: print(f"{t:9.1f} {n}")
PY
head -30 $x/sum16.txt
cd $out && tar czf x.tgz x && rm -rf x
