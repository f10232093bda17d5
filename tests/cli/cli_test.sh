#!/usr/bin/env bash
# Driver of the exstar tool's tests: cli_test.sh CASE EXSTAR WORKDIR.
# Each case runs the built tool and checks stdout, stderr and the exit code.
# Exit 0: pass, 1: fail, 77: skipped (a back end or subcommand this build lacks).
set -u
CASE=$1
EXSTAR=$2
WORK=$3
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1
export STARPU_SILENT=1

fail() { echo "FAIL [$CASE]: $*"; exit 1; }
skip() { echo "SKIP [$CASE]: $*"; exit 77; }

# run ARGS...: runs the tool; sets OUT, ERR, RC.
run() {
  "$EXSTAR" "$@" >stdout.txt 2>stderr.txt
  RC=$?
  OUT=$(cat stdout.txt)
  ERR=$(cat stderr.txt)
}

# expect OUTPUT ARGS...: exit 0 and exactly OUTPUT on stdout.
expect() {
  local want=$1; shift
  run "$@"
  [ "$RC" = 0 ] || fail "exstar $* exited $RC (stderr: $ERR)"
  [ "$OUT" = "$want" ] || fail "exstar $*: printed '$OUT', expected '$want'"
  echo "ok: exstar $* -> $OUT"
}

# expect_error CODE TEXT ARGS...: exit CODE, nothing on stdout, one line on stderr containing TEXT.
expect_error() {
  local code=$1 text=$2; shift 2
  run "$@"
  [ "$RC" = "$code" ] || fail "exstar $* exited $RC, expected $code (stderr: $ERR)"
  [ -z "$OUT" ] || fail "exstar $*: printed '$OUT' on stdout"
  [ "$(wc -l <stderr.txt)" = 1 ] || fail "exstar $*: stderr is not one line: $ERR"
  case "$ERR" in *"$text"*) ;; *) fail "exstar $*: stderr '$ERR' does not mention '$text'" ;; esac
  echo "ok: exstar $* -> exit $RC: $ERR"
}

# Skips the case when the tool says a requested back end has no worker here.
run_or_skip() {
  run "$@"
  if [ "$RC" = 1 ] && grep -q "found no" stderr.txt; then skip "$ERR"; fi
}

# vec FILE VALUES...: an n x 1 MatrixMarket array.
vec() {
  local f=$1; shift
  { echo "%%MatrixMarket matrix array real general"; echo "$# 1"; printf '%s\n' "$@"; } >"$f"
}
# mat FILE ROWS COLS VALUES... (column-major).
mat() {
  local f=$1 r=$2 c=$3; shift 3
  { echo "%%MatrixMarket matrix array real general"; echo "$r $c"; printf '%s\n' "$@"; } >"$f"
}

# The directory holds exactly the files named (no output, no temporary file left behind).
only_files() {
  local have want
  have=$(ls -A | grep -v -e '^stdout.txt$' -e '^stderr.txt$' | sort | tr '\n' ' ')
  want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
  [ "$have" = "$want" ] || fail "files left: '$have', expected '$want'"
}

# The data of the exact cases: sum and dot whose plain double loops are wrong.
exact_data() {
  vec x.mtx 0x1p1000 -0x1p1000 1       # . y = 2^1100 - 2^1100 + 1 = 1 (plain: inf - inf = nan)
  vec y.mtx 0x1p100 0x1p100 1
  vec s.mtx 1e308 1e308 -1e308 -1e308 1 # sum 1 (plain: inf)
  vec t.mtx 1 0x1p-53 0x1p-53           # sum 1 + 2^-52 (plain: 1)
}

have() {  # have SUBCOMMAND: false when this build registers it as not available
  run "$1" >/dev/null
  ! grep -q "not available in this build" stderr.txt
}

case_sum_dot() {
  exact_data
  expect 1 sum s.mtx
  expect 1.0000000000000002 sum t.mtx
  expect 1 dot x.mtx y.mtx
  expect 1 dot --backend cpu --sched eager --ncpus 1 x.mtx y.mtx
  expect 1 sum --plain t.mtx
  expect inf sum --plain s.mtx
  expect nan dot --plain x.mtx y.mtx
  case "$ERR" in *"NOT reproducible"*) ;; *) fail "--plain is not labelled on stderr" ;; esac
}

# nrm2: the exact norm rounded once, where the plain formula overflows, underflows or misrounds
case_nrm2() {
  vec a.mtx 3 4;                           expect 5 nrm2 a.mtx
  vec b.mtx 1e300 1e300;                   expect 1.4142135623730952e+300 nrm2 b.mtx
  vec c.mtx 1.7976931348623157e308 1;      expect 1.7976931348623157e+308 nrm2 c.mtx
  vec d.mtx 1.7976931348623157e308 1.7976931348623157e308; expect inf nrm2 d.mtx
  vec e.mtx 0x1p-1074 0x1p-1074 0x1p-1074 0x1p-1074; expect 9.8813129168249309e-324 nrm2 e.mtx
  vec f.mtx -0 -0;                         expect 0 nrm2 f.mtx
  vec g.mtx 1 nan -inf;                    expect nan nrm2 g.mtx
  vec h.mtx 1 -inf;                        expect inf nrm2 h.mtx
  # (1 + 2^-53)^2 exactly: a tie between 1 and 1 + 2^-52, to the even one
  vec t.mtx 1 0x1p-26 0x1p-53;             expect 0x1p+0 nrm2 --hex t.mtx
  vec u.mtx 1 0x1p-26 0x1p-53 0x1p-90;     expect 0x1.0000000000001p+0 nrm2 --hex u.mtx
  expect 5 nrm2 --backend cpu --sched eager --ncpus 1 a.mtx
  run nrm2 --backend opencl b.mtx
  if [ "$RC" = 0 ]; then [ "$OUT" = 1.4142135623730952e+300 ] || fail "nrm2 --backend opencl: '$OUT'"; fi
  run nrm2 --plain a.mtx
  [ "$RC" = 0 ] && [ "$OUT" = 5 ] || fail "nrm2 --plain: exit $RC, '$OUT' ($ERR)"
}

case_hex() {
  exact_data
  expect 0x1p+0 dot --hex x.mtx y.mtx
  expect 0x1.0000000000001p+0 sum --hex t.mtx
  expect 0x1p+0 sum --hex --plain t.mtx
}

case_special_values() {
  vec a.mtx inf 1;        expect inf sum a.mtx
  vec b.mtx -Infinity 1;  expect -inf sum b.mtx
  vec c.mtx inf -inf;     expect nan sum c.mtx
  vec d.mtx NaN 1;        expect nan sum d.mtx
  vec e.mtx -0 -0;        expect -0 sum e.mtx
  vec f.mtx 0x1p-1074 0x1p-1074; expect 9.8813129168249309e-324 sum f.mtx
  vec g.mtx 1e-400 0;     expect 0 sum g.mtx   # underflows to 0 when read: the correct rounding
  vec h.mtx;              expect 0 sum h.mtx   # 0 x 1: the empty sum
  mat r.mtx 1 3 1 2 0.5;  expect 3.5 sum r.mtx # a 1 x n array is a vector too
  printf '%%%%MatrixMarket matrix array real general\r\n%% crlf\r\n\r\n2 1\r\n1\r\n\r\n2\r\n' >w.mtx
  expect 3 sum w.mtx
}

# One back end alone: skipped visibly when this machine has none of it.
case_backend() {
  exact_data
  # a back end the machine lacks: the message examples/README.md promises, then a visible SKIP
  run dot --backend "$1" x.mtx y.mtx
  if [ "$RC" != 0 ]; then
    [ "$RC" = 1 ] && [ "$ERR" = "exstar: back end '$1' requested but StarPU found no $1 worker" ] ||
      fail "dot --backend $1 without such a worker: exit $RC, '$ERR'"
    skip "$ERR"
  fi
  [ "$RC" = 0 ] && [ "$OUT" = 1 ] || fail "dot --backend $1: exit $RC, '$OUT' ($ERR)"
  expect 1 dot --backend "$1" x.mtx y.mtx
  expect 1 sum --backend "$1" s.mtx
  expect 0x1.0000000000001p+0 sum --hex --backend "$1" t.mtx
}

# Ill-conditioned data from gen: the same bits from every back end, scheduler and worker count,
# and the same as gen's own exact dot (so the files round-trip every double).
case_same_bits() {
  run gen vector --n 3000 --cond 1e40 --seed 3 -o x.mtx -o2 y.mtx
  [ "$RC" = 0 ] || fail "gen: $ERR"
  local want hex ref
  want=$(sed -n 's/^dot //p' stdout.txt)
  expect "$want" dot x.mtx y.mtx
  ref=$("$EXSTAR" dot --hex x.mtx y.mtx)
  local configs=("--backend cpu" "--backend all" "--backend cpu --ncpus 1" "--backend cpu --ncpus 2"
                 "--backend cpu --sched ws" "--backend cpu --sched dmda" "--backend all --sched random"
                 "--backend all --sched lws" "--backend all --sched prio")
  run dot --backend opencl x.mtx y.mtx
  if [ "$RC" = 0 ]; then configs+=("--backend opencl" "--backend cpu,opencl --sched eager"); else
    echo "note: no OpenCL worker here ($ERR)"; fi
  run dot --backend cuda x.mtx y.mtx
  if [ "$RC" = 0 ]; then configs+=("--backend cuda" "--backend cpu+cuda"); fi
  for c in "${configs[@]}"; do
    # shellcheck disable=SC2086
    expect "$ref" dot --hex $c x.mtx y.mtx
  done
  run dot --plain x.mtx y.mtx
  echo "plain baseline: $OUT (exact: $want)"
}

