#!/bin/sh
# tests/run.sh — the whole test suite, run by `make test` after the build.
#
# Owns: the order of the test sections and the final tally. Each section
# counts its checks; the last line is always "N passed, N failed" and the
# exit status is 1 when anything failed. Environment is pinned (TZ, locale).
# Sections that need something this machine lacks are reported as skipped,
# never as passed.
#
#   TNAV=./tnav TNAV_ASAN=build/asan/tnav sh tests/run.sh
#   FUZZ_SECONDS=N   fuzz smoke time per target (default 10)

export TZ=UTC LC_ALL=C.UTF-8
unset TNAV_THREADS TNAV_CHUNK_BYTES TNAV_TIMING
TNAV=${TNAV:-./tnav}
TNAV_ASAN=${TNAV_ASAN:-build/asan/tnav}
FUZZ_SECONDS=${FUZZ_SECONDS:-10}
SHARED=${SHARED_TRACES:-../shared/traces}

PASS=0
FAIL=0
SKIP=0
TMP=$(mktemp -d /tmp/tnav-test.XXXXXX)
trap 'rm -rf "$TMP"' EXIT INT TERM
# (the interface keeps a filter history: never the user's)
export XDG_STATE_HOME="$TMP/state"

ok()   { PASS=$((PASS + 1)); echo "ok - $*"; }
bad()  { FAIL=$((FAIL + 1)); echo "not ok - $*"; }
skip() { SKIP=$((SKIP + 1)); echo "skip - $*"; }
section() { echo; echo "== $*"; }

# add the "P passed, F failed" tally printed by a sub-runner
tally() { # name, output file, exit code
    line=$(grep -E "^[a-z0-9-]+( \([a-z]+\))?: [0-9]+ passed, [0-9]+ failed" "$2" | tail -1)
    if [ -z "$line" ]; then
        bad "$1 (no tally; exit $3)"
        tail -20 "$2"
        return
    fi
    p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/')
    f=$(echo "$line" | sed -E 's/.*passed, ([0-9]+) failed.*/\1/')
    PASS=$((PASS + p))
    FAIL=$((FAIL + f))
    if [ "$f" -ne 0 ] || [ "$3" -ne 0 ]; then
        grep -E "^not ok|^    " "$2" | head -60
        [ "$f" -eq 0 ] && bad "$1 (exit $3)"
    fi
    echo "$1: $p passed, $f failed"
}

# run a command; pass when its exit status is $1
expect_exit() { # code, description, command...
    want=$1; desc=$2; shift 2
    "$@" >"$TMP/out" 2>"$TMP/err"
    got=$?
    if [ "$got" -eq "$want" ]; then ok "$desc"; else bad "$desc (exit $got, expected $want)"; head -5 "$TMP/err"; fi
}

strip_files() { sed 's/,"files":\[.*\]}$/}/'; }

# ---------------------------------------------------------------------------
section "architecture: includes point one way along the data flow"
sh tests/layers.sh >"$TMP/layers.out" 2>&1; tally "layers" "$TMP/layers.out" $?

# ---------------------------------------------------------------------------
section "unit tests"
build/rel/unit >"$TMP/unit.out" 2>&1; tally "unit" "$TMP/unit.out" $?
section "unit tests under ASan+UBSan"
build/asan/unit >"$TMP/unit-asan.out" 2>&1; tally "unit (asan)" "$TMP/unit-asan.out" $?

# ---------------------------------------------------------------------------
section "the interactive interface without a terminal (keymap, prompt, actions)"
build/rel/tui_unit >"$TMP/tui.out" 2>&1; tally "tui-unit" "$TMP/tui.out" $?
build/asan/tui_unit >"$TMP/tui-asan.out" 2>&1; tally "tui-unit (asan)" "$TMP/tui-asan.out" $?

