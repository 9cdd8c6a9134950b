#!/bin/sh
# smoke.sh — a short libFuzzer run of the fuzz targets (the four loaders:
# CSV, NDJSON, Chrome JSON, Paraver; and the filter compiler/VM).
#
#   sh tests/fuzz/smoke.sh [SECONDS]      (default 15 seconds per target)
#
# Owns: nothing but its temp directory. Builds nothing: it needs
# build/fuzz/fuzz_csv, fuzz_ndjson, fuzz_chrome, fuzz_paraver and fuzz_filter
# (make fuzz).
# For each target:
#  1. replays every file in tests/fuzz/regress/ (one process per file), so
#     that every saved reproducer is checked on every run; if one fails, the
#     target is reported FAILED and not fuzzed;
#  2. fuzzes for SECONDS (-max_total_time) with -timeout=5 -rss_limit_mb=2048,
#     -max_len 4096 (loaders) or 16384 (filter), the target's dictionary
#     (tests/fuzz/dict/) and a fresh temp copy of a seed corpus (loaders: the
#     first 40 lines of sample-logs/*.csv, *.ndjson or *.json, the inputs of
#     tests/cases/paraver.cases (Paraver), plus
#     tests/fuzz/regress/*; filter: the filters of tests/golden/disasm and
#     tests/cases/filter*.cases, tests/fuzz/regress/filter-*, and generated
#     long strings, long regexes, deep nesting, long arithmetic and IN
#     lists), crash artifacts going to the temp directory.
# The targets run two at a time (CSV and NDJSON, Chrome and Paraver), then the
# filter. Prints one line per target:
#   fuzz_csv: ok (N runs)
#   fuzz_csv: FAILED (artifact PATH, log PATH)
#   fuzz_csv: FAILED (regression tests/fuzz/regress/NAME[, ...]; logs PATH)
# and exits 1 if any failed (the temp directory is then kept for the
# artifacts and logs; it is removed when everything passed).
# Invariants: files in the repository are never modified.

secs=${1:-15}
case $secs in
'' | *[!0-9]*)
    echo "usage: sh tests/fuzz/smoke.sh [SECONDS]" >&2
    exit 2
    ;;
esac

root=$(cd "$(dirname "$0")/../.." && pwd) || exit 2
cd "$root" || exit 2
regress=tests/fuzz/regress
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tnav-fuzz-smoke.XXXXXX") || exit 2