case_gen() {
  run gen vector --n 500 --cond 1e20 --seed 5 -o v.mtx
  [ "$RC" = 0 ] || fail "gen vector: $ERR"
  only_files v.mtx v_y.mtx
  local want cond
  want=$(sed -n 's/^dot //p' stdout.txt)
  cond=$(sed -n 's/^cond //p' stdout.txt)
  awk -v c="$cond" 'BEGIN { exit !(c > 1e18 && c < 1e23) }' || fail "gen vector: condition number $cond, asked 1e20"
  expect "$want" dot v.mtx v_y.mtx
  # The same seed gives the same files.
  run gen vector --n 500 --cond 1e20 --seed 5 -o w.mtx -o2 w2.mtx
  cmp -s <(tail -n +3 v.mtx) <(tail -n +3 w.mtx) && cmp -s <(tail -n +3 v_y.mtx) <(tail -n +3 w2.mtx) ||
    fail "gen vector is not deterministic"
  run gen matrix --n 12 --cond 1e6 -o a.mtx
  [ "$RC" = 0 ] || fail "gen matrix: $ERR"
  [ "$(sed -n 3p a.mtx)" = "12 12" ] && [ "$(wc -l <a.mtx)" = $((3 + 144)) ] || fail "gen matrix: bad file"
  run gen triangular --n 9 --cond 1e6 --uplo L -o l.mtx
  [ "$RC" = 0 ] || fail "gen triangular: $ERR"
  # Column-major: entry k is (k % n, k / n); above the diagonal must be exactly 0.
  tail -n +4 l.mtx | awk '{ k = NR - 1; i = k % 9; j = int(k / 9); if (i < j && $1 != 0) bad = 1;
                            if (i == j && $1 == 0) bad = 1 } END { exit bad }' || fail "gen triangular --uplo L: not lower"
  echo "ok: gen matrix / triangular"
}

# Every malformed file: exit 1, one line "exstar: FILE:LINE: what", no output file written.
case_malformed() {
  local banner='%%%%MatrixMarket matrix array real general'
  check_bad() {  # check_bad TEXT CONTENT (printf format)
    printf "$2" >bad.mtx
    expect_error 1 "$1" sum bad.mtx
    only_files bad.mtx
  }
  check_bad "bad.mtx:1: empty file" ''
  check_bad "bad.mtx:1: not a MatrixMarket file" 'hello\n1 1\n1\n'
  check_bad "bad.mtx:1: malformed banner" '%%%%MatrixMarket matrix array real\n1 1\n1\n'
  check_bad "bad.mtx:1: unsupported format 'blocked'" '%%%%MatrixMarket matrix blocked real general\n2 1 1\n1 1 5\n'
  check_bad "bad.mtx:1: unsupported field 'complex'" '%%%%MatrixMarket matrix array complex general\n1 1\n1 0\n'
  check_bad "bad.mtx:1: unsupported field 'pattern'" '%%%%MatrixMarket matrix array pattern general\n1 1\n'
  check_bad "bad.mtx:1: unsupported field 'quaternion'" '%%%%MatrixMarket matrix array quaternion general\n1 1\n1\n'
  check_bad "bad.mtx:1: unsupported symmetry 'hermitian'" '%%%%MatrixMarket matrix array real hermitian\n1 1\n1\n'
  check_bad "bad.mtx:1: unsupported object 'vector'" '%%%%MatrixMarket vector array real general\n1 1\n1\n'
  check_bad "bad.mtx:2: missing size line" "$banner\n%% only comments\n"
  check_bad "bad.mtx:2: bad size line" "$banner\n3\n1\n2\n3\n"
  check_bad "bad.mtx:2: bad size line" "$banner\n3 1 3\n1\n2\n3\n"
  check_bad "bad.mtx:2: bad size '-3'" "$banner\n-3 1\n1\n"
  check_bad "bad.mtx:2: bad size '2.5'" "$banner\n2.5 1\n1\n"
  check_bad "bad.mtx:2: array too large" "$banner\n4000000000 4000000000\n1\n"
  check_bad "bad.mtx:5: truncated: expected 4 values, found 2" "$banner\n4 1\n1\n2\n\n"
  check_bad "bad.mtx:5: extra data after the 2 values" "$banner\n2 1\n1\n2\n3\n"
  check_bad "bad.mtx:4: not a number: 'abc'" "$banner\n2 1\n1\nabc\n"
  check_bad "bad.mtx:3: not a number: '1.5x'" "$banner\n2 1\n1.5x\n2\n"
  check_bad "bad.mtx:3: comment inside the data" "$banner\n2 1\n%% comment in the data\n2\n"
  check_bad "bad.mtx:3: expected one value per line, found 2" "$banner\n2 1\n1 2\n"
  check_bad "bad.mtx:3: value out of the double range: '1e999'" "$banner\n1 1\n1e999\n"
  check_bad "bad.mtx:2: expected a vector (n x 1), got a 2x2 array" "$banner\n2 2\n1\n2\n3\n4\n"
  expect_error 1 "nosuch.mtx: cannot open" sum nosuch.mtx
  vec x.mtx 1 2 3
  vec y.mtx 1 2
  expect_error 1 "y.mtx:2: length 2 does not match the length of x.mtx (3)" dot x.mtx y.mtx
  run sum --backend cuda,opencl,cpu x.mtx
  if [ "$RC" != 0 ]; then expect_error 1 "found no" sum --backend cuda,opencl,cpu x.mtx; fi
  # An output file appears only when the run succeeds, and never half-written.
  if have gemv; then
    vec out.mtx old
    mat a.mtx 2 2 1 2 3 4
    printf "$banner\n2 1\n1\n" >bad.mtx
    expect_error 1 "bad.mtx:3: truncated" gemv a.mtx bad.mtx -o out.mtx
    expect_error 1 "x.mtx:2: length 3 does not match the columns of a.mtx (2)" gemv a.mtx x.mtx -o out.mtx
    [ "$(tail -1 out.mtx)" = old ] || fail "a failed run replaced out.mtx"
    only_files a.mtx bad.mtx out.mtx x.mtx y.mtx
  fi
  expect_error 1 "nodir/o.mtx: directory 'nodir' does not exist" gen matrix --n 3 -o nodir/o.mtx
}

case_usage() {
  vec x.mtx 1 2
  expect_error 2 "exstar: unknown subcommand 'frobnicate'" frobnicate
  expect_error 2 "exstar: unknown option '--frobnicate'" --frobnicate
  expect_error 2 "dot: expects two vector files" dot x.mtx
  expect_error 2 "sum: expects one vector file" sum
  expect_error 2 "sum: unknown option '--bogus'" sum --bogus x.mtx
  expect_error 2 "sum: option --backend needs a value" sum x.mtx --backend
  expect_error 2 "unknown back end 'gpu'" sum --backend gpu x.mtx
  expect_error 2 "--ncpus: expected an integer" sum --ncpus two x.mtx
  expect_error 2 "option --hex given twice" sum --hex --hex x.mtx
  expect_error 2 "option --plain takes no value" sum --plain=1 x.mtx
  expect_error 2 "gen: missing --n" gen vector -o v.mtx
  expect_error 2 "gen: missing output file: -o" gen vector --n 10
  expect_error 2 "gen: unknown kind 'tensor'" gen tensor --n 3 -o t.mtx
  expect_error 2 "--cond: expected a number in [1, 1e300]" gen matrix --n 3 --cond 0.5 -o a.mtx
  expect_error 2 "--n: expected an integer" gen matrix --n 0 -o a.mtx
  expect_error 2 "getrf: missing output file: --ipiv" getrf x.mtx -o lu.mtx
  expect_error 2 "getrf: -o and --ipiv name the same file" getrf x.mtx -o lu.mtx --ipiv lu.mtx
  expect_error 2 "gesv: --plain has no --refine" gesv --plain --refine 1 x.mtx x.mtx -o s.mtx
  expect_error 2 "gesv: --refine: expected an integer" gesv --refine -1 x.mtx x.mtx -o s.mtx
  expect_error 2 "bench: expects one operation" bench
  expect_error 2 "bench: unknown operation 'syrk'" bench syrk --n 3
  expect_error 2 "bench: missing --n" bench dot
  expect_error 2 "bench: --n: expected an integer" bench getrf --n 100000
  run
  [ "$RC" = 2 ] && grep -q "^usage: exstar" stderr.txt || fail "no arguments: exit $RC"
  only_files x.mtx
  expect 3 sum --backend=cpu -- x.mtx
}

case_help() {
  local c
  for c in "--help" "-h" "help" "help dot"; do
    # shellcheck disable=SC2086
    run $c
    [ "$RC" = 0 ] && grep -q "^usage: exstar" stdout.txt && [ ! -s stderr.txt ] || fail "exstar $c: exit $RC"
  done
  for c in sum dot gemv trsv getrf gesv gen bench; do
    run "$c" --help
    [ "$RC" = 0 ] && grep -q "^usage: exstar $c" stdout.txt || fail "exstar $c --help: exit $RC"
    run "$c" --bogus --help   # --help wins over everything else
    [ "$RC" = 0 ] || fail "exstar $c --bogus --help: exit $RC"
  done
  expect_error 2 "unknown subcommand 'nosuch'" help nosuch
  run --version
  [ "$RC" = 0 ] && grep -q "^exstar [0-9]*\.[0-9]*\.[0-9]*$" stdout.txt || fail "--version: '$OUT'"
  echo "ok: help and version"
}

case_gemv() {
  have gemv || skip "gemv is not available in this build"
  mat a.mtx 2 2 1 3 2 4            # [[1 2] [3 4]]
  vec x.mtx 1 1
  vec y.mtx 10 20
  run gemv a.mtx x.mtx -o o.mtx;                       [ "$RC" = 0 ] || fail "gemv: $ERR"
  [ "$(tail -n +3 o.mtx | tr '\n' ' ')" = "3 7 " ] || fail "gemv: $(cat o.mtx)"
  run gemv --trans a.mtx x.mtx -o o.mtx;               [ "$(tail -n +3 o.mtx | tr '\n' ' ')" = "4 6 " ] || fail "gemv --trans"
  run gemv --alpha 2 --beta -1 a.mtx x.mtx y.mtx -o o.mtx
  [ "$(tail -n +3 o.mtx | tr '\n' ' ')" = "-4 -6 " ] || fail "gemv alpha beta: $(cat o.mtx)"
  # One row whose plain result is nan: 2^1000*2^100 - 2^1000*2^100 + 1 = 1 exactly.
  mat b.mtx 1 3 0x1p1000 -0x1p1000 1
  vec z.mtx 0x1p100 0x1p100 1
  local mode
  for mode in "--backend cpu" "--backend all" "--backend cpu --sched ws --ncpus 2"; do
    # shellcheck disable=SC2086
    run gemv $mode b.mtx z.mtx -o o.mtx
    [ "$RC" = 0 ] && [ "$(tail -1 o.mtx)" = 1 ] || fail "gemv $mode: $RC $ERR $(cat o.mtx)"
  done
  run gemv --backend opencl b.mtx z.mtx -o o.mtx
  if [ "$RC" = 0 ]; then [ "$(tail -1 o.mtx)" = 1 ] || fail "gemv --backend opencl: $(cat o.mtx)"
  else grep -q "found no" stderr.txt || fail "gemv --backend opencl: $ERR"; fi
  run gemv --plain b.mtx z.mtx -o o.mtx;               [ "$(tail -1 o.mtx)" = nan ] || fail "gemv --plain"
  expect nan sum o.mtx   # the nan written reads back
  echo "ok: gemv"
}