# ---------------------------------------------------------------------------
section "declarative cases (loader, stats, filter language)"
if [ -x build/rel/casetool ] && ls tests/cases/*.cases >/dev/null 2>&1; then
    build/rel/casetool "$TNAV" tests/cases/*.cases >"$TMP/cases.out" 2>&1; tally "cases" "$TMP/cases.out" $?
    build/rel/casetool "$TNAV_ASAN" tests/cases/*.cases >"$TMP/cases-asan.out" 2>&1; tally "cases (asan)" "$TMP/cases-asan.out" $?
else
    bad "cases: build/rel/casetool or tests/cases/*.cases missing"
fi

# ---------------------------------------------------------------------------
section "command line"
expect_exit 0 "tnav --help exits 0" "$TNAV" --help
grep -q "usage: tnav" "$TMP/out" && ok "--help prints the usage" || bad "--help prints the usage"
expect_exit 0 "tnav --version exits 0" "$TNAV" --version
grep -qE "^tnav [0-9]+\.[0-9]+\.[0-9]+$" "$TMP/out" && ok "--version prints the version" || bad "--version output"
expect_exit 2 "no arguments: usage on stderr, exit 2" "$TNAV"
expect_exit 2 "unknown option: exit 2" "$TNAV" stats --frobnicate sample-logs/ring.csv
grep -q "unknown option --frobnicate" "$TMP/err" && ok "unknown option is named" || bad "unknown option is named"
expect_exit 2 "missing file: exit 2" "$TNAV" stats "$TMP/no-such-file.csv"
grep -q "cannot open $TMP/no-such-file.csv" "$TMP/err" && ok "missing file is named with the reason" || bad "missing file message"
expect_exit 2 "bad --time-unit: exit 2" "$TNAV" stats --time-unit fortnights sample-logs/ring.csv
expect_exit 2 "bad --map: exit 2" "$TNAV" stats --map nosuch=col sample-logs/ring.csv
for v in inf nan 1e308 -1 0; do
    expect_exit 2 "render --scale $v: rejected (a finite number above 0)" "$TNAV" render --scale "$v" sample-logs/ring.csv
done
"$TNAV" render --scale 9e18 sample-logs/ring.csv | grep -q '█ ≤9E' && ok "render --scale 9e18: a legend of finite bounds" || bad "render --scale 9e18 legend"
# an error in a long filter quotes ~30 characters either side of the caret, not the whole text
long=$(python3 -c 'print("name == \"" + "x" * 60000 + "\" && durr > 1 && name == \"" + "y" * 60000 + "\"")')
expect_exit 2 "an error in a 120 KB filter: exit 2" "$TNAV" filter "$long" sample-logs/ring.csv
n=$(wc -c <"$TMP/err")
if [ "$n" -lt 400 ] && grep -q "unknown field 'durr'" "$TMP/err" && grep -q '^  …x*" && durr > 1 && name == "y*…$' "$TMP/err" \
    && [ "$(sed -n 3p "$TMP/err" | LC_ALL=C awk '{print index($0, "^")}')" = "$(sed -n 2p "$TMP/err" | LC_ALL=C awk '{print index($0, "durr") - 2}')" ]; then
    ok "... quotes $n bytes: the caret under 'durr' in a window of the line, cut with '…'"
else
    bad "long filter error: $n bytes"; head -c 600 "$TMP/err"
fi

# a flat chain of || (or &&) is not nesting: 5000 terms compile (a tree of
# logarithmic height) and select what the same set as a range selects; a
# chain of 401 '+' is 401 levels, and the message says so
chain=$(awk 'BEGIN { for (i = 0; i < 5000; i++) printf "%sloc == %d", (i ? " || " : ""), i % 4; print "" }')
n1=$("$TNAV" filter --count "$chain" sample-logs/ring.csv 2>"$TMP/err"); n2=$("$TNAV" filter --count 'loc in 0..3' sample-logs/ring.csv)
[ -n "$n1" ] && [ "$n1" = "$n2" ] && ok "a flat chain of 5000 '||' terms: $n1 events, as loc in 0..3" || bad "5000-term || chain: '$n1' vs '$n2': $(head -c 300 "$TMP/err")"
chain=$(awk 'BEGIN { for (i = 0; i < 5000; i++) printf "%sloc != %d", (i ? " and " : ""), 4 + i % 4; print "" }')
n1=$("$TNAV" filter --count "$chain" sample-logs/ring.csv 2>"$TMP/err")
[ -n "$n1" ] && [ "$n1" = "$n2" ] && ok "... and of 5000 'and' terms" || bad "5000-term and chain: '$n1' vs '$n2': $(head -c 300 "$TMP/err")"
sum=$(awk 'BEGIN { for (i = 0; i < 401; i++) printf "%s1", (i ? " + " : ""); print " > 0" }')
"$TNAV" filter --count "$sum" sample-logs/ring.csv >"$TMP/out" 2>"$TMP/err"; rc=$?
[ $rc -eq 2 ] && [ "$(head -1 "$TMP/err")" = "tnav: filter:1:1599: filter too deep: more than 400 levels of operators, parentheses and calls (in a chain of arithmetic each '+' is one; chains of && and || have no limit)" ] \
    && ok "a chain of 401 '+': the limit named (levels, each '+' one), at the 401st" || bad "401 '+': exit $rc, $(head -c 300 "$TMP/err")"

# an argument of 100 KB in an error is quoted as its first and last 30
# bytes around '…' (arg_quote): one short line, whatever the argument
big=$(awk 'BEGIN { s = "x"; for (i = 0; i < 17; i++) s = s s; print substr(s, 1, 100000) }')
q30=$(printf '%030d' 0 | tr 0 x)
for c in "stats --from $big sample-logs/ring.csv|tnav stats: --from: not a time: '$q30…$q30' (see tnav --help)" \
    "stats --$big sample-logs/ring.csv|tnav stats: unknown option --${q30%xx}…$q30 (see tnav --help)" \
    "stats sample-logs/$big|tnav: cannot open sample-logs/xxxxxxxxxxxxxxxxxx…$q30: File name too long" \
    "render --width $big sample-logs/ring.csv|tnav render: --width must be a whole number 10..10000, not '$q30…$q30' (see tnav --help)" \
    "convert -o $TMP/$big.csv sample-logs/ring.csv|tnav convert: cannot write '$(echo "$TMP/$big" | cut -c1-30)…$(printf '%026d' 0 | tr 0 x).csv': File name too long" \
    "filter -o $big true sample-logs/ring.csv|tnav filter: -o must be csv or ndjson, not '$q30…$q30' (see tnav --help)"; do
    args=${c%%|*}; want=${c#*|}
    # (word splitting of args is wanted: no argument here has a space)
    "$TNAV" $args >"$TMP/out" 2>"$TMP/err"; rc=$?
    if [ $rc -eq 2 ] && [ "$(cat "$TMP/err")" = "$want" ]; then
        ok "a 100 KB argument in an error ($(echo "$args" | cut -c1-14)...): one line of $(wc -c <"$TMP/err") bytes, 30 + 30 quoted"
    else
        bad "100 KB argument: exit $rc, $(wc -c <"$TMP/err") bytes: $(head -c 300 "$TMP/err") (want: $want)"
    fi
done

# ---------------------------------------------------------------------------
section "golden outputs of the samples"
for f in sample-logs/*.csv sample-logs/*.ndjson; do
    b=$(basename "$f")
    for mode in text json; do
        g=tests/golden/$b.stats.$mode
        if [ $mode = json ]; then "$TNAV" stats --json "$f" >"$TMP/g.out" 2>&1; else "$TNAV" stats "$f" >"$TMP/g.out" 2>&1; fi
        if [ ! -f "$g" ]; then
            bad "golden $g is missing (create it with: sh tests/update-golden.sh)"
        elif cmp -s "$g" "$TMP/g.out"; then
            ok "golden stats $mode of $b"
        else
            bad "golden stats $mode of $b differs"; diff "$g" "$TMP/g.out" | head -20
        fi
    done
done

# the bytecode listings of tests/golden/disasm/filters.txt
while read -r name trace filt; do
    case "$name" in \#* | "") continue ;; esac
    g=tests/golden/disasm/$name.txt
    TNAV="$TNAV" sh tests/golden/disasm/gen.sh "$name" "$trace" "$filt" >"$TMP/d.out" 2>&1
    if [ ! -f "$g" ]; then
        bad "golden $g is missing (create it with: sh tests/update-golden.sh)"
    elif cmp -s "$g" "$TMP/d.out"; then
        ok "golden disasm $name: $filt"
    else
        bad "golden disasm $name differs"; diff "$g" "$TMP/d.out" | head -20
    fi
done <tests/golden/disasm/filters.txt

# the frames of tests/golden/render/list.txt
while read -r name trace args; do
    case "$name" in \#* | "") continue ;; esac
    g=tests/golden/render/$name.txt
    TNAV="$TNAV" TMPDIR="$TMP" sh tests/golden/render/gen.sh "$name" "$trace" $args >"$TMP/r.out" 2>&1
    if [ ! -f "$g" ]; then
        bad "golden $g is missing (create it with: sh tests/update-golden.sh)"
    elif cmp -s "$g" "$TMP/r.out"; then
        ok "golden render $name"
    else
        bad "golden render $name differs"; diff "$g" "$TMP/r.out" | head -20
    fi
done <tests/golden/render/list.txt

# ---------------------------------------------------------------------------
section "views: what the frames show (semantic checks)"
TNAV="$TNAV" sh tests/render_checks.sh >"$TMP/rc.out" 2>&1; tally "render-checks" "$TMP/rc.out" $?
TNAV="$TNAV_ASAN" sh tests/render_checks.sh >"$TMP/rc-asan.out" 2>&1; tally "render-checks (asan)" "$TMP/rc-asan.out" $?

# ---------------------------------------------------------------------------
section "aggregation against a direct computation (tests/agg_check.c)"
# three shapes: the mpi sample, a task runtime (thousands of short
# activities, nested and not properly nested intervals, messages, sync),
# many locations with messages between random pairs, and one for the
# segments' escapes (offsets past 32 bits, depths past 62); every frame metric,
# reducer, grouping and zoom (whole trace, 10x, 1000x, 10^6x), the Gantt's
# instants and arrivals per cell, and the sparse matrix
sample-logs/gen --events 20000 >"$TMP/ac-mpi.csv"
build/rel/agg_check --gen-tasks 400 "$TMP/ac-tasks.csv"
build/rel/agg_check --gen-locs 3000 20000 "$TMP/ac-locs.csv"
build/rel/agg_check --gen-far "$TMP/ac-far.csv"
build/rel/agg_check "$TMP/ac-mpi.csv" "$TMP/ac-tasks.csv" "$TMP/ac-locs.csv" "$TMP/ac-far.csv" >"$TMP/ac.out" 2>&1; tally "agg-check" "$TMP/ac.out" $?
build/asan/agg_check "$TMP/ac-tasks.csv" "$TMP/ac-locs.csv" "$TMP/ac-far.csv" >"$TMP/ac-asan.out" 2>&1; tally "agg-check (asan)" "$TMP/ac-asan.out" $?
# the matrix of 20,000 locations: grouped to the screen, its shape (no
# nloc^2 arrays: it would need 6.4 GB)
build/rel/agg_check --gen-locs 20000 40000 "$TMP/ac-20k.csv"
"$TNAV" render --view matrix --width 120 --height 40 "$TMP/ac-20k.csv" >"$TMP/m20k.out" 2>"$TMP/m20k.err"
if [ $? -eq 0 ] && [ "$(wc -l <"$TMP/m20k.out")" -eq 40 ] && grep -q "locations per row and column" "$TMP/m20k.out" &&
    grep -q "^total" "$TMP/m20k.out"; then
    ok "render --view matrix on 20,000 locations: 40 lines, grouped, with totals"
else
    bad "render --view matrix on 20,000 locations"; head -5 "$TMP/m20k.out" "$TMP/m20k.err"
fi
"$TNAV" render --view matrix --format tsv --metric count --width 120 --height 40 "$TMP/ac-20k.csv" >"$TMP/m20k.tsv" 2>&1
tot=$(awk -F'\t' '$1 == "total" { print $NF }' "$TMP/m20k.tsv")
[ "$tot" = "40000" ] && ok "render --view matrix --format tsv on 20,000 locations: every message counted ($tot)" ||
    { bad "render --view matrix --format tsv on 20,000 locations: total '$tot', want 40000"; head -3 "$TMP/m20k.tsv"; }

# ---------------------------------------------------------------------------
section "filters: differential test, round trips"
for b in build/rel/filter_diff build/asan/filter_diff; do
    if [ -x "$b" ]; then
        "$b" >"$TMP/fd.out" 2>&1; tally "filter-diff ($(basename "$(dirname "$b")"))" "$TMP/fd.out" $?
    else
        bad "$b is not built"
    fi
done
# tnav filter writes events that load back into the same trace (also odd
# values: a NUL, quotes, commas, newlines, a leading '#')
printf '%s\n' '{"ts":1,"loc":0,"name":"a\u0000b","x":"q\"uote, comma"}' '{"ts":2,"loc":"#1","name":"line\nbreak","x":"#x"}' \
    '{"ts":3,"loc":1,"act":"\r","name":"\u00e9 \t"}' >"$TMP/odd.ndjson"
for f in sample-logs/ring.csv sample-logs/x10.ndjson sample-logs/mw.csv "$TMP/odd.ndjson"; do
    for o in csv ndjson; do
        "$TNAV" filter -o $o true "$f" >"$TMP/rt.$o" 2>"$TMP/rt.err"
        "$TNAV" stats --json "$f" | strip_files >"$TMP/rt1.json"
        "$TNAV" stats --json "$TMP/rt.$o" | strip_files >"$TMP/rt2.json"
        cmp -s "$TMP/rt1.json" "$TMP/rt2.json" && ok "round trip: $(basename "$f") through tnav filter -o $o" \
            || { bad "round trip: $(basename "$f") -o $o"; diff "$TMP/rt1.json" "$TMP/rt2.json" | head -5; }
    done
done
# a selection written out and summarised equals stats -f of the same filter
for filt in 'kind == "state" && dur > 1ms' 'act_any(kind == "move") | loc != 0' 'group_any(dur > 2ms) || msg_any(bytes > 1KiB)'; do
    "$TNAV" filter "$filt" sample-logs/x10.csv >"$TMP/sel.csv"
    a=$("$TNAV" stats --json "$TMP/sel.csv" | build/rel/casetool --jq /dev/stdin '.events' 2>/dev/null)
    b=$("$TNAV" stats --json -f "$filt" sample-logs/x10.csv | build/rel/casetool --jq /dev/stdin '.events' 2>/dev/null)
    [ -n "$a" ] && [ "$a" = "$b" ] && ok "filter output and stats -f agree on '$filt' ($a events)" || bad "filter vs stats -f on '$filt': $a != $b"
done

# a long in-list is a set: ten times the values cost about the same per
# event (a binary search), where a chain of comparisons cost ten times more
# (compared within this run)
sample-logs/gen --shape tasks --events 300000 -o "$TMP/inlist.csv"
inlist() { awk -v n="$1" 'BEGIN { s = "line in ["; for (i = 0; i < 2 * n; i += 2) s = s (i ? "," : "") i; print s "]" }'; }
a=$("$TNAV" filter --bench --runs 5 "$(inlist 12000)" "$TMP/inlist.csv")
b=$("$TNAV" filter --bench --runs 5 "$(inlist 1200)" "$TMP/inlist.csv")
ta=$(echo "$a" | tr ' ' '\n' | sed -n 's/^best_ms=//p'); tb=$(echo "$b" | tr ' ' '\n' | sed -n 's/^best_ms=//p')
sa=$(echo "$a" | tr ' ' '\n' | sed -n 's/^selected=//p')
want=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "line") c = i } NR > 1 && $c != "" && $c % 2 == 0 && $c < 24000 { n++ } END { print n + 0 }' "$TMP/inlist.csv")
[ "$sa" = "$want" ] && ok "line in [12,000 integers]: the $sa events with an even line below 24,000" || bad "line in [12,000 integers]: $sa selected, expected $want"
awk -v a="$ta" -v b="$tb" 'BEGIN { exit !(a < 3 * b + 1) }' && ok "... in $ta ms, against $tb ms for 1,200 (a set, not a chain)" || bad "line in [12,000 integers]: $ta ms against $tb ms for 1,200"
# a list of 12,000 strings compiles in memory linear in its text: each
# literal's buffer is the literal, not a multiple of the rest of the filter
# (which took 2.4 GB of address space for this list)
strlist=$(awk 'BEGIN { s = "name in [\"compute\""; for (i = 0; i < 12000; i++) s = s ",\"n" i "\""; print s ",\"main\"]" }')
"$TNAV" filter --count --max-memory 32MiB "$strlist" sample-logs/ring.csv >"$TMP/out" 2>"$TMP/err"; rc=$?
[ $rc -eq 0 ] && [ "$(cat "$TMP/out")" = 88 ] && [ ! -s "$TMP/err" ] \
    && ok "name in [12,002 strings] (${#strlist} bytes) under --max-memory 32MiB: the 88 compute and main events" \
    || bad "name in [12,002 strings] under --max-memory 32MiB: exit $rc, $(head -c 300 "$TMP/out" "$TMP/err")"

# ---------------------------------------------------------------------------
section "filters: a time budget per run (--filter-timeout)"
# 3000 distinct names on which /(a+)+\d$/ backtracks ~2^18 steps each (under
# PCRE2's match limit: no error, just slow: seconds in all)
awk 'BEGIN { print "ts,loc,name"; for (i = 0; i < 3000; i++) printf "%d,%d,aaaaaaaaaaaaaaaaaa!%d\n", i, i % 4, i }' >"$TMP/slow.csv"
for cmd in "filter --count" "stats" "render --view density" "convert -F ndjson -o $TMP/slow.out"; do
    "$TNAV" $cmd --filter-timeout 0.05 -f 'name =~ /(a+)+\d$/' "$TMP/slow.csv" >"$TMP/out" 2>"$TMP/err"; rc=$?
    [ $rc -eq 2 ] && grep -qx "tnav: filter stopped after 0.05 s (--filter-timeout)" "$TMP/err" && [ ! -s "$TMP/out" ] \
        && ok "$cmd: a run past --filter-timeout stops: exit 2, said, no output" || bad "$cmd budget: exit $rc, $(head -c 200 "$TMP/err")"
done
[ ! -e "$TMP/slow.out" ] && ok "... convert leaves no output file" || bad "convert wrote $TMP/slow.out"
# the name patterns of stats (--comm-names, --sync-names): the same budget
for o in --comm-names --sync-names; do
    "$TNAV" stats --filter-timeout 0.05 $o '(a+)+\d$' "$TMP/slow.csv" >"$TMP/out" 2>"$TMP/err"; rc=$?
    [ $rc -eq 2 ] && grep -qx "tnav: $o: stopped after 0.05 s (--filter-timeout)" "$TMP/err" && [ ! -s "$TMP/out" ] \
        && ok "stats $o past --filter-timeout stops: exit 2, said, no output" || bad "stats $o budget: exit $rc, $(head -c 200 "$TMP/err")"
done
# ... and the same limits: a 200 KB name on which /^(ab|x)*$/ needs more than
# 1 MiB of JIT stack, or (TNAV_NO_JIT=1, the interpreter) nests past depth
# 10,000; in a filter and in a name pattern: exit 2 and the limit named
awk 'BEGIN { printf "ts,dur,loc,kind,name\n1,5,0,state,"; for (i = 0; i < 100000; i++) printf "ab"; print "" }' >"$TMP/deep.csv"
subj="'abababababababababababababababababababab…'"
for nojit in 0 1; do
    if [ $nojit = 0 ]; then why="JIT stack limit reached"; else why="matching depth limit exceeded"; fi
    TNAV_NO_JIT=$nojit "$TNAV" filter --count 'name =~ /^(ab|x)*$/' "$TMP/deep.csv" >"$TMP/out" 2>"$TMP/err"; rc=$?
    if [ $nojit = 0 ] && grep -q "matching depth limit exceeded" "$TMP/err"; then
        skip "the JIT stack limit: PCRE2 JIT is not available here"
        continue
    fi
    [ $rc -eq 2 ] && [ "$(cat "$TMP/err")" = "tnav: regex /^(ab|x)*$/ failed on $subj: $why" ] && [ ! -s "$TMP/out" ] \
        && ok "filter: a match past the limit ($why): exit 2, the filter's error" || bad "filter, $why: exit $rc, $(head -c 300 "$TMP/err")"
    TNAV_NO_JIT=$nojit "$TNAV" stats --sync-names '^(ab|x)*$' "$TMP/deep.csv" >"$TMP/out" 2>"$TMP/err"; rc=$?
    [ $rc -eq 2 ] && [ "$(cat "$TMP/err")" = "tnav: --sync-names: regex /^(ab|x)*$/ failed on $subj: $why" ] && [ ! -s "$TMP/out" ] \
        && ok "stats --sync-names: the same limit ($why), the same error naming the option" || bad "stats --sync-names, $why: exit $rc, $(head -c 300 "$TMP/err")"
done
"$TNAV" filter --count --filter-timeout 0.05 -f 'name =~ /^a{18}!1\d*$/' "$TMP/slow.csv" >"$TMP/out" 2>"$TMP/err"
[ "$(cat "$TMP/out")" = 1111 ] && [ ! -s "$TMP/err" ] && ok "a quick filter under the same budget: its answer" || bad "quick filter: $(cat "$TMP/out" "$TMP/err")"

# ---------------------------------------------------------------------------
section "equivalences: formats, CSV engines, threads and chunks"
for s in ring x10 mw; do
    "$TNAV" stats --json sample-logs/$s.csv | strip_files >"$TMP/a.json"
    "$TNAV" stats --json sample-logs/$s.ndjson | strip_files >"$TMP/b.json"
    cmp -s "$TMP/a.json" "$TMP/b.json" && ok "$s: CSV and NDJSON give the same trace" || bad "$s: CSV and NDJSON differ"
    "$TNAV" stats --json --csv-engine libcsv sample-logs/$s.csv | strip_files >"$TMP/c.json"
    cmp -s "$TMP/a.json" "$TMP/c.json" && ok "$s: hybrid and libcsv engines agree" || bad "$s: engines differ"
    TNAV_CHUNK_BYTES=64 TNAV_THREADS=3 "$TNAV" stats --json sample-logs/$s.csv | strip_files >"$TMP/d.json"
    cmp -s "$TMP/a.json" "$TMP/d.json" && ok "$s: 3 threads, 64-byte chunks give the same trace" || bad "$s: chunked load differs"
    TNAV_CHUNK_BYTES=100 TNAV_THREADS=2 "$TNAV" stats --json sample-logs/$s.ndjson | strip_files >"$TMP/e.json"
    cmp -s "$TMP/a.json" "$TMP/e.json" && ok "$s: chunked NDJSON load is the same" || bad "$s: chunked NDJSON differs"
done
# a generated trace with quotes on every line, multi-line fields, CRLF
sample-logs/gen --events 20000 --ranks 8 --seed 7 -o "$TMP/gen.csv"
awk 'NR==1{print; next} {n=split($0,f,","); f[6]="\"" f[6] ", \"\"x\"\"\n2\""; s=f[1]; for(i=2;i<=n;i++) s=s "," f[i]; printf "%s\r\n", s}' "$TMP/gen.csv" >"$TMP/quoted.csv"
"$TNAV" stats --json "$TMP/quoted.csv" | strip_files >"$TMP/q1.json"
"$TNAV" stats --json --csv-engine libcsv --threads 1 "$TMP/quoted.csv" | strip_files >"$TMP/q2.json"
TNAV_CHUNK_BYTES=4096 "$TNAV" stats --json --threads 4 "$TMP/quoted.csv" | strip_files >"$TMP/q3.json"
grep -q '"events":20000,"rejected":0' "$TMP/q1.json" && ok "quoted multi-line CRLF trace loads completely" || bad "quoted trace: $(head -c 120 "$TMP/q1.json")"
cmp -s "$TMP/q1.json" "$TMP/q2.json" && ok "quoted trace: hybrid = libcsv, 1 thread" || bad "quoted trace: hybrid and libcsv differ"
cmp -s "$TMP/q1.json" "$TMP/q3.json" && ok "quoted trace: 4 threads, 4 KiB chunks, seams inside records" || bad "quoted trace: chunked load differs"

# page moving (src/base/pages.c): a batch of 1.1M rows (columns in big
# blocks) gives its pages to the store's; the same trace with and without
# (TNAV_NO_PAGE_MOVE), on 1 and 2 threads, and under ASan
sample-logs/gen --shape mpi --events 1100000 --seed 5 -o "$TMP/pm.csv"
TNAV_CHUNK_BYTES=1000000000 TNAV_TIMING=1 "$TNAV" stats --bench "$TMP/pm.csv" >/dev/null 2>"$TMP/pm.err"
mv=$(grep -o 'pages moved [0-9]* MiB' "$TMP/pm.err" | tail -1 | awk '{print $3}')
[ "${mv:-0}" -gt 0 ] && ok "page moving: a load of 1.1M events builds on $mv MiB of moved pages" || bad "page moving: none moved: $(grep pages "$TMP/pm.err")"
TNAV_NO_PAGE_MOVE=1 TNAV_CHUNK_BYTES=1000000000 TNAV_TIMING=1 "$TNAV" stats --bench "$TMP/pm.csv" >/dev/null 2>"$TMP/pm.err"
grep -q 'pages moved' "$TMP/pm.err" && bad "page moving: TNAV_NO_PAGE_MOVE still moves" || ok "page moving: TNAV_NO_PAGE_MOVE takes the old path"
for t in 1 2; do
    for e in "" 1; do
        { TNAV_NO_PAGE_MOVE=$e TNAV_CHUNK_BYTES=1000000000 TNAV_THREADS=$t "$TNAV" stats --json "$TMP/pm.csv" | strip_files
          TNAV_NO_PAGE_MOVE=$e TNAV_CHUNK_BYTES=1000000000 TNAV_THREADS=$t "$TNAV" waits --json "$TMP/pm.csv"; } >"$TMP/pm$t$e.json"
    done
    cmp -s "$TMP/pm$t.json" "$TMP/pm${t}1.json" && ok "page moving: $t thread(s): the same stats and waits without it" || bad "page moving: $t thread(s): differs without it"
done
cmp -s "$TMP/pm1.json" "$TMP/pm2.json" && ok "page moving: the same on 1 and 2 threads" || bad "page moving: 1 and 2 threads differ"
{ TNAV_CHUNK_BYTES=1000000000 "$TNAV_ASAN" stats --json "$TMP/pm.csv" | strip_files
  TNAV_CHUNK_BYTES=1000000000 "$TNAV_ASAN" waits --json "$TMP/pm.csv"; } >"$TMP/pma.json" 2>"$TMP/pma.err"
cmp -s "$TMP/pm2.json" "$TMP/pma.json" && [ ! -s "$TMP/pma.err" ] && ok "page moving: the same under ASan, no report" || { bad "page moving: ASan run differs or reports"; head -20 "$TMP/pma.err"; }
rm -f "$TMP"/pm*

# libcsv's field buffer grows geometrically (its realloc function doubles a
# capacity; libcsv itself asks for a fixed step at a time): a quoted field of
# 16 MB costs a few more allocations than one of 1 KB, not one per step
# (4,000 of them in 4 KiB steps). Counted, not timed: TNAV_FAULT_ALLOC=N
# fails the Nth allocation, so the smallest N that completes is the count.
allocs() {
    lo=0 hi=1
    while TNAV_FAULT_ALLOC=$hi "$@" >/dev/null 2>&1; [ $? -ne 0 ]; do lo=$hi; hi=$((hi * 2)); [ $hi -gt 1000000 ] && break; done
    while [ $((hi - lo)) -gt 1 ]; do
        mid=$(((lo + hi) / 2))
        if TNAV_FAULT_ALLOC=$mid "$@" >/dev/null 2>&1; then hi=$mid; else lo=$mid; fi
    done
    echo $((hi - 1))
}
for sz in 1000 16000000; do
    awk -v n=$sz 'BEGIN { printf "ts,loc,name\n1,0,a\n2,0,\""; s = "xxxxxxxxxxxxxxxx"; for (i = 0; i < n / 16; i++) printf "%s", s; printf "\"\n3,0,c\n" }' >"$TMP/q$sz.csv"
done
for e in libcsv hybrid; do
    a=$(allocs "$TNAV" stats --threads 1 --csv-engine $e "$TMP/q1000.csv"); b=$(allocs "$TNAV" stats --threads 1 --csv-engine $e "$TMP/q16000000.csv")
    [ "$a" -gt 10 ] && [ "$b" -lt $((a + 64)) ] && ok "--csv-engine $e: a quoted field of 16 MB takes $b allocations, one of 1 KB $a (the buffer doubles)" \
        || bad "--csv-engine $e: a quoted field of 16 MB takes $b allocations, one of 1 KB $a"
done
rm -f "$TMP/q16000000.csv"

# ---------------------------------------------------------------------------
section "standard input, pipes and compressed files (gzip, zstd)"
# the same trace by every road gives the same answer as the plain file
"$TNAV" stats --json "$TMP/gen.csv" | strip_files >"$TMP/plain.json"
gzip -c "$TMP/gen.csv" >"$TMP/gen.csv.gz"
zstd -q -c "$TMP/gen.csv" >"$TMP/gen.zst"
cp "$TMP/gen.csv.gz" "$TMP/gen-gz-named.csv" # (content, never the name)
same_as_plain() { # description, then the output file
    cmp -s "$TMP/plain.json" "$2" && ok "$1" || bad "$1: $(head -c 160 "$2")"
}
"$TNAV" stats --json - <"$TMP/gen.csv" | strip_files >"$TMP/s1.json"
same_as_plain "standard input (-, a file redirected)" "$TMP/s1.json"
cat "$TMP/gen.csv" | "$TNAV" stats --json - | strip_files >"$TMP/s2.json"
same_as_plain "standard input (-, a pipe)" "$TMP/s2.json"
"$TNAV" stats --json "$TMP/gen.csv.gz" | strip_files >"$TMP/s3.json"
same_as_plain "a gzip file" "$TMP/s3.json"
"$TNAV" stats --json "$TMP/gen.zst" | strip_files >"$TMP/s4.json"
same_as_plain "a zstd file" "$TMP/s4.json"
"$TNAV" stats --json "$TMP/gen-gz-named.csv" | strip_files >"$TMP/s5.json"
same_as_plain "gzip data named .csv (detected by content)" "$TMP/s5.json"
zstd -q -c "$TMP/gen.csv" | TNAV_CHUNK_BYTES=4096 "$TNAV" stats --json --threads 3 - | strip_files >"$TMP/s6.json"
same_as_plain "zstd through a pipe, 3 threads, small chunks" "$TMP/s6.json"
# concatenated members and frames (gzip -d and zstd -d read them all)
head -n 1 "$TMP/gen.csv" >"$TMP/h.csv"; tail -n +2 "$TMP/gen.csv" >"$TMP/t.csv"
{ gzip -c "$TMP/h.csv"; gzip -c "$TMP/t.csv"; } >"$TMP/cat.gz"
"$TNAV" stats --json "$TMP/cat.gz" | strip_files >"$TMP/s7.json"
same_as_plain "gzip: two concatenated members" "$TMP/s7.json"
{ zstd -q -c "$TMP/h.csv"; zstd -q -c "$TMP/t.csv"; } >"$TMP/cat.zst"
"$TNAV" stats --json "$TMP/cat.zst" | strip_files >"$TMP/s8.json"
same_as_plain "zstd: two concatenated frames" "$TMP/s8.json"
gzip -c sample-logs/ring.ndjson | "$TNAV" stats --json - | strip_files >"$TMP/s9.json"
"$TNAV" stats --json sample-logs/ring.ndjson | strip_files >"$TMP/s10.json"
cmp -s "$TMP/s9.json" "$TMP/s10.json" && ok "NDJSON, gzip, through a pipe" || bad "NDJSON through gzip differs"
# rejections are reported against the decompressed lines, named by the input
printf 'ts,loc\n1,0\nx,1\n3,2\n' | gzip -c >"$TMP/rej.gz"
"$TNAV" stats "$TMP/rej.gz" >/dev/null 2>"$TMP/err"
grep -q "rej.gz:3: ts is not a number" "$TMP/err" && ok "a rejection in a gzip file names file:line of the decompressed text" || bad "gzip rejection: $(cat "$TMP/err")"
printf 'ts,loc\n1,0\nx,1\n' | "$TNAV" stats - >/dev/null 2>"$TMP/err"
grep -q "^standard input:3: ts is not a number" "$TMP/err" && ok "a rejection on standard input says 'standard input:3'" || bad "stdin rejection: $(cat "$TMP/err")"
# damaged compressed data: exit 2 with the reason, never a shorter trace
head -c 3000 "$TMP/gen.csv.gz" >"$TMP/cut.gz"
expect_exit 2 "a truncated gzip file: exit 2" "$TNAV" stats "$TMP/cut.gz"
grep -q "cut.gz: the gzip data is truncated" "$TMP/err" && ok "... saying it is truncated" || bad "truncated gzip: $(cat "$TMP/err")"
head -c 3000 "$TMP/gen.zst" | "$TNAV" stats - >/dev/null 2>"$TMP/err"; rc=$?
[ $rc -eq 2 ] && grep -q "standard input: the zstd data is truncated" "$TMP/err" && ok "truncated zstd on a pipe: exit 2, said" || bad "truncated zstd: exit $rc, $(cat "$TMP/err")"
{ cat "$TMP/gen.csv.gz"; echo trailing; } >"$TMP/trail.gz"
expect_exit 2 "bytes after the gzip data: exit 2" "$TNAV" stats "$TMP/trail.gz"
grep -q "are not gzip data" "$TMP/err" && ok "... saying so" || bad "trailing gzip: $(cat "$TMP/err")"
python3 -c 'import sys; d=bytearray(open(sys.argv[1],"rb").read()); d[len(d)//2]^=0xff; open(sys.argv[2],"wb").write(d)' "$TMP/gen.zst" "$TMP/bad.zst"
expect_exit 2 "corrupt zstd data: exit 2" "$TNAV" stats "$TMP/bad.zst"
grep -q "bad.zst: corrupt zstd data near byte" "$TMP/err" && ok "... with the offset and zstd's reason" || bad "corrupt zstd: $(cat "$TMP/err")"
# the temp copy goes to TMPDIR; a TMPDIR that cannot take it is a clear error
mkdir -p "$TMP/spool"
TMPDIR="$TMP/spool" "$TNAV" stats --json "$TMP/gen.zst" | strip_files >"$TMP/s11.json"
same_as_plain "TMPDIR holds the temp copy" "$TMP/s11.json"
[ -z "$(ls -A "$TMP/spool")" ] && ok "... and nothing is left in TMPDIR" || bad "left in TMPDIR: $(ls "$TMP/spool")"
TMPDIR="$TMP/none" "$TNAV" stats "$TMP/gen.zst" >/dev/null 2>"$TMP/err"; rc=$?
[ $rc -eq 2 ] && grep -q "cannot create a temp file in $TMP/none" "$TMP/err" && ok "no usable TMPDIR: exit 2, named" || bad "bad TMPDIR: exit $rc, $(cat "$TMP/err")"
"$TNAV" convert -o "$TMP/conv.ndjson" "$TMP/gen.csv.gz" && "$TNAV" stats --json "$TMP/conv.ndjson" | strip_files >"$TMP/s12.json"
same_as_plain "convert reads a gzip file" "$TMP/s12.json"
"$TNAV" filter -f 'kind == "send"' - <"$TMP/gen.csv" >"$TMP/f1.csv" && "$TNAV" filter -f 'kind == "send"' "$TMP/gen.csv" >"$TMP/f2.csv"
cmp -s "$TMP/f1.csv" "$TMP/f2.csv" && ok "filter reads standard input" || bad "filter from stdin differs"

# ---------------------------------------------------------------------------
section "a directory of trace files opens as one trace"
mkdir -p "$TMP/ranks/sub" "$TMP/empty"
{ head -n 1 "$TMP/gen.csv"; tail -n +2 "$TMP/gen.csv" | awk 'NR % 2'; } >"$TMP/ranks/rank0.csv"
{ head -n 1 "$TMP/gen.csv"; tail -n +2 "$TMP/gen.csv" | awk '!(NR % 2)'; } | gzip -c >"$TMP/ranks/rank1.csv.gz"
echo "not a trace" >"$TMP/ranks/README.md"; echo "x" >"$TMP/ranks/.hidden.csv"; cp "$TMP/gen.csv" "$TMP/ranks/sub/"
"$TNAV" stats --json "$TMP/ranks/" | strip_files >"$TMP/dir.json"
same_as_plain "DIR/: its trace files (a .csv, a .csv.gz) as one trace; README, hidden files, subdirectories left out" "$TMP/dir.json"
"$TNAV" stats --json "$TMP/ranks" >"$TMP/dir2.json"
grep -q '"files":\[{"path":"'"$TMP"'/ranks/rank0.csv".*{"path":"'"$TMP"'/ranks/rank1.csv.gz"' "$TMP/dir2.json" && ok "... in name order, named by their paths" || bad "dir files: $(grep -o '"files".*' "$TMP/dir2.json" | head -c 300)"
expect_exit 2 "a directory without trace files: exit 2" "$TNAV" stats "$TMP/empty"
grep -q "holds no trace files" "$TMP/err" && ok "... saying so" || bad "empty dir: $(cat "$TMP/err")"

# ---------------------------------------------------------------------------
section "a file that changes while it is read"
# a slow load (small chunks, a delay before each): the file is changed once
# tnav has it open (polled in /proc, never a blind sleep)
changed_load() { # description, expected exit, how to change the file, command...
    d=$1 want=$2 how=$3; shift 3
    cp "$TMP/gen.csv" "$TMP/ch.csv"
    TNAV_CHUNK_BYTES=20000 TNAV_TEST_LOAD_DELAY_MS=30 "$@" "$TMP/ch.csv" >"$TMP/ch.out" 2>"$TMP/ch.err" &
    pid=$!
    i=0; while [ $i -lt 1000 ] && ! ls -l /proc/$pid/fd 2>/dev/null | grep -q "ch.csv"; do i=$((i + 1)); sleep 0.01; done
    case $how in
        shrink) truncate -s 300000 "$TMP/ch.csv" ;;
        rewrite) python3 -c 'import sys; f = open(sys.argv[1], "r+b"); f.seek(100); f.write(b"9"); f.close()' "$TMP/ch.csv" ;;
        append) tail -n 5 "$TMP/gen.csv" >>"$TMP/ch.csv" ;;
    esac
    wait $pid; rc=$?
    if [ $rc -eq "$want" ]; then ok "$d (exit $rc)"; else bad "$d: exit $rc, $(head -c 300 "$TMP/ch.err")"; fi
}
changed_load "a file cut short while stats reads it: an error, not a smaller trace" 1 shrink "$TNAV" stats --threads 1
grep -q "ch.csv changed while it was read (it got shorter)" "$TMP/ch.err" && ok "... saying it got shorter" || bad "shrink message: $(cat "$TMP/ch.err")"
changed_load "a file rewritten in place while check reads it: check exits 1" 1 rewrite "$TNAV" check --threads 1
grep -q "it was rewritten in place" "$TMP/ch.err" && ok "... saying so" || bad "rewrite message: $(cat "$TMP/ch.err")"
changed_load "a file appended to while it is read (a log being written): read up to its size at open, no error" 0 append "$TNAV" stats --json --threads 1
grep -q '"events":20000,' "$TMP/ch.out" && ok "... its 20000 events at open" || bad "append: $(head -c 200 "$TMP/ch.out")"

# ---------------------------------------------------------------------------
section "many extra fields: cost in proportion to the values present"
# 100,000 NDJSON records, each with 5 of 20,000 distinct extra keys (key
# k((5i+j) mod 20000), an integer int(i/4000), a string for j = 1)
awk 'BEGIN { for (i = 0; i < 100000; i++) {
    printf "{\"ts\":%d,\"loc\":%d,\"name\":\"n%d\"", i * 10, i % 16, i % 50
    for (j = 0; j < 5; j++) {
        k = (5 * i + j) % 20000
        if (j == 1) printf ",\"k%d\":\"s%d\"", k, i % 7; else printf ",\"k%d\":%d", k, int(i / 4000)
    }
    printf "}\n" } }' >"$TMP/keys.ndjson"
if [ -x /usr/bin/time ]; then
    /usr/bin/time -f '%M' -o "$TMP/keys.rss" "$TNAV" stats --json "$TMP/keys.ndjson" >"$TMP/keys.json" 2>"$TMP/keys.err"
else
    "$TNAV" stats --json "$TMP/keys.ndjson" >"$TMP/keys.json" 2>"$TMP/keys.err"
fi
nf=$(grep -o '"extra":true' "$TMP/keys.json" | wc -l)
[ "$nf" -eq 20000 ] && ok "20,000 extra keys over 100,000 records: 20,000 fields" || bad "many keys: $nf extra fields listed"
grep -q '"events":100000,"rejected":0' "$TMP/keys.json" && ok "many keys: every record loads" || bad "many keys: $(head -c 120 "$TMP/keys.json")"
want=$(grep -c '"k123":5[,}]' "$TMP/keys.ndjson")
got=$("$TNAV" filter --count 'k123 == 5' "$TMP/keys.ndjson")
[ "$want" = 1 ] && [ "$got" = 1 ] && ok "many keys: a filter on an extra integer field (k123 == 5)" || bad "many keys: k123 == 5 gives $got, expected $want"
want=$(grep -c '"k19996":"s3"' "$TMP/keys.ndjson")
got=$("$TNAV" filter --count 'k19996 == "s3" || k19996 =~ /^s3$/' "$TMP/keys.ndjson")
[ "$want" -gt 0 ] && [ "$got" = "$want" ] && ok "many keys: a filter on an extra string field" || bad "many keys: k19996 == \"s3\" gives $got, expected $want"
if [ -s "$TMP/keys.rss" ]; then
    # a presence bitmap per column over every event would take 20,000 x 12.5 kB
    rss=$(tail -1 "$TMP/keys.rss")
    [ "$rss" -lt 200000 ] && ok "many keys: peak RSS ${rss} kB (< 200 MB; was 780 MB with a bitmap per column)" || bad "many keys: peak RSS ${rss} kB"
else
    skip "many keys: peak RSS (no /usr/bin/time)"
fi

# ---------------------------------------------------------------------------
section "message ids of every spelling: exact text out, exact pairs"
printf 'ts,dur,loc,kind,peer,id,group,name\n' >"$TMP/ids.csv"
i=0
for id in 12 m12 m012 req-7 "free text" a1 b1 1 m5 x-0 m007 m7; do
    i=$((i + 1))
    printf '%d,1,0,send,1,%s,finish-%d,s%d\n%d,1,1,recv,0,%s,finish-0%d,r%d\n' $i "$id" $i $i $((100 - i)) "$id" $i $i >>"$TMP/ids.csv"
done
"$TNAV" filter -o csv --fields id,group,name 'kind == "send"' "$TMP/ids.csv" | tail -n +2 | cut -d, -f1 >"$TMP/ids.out"
printf '%s\n' 12 m12 m012 req-7 "free text" a1 b1 1 m5 x-0 m007 m7 >"$TMP/ids.want"
cmp -s "$TMP/ids.out" "$TMP/ids.want" && ok "ids come back as written (m007 and m7, a1 and 1, free text)" || { bad "ids changed on the way out"; diff "$TMP/ids.want" "$TMP/ids.out" | head; }
"$TNAV" filter -o ndjson 'kind == "send"' "$TMP/ids.csv" | grep -o '"group":"[^"]*"' | sort -u | wc -l | grep -qx 12 && ok "group labels come back as written (finish-N)" || bad "group labels changed"
# the receives come in the reverse order: first-in first-out would pair them all wrongly
pairs=0
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
    [ "$("$TNAV" filter -o csv --fields name "msg_any(name == \"s$i\")" "$TMP/ids.csv" | tail -n +2 | sort | tr '\n' ' ')" = "r$i s$i " ] && pairs=$((pairs + 1))
done
[ "$pairs" = 12 ] && ok "every send pairs with the receive of the same id" || bad "ids: $pairs of 12 pairs right"
[ "$("$TNAV" filter --count 'id == "m007" || id =~ /^req-/' "$TMP/ids.csv")" = 4 ] && ok "filters on ids compare the text" || bad "filters on ids"

# ---------------------------------------------------------------------------
section "samples are what the generator writes"
for s in ring x10 mw; do
    sample-logs/gen --shape $s -o "$TMP/$s.csv"
    sample-logs/gen --shape $s --format ndjson -o "$TMP/$s.ndjson"
    cmp -s "$TMP/$s.csv" sample-logs/$s.csv && cmp -s "$TMP/$s.ndjson" sample-logs/$s.ndjson \
        && ok "sample-logs/$s.* regenerate byte for byte" || bad "sample-logs/$s.* differ from the generator's output"
done
sample-logs/gen --events 5000 --seed 3 -o "$TMP/g1.csv"; sample-logs/gen --events 5000 --seed 3 -o "$TMP/g2.csv"
cmp -s "$TMP/g1.csv" "$TMP/g2.csv" && ok "generator is deterministic" || bad "generator output varies"
[ "$(($(wc -l <"$TMP/g1.csv") - 1))" -eq 5000 ] && ok "generator writes exactly --events records" || bad "generator record count"

# ---------------------------------------------------------------------------
section "what the samples show (semantic checks)"
"$TNAV" stats --json sample-logs/ring.csv >"$TMP/ring.json"
if build/rel/casetool --jq "$TMP/ring.json" '.events' >/dev/null 2>&1; then JQ="build/rel/casetool --jq"; else JQ=""; fi
if [ -n "$JQ" ]; then
    # the straggler rank 5 has the most busy time and the least sync time
    max_busy=$($JQ "$TMP/ring.json" '.per_loc[5].busy_ns')
    strag_ok=1
    for r in 0 1 2 3 4 6 7; do
        b=$($JQ "$TMP/ring.json" ".per_loc[$r].busy_ns"); s5=$($JQ "$TMP/ring.json" '.per_loc[5].sync_ns'); s=$($JQ "$TMP/ring.json" ".per_loc[$r].sync_ns")
        [ "$b" -lt "$max_busy" ] && [ "$s" -gt "$s5" ] || strag_ok=0
    done
    [ $strag_ok = 1 ] && ok "ring: rank 5 is the straggler (most busy, least sync)" || bad "ring: straggler not visible"
    [ "$($JQ "$TMP/ring.json" 'len(.messages)')" = 8 ] && ok "ring: 8 communicating pairs" || bad "ring: pairs"
    ring_ok=1
    for r in 0 1 2 3 4 5 6 7; do
        [ "$($JQ "$TMP/ring.json" ".messages[$r].src")" = $r ] && [ "$($JQ "$TMP/ring.json" ".messages[$r].dst")" = $(((r + 1) % 8)) ] \
            && [ "$($JQ "$TMP/ring.json" ".messages[$r].count")" = 10 ] || ring_ok=0
    done
    [ $ring_ok = 1 ] && ok "ring: messages only flow r -> r+1, 10 per pair" || bad "ring: message pattern"
    "$TNAV" stats --json sample-logs/mw.csv >"$TMP/mw.json"
    w3=$($JQ "$TMP/mw.json" '.per_loc[3].busy_ns'); mw_ok=1
    for r in 1 2 4 5; do [ "$($JQ "$TMP/mw.json" ".per_loc[$r].busy_ns")" -lt "$w3" ] || mw_ok=0; done
    [ $mw_ok = 1 ] && ok "mw: worker 3 carries the most work (load imbalance)" || bad "mw: imbalance not visible"
    "$TNAV" stats --json sample-logs/x10.csv >"$TMP/x10.json"
    [ "$($JQ "$TMP/x10.json" '.sync_groups')" = 2 ] && ok "x10: two finish groups" || bad "x10: finish groups"
    [ "$($JQ "$TMP/x10.json" '.kinds.move')" -ge 2 ] && ok "x10: at-moves are present" || bad "x10: moves"
else
    bad "semantic checks need build/rel/casetool --jq"
fi

# ---------------------------------------------------------------------------
section "wait states on the samples: the culprits their README names"
if [ -n "$JQ" ]; then
    "$TNAV" waits --json sample-logs/ring.csv >"$TMP/w.json"
    [ "$($JQ "$TMP/w.json" '.patterns[pattern=wait_at_barrier].by_culprit[0].loc')" = 5 ] \
        && [ "$($JQ "$TMP/w.json" '.patterns[pattern=wait_at_barrier].instances')" = 70 ] \
        && [ "$($JQ "$TMP/w.json" 'len(.patterns[pattern=wait_at_barrier].by_culprit)')" = 1 ] \
        && ok "ring: rank 5 causes every barrier wait (70 instances)" || bad "ring waits: $(head -c 400 "$TMP/w.json")"
    "$TNAV" waits --json sample-logs/x10.csv >"$TMP/w.json"
    [ "$($JQ "$TMP/w.json" '.patterns[pattern=finish_wait].worst[0].culprit')" = 3 ] \
        && [ "$($JQ "$TMP/w.json" '.patterns[pattern=finish_wait].worst[0].ns')" = 8206000 ] \
        && ok "x10: finish:1 waits 8.206 ms for the activity at place 3" || bad "x10 waits: $(head -c 400 "$TMP/w.json")"
    "$TNAV" waits --json sample-logs/mw.csv >"$TMP/w.json"
    [ "$($JQ "$TMP/w.json" '.patterns[pattern=late_sender].by_culprit[0].loc')" = 0 ] \
        && ok "mw: the workers wait for the master (late sender, culprit 0)" || bad "mw waits: $(head -c 400 "$TMP/w.json")"
    # the same numbers from the CSV and the NDJSON of a sample, and per rank
    "$TNAV" waits --json sample-logs/ring.ndjson >"$TMP/w2.json"
    "$TNAV" waits --json sample-logs/ring.csv >"$TMP/w1.json"
    cmp -s "$TMP/w1.json" "$TMP/w2.json" && ok "waits: ring.csv and ring.ndjson give the same report" || bad "waits csv vs ndjson"
    # totals are the sums of the per-location lists
    python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
for p in d["patterns"]:
    assert p["total_ns"] == sum(x["ns"] for x in p["by_loc"]), p["pattern"]
    if p["pattern"] != "barrier_completion": assert p["total_ns"] == sum(x["ns"] for x in p["by_culprit"]), p["pattern"]' "$TMP/w1.json" \
        && ok "waits: every total is the sum of its victims and of its culprits" || bad "waits totals"
    # the profile: the self times of each activity add up to the time its
    # intervals cover (computed here from the events, independently)
    sample-logs/gen --shape tasks --events 20000 -o "$TMP/pt.csv"
    for f in sample-logs/ring.csv sample-logs/x10.csv sample-logs/mw.csv "$TMP/pt.csv"; do
        "$TNAV" stats --json "$f" >"$TMP/p.json"
        "$TNAV" filter -o csv --fields ts,dur,loc,act,kind true "$f" >"$TMP/p.csv"
        python3 -c 'import csv, json, sys
d = json.load(open(sys.argv[1]))
cover = {}
for r in csv.DictReader(open(sys.argv[2])):
    if r["dur"] in ("", "0") or r["kind"] == "msg": continue
    cover.setdefault((r["loc"], r["act"]), []).append((int(r["ts"]), int(r["ts"]) + int(r["dur"])))
tot = 0
for iv in cover.values():
    iv.sort(); end = None
    for a, b in iv:
        if end is None or a >= end: tot += b - a; end = b
        elif b > end: tot += b - end; end = b
s = sum(p["self_ns"] for p in d["profile"])
sys.exit(0 if s == tot else print(s, tot) or 1)' "$TMP/p.json" "$TMP/p.csv" \
            && ok "profile of $(basename "$f"): the self times add up to the time the intervals cover" || bad "profile self times of $f"
    done
    # syncs and waits agree: the wait a straggler caused is the barrier waits
    "$TNAV" syncs --json sample-logs/ring.csv >"$TMP/y.json"
    [ "$($JQ "$TMP/y.json" '.last_counts')" = '[{"loc":5,"count":10,"wait_caused_ns":'"$($JQ "$TMP/w1.json" '.patterns[pattern=wait_at_barrier].total_ns')"'}]' ] \
        && ok "syncs: ring's rank 5 last at all 10 barriers, causing the barrier waits tnav waits reports" || bad "syncs ring: $($JQ "$TMP/y.json" '.last_counts')"
    "$TNAV" syncs --json sample-logs/x10.csv >"$TMP/y.json"
    "$TNAV" waits --json sample-logs/x10.csv >"$TMP/w.json"
    [ "$($JQ "$TMP/y.json" '.last_counts[0].wait_caused_ns')" = "$($JQ "$TMP/w.json" '.patterns[pattern=finish_wait].total_ns')" ] \
        && [ "$($JQ "$TMP/y.json" '.last_counts[0].loc')" = 3 ] \
        && ok "syncs: x10's place 3 holds the finishes open, as long as tnav waits says" || bad "syncs x10: $($JQ "$TMP/y.json" '.last_counts')"
    # ... and for any filter and window: the instances' waits add up to the
    # waits on arrival tnav waits reports and to the sync groups' waits of
    # tnav stats (one definition of a sync instance)
    sample-logs/gen --shape tasks --events 20000 --ranks 8 --seed 11 -o "$TMP/yt.csv"
    for tr in sample-logs/ring.csv sample-logs/x10.csv "$TMP/yt.csv"; do
        agree=1
        for opt in "" "-f loc!=5" "-f loc==1||loc==2" "--from 3ms --to 20ms" "-f kind!=\"end\" --from 1ms --to 9ms"; do
            # shellcheck disable=SC2086
            "$TNAV" syncs --json $opt "$tr" >"$TMP/ya.json" 2>&1
            # shellcheck disable=SC2086
            "$TNAV" waits --json $opt "$tr" >"$TMP/wa.json" 2>&1
            # shellcheck disable=SC2086
            "$TNAV" stats --json $opt "$tr" >"$TMP/sa.json" 2>&1
            python3 -c 'import json, sys
y = json.load(open(sys.argv[1])); w = {p["pattern"]: p["total_ns"] for p in json.load(open(sys.argv[2]))["patterns"]}
st = sum(g["wait_ns"] for g in json.load(open(sys.argv[3]))["sync"])
ys = sum(i["wait_ns"] for i in y["syncs"])
ws = sum(w[k] for k in ("wait_at_barrier", "wait_at_nxn", "late_broadcast", "early_reduce", "finish_wait"))
lc = sum(x["wait_caused_ns"] for x in y["last_counts"])
sys.exit(0 if ys == ws == lc == st and ys == sum(p["wait_ns"] for i in y["syncs"] for p in i["participants"]) else print(ys, ws, lc, st) or 1)' "$TMP/ya.json" "$TMP/wa.json" "$TMP/sa.json" \
                || { bad "syncs vs waits on $(basename "$tr") $opt"; agree=0; }
        done
        [ $agree = 1 ] && ok "syncs, waits and stats' sync groups agree on $(basename "$tr") under filters and windows"
    done
fi

# ---------------------------------------------------------------------------
section "analyses against answers the generator knows by construction (tests/answers.py)"
python3 tests/answers.py "$TNAV" sample-logs/gen "$TMP" >"$TMP/answers.out" 2>&1
tally "answers" "$TMP/answers.out" $?

section "real traces written by real tools ($SHARED)"
if [ -d "$SHARED" ]; then
    p="$SHARED/csv/pipit_ping-pong-csv.csv"
    "$TNAV" stats --json --map ts='Timestamp (ns)' --map loc=Process --map kind='Event Type' "$p" >"$TMP/pp.json" 2>"$TMP/pp.err"
    [ -n "$JQ" ] && [ "$($JQ "$TMP/pp.json" '.events')" = 78 ] && [ "$($JQ "$TMP/pp.json" '.locations')" = 2 ] \
        && [ "$($JQ "$TMP/pp.json" '.kinds.state')" = 42 ] && [ "$($JQ "$TMP/pp.json" '.kinds.Instant')" = 36 ] \
        && [ "$($JQ "$TMP/pp.json" '.rejected')" = 0 ] && [ "$($JQ "$TMP/pp.json" '.per_loc[0].busy_ns')" -gt 0 ] && [ ! -s "$TMP/pp.err" ] \
        && ok "pipit ping-pong CSV: 120 rows = 42 Enter/Leave intervals + 36 instants at 2 locations, busy > 0 (fractional ns, quoted commas, dict repr)" || bad "pipit ping-pong: $(head -c 200 "$TMP/pp.json") $(head -3 "$TMP/pp.err")"
    p="$SHARED/csv/pipit_foo-bar.csv"
    "$TNAV" stats --json --time-unit s --map ts='Timestamp (s)' --map loc=Process --map kind='Event Type' "$p" >"$TMP/fb.json" 2>"$TMP/fb.err"
    [ -n "$JQ" ] && [ "$($JQ "$TMP/fb.json" '.events')" = 10 ] && [ "$($JQ "$TMP/fb.json" '.t_max')" -ge 1000000000 ] \
        && [ "$($JQ "$TMP/fb.json" '.max_depth')" = 2 ] && [ "$($JQ "$TMP/fb.json" '.rejected')" = 0 ] \
        && ok "pipit foo-bar CSV: 20 Enter/Leave rows (grouped by process, not by time) = 10 nested intervals, spaces after commas, seconds" || bad "pipit foo-bar: $(head -c 200 "$TMP/fb.json") $(head -3 "$TMP/fb.err")"
    p="$SHARED/csv/pipit_nbody-nvtx_nsys_trace.csv"
    "$TNAV" stats --json --map ts='Start (ns)' --map end='End (ns)' --map loc=PID --map act=TID "$p" >"$TMP/nv.json" 2>"$TMP/nv.err"
    [ -n "$JQ" ] && [ "$($JQ "$TMP/nv.json" '.events')" = 131 ] && [ "$($JQ "$TMP/nv.json" '.max_depth')" = 2 ] \
        && ok "nsys NVTX ranges: 131 intervals nested 3 levels deep" || bad "nsys NVTX: $(head -c 200 "$TMP/nv.json") $(head -3 "$TMP/nv.err")"
    for p in "$SHARED"/csv/pipit_cloverleaf*.csv; do
        case "$p" in *gpu*) lm=streamId ;; *) lm=Process ;; esac
        "$TNAV" check --map ts="Timestamp (ns)" --map loc=$lm --map kind="Event Type" "$p" >"$TMP/cl.out" 2>&1
        grep -qE "^[0-9]+ events loaded" "$TMP/cl.out" && ok "$(basename "$p"): loads" || bad "$(basename "$p"): $(tail -2 "$TMP/cl.out")"
    done
    for p in "$SHARED"/ndjson/spark353_*.ndjson; do
        n=$(wc -l <"$p")
        "$TNAV" stats --json --time-unit ms --map ts='Task Info.Launch Time' --map end='Task Info.Finish Time' \
            --map loc='Task Info.Executor ID' --map kind=Event "$p" >"$TMP/sp.json" 2>"$TMP/sp.err"
        ev=$([ -n "$JQ" ] && $JQ "$TMP/sp.json" '.events'); rj=$([ -n "$JQ" ] && $JQ "$TMP/sp.json" '.rejected')
        [ -n "$ev" ] && [ $((ev + rj)) -eq "$n" ] && [ "$ev" -gt 0 ] \
            && ok "$(basename "$p"): every record loaded or rejected with a reason ($ev + $rj = $n)" || bad "$(basename "$p"): $ev + $rj != $n"
    done
    p="$SHARED/ndjson/sparklens_local-1532512550423.ndjson"
    "$TNAV" check --time-unit ms --map ts=Timestamp --map loc=Event "$p" >"$TMP/sl.out" 2>&1
    grep -qE "^[0-9]+ events loaded" "$TMP/sl.out" && ok "sparklens: check runs over every record" || bad "sparklens: $(tail -2 "$TMP/sl.out")"
    # Paraver: every record read, as the README of the traces counts them
    # (states, event type:value pairs, communications), named from the .pcf
    for p in "$SHARED"/paraver/*/*.prv; do
        [ -f "$p" ] || continue
        b=$(basename "$p")
        "$TNAV" stats --json "$p" >"$TMP/pv.json" 2>"$TMP/pv.err"; rc=$?
        want=$(awk -F: '$1 == 1 {st++} $1 == 2 {ev += (NF - 6) / 2} $1 == 3 {cm++} END {printf "%d %d %d", st, ev, cm}' "$p")
        got=$($JQ "$TMP/pv.json" '.kinds' | python3 -c 'import json,sys; k = json.load(sys.stdin); print(k.get("state", 0) + k.get("sync", 0) + k.get("idle", 0), k.get("mark", 0) + k.get("counter", 0), k.get("msg", 0))')
        [ $rc -eq 0 ] && [ "$got" = "$want" ] && [ "$($JQ "$TMP/pv.json" '.rejected')" = 0 ] && [ ! -s "$TMP/pv.err" ] \
            && ok "$b: every state, event pair and communication ($got)" || { bad "$b: exit $rc, read $got, the file has $want"; head -3 "$TMP/pv.err"; }
        TNAV_CHUNK_BYTES=5000 "$TNAV" stats --json "$p" >"$TMP/pv2.json" 2>/dev/null
        cmp -s "$TMP/pv.json" "$TMP/pv2.json" && ok "$b: the same trace when cut into 5000-byte chunks" || bad "$b: chunked load differs"
    done
    # Paraver with several applications (lulesh: "2:8(...),12(...),14"):
    # every thread that has records is named by its line of the .row, for
    # every application (the .row read here, thread order from the header)
    for p in "$SHARED"/paraver/extrae_lulesh_mpi/*.prv; do
        [ -f "$p" ] || continue
        "$TNAV" filter -o csv --fields act true "$p" 2>/dev/null | tail -n +2 | sort -u >"$TMP/pv.acts"
        python3 - "$p" "${p%.prv}.row" >"$TMP/pv.want" <<'PY'
import re, sys
prv, row = sys.argv[1], sys.argv[2]
hdr = open(prv).readline()
apps = re.findall(r"(\d+)\(([^)]*)\)", hdr.split(":", 4)[4])  # [(ntasks, "nthreads:node,...")]
first, g = {}, 0
for a, (nt, lst) in enumerate(apps, 1):
    for t, spec in enumerate(lst.split(","), 1):
        first[(a, t)] = g
        g += int(spec.split(":")[0])
names, lvl = [], None
for l in open(row):
    l = l.rstrip("\n")
    if l.startswith("LEVEL "): lvl = l.split()[1]
    elif l and lvl == "THREAD": names.append(l)
used = set()
for l in open(prv):
    f = l.split(":")
    if f[0] in ("1", "2"): used.add((int(f[2]), int(f[3]), int(f[4])))
print("\n".join(sorted({names[first[(a, t)] + th - 1] for a, t, th in used})))
PY
        b=$(basename "$p")
        napp=$(cut -d: -f2 "$TMP/pv.acts" | sed -n 's/^THREAD \([0-9]*\)\..*/\1/p' | sort -u | wc -l)
        [ -s "$TMP/pv.want" ] && cmp -s "$TMP/pv.acts" "$TMP/pv.want" && [ "$napp" -ge 2 ] \
            && ok "$b: the threads of all $napp applications named from the .row" || { bad "$b: thread names differ from the .row"; diff "$TMP/pv.want" "$TMP/pv.acts" | head -5; }
    done
    p=$(ls "$SHARED"/paraver/extrae_lulesh_mpi/lulesh_7+1*.prv 2>/dev/null | head -1)
    if [ -n "$p" ]; then
        "$TNAV" filter -o csv --fields name 'kind == "mark"' "$p" | sort | uniq -c | sort -rn >"$TMP/pv.names"
        "$TNAV" stats --json "$p" >"$TMP/pv.json"
        grep -q ' MPI_Isend$' "$TMP/pv.names" && grep -q ' MPI_Irecv$' "$TMP/pv.names" \
            && [ "$($JQ "$TMP/pv.json" '.per_loc[0].sync_ns')" -lt "$($JQ "$TMP/pv.json" '.per_loc[7].sync_ns')" ] \
            && ok "lulesh: MPI calls named from the .pcf; rank 1.1 waits least, 1.8 most (the straggler is 1.1)" || bad "lulesh names: $(head -3 "$TMP/pv.names")"
    fi
    # Chrome JSON: every file as an independent model of the documented
    # rules reads it (tests/chrome_ref.py), and the same cut into small chunks
    for p in "$SHARED"/chrome_json/*.json "$SHARED"/chrome_json/*.json.gz; do
        [ -f "$p" ] || continue
        b=$(basename "$p")
        src=$p
        case $p in *.gz) gzip -dc "$p" >"$TMP/chrome-plain.json"; src=$TMP/chrome-plain.json ;; esac
        # (the flows' ends and the slices they bind to)
        fl() { "$TNAV" filter -o csv --fields ts,kind,name,from_slice,to_slice 'kind == "msg" || kind == "send" || kind == "recv"' "$p" 2>/dev/null; }
        "$TNAV" stats --json "$p" >"$TMP/cj.json" 2>"$TMP/cj.err"; rc=$?
        fl | cut -d, -f2- >"$TMP/cj.csv"
        if [ $rc -eq 0 ] && python3 tests/chrome_ref.py "$src" "$TMP/cj.json" "$TMP/cj.csv" >"$TMP/cj.out" 2>&1; then
            ok "$b: read as the documented rules say ($(cat "$TMP/cj.out"))"
        else
            bad "$b: exit $rc"; cat "$TMP/cj.out" "$TMP/cj.err" | head -5
        fi
        TNAV_CHUNK_BYTES=700 "$TNAV" stats --json "$p" >"$TMP/cj2.json" 2>"$TMP/cj2.err"
        fl >"$TMP/cf1.csv"; TNAV_CHUNK_BYTES=700 fl >"$TMP/cf2.csv"
        # (the rejections too, in file order: also several on one line)
        cmp -s "$TMP/cj.json" "$TMP/cj2.json" && cmp -s "$TMP/cf1.csv" "$TMP/cf2.csv" && cmp -s "$TMP/cj.err" "$TMP/cj2.err" \
            && ok "$b: the same trace (flows bound to the same slices, the same rejections) when cut into 700-byte chunks" || bad "$b: chunked load differs"
    done
    # OTF2 (Score-P): as otf2-print lists the archive's events
    if "$TNAV" --version | grep -q 'otf2$\|otf2,' && command -v otf2-print >/dev/null 2>&1; then
        for p in "$SHARED"/otf2/*/traces.otf2; do
            [ -f "$p" ] || continue
            b=$(basename "$(dirname "$p")")
            otf2-print "$p" >"$TMP/op.txt" 2>/dev/null
            n() { grep -c "^$1 " "$TMP/op.txt"; }
            "$TNAV" stats --json "$p" >"$TMP/oj.json" 2>"$TMP/oj.err"; rc=$?
            got=$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); k = d["kinds"]
