#!/usr/bin/env bash
# The same fingerprint for the same result, whatever ran it: collects the "fnv1a" lines of the
# gpu_bench logs OUT/*.txt into OUT/fingerprints.txt (log, result, fingerprint) and exits 1
# when one result has two fingerprints. Used by scripts/gpu-multi.sh and scripts/gpu-scale.sh.
out=${1:?usage: gpu-fingerprints.sh OUT}
for f in "$out"/*.txt; do
  [ "$(basename "$f")" = fingerprints.txt ] && continue
  grep -hoE "^# [^:]*:.*fnv1a [0-9a-f]+" "$f" | sed -E 's/^# ([^:]*):.*fnv1a ([0-9a-f]+)/\1 \2/' |
    sed "s|^|$(basename "$f" .txt) |"
done > "$out/fingerprints.txt"
status=0
awk '{k = $2; for (i = 3; i < NF; ++i) k = k " " $i; if ((k in h) && h[k] != $NF) { print "DIFFER: " k; bad = 1 } h[k] = $NF }
     END { exit bad }' "$out/fingerprints.txt" || status=1
sort -k2 "$out/fingerprints.txt"
echo "fingerprints: $([ $status = 0 ] && echo identical across runs || echo DIFFER)"
exit $status