# gemm and trsm: their columns (rows) are gemv's and trsv's bits, on every back end.
case_level3() {
  mat a.mtx 2 2 1 3 2 4            # [[1 2] [3 4]]
  mat b.mtx 2 2 1 1 0 1            # [[1 0] [1 1]]
  run gemm a.mtx b.mtx -o c.mtx;                       [ "$RC" = 0 ] || fail "gemm: $ERR"
  [ "$(tail -n +3 c.mtx | tr '\n' ' ')" = "3 7 2 4 " ] || fail "gemm: $(cat c.mtx)"
  run gen matrix --n 30 --cond 1e12 --seed 2 -o g.mtx
  run gen vector --n 30 --cond 10 --seed 3 -o v.mtx
  run gemm --backend cpu g.mtx v.mtx -o y1.mtx
  run gemv --backend cpu g.mtx v.mtx -o y2.mtx
  cmp -s y1.mtx y2.mtx || fail "gemm with one column differs from gemv"
  run gemm --transa --backend all --sched ws g.mtx g.mtx -o c1.mtx
  run gemm --transa --backend cpu g.mtx g.mtx -o c2.mtx
  cmp -s c1.mtx c2.mtx || fail "gemm: --backend all and cpu differ"
  run gen triangular --n 30 --cond 1e8 --uplo U -o t.mtx
  run trsm --side L --uplo U --backend all t.mtx v.mtx -o x1.mtx;  [ "$RC" = 0 ] || fail "trsm: $ERR"
  run trsv --uplo U --backend cpu t.mtx v.mtx -o x2.mtx
  cmp -s x1.mtx x2.mtx || fail "trsm with one column differs from trsv"
  echo "ok: gemm column == gemv, trsm column == trsv, back ends agree"
  run gemm a.mtx v.mtx -o bad.mtx
  [ "$RC" = 1 ] && [ ! -e bad.mtx ] || fail "gemm with mismatched sizes: exit $RC"
  mat z.mtx 2 2 1 1 0 0            # a zero on the diagonal
  run trsm --side L --uplo L z.mtx b.mtx -o bad.mtx
  [ "$RC" = 1 ] && [ ! -e bad.mtx ] && grep -q "singular" stderr.txt || fail "trsm singular: exit $RC ($ERR)"
  expect_error 2 "--side" trsm --side Q --uplo L t.mtx v.mtx -o bad.mtx
  echo "ok: gemm / trsm errors"
}

case_trsv() {
  have trsv || skip "trsv is not available in this build"
  mat t.mtx 2 2 2 1 99 1           # lower [[2 .] [1 1]]; 99 is in the unread triangle
  vec b.mtx 2 2
  run trsv --uplo L t.mtx b.mtx -o x.mtx;               [ "$RC" = 0 ] || fail "trsv: $ERR"
  [ "$(tail -n +3 x.mtx | tr '\n' ' ')" = "1 1 " ] || fail "trsv: $(cat x.mtx)"
  run trsv --uplo L --unit t.mtx b.mtx -o x.mtx;        [ "$(tail -n +3 x.mtx | tr '\n' ' ')" = "2 0 " ] || fail "trsv --unit: $(cat x.mtx)"
  run trsv --uplo U --trans t.mtx b.mtx -o x.mtx;       [ "$RC" = 0 ] || fail "trsv U T: $ERR"
  run trsv --uplo L --refine 2 t.mtx b.mtx -o x.mtx;    [ "$(tail -n +3 x.mtx | tr '\n' ' ')" = "1 1 " ] || fail "trsv --refine"
  run gen triangular --n 40 --cond 1e12 --uplo L -o g.mtx
  run gen vector --n 40 --cond 10 -o r.mtx
  run trsv --uplo L --backend cpu g.mtx r.mtx -o x1.mtx
  run trsv --uplo L --backend all --sched ws g.mtx r.mtx -o x2.mtx
  cmp -s x1.mtx x2.mtx || fail "trsv: back ends disagree"
  mat s.mtx 2 2 0 1 0 1
  expect_error 1 "singular" trsv --uplo L s.mtx b.mtx -o y.mtx
  [ ! -e y.mtx ] || fail "a singular trsv wrote its output"
  expect_error 2 "missing --uplo" trsv t.mtx b.mtx -o y.mtx
  echo "ok: trsv"
}

# body FILE: the values of a MatrixMarket file on one line (banner, comments and size dropped).
body() { grep -v '^%' "$1" | tail -n +2 | tr '\n' ' ' | sed 's/ $//'; }

# A 3x3 integer matrix whose LU with partial pivoting is exact in binary (L's entries are
# dyadic), both pivots move a row: P A = L U with L = [1 . .; .5 1 .; .25 -.5 1],
# U = [4 2 -2; . 3 1; . . 2]; A's rows are rows 3, 1, 2 of L U.
lu_data() {
  mat A.mtx 3 3  1 4 2  -1 2 4  1 -2 0
  # B = A [x1 x2] with x1 = (1, 2, 3), x2 = (-1, 0.5, 0): the solves are exact too.
  mat B.mtx 3 2  2 2 10  -1.5 -3 0
  mat S.mtx 3 3  1 2 4  2 4 8  0 1 1        # column 2 = 2 x column 1: U(2,2) = 0 exactly
}

case_getrf() {
  lu_data
  local mode
  for mode in "" "--backend cpu --ncpus 1" "--backend all --sched ws" "--plain"; do
    # shellcheck disable=SC2086
    run getrf $mode A.mtx -o LU.mtx --ipiv P.mtx
    [ "$RC" = 0 ] || fail "getrf $mode: exit $RC ($ERR)"
    [ "$(body LU.mtx)" = "4 0.5 0.25 2 3 -0.5 -2 1 2" ] || fail "getrf $mode: LU $(body LU.mtx)"
    [ "$(body P.mtx)" = "2 3 3" ] || fail "getrf $mode: ipiv $(body P.mtx)"
    [ "$(sed -n 1p P.mtx)" = "%%MatrixMarket matrix array real general" ] &&
      [ "$(grep -v '^%' P.mtx | head -1)" = "3 1" ] || fail "getrf: P.mtx is not a 3x1 array: $(cat P.mtx)"
    echo "ok: getrf $mode"
  done
  case "$ERR" in *"NOT reproducible"*) ;; *) fail "getrf --plain is not labelled on stderr" ;; esac
  # m x n as LAPACK: min(m, n) pivots.
  mat R.mtx 2 3  1 4  2 5  3 6
  run getrf R.mtx -o LU.mtx --ipiv P.mtx
  [ "$RC" = 0 ] && [ "$(body LU.mtx)" = "4 0.25 5 0.75 6 1.5" ] && [ "$(body P.mtx)" = "2 2" ] ||
    fail "getrf 2x3: exit $RC, LU $(body LU.mtx), P $(body P.mtx)"
  # Singular: LAPACK's info > 0. The factors are written, one warning line, exit 3.
  rm -f LU.mtx P.mtx
  run getrf S.mtx -o LU.mtx --ipiv P.mtx
  [ "$RC" = 3 ] || fail "getrf singular: exit $RC, expected 3 ($ERR)"
  [ "$(wc -l <stderr.txt)" = 1 ] && grep -q "warning: getrf: matrix is singular: U(2,2) = 0 (info = 2)" stderr.txt ||
    fail "getrf singular: stderr '$ERR'"
  # As dgetf2: the zero pivot's column is left unscaled (L(3,2) = v = 0) and the factorization goes on.
  [ "$(body LU.mtx)" = "4 0.5 0.25 8 0 0 1 0.5 -0.25" ] && [ "$(body P.mtx)" = "3 2 3" ] ||
    fail "getrf singular: LU $(body LU.mtx), P $(body P.mtx)"
  echo "ok: getrf singular -> exit 3, factors written"
  mat N.mtx 2 2  1 nan  2 4
  expect_error 1 "N.mtx: entry (2,1) is nan" getrf N.mtx -o L2.mtx --ipiv P2.mtx
  mat I.mtx 2 2  1 2  -inf 4
  expect_error 1 "I.mtx: entry (1,2) is -inf" getrf I.mtx -o L2.mtx --ipiv P2.mtx
  [ ! -e L2.mtx ] && [ ! -e P2.mtx ] || fail "getrf of a NaN/inf matrix wrote a file"
  # Overflow from finite input: the factors (u(2,2) = -inf) are written, with a warning and
  # exit code 4, as gesv's overflowed solution is.
  mat O.mtx 2 2  1 1  1.5e308 -1.5e308   # u(2,2) = -1.5e308 - 1.5e308 = -inf
  expect_error 4 "exstar: warning: getrf: the factors overflowed: 1 entry is inf or NaN" getrf O.mtx -o L2.mtx --ipiv P2.mtx
  [ "$(body L2.mtx)" = "1 1 1.5e+308 -inf" ] && [ "$(body P2.mtx)" = "1 2" ] ||
    fail "an overflowing getrf wrote LU $(body L2.mtx), P $(body P2.mtx)"
}

