set terminal pngcairo noenhanced size 1200,500
set output '/work/main/bench/results/accuracy-lu-2026-11-22.png'
set datafile separator ','
set logscale xy
set format x '1e%T'
set format y '1e%T'
set key left top
set xlabel 'cond_inf(A)'
set yrange [1e-18:10]
set multiplot layout 1,2
set title 'forward error'
plot '/work/main/bench/results/accuracy-lu-2026-11-22.csv' using (strcol(2) eq 'exstar_exact' ? $1 : 1/0):($3 < 1e-18 ? 1e-18 : ($3 > 1 ? 1 : $3)) with points pt 5 title 'exstar_exact', '/work/main/bench/results/accuracy-lu-2026-11-22.csv' using (strcol(2) eq 'exstar_exact_refined2' ? $1 : 1/0):($3 < 1e-18 ? 1e-18 : ($3 > 1 ? 1 : $3)) with points pt 7 title 'exstar_exact_refined2', '/work/main/bench/results/accuracy-lu-2026-11-22.csv' using (strcol(2) eq 'exstar_plain' ? $1 : 1/0):($3 < 1e-18 ? 1e-18 : ($3 > 1 ? 1 : $3)) with points pt 9 title 'exstar_plain', '/work/main/bench/results/accuracy-lu-2026-11-22.csv' using (strcol(2) eq 'lapack_dgesv' ? $1 : 1/0):($3 < 1e-18 ? 1e-18 : ($3 > 1 ? 1 : $3)) with points pt 11 title 'lapack_dgesv'
set title 'backward error'
plot '/work/main/bench/results/accuracy-lu-2026-11-22.csv' using (strcol(2) eq 'exstar_exact' ? $1 : 1/0):($4 < 1e-18 ? 1e-18 : ($4 > 1 ? 1 : $4)) with points pt 5 title 'exstar_exact', '/work/main/bench/results/accuracy-lu-2026-11-22.csv' using (strcol(2) eq 'exstar_exact_refined2' ? $1 : 1/0):($4 < 1e-18 ? 1e-18 : ($4 > 1 ? 1 : $4)) with points pt 7 title 'exstar_exact_refined2', '/work/main/bench/results/accuracy-lu-2026-11-22.csv' using (strcol(2) eq 'exstar_plain' ? $1 : 1/0):($4 < 1e-18 ? 1e-18 : ($4 > 1 ? 1 : $4)) with points pt 9 title 'exstar_plain', '/work/main/bench/results/accuracy-lu-2026-11-22.csv' using (strcol(2) eq 'lapack_dgesv' ? $1 : 1/0):($4 < 1e-18 ? 1e-18 : ($4 > 1 ? 1 : $4)) with points pt 11 title 'lapack_dgesv'
unset multiplot