f = {x["name"]: x["present"] for x in d["fields"]}
print(sum(m["count"] for m in d["messages"]), k.get("state", 0), k.get("sync", 0), f.get("unfinished", 0), d["rejected"])' "$TMP/oj.json")
            want="$(($(n MPI_SEND) + $(n MPI_ISEND))) $(n ENTER) $(n MPI_COLLECTIVE_END) $(($(n ENTER) - $(n LEAVE))) 0"
            [ $rc -eq 0 ] && [ "$got" = "$want" ] \
                && ok "OTF2 $b: messages, regions, collectives and regions never left as otf2-print lists them ($got)" \
                || { bad "OTF2 $b: exit $rc: tnav $got, otf2-print $want"; head -3 "$TMP/oj.err"; }
        done
        # the stencil's MPI_Waitall: each call waits once, for its latest
        # send. Computed here from the sends and receives tnav filter lists,
        # paired as MPI does (per sender, receiver and tag, in order), the
        # receives of a rank that start together being one call
        p="$SHARED/otf2/scorep_stencil4d_64ranks/traces.otf2"
        if [ -f "$p" ]; then
            "$TNAV" filter -o csv -f 'kind == "send" || kind == "recv"' "$p" >"$TMP/st.csv"
            "$TNAV" waits --json "$p" >"$TMP/st.json"
            python3 - "$TMP/st.csv" "$TMP/st.json" >"$TMP/st.out" <<'PY'