# EXSTAR_TRACE=FILE (runtime/trace.h): the tiled LU's timeline as CSV at exit, a row a task
# (step K, block column J, worker, device, start and end), and the same factors as without it; a
# path that cannot be written is one line on stderr, and the factorization's result stands.
case_trace() {
  run gen matrix --n 300 --seed 5 -o A.mtx
  [ "$RC" = 0 ] || fail "gen: exit $RC ($ERR)"
  run getrf A.mtx --nb 64 --backend cpu -o LU0.mtx --ipiv P0.mtx
  [ "$RC" = 0 ] || fail "getrf: exit $RC ($ERR)"
  EXSTAR_TRACE=trace.csv run getrf A.mtx --nb 64 --backend cpu -o LU1.mtx --ipiv P1.mtx
  [ "$RC" = 0 ] || fail "getrf traced: exit $RC ($ERR)"
  cmp -s LU0.mtx LU1.mtx && cmp -s P0.mtx P1.mtx || fail "the traced factors differ"
  [ "$(head -1 trace.csv)" = "name,m,K,J,worker,device,start_us,end_us" ] || fail "trace header: $(head -1 trace.csv)"
  # 5 block columns: a panel each, 4 + 3 + 2 + 1 updates and U rows, 5 x 4 interchanges, and
  # before step 0 (K = 2^20 - 1) the states' initialization, a task a block column
  [ "$(grep -c '^exstar_lu_panel,300,' trace.csv)" = 5 ] &&
    [ "$(grep -c '^exstar_state_init,300,1048575,' trace.csv)" = 5 ] &&
    [ "$(grep -c '^exstar_lu_gemm,300,' trace.csv)" = 10 ] && [ "$(grep -c '^exstar_lu_urow,' trace.csv)" = 10 ] &&
    [ "$(grep -c '^exstar_lu_laswp,' trace.csv)" = 20 ] || fail "trace rows: $(cut -d, -f1 trace.csv | sort | uniq -c)"
  awk -F, 'NR > 1 && ($7 > $8 || $5 < 0) { bad = 1 } END { exit bad }' trace.csv || fail "a task ends before it starts"
  echo "ok: EXSTAR_TRACE: a row a task, the same factors"
  EXSTAR_TRACE=no-such-dir/trace.csv run getrf A.mtx --nb 64 --backend cpu -o LU2.mtx --ipiv P2.mtx
  [ "$RC" = 0 ] && cmp -s LU0.mtx LU2.mtx || fail "getrf with an unwritable trace: exit $RC ($ERR)"
  case "$ERR" in *"EXSTAR_TRACE: cannot write no-such-dir/trace.csv"*) ;; *) fail "unwritable trace: stderr '$ERR'" ;; esac
  echo "ok: EXSTAR_TRACE unwritable -> one line on stderr, exit 0"
}

case_gesv() {
  lu_data
  local mode
  for mode in "" "--refine 2" "--backend cpu --sched eager --ncpus 2" "--plain"; do
    # shellcheck disable=SC2086
    run gesv $mode A.mtx B.mtx -o X.mtx
    [ "$RC" = 0 ] || fail "gesv $mode: exit $RC ($ERR)"
    [ "$(grep -v '^%' X.mtx | head -1)" = "3 2" ] && [ "$(body X.mtx)" = "1 2 3 -1 0.5 0" ] ||
      fail "gesv $mode: $(cat X.mtx)"
    echo "ok: gesv $mode"
  done
  case "$ERR" in *"NOT reproducible"*) ;; *) fail "gesv --plain is not labelled on stderr" ;; esac
  vec b.mtx 1 2 3
  # Singular: exactly one line, exit 1, no output (and an old file is left as it was).
  run gesv S.mtx b.mtx -o Y.mtx
  [ "$RC" = 1 ] && [ "$ERR" = "exstar: gesv: matrix is singular: U(2,2) = 0" ] ||
    fail "gesv singular: exit $RC, stderr '$ERR'"
  [ ! -e Y.mtx ] || fail "a singular gesv wrote its output"
  run gesv --plain S.mtx b.mtx -o Y.mtx
  [ "$RC" = 1 ] && grep -q "^exstar: gesv: matrix is singular: U(2,2) = 0$" stderr.txt || fail "gesv --plain singular: $ERR"
  [ ! -e Y.mtx ] || fail "a singular gesv --plain wrote its output"
  echo "ok: gesv singular -> exit 1, nothing written"
  mat R.mtx 2 3  1 4  2 5  3 6
  expect_error 1 "R.mtx:2: expected a square matrix, got 2x3" gesv R.mtx b.mtx -o Y.mtx
  vec c.mtx 1 2
  expect_error 1 "c.mtx:2: 2 rows do not match the order of A.mtx (3)" gesv A.mtx c.mtx -o Y.mtx
  mat N.mtx 3 3  1 4 2  -1 nan 4  1 -2 0
  expect_error 1 "N.mtx: entry (2,2) is nan: gesv needs finite input" gesv N.mtx b.mtx -o Y.mtx
  expect_error 1 "N.mtx: entry (2,2) is nan" gesv --plain N.mtx b.mtx -o Y.mtx
  vec d.mtx 1 inf 3
  expect_error 1 "d.mtx: entry (2,1) is inf" gesv A.mtx d.mtx -o Y.mtx
  # Overflow from finite input: X is written with a warning and exit code 4, as getrf's factors.
  mat O.mtx 2 2  1e-300 0  0 1   # finite factors; x(1) = 1e10 / 1e-300 overflows
  vec e.mtx 1e10 1
  expect_error 4 "exstar: warning: gesv: the solution overflowed: 1 entry is inf or NaN" gesv O.mtx e.mtx -o Y.mtx
  [ "$(body Y.mtx)" = "inf 1" ] || fail "an overflowing gesv wrote '$(body Y.mtx)'"
  rm -f Y.mtx
  mat O.mtx 2 2  1 1  1.5e308 -1.5e308   # finite, but u(2,2) overflows
  vec e.mtx 1 1
  run gesv O.mtx e.mtx -o Y.mtx
  [ "$RC" = 4 ] && [ -e Y.mtx ] && grep -q "^exstar: warning: gesv: the LU factors overflowed: 1 entry is inf or NaN" stderr.txt ||
    fail "gesv with overflowed factors: exit $RC, '$ERR'"
  echo "ok: overflowed gesv -> exit 4, a warning, X written"
  # Ill-conditioned: refinement with exact residuals changes the answer, and the bits of each
  # run are those of the same run on one worker.
  run gen matrix --n 30 --cond 1e12 --seed 2 -o G.mtx
  run gen vector --n 30 --cond 10 --seed 2 -o g.mtx
  run gesv G.mtx g.mtx -o x0.mtx;                          [ "$RC" = 0 ] || fail "gesv G: $ERR"
  run gesv --refine 2 G.mtx g.mtx -o x2.mtx;               [ "$RC" = 0 ] || fail "gesv G --refine: $ERR"
  run gesv --refine 2 --backend cpu --ncpus 1 G.mtx g.mtx -o x2b.mtx
  cmp -s x2.mtx x2b.mtx || fail "gesv --refine 2: one CPU worker gives other bits"
  ! cmp -s x0.mtx x2.mtx || fail "gesv --refine 2 changed nothing on a 1e12-conditioned system"
  echo "ok: gesv errors and refinement"
}

# The LU outputs of one back-end configuration against the CPU's, for a 40 x 40 system of
# condition 1e12 with 3 right-hand sides: the same files, byte for byte.
case_lu_backend() {
  run gen matrix --n 40 --cond 1e12 --seed 9 -o A.mtx
  { echo "%%MatrixMarket matrix array real general"; echo "40 3"
    for ((i = 0; i < 120; i++)); do echo $(((i * 7) % 13 - 6)); done; } >B.mtx
  run getrf --backend cpu A.mtx -o LU_ref.mtx --ipiv P_ref.mtx;   [ "$RC" = 0 ] || fail "getrf cpu: $ERR"
  run gesv --backend cpu --refine 1 A.mtx B.mtx -o X_ref.mtx;     [ "$RC" = 0 ] || fail "gesv cpu: $ERR"
  run gesv --backend cpu --plain A.mtx B.mtx -o Xp_ref.mtx;       [ "$RC" = 0 ] || fail "gesv cpu --plain: $ERR"
  local configs=("$@") c
  for c in "${configs[@]}"; do
    # shellcheck disable=SC2086
    run_or_skip getrf $c A.mtx -o LU.mtx --ipiv P.mtx
    [ "$RC" = 0 ] || fail "getrf $c: exit $RC ($ERR)"
    cmp -s LU.mtx LU_ref.mtx && cmp -s P.mtx P_ref.mtx || fail "getrf $c: other factors than --backend cpu"
    # shellcheck disable=SC2086
    run gesv $c --refine 1 A.mtx B.mtx -o X.mtx
    [ "$RC" = 0 ] && cmp -s X.mtx X_ref.mtx || fail "gesv $c: exit $RC, other bits than --backend cpu ($ERR)"
    echo "ok: getrf, gesv --refine 1: $c = cpu, byte for byte"
  done
  # The baseline on the CPU alone: one task per column in a fixed order, so it repeats itself.
  run gesv --backend cpu --ncpus 2 --plain A.mtx B.mtx -o Xp.mtx
  cmp -s Xp.mtx Xp_ref.mtx || echo "note: gesv --plain differs between runs (a baseline: allowed)"
}

# mpi NP ARGS...: the tool under mpirun; sets OUT, RC and ERR (stderr without mpirun's own lines).
mpi() {
  timeout 300 $EXSTAR_MPIRUN --oversubscribe -np "$1" "$EXSTAR" "${@:2}" >stdout.txt 2>stderr.txt; RC=$?
  OUT=$(cat stdout.txt)
  ERR=$(grep -v -e '^---' -e '^$' -e 'job' -e 'Process name' -e 'Exit code' -e 'non-zero' -e 'terminated' \
        -e 'first process' -e 'aborted' stderr.txt)
}