# run_target NAME EXT: writes the result line to $tmp/NAME.result
run_target() {
    name=$1
    ext=$2
    bin=build/fuzz/$name
    res=$tmp/$name.result
    log=$tmp/$name.log
    if [ ! -x "$bin" ]; then
        echo "$name: FAILED ($bin is missing; build it with: make fuzz)" >"$res"
        return
    fi
    # 1. the saved reproducers (all of them, one process each)
    failed=
    for f in "$regress"/*; do
        # (the filter target replays only the filter reproducers)
        case "$name:$(basename "$f")" in fuzz_filter:filter-*) ;; fuzz_filter:*) continue ;; esac
        [ -f "$f" ] || continue
        rlog=$tmp/$name.regress.$(basename "$f").log
        if "$bin" -timeout=5 -rss_limit_mb=2048 "$f" >"$rlog" 2>&1; then
            rm -f "$rlog"
        else
            failed="${failed:+$failed, }$f"
        fi
    done
    if [ -n "$failed" ]; then
        echo "$name: FAILED (regression $failed; logs $tmp/$name.regress.*.log)" >"$res"
        return
    fi
    # 2. a short fuzzing run from a fresh copy of the seeds
    corpus=$tmp/corpus-$name
    art=$tmp/artifacts-$name
    mkdir -p "$corpus" "$art"
    if [ "$ext" = filter ]; then
        # one filter per seed file: the goldens' and the cases' filters
        i=0
        { sed -n 's/^[a-z-]* [^ ]* //p' tests/golden/disasm/filters.txt | grep -v '^#'
          sed -n "s/^args: filter .*-f '\(.*\)' {in}$/\1/p" tests/cases/filter*.cases; } |
        while IFS= read -r line; do
            i=$((i + 1))
            printf '%s' "$line" >"$corpus/seed-$i"
        done
        for f in "$regress"/filter-*; do
            [ -f "$f" ] && cp "$f" "$corpus/"
        done
        # long strings, long regexes, deep nesting, long lists (what short
        # seeds never grow into within a smoke run)
        awk -v d="$corpus" 'BEGIN {
            s = ""; for (i = 0; i < 1500; i++) s = s "ab\\\"c";
            printf "name == \"%s\"", s > (d "/long-string")
            r = ""; for (i = 0; i < 300; i++) r = r (i ? "|" : "") "w" i "[a-z]+";
            printf "name =~ /^(%s)$/i", r > (d "/long-regex")
            printf "file =~ /(a+)+b|(\\d{1,3}\\.){3}\\d+|[^\\s\\/]{2,}$/" > (d "/regex-classes")
            n = ""; for (i = 0; i < 120; i++) n = n "(";
            n = n "dur > 10us"; for (i = 0; i < 120; i++) n = n ")";
            printf "%s", n > (d "/deep-parens")
            n = ""; for (i = 0; i < 100; i++) n = n "!(";
            n = n "loc == 1"; for (i = 0; i < 100; i++) n = n ")";
            printf "%s", n > (d "/deep-not")
            n = "ts"; for (i = 0; i < 200; i++) n = n " + " i "ns * (bytes - " i ")";
            printf "%s > 0", n > (d "/long-arith")
            l = ""; for (i = 0; i < 400; i++) l = l (i ? "," : "") "\"n" i "\"";
            printf "name in [%s] && kind != \"state\"", l > (d "/long-in-list")
        }'

    else
        # the samples' first 40 lines (small seeds keep the runs fast:
        # thousands of inputs a second rather than hundreds)
        for f in sample-logs/*."$ext"; do
            [ -f "$f" ] && head -n 40 "$f" >"$corpus/$(basename "$f")"
        done
        # (Paraver: the inputs of tests/cases/paraver.cases)
        [ "$ext" = prv ] && awk -v d="$corpus" '
            /^input .*\.prv:$/ { n++; f = d "/case-" n ".prv"; on = 1; next }
            /^(###|args:|env:|input|expect|compare-)/ { on = 0 }
            on { print > f }' tests/cases/paraver.cases
        for f in "$regress"/*; do
            [ -f "$f" ] && cp "$f" "$corpus/"
        done
    fi
    maxlen=4096 # (small inputs: fast runs; filters: room for the long seeds)
    [ "$ext" = filter ] && maxlen=16384
    "$bin" -max_total_time="$secs" -timeout=5 -rss_limit_mb=2048 -max_len=$maxlen \
        -dict="tests/fuzz/dict/$ext.dict" -artifact_prefix="$art/" \
        -print_final_stats=1 "$corpus" >"$log" 2>&1
    rc=$?
    found=
    for a in "$art"/*; do
        [ -f "$a" ] && found=$a && break
    done
    if [ $rc -ne 0 ] || [ -n "$found" ]; then
        if [ -n "$found" ]; then
            echo "$name: FAILED (artifact $found, log $log)" >"$res"
        else
            echo "$name: FAILED (exit status $rc, log $log)" >"$res"
        fi
        return
    fi
    runs=$(sed -n 's/^Done \([0-9][0-9]*\) runs.*/\1/p' "$log" | tail -n 1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *\([0-9][0-9]*\).*/\1/p' "$log" | tail -n 1)
    echo "$name: ok (${runs:-?} runs, ${rate:-?}/s)" >"$res"
}

run_target fuzz_csv csv &
pid_csv=$!
run_target fuzz_ndjson ndjson &
pid_nd=$!
wait "$pid_csv"
wait "$pid_nd"
run_target fuzz_chrome json &
pid_ch=$!
run_target fuzz_paraver prv &
pid_pv=$!
wait "$pid_ch"
wait "$pid_pv"
run_target fuzz_filter filter

status=0
for name in fuzz_csv fuzz_ndjson fuzz_chrome fuzz_paraver fuzz_filter; do
    if [ -f "$tmp/$name.result" ]; then
        line=$(cat "$tmp/$name.result")
    else
        line="$name: FAILED (no result; see $tmp)"
    fi
    echo "$line"
    case $line in
    *": ok "*) ;;
    *) status=1 ;;
    esac
done
if [ $status -eq 0 ]; then
    rm -rf "$tmp"
fi
exit $status