import csv, json, sys
from collections import defaultdict
sends, recvs = defaultdict(list), defaultdict(list)
for r in csv.DictReader(open(sys.argv[1])):
    if r["kind"] == "send": sends[(r["loc"], r["peer"], r["tag"])].append(int(r["ts"]))
    elif r["dur"]: recvs[(r["peer"], r["loc"], r["tag"])].append((int(r["ts"]), int(r["dur"]), r["loc"], r["act"]))
calls = {}
nrecv = 0
for k, rs in recvs.items():
    for st, (ts, dur, loc, act) in zip(sorted(sends[k]), sorted(rs)):
        c = calls.setdefault((loc, act, ts), [0, None])
        c[0] = max(c[0], dur)
        c[1] = st if c[1] is None else max(c[1], st)
        nrecv += 1
total = n = 0
for (loc, act, ts), (dur, st) in calls.items():
    w = min(max(st - ts, 0), dur)
    total += w
    n += w > 0
p = [x for x in json.load(open(sys.argv[2]))["patterns"] if x["pattern"] == "late_sender"][0]
print("ok" if (p["total_ns"], p["instances"]) == (total, n) and len(calls) < nrecv
      else "tnav %d ns in %d, wanted %d ns in %d (%d calls, %d receives)" % (p["total_ns"], p["instances"], total, n, len(calls), nrecv))