# mpirun -np N exstar getrf|gesv: the same files byte for byte as one process; rank 0 alone
# reads, writes and prints; failures are one line and the same exit code, never a hang.
case_mpi() {
  [ -n "${EXSTAR_MPIRUN:-}" ] || skip "no mpirun, or exstar built without StarPU-MPI"
  run gen matrix --n 150 --cond 1e30 --seed 4 -o A.mtx
  { echo "%%MatrixMarket matrix array real general"; echo "150 2"
    for ((i = 0; i < 300; i++)); do echo $(((i * 7) % 13 - 6)); done; } >B.mtx
  run getrf --backend cpu --ncpus 1 A.mtx -o LU_ref.mtx --ipiv P_ref.mtx; [ "$RC" = 0 ] || fail "getrf: $ERR"
  run gesv --backend cpu --ncpus 1 --refine 1 A.mtx B.mtx -o X_ref.mtx;  [ "$RC" = 0 ] || fail "gesv: $ERR"
  local np
  for np in 2 3 4; do
    mpi "$np" getrf --backend cpu --ncpus 1 --nb 32 A.mtx -o LU.mtx --ipiv P.mtx
    [ "$RC" = 0 ] || fail "mpirun -np $np getrf: exit $RC ($ERR)"
    cmp -s LU.mtx LU_ref.mtx && cmp -s P.mtx P_ref.mtx || fail "mpirun -np $np getrf: other bytes than one process"
    mpi "$np" gesv --backend cpu --ncpus 1 --refine 1 A.mtx B.mtx -o X.mtx
    [ "$RC" = 0 ] && cmp -s X.mtx X_ref.mtx || fail "mpirun -np $np gesv: exit $RC, other bytes ($ERR)"
    echo "ok: mpirun -np $np getrf, gesv: byte for byte one process's output"
  done
  # EXSTAR_TRACE under mpirun: each process writes the tasks it ran to FILE.<rank>
  EXSTAR_TRACE=trace.csv mpi 2 getrf --backend cpu --ncpus 1 --nb 32 A.mtx -o LU.mtx --ipiv P.mtx
  [ "$RC" = 0 ] && cmp -s LU.mtx LU_ref.mtx || fail "mpirun -np 2 getrf, traced: exit $RC ($ERR)"
  [ -f trace.csv.0 ] && [ -f trace.csv.1 ] && [ ! -e trace.csv ] || fail "traced under mpirun: $(ls trace.csv*)"
  [ "$(cat trace.csv.0 trace.csv.1 | grep -c '^exstar_lu_panel,150,')" = 5 ] || fail "traced under mpirun: not 5 panels"
  echo "ok: EXSTAR_TRACE under mpirun: a file a process, 5 panels in all"
  rm -f trace.csv.*
  # potrf: an SPD matrix (B B^T + 120 I, integers: exact), both triangles, 2 and 4 processes
  { echo "%%MatrixMarket matrix array real symmetric"; echo "60 60"
    for ((j = 0; j < 60; j++)); do for ((i = j; i < 60; i++)); do
      echo $(( (i == j ? 120 : 0) + ((i * j + 3 * i + j) % 7) - 3 )); done; done; } >S.mtx
  local uplo
  for uplo in L U; do
    run potrf --backend cpu --ncpus 1 --uplo $uplo S.mtx -o F_ref.mtx; [ "$RC" = 0 ] || fail "potrf: $ERR"
    for np in 2 4; do
      mpi "$np" potrf --backend cpu --ncpus 1 --nb 16 --uplo $uplo S.mtx -o F.mtx
      [ "$RC" = 0 ] && cmp -s F.mtx F_ref.mtx || fail "mpirun -np $np potrf --uplo $uplo: exit $RC, other bytes ($ERR)"
    done
    echo "ok: mpirun -np 2, 4 potrf --uplo $uplo: byte for byte one process's output"
  done
  mpi 2 getrf --backend cpu --ncpus 1 nosuch.mtx -o L.mtx --ipiv Q.mtx
  [ "$RC" = 1 ] && [ "$(echo "$ERR" | wc -l)" = 1 ] && [ ! -e L.mtx ] || fail "missing file under mpirun: exit $RC, '$ERR'"
  mpi 2 getrf --backend cpu --ncpus 1 --unblocked A.mtx -o L.mtx --ipiv Q.mtx
  [ "$RC" = 2 ] && [ ! -e L.mtx ] || fail "--unblocked under mpirun: exit $RC, '$ERR'"
  echo "ok: errors under mpirun: one line from rank 0, exit 1 / 2, nothing written"
  mat O.mtx 2 2  1e-300 0  0 1; vec e.mtx 1e10 1   # x(1) overflows: exit 4 from every rank
  mpi 2 gesv --backend cpu --ncpus 1 O.mtx e.mtx -o Y.mtx
  [ "$RC" = 4 ] && [ "$(body Y.mtx)" = "inf 1" ] && [ "$(grep -c warning stderr.txt)" = 1 ] ||
    fail "overflowing gesv under mpirun: exit $RC, '$ERR'"
  # a rank that dies in the middle (killed after 1 s of a run that takes minutes at nb 4 on one
  # CPU worker a rank, even on a 16-core host): the job ends at once with a non-zero exit, never
  # a hang, and nothing is written
  run gen matrix --n 600 --seed 2 -o M.mtx
  local t0=$SECONDS
  # shellcheck disable=SC2016
  timeout 120 $EXSTAR_MPIRUN --oversubscribe -np 3 bash -c \
    'if [ "$OMPI_COMM_WORLD_RANK" = 2 ]; then "$0" "$@" & p=$!; sleep 1; kill -9 $p; wait $p; exit $?; fi; exec "$0" "$@"' \
    "$EXSTAR" getrf --backend cpu --ncpus 1 --nb 4 M.mtx -o L.mtx --ipiv Q.mtx >stdout.txt 2>stderr.txt
  RC=$?
  [ "$RC" != 0 ] && [ "$RC" != 124 ] && [ $((SECONDS - t0)) -lt 100 ] && [ ! -e L.mtx ] && [ ! -e Q.mtx ] ||
    fail "a killed rank: exit $RC after $((SECONDS - t0)) s (124: a hang), files: $(ls)"
  echo "ok: a rank killed mid-run: the job ends in $((SECONDS - t0)) s with exit $RC, nothing written"
}

# Under mpirun, a subcommand without a distributed form runs on rank 0 alone: what one process
# prints, once; its files, written by rank 0 only; every rank exits with rank 0's code.
case_mpi_rank0() {
  [ -n "${EXSTAR_MPIRUN:-}" ] || skip "no mpirun, or exstar built without StarPU-MPI"
  vec x.mtx 1e16 1 -1e16 0.5
  # on_ranks NP ARGS...: each rank runs the tool in its own directory rR (inputs: ../FILE), with
  # its stdout, stderr and exit code in rR/out, rR/err, rR/rc
  on_ranks() {
    local np=$1 r; shift
    rm -rf r[0-9]*
    for ((r = 0; r < np; r++)); do mkdir "r$r"; done
    # shellcheck disable=SC2016
    timeout 120 $EXSTAR_MPIRUN --oversubscribe -np "$np" bash -c \
      'cd "r${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-0}}" && "$0" "$@" >out 2>err; echo $? >rc' "$EXSTAR" "$@" \
      >mpirun.txt 2>&1 || fail "mpirun $*: exit $? ($(cat mpirun.txt))"
  }
  # alone NP CODE FILES -- ARGS...: rank 0 printed what one process prints (run in r_ref) and
  # wrote FILES, the same bytes; the other ranks printed and wrote nothing; every rank exited CODE
  alone() {
    local np=$1 code=$2 files=() f r; shift 2
    while [ "$1" != "--" ]; do files+=("$1"); shift; done; shift
    rm -rf r_ref && mkdir r_ref && (cd r_ref && "$EXSTAR" "$@" >out 2>err; echo $? >rc)
    on_ranks "$np" "$@"
    for f in out err rc "${files[@]}"; do
      cmp -s "r_ref/$f" "r0/$f" || fail "mpirun -np $np $*: rank 0's $f differs from one process's"
    done
    [ "$(cat r0/rc)" = "$code" ] || fail "mpirun -np $np $*: exit $(cat r0/rc), expected $code"
    for ((r = 1; r < np; r++)); do
      [ "$(cat "r$r/rc")" = "$code" ] || fail "mpirun -np $np $*: rank $r exited $(cat "r$r/rc"), rank 0 $code"
      [ ! -s "r$r/out" ] && [ ! -s "r$r/err" ] || fail "mpirun -np $np $*: rank $r printed '$(cat "r$r/out" "r$r/err")'"
      [ "$(ls "r$r" | tr '\n' ' ')" = "err out rc " ] || fail "mpirun -np $np $*: rank $r wrote $(ls "r$r")"
    done
    echo "ok: mpirun -np $np exstar $*: rank 0 alone, exit $code"
  }
  alone 2 0 -- sum --backend cpu ../x.mtx
  [ "$(cat r0/out)" = 1.5 ] || fail "mpirun -np 2 sum: printed '$(cat r0/out)'"
  alone 3 0 -- sum ../x.mtx
  alone 2 0 v.mtx v_y.mtx -- gen vector --n 50 --seed 3 -o v.mtx
  alone 2 0 M.mtx -- gen matrix --n 20 --seed 3 -o M.mtx
  alone 2 0 -- --version
  alone 2 0 -- sum --help
  alone 2 0 -- getrf --help
  alone 2 1 -- sum ../nosuch.mtx
  alone 2 2 -- sum
  alone 2 2 -- frobnicate
}

# mpirun with default options: getrf and gesv run distributed on whatever workers StarPU gives
# each rank (here 2 cores, PoCL) with one process's bytes; a rank whose workers cannot run the
# LU is one clear error line, nothing written, never an abort.
case_mpi_defaults() {
  [ -n "${EXSTAR_MPIRUN:-}" ] || skip "no mpirun, or exstar built without StarPU-MPI"
  run gen matrix --n 150 --cond 1e30 --seed 4 -o A.mtx
  { echo "%%MatrixMarket matrix array real general"; echo "150 2"
    for ((i = 0; i < 300; i++)); do echo $(((i * 7) % 13 - 6)); done; } >B.mtx
  run getrf A.mtx -o LU_ref.mtx --ipiv P_ref.mtx; [ "$RC" = 0 ] || fail "getrf: $ERR"
  run gesv --refine 1 A.mtx B.mtx -o X_ref.mtx; [ "$RC" = 0 ] || fail "gesv: $ERR"
  mpi 2 getrf A.mtx -o LU.mtx --ipiv P.mtx
  [ "$RC" = 0 ] && [ -z "$OUT" ] && [ -z "$ERR" ] || fail "mpirun -np 2 getrf (defaults): exit $RC '$OUT' '$ERR'"
  cmp -s LU.mtx LU_ref.mtx && cmp -s P.mtx P_ref.mtx || fail "mpirun -np 2 getrf (defaults): other bytes"
  mpi 2 gesv --refine 1 A.mtx B.mtx -o X.mtx
  [ "$RC" = 0 ] && cmp -s X.mtx X_ref.mtx || fail "mpirun -np 2 gesv (defaults): exit $RC, other bytes ($ERR)"
  echo "ok: mpirun -np 2 getrf, gesv with default options: one process's bytes"
  rm -f LU.mtx P.mtx
  # OpenCL workers alone (PoCL here) cannot run the LU's panels
  mpi 2 getrf --backend opencl A.mtx -o LU.mtx --ipiv P.mtx
  [ "$RC" = 1 ] && [ "$(echo "$ERR" | wc -l)" = 1 ] && [ ! -e LU.mtx ] && [ ! -e P.mtx ] ||
    fail "getrf --backend opencl under mpirun: exit $RC, '$ERR', files $(ls)"
  case "$ERR" in
    *"found no opencl worker"*) echo "note: no OpenCL worker here: $ERR" ;;
    "exstar: "*"process 0 has no worker for the LU's panels"*"0 CPU"*) echo "ok: $ERR" ;;
    *) fail "getrf --backend opencl under mpirun: '$ERR'" ;;
  esac
  # only rank 1 lacks them: rank 0 says so, naming rank 1
  timeout 300 $EXSTAR_MPIRUN --oversubscribe -np 1 "$EXSTAR" getrf A.mtx -o LU.mtx --ipiv P.mtx : \
    -np 1 "$EXSTAR" getrf --backend opencl A.mtx -o LU.mtx --ipiv P.mtx >stdout.txt 2>stderr.txt
  RC=$?
  ERR=$(grep '^exstar' stderr.txt)
  [ "$RC" = 1 ] && [ "$(echo "$ERR" | wc -l)" = 1 ] && [ ! -e LU.mtx ] || fail "rank 1 OpenCL only: exit $RC, '$ERR'"
  case "$ERR" in
    *"found no opencl worker"* | *"process 1 has no worker"*) echo "ok: $ERR" ;;
    *) fail "rank 1 OpenCL only: '$ERR'" ;;
  esac
}

