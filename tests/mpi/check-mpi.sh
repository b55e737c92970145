#!/usr/bin/env bash
# rfscope-cli under mpirun: the outputs of 3 ranks equal one process's byte for byte, and a failing
# or killed rank ends the job with a non-zero status and no output file.
#   tests/mpi/check-mpi.sh RFSCOPE_CLI same-bytes|faults
set -euo pipefail

cli=$(realpath "$1")
check=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

launch=(mpirun --oversubscribe -n 3)
((EUID == 0)) && launch=(mpirun --allow-run-as-root --oversubscribe -n 3)

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# The mc JSON without its timing fields.
untimed() { sed -E 's/"(seconds|features_per_second)":[^,]*,//g' "$1"; }

same_mc() {
  "$cli" mc "$@" >one.json
  "${launch[@]}" "$cli" mc "$@" >three.json
  grep -q '"variance"' one.json || fail "mc $*: no result"
  [[ "$(untimed one.json)" == "$(untimed three.json)" ]] || {
    diff <(untimed one.json) <(untimed three.json) >&2
    fail "mc $*: 3 ranks differ from one process"
  }
  echo "same bytes: mc $*"
}

same_run() {
  "$cli" run "$@" --csv one.csv --json one.json 2>/dev/null
  "${launch[@]}" "$cli" run "$@" --csv three.csv --json three.json 2>/dev/null
  cmp one.csv three.csv || fail "run $*: CSV differs"
  diff <(grep -v '"seconds"' one.json) <(grep -v '"seconds"' three.json) >&2 ||
    fail "run $*: JSON differs"
  echo "same bytes: run $* ($(grep -vc '^#' one.csv) CSV lines)"
}

pair=(--x 0.3,0.2,0.1,0.4,-0.2,0.5 --y 0.1,-0.2,0.3,0.2,0.4,-0.1)
case "$check" in
  same-bytes)
    same_mc --mechanism pos --coupling iid --m 8 "${pair[@]}" --trials 300001 --seed 3
    same_mc --mechanism pos --coupling simrf --m 16 "${pair[@]}" --trials 200000 --seed 5
    same_mc --mechanism trig --coupling orf --m 6 "${pair[@]}" --trials 100000 --seed 9 --path full
    same_mc --mechanism pois --m 4 "${pair[@]}" --trials 50000 --seed 2
    same_run variance-vs-sigma --set method=both --set sigma-steps=13 --set pairs=10 \
      --set trials=500 --set d=8
    same_run gram-frobenius --set features-steps=7 --set repetitions=6 --set points=24 --set d=16
    ;;
  faults)
    # Bad input on one rank only: that rank says why, the job ends with status 2, no file.
    set +e
    "${launch[@]:0:${#launch[@]}-2}" -n 2 "$cli" run gram-frobenius --csv out.csv : \
      -n 1 "$cli" run gram-frobenius --set d=abc --csv out.csv 2>err.txt
    status=$?
    set -e
    ((status == 2)) || fail "bad input on one rank: exit $status, expected 2"
    grep -q "rank 2): parameter 'd'" err.txt || fail "bad input on one rank: $(cat err.txt)"
    [[ ! -e out.csv ]] || fail "bad input on one rank left out.csv"
    echo "bad input on one rank: exit 2, message from rank 2, no output"

    # Ranks started with other settings (an MPMD launch): refused, never merged into one table.
    set +e
    "${launch[@]:0:${#launch[@]}-2}" -n 2 "$cli" run gram-frobenius --csv out.csv : \
      -n 1 "$cli" run gram-frobenius --set d=32 --csv out.csv 2>err.txt
    status=$?
    "${launch[@]:0:${#launch[@]}-2}" -n 2 "$cli" mc --mechanism pos "${pair[@]}" --trials 2000 : \
      -n 1 "$cli" mc --mechanism pos "${pair[@]}" --trials 2000 --seed 2 >mc.json 2>mc-err.txt
    mc_status=$?
    set -e
    ((status == 2)) || fail "ranks with other settings: exit $status, expected 2"
    grep -q "rank 2 was started with other settings than rank 0" err.txt ||
      fail "ranks with other settings: $(cat err.txt)"
    [[ ! -e out.csv ]] || fail "ranks with other settings left out.csv"
    ((mc_status == 2)) || fail "mc ranks with other seeds: exit $mc_status, expected 2"
    grep -q "other settings than rank 0" mc-err.txt || fail "mc ranks: $(cat mc-err.txt)"
    echo "ranks with other settings: exit 2, message from the rank that differs, no output"

    # A rank killed during the run: the job ends (not hangs) with a non-zero status, no file.
    "${launch[@]}" "$cli" run gram-frobenius --set features-max=4096 --set repetitions=1000 \
      --set points=256 --csv out.csv >/dev/null 2>&1 &
    job=$!
    victim=""
    for _ in $(seq 100); do
      victim=$(pgrep -f "^$cli run gram-frobenius" | tail -1 || true)
      [[ -n "$victim" ]] && break
      sleep 0.1
    done
    [[ -n "$victim" ]] || fail "no rank started"
    sleep 1
    kill -9 "$victim"
    start=$(date +%s)
    set +e
    wait "$job"
    status=$?
    set -e
    ((status != 0)) || fail "a killed rank: the job exited 0"
    (($(date +%s) - start < 20)) || fail "a killed rank: the job took over 20 s to end"
    if ls -A | grep -q 'out\.csv'; then fail "a killed rank left a file: $(ls -A)"; fi
    echo "killed rank: job ended with exit $status in $(($(date +%s) - start)) s, no output"

    # An unwritable output on rank 0: exit 1, one message.
    set +e
    "${launch[@]}" "$cli" run gram-frobenius --set features-steps=2 --set repetitions=2 \
      --csv missing/out.csv 2>err.txt
    status=$?
    set -e
    ((status == 1)) || fail "unwritable output: exit $status, expected 1"
    (($(grep -c "^rfscope-cli" err.txt) == 1)) || fail "unwritable output: $(cat err.txt)"
    echo "unwritable output on rank 0: exit 1, one message"
    ;;
  *)
    fail "unknown check '$check'"
    ;;
esac