PY
            [ "$(cat "$TMP/st.out")" = ok ] \
                && ok "OTF2 stencil: a wait-all waits once, for its latest send (late sender as paired and grouped independently)" \
                || bad "OTF2 stencil late sender: $(cat "$TMP/st.out")"
        fi
    else
        skip "OTF2: tnav built without it, or no otf2-print (otf2-tools)"
    fi
else
    skip "real traces: $SHARED not found"
fi
# OTF2 archives written by the OTF2 library's own writer (python3-otf2)
if "$TNAV" --version | grep -q 'otf2$\|otf2,' && /usr/bin/python3 -c 'import otf2' 2>/dev/null; then
    rm -rf "$TMP/ow"
    /usr/bin/python3 tests/otf2_write.py "$TMP/ow" >"$TMP/ow.want"
    "$TNAV" stats --json "$TMP/ow/traces.otf2" >"$TMP/ow.json" 2>"$TMP/ow.err"; rc=$?
    python3 - "$TMP/ow.want" "$TMP/ow.json" >"$TMP/ow.out" 2>&1 <<'PY'
import json, sys
w = json.load(open(sys.argv[1])); d = json.load(open(sys.argv[2]))
bad = []
for k in ("events", "kinds", "messages", "t_min", "max_depth", "locations", "activities"):
    if d[k] != w[k]: bad.append("%s: tnav %s, want %s" % (k, d[k], w[k]))