case_bench() {
  local op
  for op in dot nrm2 gemv trsv gemm getrf potrf; do
    run bench "$op" --n 24 --reps 1 --backend cpu
    [ "$RC" = 0 ] || fail "bench $op: exit $RC ($ERR)"
    # the exact call, then the baseline, last, with ratio 1: the vendor's BLAS or LAPACK call
    # (the tool's own loop only in a build without them)
    grep -q "^exstar bench $op: n = 24" stdout.txt && grep -qE "^exact .* [0-9.]+e[-+][0-9]+ " stdout.txt &&
      tail -1 stdout.txt | grep -qE "^(blas +BLAS d$op|lapack +LAPACK d(getrf|potrf)|plain +double).* 1$" ||
      fail "bench $op: table '$OUT'"
    # getrf, potrf: the exact and plain tiled graphs and LAPACK's call, one line each
    case $op in getrf|potrf) grep -qE "^plain-tiled " stdout.txt || fail "bench $op: no plain-tiled line" ;; esac
    echo "ok: bench $op"
  done
  cat stdout.txt
}

# The progress line: never when stderr is not a terminal; drawn (and erased) when it is.
case_progress() {
  run gen matrix --n 260 --cond 1e6 --seed 4 -o A.mtx
  run getrf --backend cpu A.mtx -o LU.mtx --ipiv P.mtx
  [ "$RC" = 0 ] && [ ! -s stderr.txt ] || fail "getrf, stderr not a terminal: exit $RC, stderr '$ERR'"
  echo "ok: nothing on stderr when it is not a terminal"
  command -v script >/dev/null || skip "no 'script' command to give the tool a terminal"
  # script -qc runs the command on a pseudo-terminal; its transcript is the terminal's output.
  # (drawn from the first frame on: a fast machine factors this in well under the usual 0.5 s)
  # --unblocked: the tiled LU of this matrix can end before the first frame (20 ms); the unblocked
  # graph's factors are the same bits, which the cmp below also checks
  EXSTAR_PROGRESS_AFTER_MS=0 script -qc "'$EXSTAR' getrf --unblocked --backend cpu A.mtx -o LU2.mtx --ipiv P2.mtx" /dev/null >tty.txt 2>&1 </dev/null
  grep -q "exstar: getrf \[[#-]*\] *[0-9]*%" tty.txt || fail "no progress line on a terminal: $(tr '\r' '\n' <tty.txt | head -3)"
  cmp -s LU.mtx LU2.mtx || fail "getrf with a progress line gave other factors"
  echo "ok: progress line on a terminal: $(tr '\r' '\n' <tty.txt | grep -m1 'tasks left' | sed 's/\x1b\[K//g')"
}