sy = [(s["group"], s["last_loc"]) for s in d["sync"]]
if sy != [(w["sync_group"], w["last_loc"])]: bad.append("sync: %s" % sy)
f = {x["name"]: x["present"] for x in d["fields"]}
if f.get("unfinished") != w["unfinished"]: bad.append("unfinished: %s" % f.get("unfinished"))
print("\n".join(bad) or "ok")
sys.exit(1 if bad else 0)
PY
    [ $rc -eq 0 ] && [ "$(cat "$TMP/ow.out")" = ok ] && [ ! -s "$TMP/ow.err" ] \
        && ok "OTF2 written by the library: regions nested, sends and receives paired by rank through the communicator, the barrier's last arrival, a region never left" \
        || { bad "OTF2 written by the library: exit $rc"; cat "$TMP/ow.out" "$TMP/ow.err" | head -8; }
    "$TNAV" waits --json "$TMP/ow/traces.otf2" >"$TMP/ow.waits" 2>&1
    python3 -c 'import json, sys
w = json.load(open(sys.argv[1]))["late_sender"]; d = json.load(open(sys.argv[2]))
p = [x for x in d["patterns"] if x["pattern"] == "late_sender"][0]
sys.exit(0 if (p["total_ns"], p["by_loc"][0]["loc"], p["by_culprit"][0]["loc"]) == (w["total_ns"], w["victim"], w["culprit"]) else 1)' "$TMP/ow.want" "$TMP/ow.waits" \
        && ok "OTF2 written by the library: the receive that waited in MPI_Recv is a late sender, caused by the rank that sent late" \
        || { bad "OTF2 late sender"; head -c 300 "$TMP/ow.waits"; }
    # damaged archives: an event file cut short loads what came before it;
    # missing definitions are an error naming the file
    cp -r "$TMP/ow" "$TMP/ow-cut"
    f=$(ls "$TMP"/ow-cut/traces/*.evt | head -1)
    truncate -s $(($(stat -c %s "$f") / 2)) "$f"
    "$TNAV" stats --json "$TMP/ow-cut/traces.otf2" >"$TMP/ow.json" 2>"$TMP/ow.err"; rc=$?
    [ $rc -eq 0 ] && grep -q "the archive's events end early" "$TMP/ow.err" && [ "$($JQ "$TMP/ow.json" '.rejected')" = 1 ] \
        && ok "OTF2 with an event file cut short: what came before loads, the rest reported" || { bad "OTF2 cut short: exit $rc"; head -3 "$TMP/ow.err"; }
    rm "$TMP/ow-cut/traces.def"
    "$TNAV" stats "$TMP/ow-cut/traces.otf2" >/dev/null 2>"$TMP/ow.err"; rc=$?
    [ $rc -eq 2 ] && grep -q "traces.def" "$TMP/ow.err" && ok "OTF2 without its definitions: exit 2, naming the missing file" || { bad "OTF2 without definitions: exit $rc"; head -3 "$TMP/ow.err"; }
    # a copy of the anchor file alone (piped) is refused with the reason
    "$TNAV" stats - <"$TMP/ow/traces.otf2" >/dev/null 2>"$TMP/ow.err"; rc=$?
    [ $rc -eq 2 ] && grep -q "read from its directory" "$TMP/ow.err" && ok "an OTF2 anchor file piped in: refused, saying to give its path" || { bad "OTF2 piped: exit $rc"; head -3 "$TMP/ow.err"; }
else
    skip "OTF2 writer test: tnav built without OTF2, or no python3-otf2"
fi
# the object form of Chrome JSON with "traceEvents" after other top-level keys, on later lines
printf '{"displayTimeUnit": "ns",\n "metadata": {"traceEvents": 1},\n "traceEvents": [\n{"ph":"X","ts":1,"dur":2,"pid":1,"tid":1,"name":"a"}\n]}\n' >"$TMP/late.json"
"$TNAV" stats --json "$TMP/late.json" >"$TMP/x.out" 2>"$TMP/x.err"; rc=$?
[ $rc -eq 0 ] && grep -q '"format":"chrome"' "$TMP/x.out" && grep -q '"events":1,' "$TMP/x.out" && ok "chrome detection: traceEvents after other keys, on a later line" || bad "chrome detection late key: exit $rc $(head -2 "$TMP/x.err")"
# NDJSON whose records hold a nested "traceEvents" key stays NDJSON
printf '{"ts":1,"loc":0,"name":"a","x":{"traceEvents":[]}}\n{"ts":2,"loc":0,"name":"b"}\n' >"$TMP/nd.ndjson"
"$TNAV" stats "$TMP/nd.ndjson" >"$TMP/x.out" 2>"$TMP/x.err"; rc=$?
[ $rc -eq 0 ] && ok "chrome detection: a nested traceEvents key in NDJSON is still NDJSON" || bad "chrome detection nested key: exit $rc $(head -2 "$TMP/x.err")"

# ---------------------------------------------------------------------------
section "recipes of doc/FORMAT.md, run on files the tools themselves write"
# run_recipe NAME INPUT: the recipe's tnav arguments (tests/recipes.py) with
# --json after stats and INPUT in place of the example file; into $TMP/rc.json
python3 tests/recipes.py doc/FORMAT.md >"$TMP/recipes.tsv"
run_recipe() {
    line=$(grep "^$1	" "$TMP/recipes.tsv")
    [ -n "$line" ] || { bad "recipe $1 is not in doc/FORMAT.md"; return 1; }
    oldifs=$IFS; IFS='	'
    # shellcheck disable=SC2086
    set -- $line
    IFS=$oldifs
    shift # (the name)
    n=$#; i=0; args=""
    for a in "$@"; do
        i=$((i + 1))
        [ $i = $n ] && break
        args="$args$(printf '%s' "$a" | sed "s/'/'\\\\''/g; s/^/'/; s/\$/'/") "
        [ "$a" = stats ] && args="$args--json "
    done
    eval "\"\$TNAV\" $args \"\$RECIPE_INPUT\"" >"$TMP/rc.json" 2>"$TMP/rc.err"
}
jqv() { $JQ "$TMP/rc.json" "$1"; }
if [ -n "$JQ" ]; then
    if [ -d "$SHARED" ]; then
        RECIPE_INPUT=$SHARED/csv/pipit_nbody-nvtx_nsys_trace.csv run_recipe nsys
        [ "$(jqv .events)" = 131 ] && [ "$(jqv .max_depth)" = 2 ] && ok "recipe nsys: 131 NVTX ranges nested 3 deep" || bad "recipe nsys: $(head -c 200 "$TMP/rc.json") $(head -2 "$TMP/rc.err")"
        RECIPE_INPUT=$SHARED/csv/pipit_ping-pong-csv.csv run_recipe pipit
        [ "$(jqv .kinds.state)" = 42 ] && [ "$(jqv .rejected)" = 0 ] && ok "recipe pipit: 42 Enter/Leave regions" || bad "recipe pipit: $(head -c 200 "$TMP/rc.json") $(head -2 "$TMP/rc.err")"
        f=$(ls "$SHARED"/ndjson/spark353_*.ndjson | head -1)
        for f in "$SHARED"/ndjson/spark353_*.ndjson; do
            RECIPE_INPUT=$f run_recipe spark
            # the task ends, their executors and times, and the other records, counted by python
            want=$(python3 -c 'import json, sys
ev = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
t = [e["Task Info"] for e in ev if e["Event"] == "SparkListenerTaskEnd"]
print(len(t), len(ev) - len(t), len({x["Executor ID"] for x in t}), min(x["Launch Time"] for x in t) * 1000000, max(x["Finish Time"] for x in t) * 1000000)' "$f")
            got="$(jqv .kinds.SparkListenerTaskEnd) $(jqv '.files[0].skipped') $(jqv .locations) $(jqv .t_min) $(jqv .t_max)"
            [ "$got" = "$want" ] && [ "$(jqv .events)" = "${want%% *}" ] && [ "$(jqv .rejected)" = 0 ] && [ ! -s "$TMP/rc.err" ] \
                && ok "recipe spark $(basename "$f"): every task an interval, the rest skipped, none rejected (tasks, skipped, executors, first, last: $got)" \
                || bad "recipe spark $(basename "$f"): tnav $got, python $want, rejected $(jqv .rejected); $(head -2 "$TMP/rc.err")"
        done
    fi
    if command -v parallel >/dev/null 2>&1; then
        parallel --joblog "$TMP/joblog.tsv" -j3 sleep ::: 0.2 0.1 0.15 0.05 0.1 >/dev/null 2>&1
        RECIPE_INPUT=$TMP/joblog.tsv run_recipe parallel
        [ "$(jqv .events)" = 5 ] && [ "$(jqv .kinds.state)" = 5 ] && [ "$(jqv .activities)" -ge 2 ] && [ "$(jqv .rejected)" = 0 ] \
            && ok "recipe parallel: 5 jobs, the ones that ran at once in $(jqv .activities) lanes" || bad "recipe parallel: $(head -c 300 "$TMP/rc.json") $(head -2 "$TMP/rc.err")"
    else
        skip "recipe parallel: GNU parallel is not installed"
    fi
    if command -v ninja >/dev/null 2>&1; then
        mkdir -p "$TMP/nj" && printf 'rule work\n  command = sleep $secs && touch $out\nbuild a.o: work\n  secs = 0.2\nbuild b.o: work\n  secs = 0.1\nbuild c.o: work\n  secs = 0.15\nbuild d.o: work\n  secs = 0.05\nbuild app: work a.o b.o c.o d.o\n  secs = 0.05\n' >"$TMP/nj/build.ninja"
        (cd "$TMP/nj" && ninja -j3 >/dev/null 2>&1)
        RECIPE_INPUT=$TMP/nj/.ninja_log run_recipe ninja
        [ "$(jqv .events)" = 5 ] && [ "$(jqv .locations)" -ge 2 ] && [ "$(jqv .rejected)" = 0 ] && [ "$(jqv '.files[0].comments')" = 1 ] \
            && ok "recipe ninja: 5 build steps packed into $(jqv .locations) lanes, the version line a comment" || bad "recipe ninja: $(head -c 300 "$TMP/rc.json") $(head -2 "$TMP/rc.err")"
    else
        skip "recipe ninja: ninja is not installed"
    fi
    if command -v perf >/dev/null 2>&1 && perf stat -x, -I 100 -o "$TMP/perf.csv" -e task-clock,context-switches sleep 0.35 >/dev/null 2>&1 && [ -s "$TMP/perf.csv" ]; then
        RECIPE_INPUT=$TMP/perf.csv run_recipe perf
        [ "$(jqv .kinds.counter)" -gt 0 ] && ok "recipe perf: $(jqv .kinds.counter) counter samples ($(jqv .rejected) not counted)" || bad "recipe perf: $(head -c 300 "$TMP/rc.json") $(head -2 "$TMP/rc.err")"
    else
        skip "recipe perf: perf stat does not run here"
    fi
    if command -v go >/dev/null 2>&1; then
        mkdir -p "$TMP/gt"
        printf 'module example.com/gt\n\ngo 1.19\n' >"$TMP/gt/go.mod"
        cat >"$TMP/gt/gt_test.go" <<'GO'
package gt

import (
	"testing"
	"time"
)

func TestFast(t *testing.T)    { time.Sleep(20 * time.Millisecond) }
func TestSlow(t *testing.T)    { t.Parallel(); time.Sleep(120 * time.Millisecond) }
func TestOther(t *testing.T)   { t.Parallel(); time.Sleep(80 * time.Millisecond) }
func TestSkipped(t *testing.T) { t.Skip("not here") }
func TestFails(t *testing.T)   { t.Fatal("on purpose") }
func TestSub(t *testing.T) {
	t.Run("a", func(t *testing.T) { time.Sleep(10 * time.Millisecond) })
	t.Run("b", func(t *testing.T) { time.Sleep(10 * time.Millisecond) })
}
GO
        (cd "$TMP/gt" && HOME=$TMP/gt GOCACHE=$TMP/gt/cache GOPATH=$TMP/gt/gopath GOFLAGS=-mod=mod GOTOOLCHAIN=local GOPROXY=off \
            go test -json ./... >"$TMP/go-test.json" 2>/dev/null)
        runs=$(grep -c '"Action":"run"' "$TMP/go-test.json")
        RECIPE_INPUT=$TMP/go-test.json run_recipe gotest
        out=$($JQ "$TMP/rc.json" '.fields' | python3 -c 'import json, sys; print({f["name"]: f["present"] for f in json.load(sys.stdin)}.get("outcome"))')
        [ "$runs" -ge 7 ] && [ "$(jqv .kinds.state)" = "$runs" ] && [ "$out" = "$runs" ] && [ "$(jqv .rejected)" = 0 ] \
            && ok "recipe gotest: $runs tests, each run and its pass/fail/skip one interval with its outcome" || bad "recipe gotest: $runs runs; $(head -c 300 "$TMP/rc.json") $(head -2 "$TMP/rc.err")"
        "$TNAV" filter -o csv --fields name,outcome --pair run=pass,fail,skip --map ts=Time --map loc=Package --map name=Test --map kind=Action \
            'name == "TestFails" || name == "TestSkipped"' "$TMP/go-test.json" >"$TMP/gt.out" 2>/dev/null
        grep -qx 'TestFails,fail' "$TMP/gt.out" && grep -qx 'TestSkipped,skip' "$TMP/gt.out" && ok "... a failed and a skipped test keep their outcome" || bad "gotest outcomes: $(cat "$TMP/gt.out")"
        RECIPE_INPUT=$TMP/go-test.json run_recipe gotest-elapsed
        [ "$(jqv .kinds.pass)" -ge 5 ] && [ "$(jqv .per_loc[0].busy_ns)" -gt 100000000 ] \
            && ok "recipe gotest-elapsed: $(jqv .kinds.pass) passes as intervals ending at their Time" || bad "recipe gotest-elapsed: $(head -c 300 "$TMP/rc.json") $(head -2 "$TMP/rc.err")"
    else
        skip "recipe gotest: go is not installed"
    fi
    if command -v clang >/dev/null 2>&1; then
        mkdir -p "$TMP/ct/build-traces"
        printf '#include <stdio.h>\nint main(void){puts("a");return 0;}\n' >"$TMP/ct/a.c"
        printf '#include <string.h>\nint g(const char *s){return (int)strlen(s);}\n' >"$TMP/ct/b.c"
        (cd "$TMP/ct" && clang -ftime-trace -c a.c -o a.o && clang -ftime-trace -c b.c -o b.o && mv a.json b.json build-traces/) >/dev/null 2>&1
        RECIPE_INPUT=$TMP/ct/build-traces/ run_recipe chrome
        [ "$(jqv .locations)" = 2 ] && [ "$(jqv .kinds.state)" -gt 10 ] && [ "$(jqv .rejected)" = 0 ] \
            && ok "recipe chrome: two clang -ftime-trace files, one timeline of two processes" || bad "recipe chrome: $(head -c 300 "$TMP/rc.json") $(head -2 "$TMP/rc.err")"
        # beginningOfTime: the two compilations (b.c after a.c) in absolute
        # time, as python computes it from the files
        "$TNAV" stats --json "$TMP/ct/build-traces/" >"$TMP/ct.json" 2>/dev/null
        want=$(python3 -c 'import json, sys
lo, hi = None, None
for f in sys.argv[1:]:
    d = json.load(open(f)); bot = d["beginningOfTime"]
    for e in d["traceEvents"]:
        if e["ph"] == "M": continue
        s = (bot + e["ts"]) * 1000; t = s + e.get("dur", 0) * 1000
        lo = s if lo is None or s < lo else lo; hi = t if hi is None or t > hi else hi
print(lo, hi)' "$TMP/ct/build-traces/a.json" "$TMP/ct/build-traces/b.json")
        got="$($JQ "$TMP/ct.json" .t_min) $($JQ "$TMP/ct.json" .t_max)"
        [ "$got" = "$want" ] && [ "${want%% *}" -gt 1000000000000000000 ] \
            && ok "clang -ftime-trace: beginningOfTime puts both compilations in absolute time ($got)" || bad "clang beginningOfTime: tnav $got, files $want"
    else
        skip "recipe chrome: clang is not installed"
    fi
fi

# ---------------------------------------------------------------------------
section "tnav convert: canonical CSV / NDJSON and Chrome JSON, whole or not at all"
nmsgs() { "$TNAV" stats --json "$1" | python3 -c 'import json, sys; print(sum(m["count"] for m in json.load(sys.stdin)["messages"]))'; }
sample-logs/gen --shape mpi --events 20000 -o "$TMP/cv-mpi.csv"
sample-logs/gen --shape tasks --events 20000 -o "$TMP/cv-tasks.csv"
for cf in sample-logs/ring.csv sample-logs/x10.ndjson sample-logs/mw.csv "$TMP/cv-mpi.csv" "$TMP/cv-tasks.csv"; do
    b=$(basename "$cf")
    # canonical out and back: the same trace
    for o in csv ndjson; do
        "$TNAV" convert -q -o "$TMP/cv.$o" "$cf" 2>"$TMP/cv.err"
        "$TNAV" stats --json "$cf" | strip_files >"$TMP/cv1.json"
        "$TNAV" stats --json "$TMP/cv.$o" | strip_files >"$TMP/cv2.json"
        cmp -s "$TMP/cv1.json" "$TMP/cv2.json" && ok "convert $b to $o loads back into the same trace" \
            || { bad "convert $b to $o"; diff "$TMP/cv1.json" "$TMP/cv2.json" | head -5; cat "$TMP/cv.err"; }
    done
    # Chrome: the same events, fields as args, a flow per message
    "$TNAV" convert -q -o "$TMP/cv.json" "$cf" && "$TNAV" convert -q -o "$TMP/cv.csv" "$cf"
    python3 tests/chrome_check.py "$TMP/cv.json" "$TMP/cv.csv" "$(nmsgs "$cf")" >"$TMP/cc.out" 2>&1
    tally "chrome-check ($b)" "$TMP/cc.out" $?
    # and read back (tnav reads its own Chrome output as what it was written
    # from): every event with every field, the same messages and groups
    "$TNAV" filter -o csv true "$cf" >"$TMP/rt1"
    "$TNAV" filter -o csv true "$TMP/cv.json" >"$TMP/rt2"
    "$TNAV" stats --json "$cf" | strip_files >"$TMP/rt1.json"
    "$TNAV" stats --json "$TMP/cv.json" | strip_files >"$TMP/rt2.json"
    [ -s "$TMP/rt1" ] && cmp -s "$TMP/rt1" "$TMP/rt2" && cmp -s "$TMP/rt1.json" "$TMP/rt2.json" \
        && ok "convert $b to Chrome and read back: the same $(($(wc -l <"$TMP/rt1") - 1)) events with every field, the same summary" \
        || { bad "convert $b to Chrome and back"; diff "$TMP/rt1" "$TMP/rt2" | head -5; diff "$TMP/rt1.json" "$TMP/rt2.json" | head -3; }
done
# a window and a filter: the events that meet [from, to), intervals whole
cf=sample-logs/ring.csv
"$TNAV" convert -q -o "$TMP/w.csv" --from 20ms --to 25ms -f 'kind != "send"' "$cf"
"$TNAV" convert -q -o "$TMP/all.csv" "$cf"
want=$(awk -F, 'NR > 1 && $5 != "send" { t0 = 1000000000 + 20000000; t1 = 1000000000 + 25000000; e = $1 + ($2 == "" ? 0 : $2); if ($2 != "" && $2 > 0 ? ($1 < t1 && e > t0) : ($1 >= t0 && $1 < t1)) n++ } END {print n + 0}' "$TMP/all.csv")
got=$(($(wc -l <"$TMP/w.csv") - 1))
[ "$got" = "$want" ] && [ "$got" -gt 0 ] && ok "convert --from/--to -f: the $got events that meet the window" || bad "convert window: $got events, expected $want"
"$TNAV" convert -q -o "$TMP/w.json" --from 20ms --to 25ms -f 'kind != "send"' "$cf"
python3 tests/chrome_check.py "$TMP/w.json" "$TMP/w.csv" >"$TMP/cc.out" 2>&1; tally "chrome-check (window)" "$TMP/cc.out" $?
# epoch nanoseconds: written from the trace's start, the origin recorded
printf 'ts,dur,loc,name,kind\n1700000000123456789,1500,0,a,state\n1700000000123460000,,1,b,mark\n' >"$TMP/epoch.csv"
"$TNAV" convert -q -o "$TMP/epoch.json" "$TMP/epoch.csv" && "$TNAV" convert -q -o "$TMP/epoch2.csv" "$TMP/epoch.csv"
grep -q '"tnav_origin_ns":"1700000000123456789"' "$TMP/epoch.json" && grep -q '"ts":3.211' "$TMP/epoch.json" \
    && ok "epoch times: written from the start (3.211 us), the origin in otherData" || { bad "epoch times"; head -c 400 "$TMP/epoch.json"; }
python3 tests/chrome_check.py "$TMP/epoch.json" "$TMP/epoch2.csv" >"$TMP/cc.out" 2>&1; tally "chrome-check (epoch)" "$TMP/cc.out" $?
# names that need escaping
printf 'ts,dur,loc,act,name\n0,10,"p ""1""",t\\1,"a,\tb ✓"\n5,,p2,,"x\ny"\n' >"$TMP/esc.csv"
"$TNAV" convert -q -o "$TMP/esc.json" "$TMP/esc.csv" && "$TNAV" convert -q -o "$TMP/esc2.csv" "$TMP/esc.csv"
python3 tests/chrome_check.py "$TMP/esc.json" "$TMP/esc2.csv" >"$TMP/cc.out" 2>&1; tally "chrome-check (quotes, tabs, newlines, UTF-8)" "$TMP/cc.out" $?
# epoch times and odd values read back from Chrome as they were
for cf in "$TMP/epoch.csv" "$TMP/esc.csv"; do
    "$TNAV" convert -q -o "$TMP/back.json" "$cf"
    "$TNAV" filter -o csv true "$cf" >"$TMP/rt1"
    "$TNAV" filter -o csv true "$TMP/back.json" >"$TMP/rt2"
    cmp -s "$TMP/rt1" "$TMP/rt2" && ok "convert $(basename "$cf") to Chrome and read back: the same events (epoch ns from the origin, escapes)" \
        || { bad "convert $(basename "$cf") to Chrome and back"; diff "$TMP/rt1" "$TMP/rt2" | head -5; }
done
# an empty selection is still one valid object
"$TNAV" convert -q -o "$TMP/none.json" -f 'false' "$cf" && python3 -c 'import json,sys; d = json.load(open(sys.argv[1])); sys.exit(len(d["traceEvents"]) != 0)' "$TMP/none.json" \
    && ok "convert of no events: a valid empty trace" || bad "convert of no events"
# the format from the extension, or -F; '-' is standard output
"$TNAV" convert -q -o - -F ndjson "$cf" | head -1 | grep -q '^{"ts":' && ok "convert -o - -F ndjson writes standard output" || bad "convert -o -"
expect_exit 2 "convert: an output whose format cannot be told is a usage error" "$TNAV" convert -o "$TMP/x.out" "$cf"
grep -q 'give -F csv, ndjson or chrome' "$TMP/err" && ok "... which says to give -F" || bad "convert: unknown extension message"
expect_exit 2 "convert without -o is a usage error" "$TNAV" convert "$cf"
# never over an input, never half written
cp "$cf" "$TMP/in.csv"
expect_exit 2 "convert refuses to write over its input" "$TNAV" convert -o "$TMP/in.csv" "$TMP/in.csv"
cmp -s "$cf" "$TMP/in.csv" && ok "... and the input is untouched" || bad "convert changed its input"
if [ -w /dev/full ] && [ -c /dev/full ]; then
    expect_exit 2 "convert to a full device exits 2" "$TNAV" convert -o /dev/full -F csv "$cf"
    grep -q 'No space left' "$TMP/err" && ok "... and says why" || bad "convert /dev/full: no reason given"
    [ -c /dev/full ] && ok "... and /dev/full is still a device (written in place, not replaced)" || bad "convert replaced /dev/full"
fi
echo "old" >"$TMP/keep.csv"
(trap '' XFSZ; ulimit -f 8; "$TNAV" convert -q -o "$TMP/keep.csv" "$TMP/cv-mpi.csv") >"$TMP/out" 2>"$TMP/err"; rc=$?
[ $rc = 2 ] && [ "$(cat "$TMP/keep.csv")" = old ] && [ -z "$(ls "$TMP"/keep.csv.* 2>/dev/null)" ] \
    && ok "a write that fails (file size limit) leaves the old output whole and no temp file" \
    || { bad "failed write: exit $rc, output '$(head -c 20 "$TMP/keep.csv")'"; cat "$TMP/err"; ls "$TMP"/keep.csv.* 2>/dev/null; }
ln -s keep-target.csv "$TMP/keep-link.csv"
"$TNAV" convert -q -o "$TMP/keep-link.csv" "$cf"
[ -L "$TMP/keep-link.csv" ] && [ -s "$TMP/keep-target.csv" ] && ok "convert through a symbolic link writes its target, keeps the link" || bad "convert through a symlink"

# ---------------------------------------------------------------------------
section "write errors: every command's output written whole, or exit 2 with a reason"
if [ -w /dev/full ] && [ -c /dev/full ]; then
    R=sample-logs/ring.csv
    for c in "stats $R" "stats --json $R" "check $R" "--help" "--version" "help" "filter true $R" "filter --count true $R" \
             "filter --disasm true" "render $R" "render --format tsv $R" "render --help" "stats --help" "convert -o - -F chrome $R" "$R"; do
        # shellcheck disable=SC2086
        "$TNAV" $c >/dev/full 2>"$TMP/err"; rc=$?
        [ $rc = 2 ] && grep -q 'cannot write the output: No space left on device' "$TMP/err" && [ "$(wc -l <"$TMP/err")" = 1 ] \
            && ok "tnav $c > /dev/full: exit 2, one line saying why" || { bad "tnav $c > /dev/full: exit $rc"; head -3 "$TMP/err"; }
    done
else
    skip "no writable /dev/full: write errors not tested"
fi

# ---------------------------------------------------------------------------
section "out of memory: exit 3 with what was being done, nothing half-written left behind"
# (the release build only: --max-memory caps the address space, which
# ASan's shadow memory needs far more of)
sample-logs/gen --shape tasks --events 300000 -o "$TMP/oom.csv"
"$TNAV" stats --max-memory 16MiB "$TMP/oom.csv" >"$TMP/out" 2>"$TMP/err"; rc=$?
[ $rc = 3 ] && [ ! -s "$TMP/out" ] && [ "$(wc -l <"$TMP/err")" = 1 ] \
    && grep -q '^tnav: out of memory while [a-z ]* (--max-memory 16 MiB)$' "$TMP/err" \
    && ok "stats --max-memory 16MiB: exit 3, one line naming the phase ($(cat "$TMP/err"))" \
    || { bad "stats --max-memory 16MiB: exit $rc"; head -3 "$TMP/err"; }
"$TNAV" stats "$TMP/oom.csv" >"$TMP/oom.want" 2>/dev/null
"$TNAV" stats --max-memory 64GiB "$TMP/oom.csv" >"$TMP/out" 2>/dev/null && cmp -s "$TMP/out" "$TMP/oom.want" \
    && ok "stats --max-memory 64GiB: the same output as without" || bad "stats --max-memory 64GiB"
for v in 10M 2x -1G inf 1e30G ""; do
    "$TNAV" stats --max-memory "$v" "$TMP/oom.csv" >/dev/null 2>"$TMP/err"; rc=$?
    [ $rc = 2 ] && grep -q 'max-memory must be a size' "$TMP/err" && ok "--max-memory '$v': a usage error" || bad "--max-memory '$v': exit $rc"
done
"$TNAV" convert -o "$TMP/oom-out.csv" --max-memory 16MiB "$TMP/oom.csv" 2>/dev/null; rc=$?
[ $rc = 3 ] && [ ! -e "$TMP/oom-out.csv" ] && [ -z "$(ls "$TMP" | grep 'oom-out')" ] \
    && ok "convert out of memory: exit 3, no output file, no temp file" || bad "convert out of memory: exit $rc, $(ls "$TMP" | grep oom-out)"
# interrupted while writing: the temp file is removed, the old output kept
sample-logs/gen --shape tasks --events 1500000 -o "$TMP/oom-big.csv"
echo old >"$TMP/int-out.json"
"$TNAV" convert -F chrome -o "$TMP/int-out.json" "$TMP/oom-big.csv" 2>/dev/null & cpid=$!
seen=0; i=0
while [ $i -lt 3000 ] && kill -0 $cpid 2>/dev/null; do
    if ls "$TMP" | grep -q '^int-out\.json\..'; then seen=1; kill -TERM $cpid; break; fi
    i=$((i + 1)); sleep 0.01
done
wait $cpid; rc=$?
if [ $seen = 1 ]; then
    [ $rc = 143 ] && [ "$(cat "$TMP/int-out.json")" = old ] && [ -z "$(ls "$TMP" | grep '^int-out\.json\..')" ] \
        && ok "convert killed (SIGTERM) while writing: exit 143, temp file removed, the old output intact" \
        || bad "convert killed while writing: exit $rc, left: $(ls "$TMP" | grep int-out)"
else
    skip "convert finished before its temp file was seen: the interrupt was not tested"
fi
rm -f "$TMP/oom-big.csv"
if command -v tmux >/dev/null 2>&1; then
    # out of memory with the screen up, while loading (the progress shown)
    # and while drawing (injected where the phase begins: TNAV_FAULT_OOM)
    k=0
    for ph in "--max-memory 24MiB" "TNAV_FAULT_OOM=drawing" "TNAV_FAULT_OOM=summaries"; do
        # (a server of its own each time: the previous one may still be
        # exiting when the next starts)
        k=$((k + 1)); S=tnav-oom-$$-$k
        case $ph in --*) env=""; opt=$ph ;; *) env=$ph; opt="" ;; esac
        tmux -L "$S" new-session -d -x 100 -y 30 "sh" 2>/dev/null
        # keys typed before the shell's prompt is drawn are echoed ahead of
        # it, and the prompt then lands in front of tnav's message: wait
        i=0; while [ $i -lt 200 ] && [ -z "$(tmux -L "$S" capture-pane -p | tr -d ' \n')" ]; do i=$((i + 1)); sleep 0.05; done
        tmux -L "$S" send-keys "TERM=xterm LC_ALL=C.UTF-8 TZ=UTC $env $TNAV $opt $TMP/oom.csv; echo rc=\$?" Enter
        i=0; while [ $i -lt 200 ] && ! tmux -L "$S" capture-pane -p | grep -q '^rc='; do i=$((i + 1)); sleep 0.05; done
        tmux -L "$S" capture-pane -p >"$TMP/oom-pane"
        alt=$(tmux -L "$S" display -p '#{alternate_on}')
        tmux -L "$S" kill-server 2>/dev/null
        grep -q 'tnav: out of memory while' "$TMP/oom-pane" && grep -q '^rc=3$' "$TMP/oom-pane" && [ "$alt" = 0 ] \
            && ok "the interface out of memory ($ph): the terminal given back, '$(grep -o 'tnav: out.*' "$TMP/oom-pane")', exit 3" \
            || { bad "the interface out of memory ($ph; alternate screen: $alt)"; cat "$TMP/oom-pane"; }
    done
fi
"$TNAV" render --max-memory 64GiB "$TMP/oom.csv" >/dev/null 2>&1 && TNAV_FAULT_OOM=filter "$TNAV" stats -f 'dur > 1us' "$TMP/oom.csv" 2>"$TMP/err" >/dev/null; rc=$?
[ $rc = 3 ] && grep -qx 'tnav: out of memory while running the filter' "$TMP/err" && ok "out of memory in the filter: exit 3 and so it says" || bad "injected filter OOM: exit $rc $(cat "$TMP/err")"

# ---------------------------------------------------------------------------
section "input files are never modified"
cp sample-logs/ring.csv "$TMP/ro.csv"; chmod 0444 "$TMP/ro.csv"; before=$(cksum <"$TMP/ro.csv")
"$TNAV" stats "$TMP/ro.csv" >/dev/null 2>&1 && [ "$(cksum <"$TMP/ro.csv")" = "$before" ] \
    && ok "a read-only trace loads and is unchanged" || bad "read-only trace"

# ---------------------------------------------------------------------------
section "the interactive interface in a real terminal (tmux)"
if command -v tmux >/dev/null 2>&1; then
    TNAV="$TNAV" sh tests/tui_e2e.sh >"$TMP/e2e.out" 2>&1; tally "tui-e2e" "$TMP/e2e.out" $?
    TNAV="$TNAV_ASAN" sh tests/tui_e2e.sh >"$TMP/e2e-asan.out" 2>&1; tally "tui-e2e (asan)" "$TMP/e2e-asan.out" $?
else
    bad "tmux is not installed (make test installs it as root: apt-get install tmux)"
fi

# ---------------------------------------------------------------------------
section "valgrind"
if command -v valgrind >/dev/null 2>&1; then
    printf 'ts,dur,loc,act,kind,name\n1,2,0,a,state,x\nbad,1,0,a,,\n3,,1,b,send,"q,""q"""\n' >"$TMP/vg.csv"
    for f in sample-logs/x10.csv sample-logs/ring.ndjson "$TMP/vg.csv"; do
        valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
            "$TNAV" stats "$f" >/dev/null 2>"$TMP/vg.err"
        [ $? -ne 99 ] && ok "valgrind clean: tnav stats $(basename "$f")" || { bad "valgrind: $(basename "$f")"; head -30 "$TMP/vg.err"; }
    done
    valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
        "$TNAV" filter -o ndjson 'name =~ /^(w|m)/i && dur > 1us || act_any(kind == "move") | loc_all(has(dur)) || group_any(true) || msg_any(true)' \
        sample-logs/x10.csv >/dev/null 2>"$TMP/vg.err"
    [ $? -ne 99 ] && ok "valgrind clean: tnav filter (regex, scopes, stages)" || { bad "valgrind: tnav filter"; head -30 "$TMP/vg.err"; }
    valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
        "$TNAV" filter --disasm 'len(lower(name)) > 3 && loc in 0..3' sample-logs/x10.csv >/dev/null 2>"$TMP/vg.err"
    [ $? -ne 99 ] && ok "valgrind clean: tnav filter --disasm" || { bad "valgrind: tnav filter --disasm"; head -30 "$TMP/vg.err"; }
    if [ -x build/rel/filter_diff ]; then
        valgrind -q --error-exitcode=99 --leak-check=full build/rel/filter_diff --traces 2 --exprs 40 --no-big >/dev/null 2>"$TMP/vg.err"
        [ $? -ne 99 ] && ok "valgrind clean: filter differential test (small)" || { bad "valgrind: filter_diff"; head -30 "$TMP/vg.err"; }
    fi
    for v in density gantt matrix line; do
        valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
            "$TNAV" render --view $v --width 80 --height 16 sample-logs/x10.csv >/dev/null 2>"$TMP/vg.err"
        [ $? -ne 99 ] && ok "valgrind clean: tnav render --view $v" || { bad "valgrind: render $v"; head -30 "$TMP/vg.err"; }
    done
    valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
        "$TNAV" tui --bench-size 100x30 --bench-keys '+ + l l j i Enter > 2 3 4 5 6 7 8 /kind_==_"send" n N tloc_==_1 ? Esc 0 C q' \
        sample-logs/x10.csv >/dev/null 2>"$TMP/vg.err"
    [ $? -ne 99 ] && ok "valgrind clean: the interface driven by a key script" || { bad "valgrind: tnav tui --bench-keys"; head -30 "$TMP/vg.err"; }
    valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
        "$TNAV" tui --bench-open sample-logs/ring.csv >/dev/null 2>"$TMP/vg.err"
    [ $? -ne 99 ] && ok "valgrind clean: the interface's opening (loading thread, first frame)" || { bad "valgrind: tnav tui --bench-open"; head -30 "$TMP/vg.err"; }
    valgrind -q --error-exitcode=99 --leak-check=full build/rel/unit >/dev/null 2>"$TMP/vg.err"
    [ $? -ne 99 ] && ok "valgrind clean: unit tests" || { bad "valgrind: unit tests"; head -30 "$TMP/vg.err"; }
else
    skip "valgrind not installed"
fi

# ---------------------------------------------------------------------------
section "fuzz smoke (${FUZZ_SECONDS}s per target)"
if [ -x build/fuzz/fuzz_csv ] && [ -x build/fuzz/fuzz_ndjson ] && [ -x build/fuzz/fuzz_filter ] && [ -f tests/fuzz/smoke.sh ]; then
    sh tests/fuzz/smoke.sh "$FUZZ_SECONDS" >"$TMP/fuzz.out" 2>&1; rc=$?
    cat "$TMP/fuzz.out" | grep -E "^fuzz_" 
    [ $rc -eq 0 ] && ok "fuzz smoke" || { bad "fuzz smoke"; tail -20 "$TMP/fuzz.out"; }
else
    bad "fuzz targets not built (make fuzz needs clang and libclang-rt-14-dev)"
fi

# ---------------------------------------------------------------------------
section "fault injection: the Nth allocation fails, the output fails after N bytes (tests/fault_inject.py)"
if command -v python3 >/dev/null 2>&1; then
    python3 tests/fault_inject.py "$TNAV" --asan "$TNAV_ASAN" >"$TMP/fault.out" 2>&1; tally "fault injection" "$TMP/fault.out" $?
else
    bad "python3 is not installed (make test installs it as root)"
fi

# ---------------------------------------------------------------------------
section "install and the manual page"
make -s install PREFIX="$TMP/prefix" >/dev/null 2>&1
[ -x "$TMP/prefix/bin/tnav" ] && [ -f "$TMP/prefix/share/man/man1/tnav.1" ] && ok "make install PREFIX=... installs binary and man page" || bad "make install"
if command -v groff >/dev/null 2>&1; then
    groff -man -Tutf8 -ww -z doc/tnav.1 2>"$TMP/man.err"; [ ! -s "$TMP/man.err" ] && ok "man page renders without warnings" || { bad "man page warnings"; head "$TMP/man.err"; }
    # (an argument glued to the next where a macro's words were not quoted: "EXPRTRACE...")
    glued=$(groff -man -Tutf8 doc/tnav.1 2>/dev/null | sed 's/\x1b\[[0-9;]*m//g; s/.\x08//g' | grep -cE '[A-Z]TRACE\.\.\.')
    [ "$glued" = 0 ] && ok "man page: no synopsis word glued to TRACE..." || bad "man page: $glued synopsis lines glue a word to TRACE..."
else
    skip "groff not installed: man page not rendered"
fi

# ---------------------------------------------------------------------------
section "generator shapes: tasks and wide (what sample-logs/gen --help promises)"
# tasks: deterministic, exactly --events, loads without rejects, tasks of
# 10..100 events with a parent, every message paired, file and line on
# every event, one finish wait per group, about 10% instants
G1="$TMP/tasks.csv"
sample-logs/gen --shape tasks --events 20000 -o "$G1"
sample-logs/gen --shape tasks --events 20000 -o "$TMP/tasks2.csv"
cmp -s "$G1" "$TMP/tasks2.csv" && ok "tasks: deterministic" || bad "tasks: output varies between runs"
[ "$(($(wc -l <"$G1") - 1))" -eq 20000 ] && ok "tasks: exactly --events records" || bad "tasks: $(($(wc -l <"$G1") - 1)) records, not 20000"
"$TNAV" stats --json "$G1" >"$TMP/tasks.json"
grep -q '"events":20000,"rejected":0,' "$TMP/tasks.json" && ok "tasks: loads with no rejected record" || bad "tasks: $(head -c 120 "$TMP/tasks.json")"
grep -q '"locations":64,' "$TMP/tasks.json" && ok "tasks: 64 worker locations" || bad "tasks: not 64 locations"
grep -q '"unmatched_sends":0,"unmatched_recvs":0,' "$TMP/tasks.json" && ok "tasks: no unmatched send or receive" || bad "tasks: unmatched messages"
acts=$(sed -n 's/.*"activities":\([0-9]*\),.*/\1/p' "$TMP/tasks.json")
# columns: ts,dur,loc,act,kind,name,peer,bytes,id,tag,group,parent,value,file,line
r=$(awk -F, -v acts="$acts" 'NR == 1 { next }
    { n[$4]++; if (!($4 in first)) { first[$4] = 1; if ($4 != "t0" && $12 == "") noparent++ } }
    $5 == "send" || $5 == "recv" { if ($9 !~ /^m[0-9]+$/) badid++; m[$9 FS $5]++; ids[$9] = 1 }
    $5 == "sync" { if ($11 !~ /^finish-[0-9]+$/) badgrp++; sync[$11]++ }
    $11 != "" { grp[$11] = 1 }
    $14 == "" || $15 !~ /^[0-9]+$/ || $15 < 1 || $15 > 5000 { nofile++ }
    $2 == "" { inst++ }
    END {
        lo = 1000; hi = 0; k = 0
        for (a in n) { k++; if (n[a] < lo) lo = n[a]; if (n[a] > hi) hi = n[a] }
        for (i in ids) if (m[i FS "send"] != 1 || m[i FS "recv"] != 1) unpaired++
        for (g in grp) if (sync[g] != 1) badsync++
        printf "acts=%d stats_acts=%d min=%d max=%d noparent=%d badid=%d unpaired=%d badgrp=%d badsync=%d nofile=%d inst_pct=%d msgs=%d groups=%d\n",
            k, acts, lo, hi, noparent, badid, unpaired, badgrp, badsync, nofile, inst * 100 / (NR - 1), length(ids), length(grp)
    }' "$G1")
echo "  $r"
kv_holds() { echo "$r" | awk "{for (i = 1; i <= NF; i++) { split(\$i, kv, \"=\"); v[kv[1]] = kv[2] }} END { exit !($1) }"; }
kv_holds 'v["min"] >= 10 && v["max"] <= 100' && ok "tasks: every task has 10..100 events" || bad "tasks: task sizes"
kv_holds 'v["acts"] == v["stats_acts"] && v["acts"] >= 20000 / 50 && v["acts"] <= 20000 / 40' \
    && ok "tasks: about N/47 tasks, as many as tnav counts activities" || bad "tasks: task count"
kv_holds 'v["noparent"] == 0' && ok "tasks: every task but the first names its parent" || bad "tasks: a spawned task without parent"
kv_holds 'v["badid"] == 0 && v["unpaired"] == 0 && v["msgs"] > 0' \
    && ok "tasks: every message id m<n> is one send and one recv" || bad "tasks: message ids"
kv_holds 'v["badgrp"] == 0 && v["badsync"] == 0 && v["groups"] > 0' \
    && ok "tasks: every group finish-<n> has exactly one finish wait" || bad "tasks: finish groups"
kv_holds 'v["nofile"] == 0' && ok "tasks: every event has file and line (1..5000)" || bad "tasks: events without file or line"
[ "$("$TNAV" filter --count '!has(file) || !has(line)' "$G1")" = 0 ] && ok "tasks: tnav sees file and line on every event" || bad "tasks: tnav finds events without file or line"
kv_holds 'v["inst_pct"] >= 8 && v["inst_pct"] <= 12' && ok "tasks: about 10% instant events" || bad "tasks: instant share off"
sample-logs/gen --shape tasks --events 20000 --format ndjson --order loc -o "$TMP/tasks.ndjson"
"$TNAV" stats --json "$TMP/tasks.ndjson" | strip_files >"$TMP/tasks-n.json"
strip_files <"$TMP/tasks.json" | cmp -s - "$TMP/tasks-n.json" && ok "tasks: NDJSON grouped by location is the same trace" || bad "tasks: NDJSON --order loc differs"
sample-logs/gen --shape tasks --events 300000 -o "$TMP/tasks-big.csv"
r=$(awk -F, 'NR > 1 { nm[$6] = 1; fl[$14] = 1 } END { print length(nm), length(fl) }' "$TMP/tasks-big.csv")
[ "$r" = "5011 300" ] && ok "tasks: 5,000 function names (+ 11 of the runtime), 300 files" || bad "tasks: names and files: $r"
rm -f "$TMP/tasks-big.csv"
# wide: the mpi shape on 10,000 ranks (800,000 events: the start-up and two
# timesteps); every rank has events, every barrier has every thread
sample-logs/gen --shape wide --events 800000 -o "$TMP/wide.csv"
sample-logs/gen --shape mpi --ranks 10000 --events 800000 -o "$TMP/wide2.csv"
cmp -s "$TMP/wide.csv" "$TMP/wide2.csv" && ok "wide: the same bytes as --shape mpi --ranks 10000" || bad "wide differs from mpi --ranks 10000"
"$TNAV" stats --json "$TMP/wide.csv" >"$TMP/wide.json"
grep -q '"events":800000,"rejected":0,' "$TMP/wide.json" && grep -q '"locations":10000,' "$TMP/wide.json" \
    && ok "wide: 800000 events on 10,000 locations, none rejected" || bad "wide: $(head -c 120 "$TMP/wide.json")"
grep -q '"unmatched_sends":0,"unmatched_recvs":0,' "$TMP/wide.json" && ok "wide: no unmatched send or receive" || bad "wide: unmatched messages"
r=$(grep -o '"participants":[0-9]*' "$TMP/wide.json" | sort | uniq -c | awk '{print $1, $2}')
case $r in
    [2-9]' "participants":20000') ok "wide: every barrier has all 20,000 threads ($(echo "$r" | cut -d' ' -f1) barriers)" ;;
    *) bad "wide: barrier participants: $r" ;;
esac
rm -f "$TMP/wide.csv" "$TMP/wide2.csv"

echo
[ "$SKIP" -gt 0 ] && echo "($SKIP skipped)"
echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