# Every form the reader takes (tests/cli/data: each NAME.mtx beside NAME.ref.mtx, the same matrix as
# an array real general file) gives the tool the same matrix: the same bits out of gemv (and
# getrf for square ones) as from the twin. test_mm_read compares the arrays themselves.
case_mm_formats() {
  local data n rows cols
  data=$(cd "$(dirname "$0")/data" && pwd)
  for f in "$data"/*.ref.mtx; do
    n=$(basename "$f" .ref.mtx)
    read -r rows cols < <(grep -v '^%' "$f" | head -1)
    vec x.mtx $(seq 1 "$cols" | awk '{ printf "%.17g ", 1 + $1 / 1024 }')
    run gemv "$data/$n.mtx" x.mtx -o y.mtx
    [ "$RC" = 0 ] || fail "gemv $n.mtx: exit $RC: $ERR"
    run gemv "$f" x.mtx -o y_ref.mtx
    cmp -s y.mtx y_ref.mtx || fail "gemv on $n.mtx and on its array twin differ"
    if [ "$rows" = "$cols" ]; then
      run getrf "$data/$n.mtx" -o lu.mtx --ipiv p.mtx
      run getrf "$f" -o lu_ref.mtx --ipiv p_ref.mtx
      cmp -s lu.mtx lu_ref.mtx && cmp -s p.mtx p_ref.mtx || fail "getrf on $n.mtx and on its array twin differ"
    fi
    echo "ok: $n.mtx reads as $n.ref.mtx"
  done
  expect 1.5 sum "$data/coord_vector.mtx"   # duplicates 1e16 + 1 - 1e16 add up exactly to 1
}

# Defects of coordinate, symmetric and integer files: exit 1, one line "exstar: FILE:LINE: what".
case_mm_malformed() {
  local c='%%%%MatrixMarket matrix coordinate real general'
  local s='%%%%MatrixMarket matrix coordinate real symmetric'
  local k='%%%%MatrixMarket matrix coordinate real skew-symmetric'
  check_bad() {  # check_bad TEXT CONTENT (printf format)
    printf "$2" >bad.mtx
    expect_error 1 "$1" sum bad.mtx
    only_files bad.mtx
  }
  check_bad "bad.mtx:1: unsupported field 'complex' (exstar has no complex arithmetic yet)" \
            '%%%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n'
  check_bad "bad.mtx:1: unsupported symmetry 'hermitian' (a complex matrix" \
            '%%%%MatrixMarket matrix coordinate real hermitian\n1 1 1\n1 1 1\n'
  check_bad "bad.mtx:1: a 'pattern' matrix cannot be 'skew-symmetric'" \
            '%%%%MatrixMarket matrix coordinate pattern skew-symmetric\n2 2 1\n2 1\n'
  check_bad "bad.mtx:1: unsupported field 'pattern' for an array" '%%%%MatrixMarket matrix array pattern symmetric\n1 1\n'
  check_bad "bad.mtx:2: bad size line '2 1' (expected 'rows cols entries')" "$c\n2 1\n1 1 5\n"
  check_bad "bad.mtx:2: bad entry count '-1'" "$c\n2 1 -1\n"
  check_bad "bad.mtx:2: matrix too large" "$c\n4000000000 4000000000 0\n"
  check_bad "bad.mtx:2: too many entries" "$c\n2 1 4000000000\n"
  check_bad "bad.mtx:2: a symmetric matrix must be square, got 2 x 3" "$s\n2 3 0\n"
  check_bad "bad.mtx:2: a skew-symmetric matrix must be square" '%%%%MatrixMarket matrix array real skew-symmetric\n2 1\n1\n'
  check_bad "bad.mtx:4: truncated: expected 3 entries, found 1" "$c\n2 1 3\n1 1 5\n\n"
  check_bad "bad.mtx:5: extra data after the 2 entries announced on line 2" "$c\n2 1 2\n1 1 5\n2 1 6\n1 1 7\n"
  check_bad "bad.mtx:3: row index 3 out of range [1, 2]" "$c\n2 1 1\n3 1 5\n"
  check_bad "bad.mtx:3: column index 0 out of range [1, 1]" "$c\n2 1 1\n1 0 5\n"
  check_bad "bad.mtx:3: bad row index '-1'" "$c\n2 1 1\n-1 1 5\n"
  check_bad "bad.mtx:3: bad column index '1.0'" "$c\n2 1 1\n1 1.0 5\n"
  check_bad "bad.mtx:3: expected 'row col value', found 2 fields" "$c\n2 1 1\n1 1\n"
  check_bad "bad.mtx:3: expected 'row col', found 3 fields" '%%%%MatrixMarket matrix coordinate pattern general\n2 1 1\n1 1 1\n'
  check_bad "bad.mtx:3: not a number: 'five'" "$c\n2 1 1\n1 1 five\n"
  check_bad "bad.mtx:3: value out of the double range: '1e999'" "$c\n2 1 1\n1 1 1e999\n"
  check_bad "bad.mtx:4: comment inside the data" "$c\n2 1 2\n1 1 5\n%% late comment\n2 1 6\n"
  check_bad "bad.mtx:3: not an integer: '1.5'" '%%%%MatrixMarket matrix coordinate integer general\n2 1 1\n1 1 1.5\n'
  check_bad "bad.mtx:3: not an integer: 'nan'" '%%%%MatrixMarket matrix array integer general\n1 1\nnan\n'
  check_bad "bad.mtx:4: entry (1, 2) above the diagonal of a symmetric matrix" "$s\n2 2 2\n1 1 5\n1 2 6\n"
  check_bad "bad.mtx:3: entry (1, 2) above the diagonal of a skew-symmetric matrix" "$k\n2 2 1\n1 2 6\n"
  check_bad "bad.mtx:3: nonzero diagonal entry (2, 2) of a skew-symmetric matrix" "$k\n2 2 1\n2 2 1\n"
  check_bad "bad.mtx:5: the 2 entries at (1, 1) add up to a value out of the double range" \
            "$c\n2 1 3\n1 1 1e308\n2 1 1\n1 1 1e308\n"
  check_bad "bad.mtx:5: truncated: expected 3 values, found 2" \
            '%%%%MatrixMarket matrix array real symmetric\n2 2\n1\n2\n\n'
  check_bad "bad.mtx:4: extra data after the 1 values of a skew-symmetric 2x2 array" \
            '%%%%MatrixMarket matrix array real skew-symmetric\n2 2\n1\n2\n'
}

# --sched must name a scheduler StarPU knows: a usage error (exit 2) listing them, raised before
# any file is read; an unknown STARPU_SCHED fails the run (exit 1) instead of being ignored.
case_sched() {
  vec x.mtx 1 2
  expect_error 2 "sum: --sched: unknown scheduler 'nosuchsched' (known: " sum --sched nosuchsched x.mtx
  case "$ERR" in *" eager,"*"dmda"*) ;; *) fail "the known schedulers are not listed: $ERR" ;; esac
  expect_error 2 "--sched: unknown scheduler 'nosuchsched'" sum --sched nosuchsched nosuch.mtx
  expect_error 2 "--sched: unknown scheduler 'nosuchsched'" sum --plain --sched nosuchsched x.mtx
  expect_error 2 "--sched: unknown scheduler 'nosuchsched'" dot --sched=nosuchsched x.mtx x.mtx
  expect_error 2 "--sched: empty name" sum --sched= x.mtx
  STARPU_SCHED=nosuchsched expect_error 1 "STARPU_SCHED='nosuchsched' is not a StarPU scheduler" sum x.mtx
  expect 3 sum --sched lws x.mtx
  STARPU_SCHED=eager expect 3 sum --sched dmda x.mtx
  STARPU_SCHED= expect 3 sum x.mtx # empty means unset, as for StarPU
}

# A file's bytes and modification time (ns): equal before and after when a run left it alone.
file_state() { echo "$(cksum <"$1") $(stat -c %y "$1")"; }
no_temps() {  # no_temps DIR...: no temporary file (NAME.tmpXXXXXX) left there
  local left
  left=$(find "$@" -maxdepth 1 -name '*.tmp*' | tr '\n' ' ')
  [ -z "$left" ] || fail "temporary files left: $left"
}
# ms: milliseconds since the epoch.
ms() { echo $(($(date +%s%N) / 1000000)); }

# Output paths: checked before computing, devices and FIFOs written in place, symlinks written
# through, modes kept, the outputs of one command committed together.
case_outputs() {
  lu_data
  # Devices: written in place, never replaced by a regular file (the hazard is real as root).
  run gen matrix --n 5 -o /dev/null
  [ "$RC" = 0 ] && [ -c /dev/null ] || fail "-o /dev/null: exit $RC ($ERR), /dev/null a $(stat -c %F /dev/null)"
  run getrf A.mtx -o /dev/null --ipiv /dev/null
  [ "$RC" = 0 ] && [ -c /dev/null ] || fail "getrf -o /dev/null --ipiv /dev/null: exit $RC ($ERR)"
  echo "ok: -o /dev/null, still a character device"
  if [ -c /dev/full ]; then
    expect_error 1 "/dev/full: write error: No space left on device" gen matrix --n 40 -o /dev/full
    [ -c /dev/full ] || fail "/dev/full is a $(stat -c %F /dev/full) now"
    # Together or not at all: LU.mtx keeps its old bytes when the pivots cannot be written.
    echo old >LU.mtx
    local before
    before=$(file_state LU.mtx)
    expect_error 1 "/dev/full: write error" getrf A.mtx -o LU.mtx --ipiv /dev/full
    [ "$(file_state LU.mtx)" = "$before" ] || fail "getrf --ipiv /dev/full changed LU.mtx"
    no_temps .
  fi
  # A FIFO: written in place, stays a FIFO.
  mkfifo fifo
  cat fifo >from_fifo.txt &
  local reader=$!
  run gen matrix --n 3 -o fifo
  [ "$RC" = 0 ] || kill "$reader" 2>/dev/null # a reader still waiting for a writer
  wait "$reader"
  [ "$RC" = 0 ] && [ -p fifo ] && grep -qx "3 3" from_fifo.txt || fail "-o fifo: exit $RC ($ERR)"
  echo "ok: -o FIFO"
  # A symlink stays a symlink; its target (here in another directory) gets the content.
  mkdir d
  echo old >d/target.mtx
  ln -s d/target.mtx link.mtx
  run gen matrix --n 3 -o link.mtx
  [ "$RC" = 0 ] && [ -L link.mtx ] && grep -qx "3 3" d/target.mtx || fail "-o symlink: exit $RC ($ERR)"
  ln -s d/new.mtx dangling.mtx # a dangling link names the file to create
  run gen matrix --n 3 -o dangling.mtx
  [ "$RC" = 0 ] && [ -L dangling.mtx ] && grep -qx "3 3" d/new.mtx || fail "-o dangling symlink: exit $RC ($ERR)"
  no_temps . d
  echo "ok: -o symlink written through"
  # An existing file keeps its mode.
  echo old >m.mtx
  chmod 640 m.mtx
  run gen matrix --n 3 -o m.mtx
  [ "$RC" = 0 ] && [ "$(stat -c %a m.mtx)" = 640 ] || fail "-o mode 640: exit $RC, mode $(stat -c %a m.mtx)"
  echo "ok: mode 640 kept"
  # A directory as an output fails before anything is written.
  run getrf A.mtx -o LU.mtx --ipiv P.mtx
  before=$(file_state LU.mtx)
  mkdir isdir
  expect_error 1 "isdir: is a directory (nothing computed)" getrf A.mtx -o LU.mtx --ipiv isdir
  [ "$(file_state LU.mtx)" = "$before" ] || fail "getrf --ipiv isdir touched LU.mtx"
  # One file under two spellings, existing or not, by a symlink too.
  expect_error 2 "-o and --ipiv name the same file" getrf A.mtx -o x.mtx --ipiv ./x.mtx
  [ ! -e x.mtx ] || fail "getrf -o x.mtx --ipiv ./x.mtx wrote x.mtx"
  expect_error 2 "-o and --ipiv name the same file" getrf A.mtx -o LU.mtx --ipiv "../$(basename "$PWD")/LU.mtx"
  ln -s LU.mtx lu_link.mtx
  expect_error 2 "-o and --ipiv name the same file" getrf A.mtx -o lu_link.mtx --ipiv LU.mtx
  expect_error 2 "-o and -o2 name the same file" gen vector --n 10 -o v.mtx -o2 d/../v.mtx
  [ "$(file_state LU.mtx)" = "$before" ] || fail "a refused getrf touched LU.mtx"
  # A missing directory is refused before computing (n = 3000 would take minutes).
  local t0
  t0=$(ms)
  expect_error 1 "nodir/A.mtx: directory 'nodir' does not exist (nothing computed)" gen matrix --n 3000 -o nodir/A.mtx
  [ $(($(ms) - t0)) -lt 5000 ] || fail "the missing directory was reported after $(($(ms) - t0)) ms"
  expect_error 1 "directory 'nodir' does not exist (nothing computed)" getrf A.mtx -o LU.mtx --ipiv nodir/P.mtx
  expect_error 1 "'A.mtx' is not a directory" gen matrix --n 3 -o A.mtx/B.mtx
  if [ "$(id -u)" != 0 ]; then
    mkdir ro && chmod 555 ro
    expect_error 1 "cannot write in directory 'ro'" gen matrix --n 3 -o ro/A.mtx
  fi
  [ "$(file_state LU.mtx)" = "$before" ] || fail "a refused getrf touched LU.mtx"
  no_temps . d
}

# A signal during the write removes the temporary files and ends the process by that signal.
# getrf opens its outputs in order: LU.mtx's temporary file exists while the open of the
# pivots' FIFO waits for a reader, a window that stays open until the signal comes.
case_output_signals() {
  lu_data
  mkfifo pivots
  local sig pid i seen rc sigs="TERM HUP"
  env --default-signal=INT true 2>/dev/null && sigs="TERM INT HUP" # coreutils >= 8.31
  for sig in $sigs; do
    # Background jobs start with SIGINT ignored; env gives it back its default action.
    env --default-signal="$sig" "$EXSTAR" getrf A.mtx -o LU.mtx --ipiv pivots >/dev/null 2>stderr.txt &
    pid=$!
    seen=0
    for i in $(seq 1 1000); do # up to 10 s for the temporary file to appear
      if compgen -G 'LU.mtx.tmp*' >/dev/null; then seen=1; break; fi
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.01
    done
    [ "$seen" = 1 ] || { kill -KILL "$pid"; fail "SIG$sig: no temporary file seen ($(cat stderr.txt))"; }
    kill -"$sig" "$pid"
    for i in $(seq 1 1000); do kill -0 "$pid" 2>/dev/null || break; sleep 0.01; done
    kill -0 "$pid" 2>/dev/null && { kill -KILL "$pid"; fail "SIG$sig did not end getrf"; }
    wait "$pid"
    rc=$?
    [ "$rc" -gt 128 ] || fail "SIG$sig: getrf exited $rc"
    no_temps .
    [ ! -e LU.mtx ] && [ -p pivots ] || fail "SIG$sig: LU.mtx appeared or the FIFO was replaced"
    echo "ok: SIG$sig during the write (exit $rc): no temporary file left"
  done
  # A long write of its own (the temporary file grows for a while): the same.
  "$EXSTAR" gen matrix --n 700 --seed 1 -o big.mtx >/dev/null 2>stderr.txt &
  pid=$!
  seen=0
  for i in $(seq 1 3000); do # the construction takes a few seconds before the write
    if compgen -G 'big.mtx.tmp*' >/dev/null; then seen=1; break; fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.01
  done
  if [ "$seen" = 1 ] && kill -TERM "$pid" 2>/dev/null; then
    wait "$pid"
    rc=$?
    no_temps .
    echo "ok: SIGTERM during gen matrix's write (exit $rc): no temporary file left"
  else
    wait "$pid"
    echo "note: gen matrix finished before the signal; nothing to check"
  fi
}

# Memory limits (issue 24). Under ulimit -v, getrf of n = 1500 either runs (the same bytes as
# without a limit) or exits 1 with one line about memory and writes nothing: never an abort
# (134) or a hang (timeout: 124). gen exits under 100-180 MB (OpenBLAS's threads once hung it
# at exit). Huge declared sizes are refused at once, from the size line, before any allocation.
case_memory() {
  run gen matrix --n 1500 --seed 1 -o A.mtx
  [ "$RC" = 0 ] || fail "gen: exit $RC ($ERR)"
  run getrf A.mtx -o LU0.mtx --ipiv P0.mtx
  [ "$RC" = 0 ] || fail "getrf without a limit: exit $RC ($ERR)"
  local mb rc
  for mb in 200 250 300 400 800 1500; do
    rm -f LU.mtx P.mtx
    # OPENBLAS_NUM_THREADS=1: OpenBLAS starts one thread a core when it is loaded, before the
    # tool's main can choose (main.cpp), each with a 128 MB buffer: on a 16-core machine they
    # alone exceed 1.5 GB and OpenBLAS ends the process (seen on the GPU host, 2026-11-27)
    (ulimit -c 0; ulimit -v $((mb * 1024)); OPENBLAS_NUM_THREADS=1 exec timeout 120 "$EXSTAR" getrf A.mtx -o LU.mtx --ipiv P.mtx) \
      >stdout.txt 2>stderr.txt
    rc=$?
    ERR=$(cat stderr.txt)
    case "$rc" in
      0) cmp -s LU.mtx LU0.mtx && cmp -s P.mtx P0.mtx || fail "getrf under ulimit -v ${mb} MB: other bytes"
         echo "ok: getrf under ulimit -v ${mb} MB: ran, same bytes" ;;
      1) [ "$(wc -l <stderr.txt)" = 1 ] || fail "getrf under ulimit -v ${mb} MB: stderr is not one line: $ERR"
         case "$ERR" in *memory*) ;; *) fail "getrf under ulimit -v ${mb} MB: '$ERR' says nothing of memory" ;; esac
         [ ! -e LU.mtx ] && [ ! -e P.mtx ] || fail "getrf under ulimit -v ${mb} MB failed but wrote a file"
         echo "ok: getrf under ulimit -v ${mb} MB: $ERR" ;;
      127) # the limit is below what the tool's shared libraries map (a CUDA build's cuBLAS):
           # the loader refuses to start it, before any of exstar runs
           case "$ERR" in *"error while loading shared libraries"*) ;; *) fail "getrf under ulimit -v ${mb} MB: exit 127 ($ERR)" ;; esac
           [ ! -e LU.mtx ] || fail "getrf under ulimit -v ${mb} MB: not started, but a file was written"
           echo "ok: getrf under ulimit -v ${mb} MB: the loader cannot map the tool's libraries ($ERR)" ;;
      *) fail "getrf under ulimit -v ${mb} MB: exit $rc ($ERR)" ;;
    esac
  done
  no_temps .
  for mb in 100 150 180; do
    rm -f g.mtx
    (ulimit -c 0; ulimit -v $((mb * 1024)); exec timeout 30 "$EXSTAR" gen matrix --n 10 -o g.mtx) >stdout.txt 2>stderr.txt
    rc=$?
    if [ "$rc" = 0 ]; then
      grep -qx "10 10" g.mtx || fail "gen matrix under ulimit -v ${mb} MB: no matrix written"
    elif [ "$rc" != 1 ] || [ -e g.mtx ]; then
      fail "gen matrix under ulimit -v ${mb} MB: exit $rc ($(cat stderr.txt))"
    fi
    echo "ok: gen matrix --n 10 under ulimit -v ${mb} MB: exit $rc"
  done
  # 46000 x 46000 in three lines: 16.9 GB of doubles, 34 GB for the plain LU, 100 GB and more for
  # the exact commands. Refused under a 4 GB ulimit -v everywhere, and without a limit where the
  # machine has less than 30 GB available.
  { echo "%%MatrixMarket matrix coordinate real general"; echo "46000 46000 1"; echo "1 1 2.0"; } >huge.mtx
  { echo "%%MatrixMarket matrix coordinate real general"; echo "46000 1 1"; echo "1 1 2.0"; } >hugeb.mtx
  local avail limit t0 t1
  avail=$(awk '/^MemAvailable:/ {print $2}' /proc/meminfo)
  for limit in 4000000 unlimited; do
    if [ "$limit" = unlimited ] && [ "${avail:-0}" -gt 30000000 ]; then
      echo "ok: (this machine has ${avail} kB available: no run without a limit)"
      continue
    fi
    for cmd in "getrf huge.mtx -o o.mtx --ipiv p.mtx" "getrf --plain huge.mtx -o o.mtx --ipiv p.mtx" \
               "gesv huge.mtx hugeb.mtx -o o.mtx" "gemm huge.mtx huge.mtx -o o.mtx" \
               "trsm --side L --uplo L huge.mtx huge.mtx -o o.mtx"; do
      t0=$(date +%s%N)
      # shellcheck disable=SC2086
      (ulimit -c 0; ulimit -v "$limit"; exec timeout 60 "$EXSTAR" $cmd) >stdout.txt 2>stderr.txt
      rc=$?
      t1=$(date +%s%N)
      ERR=$(cat stderr.txt)
      [ "$rc" = 1 ] || fail "$cmd (ulimit -v $limit): exit $rc ($ERR)"
      [ "$(wc -l <stderr.txt)" = 1 ] || fail "$cmd: stderr is not one line: $ERR"
      case "$ERR" in *"of a 46000 x 46000 matrix"*"needs about"*"GB of memory; this process may use"*) ;;
        *) fail "$cmd (ulimit -v $limit): '$ERR'" ;; esac
      [ $(((t1 - t0) / 1000000)) -lt 5000 ] || fail "$cmd: refused after $(((t1 - t0) / 1000000)) ms"
      [ ! -e o.mtx ] && [ ! -e p.mtx ] || fail "$cmd wrote a file"
      echo "ok: $cmd (ulimit -v $limit), $(((t1 - t0) / 1000000)) ms: $ERR"
    done
  done
}

# potrf and posv: an SPD matrix whose Cholesky factor is exact in binary (L = [2 . .; 1 2 .; 0 .5 2],
# A = L L^T), read from a symmetric coordinate file (its lower triangle); the exact test of
# definiteness; the same bits on every worker mix.
case_potrf() {
  { echo "%%MatrixMarket matrix coordinate real symmetric"; echo "3 3 5"
    echo "1 1 4"; echo "2 1 2"; echo "2 2 5"; echo "3 2 1"; echo "3 3 4.25"; } > A.mtx
  expect "" potrf A.mtx -o L.mtx
  [ "$(body L.mtx)" = "2 1 0 0 2 0.5 0 0 2" ] || fail "potrf: $(cat L.mtx)"
  expect "" potrf --uplo U --nb 1 A.mtx -o U.mtx
  [ "$(body U.mtx)" = "2 0 0 1 2 0 0 0.5 2" ] || fail "potrf --uplo U: $(cat U.mtx)"
  # a general file: only the triangle asked for is read (a NaN in the other one is ignored)
  mat G.mtx 3 3  4 2 0  nan 5 1  7 nan 4.25
  expect "" potrf G.mtx -o L2.mtx
  cmp -s L.mtx L2.mtx || fail "potrf of the lower triangle of a general file differs"
  expect_error 1 "G.mtx: entry (1,2) is nan: potrf needs finite input" potrf --uplo U G.mtx -o U2.mtx
  # not positive definite by the exact test: the last pivot is exactly 0, or 2^-60 (definite)
  { echo "%%MatrixMarket matrix coordinate real symmetric"; echo "3 3 5"
    echo "1 1 4"; echo "2 1 2"; echo "2 2 5"; echo "3 2 1"; echo "3 3 0.25"; } > S.mtx
  expect_error 3 "not positive definite: the exact value under the root of L(3,3) is <= 0" potrf S.mtx -o LS.mtx
  [ ! -e LS.mtx ] || fail "potrf of a matrix that is not positive definite wrote its output"
  { echo "%%MatrixMarket matrix coordinate real symmetric"; echo "3 3 5"
    echo "1 1 4"; echo "2 1 2"; echo "2 2 5"; echo "3 2 1"; echo "3 3 0x1.0000000000001p-2"; } > T.mtx
  expect "" potrf T.mtx -o LT.mtx
  expect_error 2 "--uplo takes L or U" potrf --uplo X A.mtx -o L3.mtx
  # posv: A x = b with x = (1, -1, 2): b = A x
  vec b.mtx 2 -1 7.5
  local mode first=""
  for mode in "" "--refine 2" "--uplo U" "--backend cpu --ncpus 1 --sched ws" "--backend cpu --ncpus 2 --sched dmda" \
              "--backend all --sched random"; do
    # shellcheck disable=SC2086
    run_or_skip posv $mode A.mtx b.mtx -o X.mtx
    [ "$RC" = 0 ] || fail "posv $mode: exit $RC ($ERR)"
    [ "$(body X.mtx)" = "1 -1 2" ] || fail "posv $mode: $(cat X.mtx)"
    echo "ok: posv $mode"
  done
  expect_error 3 "posv: the matrix is not positive definite" posv S.mtx b.mtx -o Y.mtx
  [ ! -e Y.mtx ] || fail "posv of a matrix that is not positive definite wrote its output"
}

case "$CASE" in
  sched) case_sched ;;
  sum_dot) case_sum_dot ;;
  hex) case_hex ;;
  special_values) case_special_values ;;
  backend_cpu) case_backend cpu ;;
  backend_opencl) case_backend opencl ;;
  backend_cuda) case_backend cuda ;;
  same_bits) case_same_bits ;;
  gen) case_gen ;;
  malformed) case_malformed ;;
  mm_formats) case_mm_formats ;;
  mm_malformed) case_mm_malformed ;;
  usage) case_usage ;;
  help) case_help ;;
  gemv) case_gemv ;;
  trsv) case_trsv ;;
  level3) case_level3 ;;
  getrf) case_getrf ;;
  gesv) case_gesv ;;
  trace) case_trace ;;
  lu_same_bits) case_lu_backend "--backend cpu --ncpus 1 --sched ws" "--backend cpu --ncpus 2 --sched dmda" \
                                "--backend all" "--backend all --sched random" ;;
  lu_opencl) case_lu_backend "--backend opencl" "--backend cpu,opencl --sched eager" ;;
  lu_cuda) case_lu_backend "--backend cuda" "--backend cpu+cuda" ;;
  bench) case_bench ;;
  mpi) case_mpi ;;
  mpi_rank0) case_mpi_rank0 ;;
  mpi_defaults) case_mpi_defaults ;;
  nrm2) case_nrm2 ;;
  potrf) case_potrf ;;
  progress) case_progress ;;
  outputs) case_outputs ;;
  output_signals) case_output_signals ;;
  memory) case_memory ;;
  *) fail "unknown case" ;;
esac
echo "PASS [$CASE]"
