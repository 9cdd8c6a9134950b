#!/bin/sh
# tests/render_checks.sh — semantic checks of the views that cannot pass by
# accident, on the numbers behind the frames (tnav render --format tsv):
#  - the straggler rank of the ring sample has the highest busy row;
#  - the ring exchange fills exactly the (r, r+1) cells of the matrix;
#  - zooming to [t0, t1) gives the same sums as the full view restricted to
#    it (events and bytes exactly; busy time-weighted);
#  - a grouped row's value is its reducer over its members (sum, mean, max,
#    min-nonzero);
#  - the comm monitor's rows add up to the matrix.
# Prints "ok - ..." / "not ok - ..." and ends with
# "render-checks: P passed, F failed".
#
#   TNAV=./tnav sh tests/render_checks.sh
export LC_ALL=C.UTF-8 TZ=UTC
TNAV=${TNAV:-./tnav}
TMP=$(mktemp -d /tmp/tnav-render-checks.XXXXXX)
trap 'rm -rf "$TMP"' EXIT INT TERM
PASS=0
FAIL=0
ok() { PASS=$((PASS + 1)); echo "ok - $*"; }
bad() { FAIL=$((FAIL + 1)); echo "not ok - $*"; }
check() { # description, then a command whose success is the check
    d=$1
    shift
    if "$@"; then ok "$d"; else bad "$d"; fi
}

R=sample-logs/ring.csv
M=sample-logs/mw.csv

# ---- the straggler ------------------------------------------------------------
"$TNAV" render --format tsv --width 100 --height 20 "$R" >"$TMP/busy.tsv"
top=$(awk -F'\t' 'NR > 1 { s = 0; for (i = 2; i <= NF; i++) s += $i; if (s > best) { best = s; row = $1 } } END { print row }' "$TMP/busy.tsv")
check "ring: rank 5 has the highest busy row in the density tsv (got '$top')" [ "$top" = 5 ]
strag=$(awk -F'\t' 'NR > 1 { s = 0; for (i = 2; i <= NF; i++) s += $i; sum[$1] = s } END { for (r in sum) if (r != 5 && sum[r] * 1.3 > sum[5]) bad = 1; print bad ? "no" : "yes" }' "$TMP/busy.tsv")
check "ring: rank 5 is busier than every other rank by more than 30%" [ "$strag" = yes ]

# ---- the ring exchange in the matrix ---------------------------------------------
"$TNAV" render --view matrix --format tsv --width 100 --height 20 "$R" >"$TMP/mx.tsv"
ring=$(awk -F'\t' 'NR == 1 { for (i = 2; i <= NF; i++) col[i] = $i; next }
    $1 == "total" { next }
    { for (i = 2; i < NF; i++) { want = (col[i] == ($1 + 1) % 8); got = ($i + 0 > 0); if (want != got) bad++ ; n++ } }
    END { print (n == 64 && !bad) ? "yes" : "no " n " " bad }' "$TMP/mx.tsv")
check "ring: the matrix has exactly the (r, r+1 mod 8) cells ($ring)" [ "$ring" = yes ]
tot=$(awk -F'\t' '$1 == "total" { print $NF }' "$TMP/mx.tsv")
check "ring: the matrix total is 80 messages of 4 KiB (got $tot)" [ "$tot" = 327680 ]

# ---- zooming is exact ------------------------------------------------------------
# the full view's cells 20..49 (of 100), then the window [b20, b50) in 30 cells
for spec in "events" "bytes" "busy" "sync"; do
    "$TNAV" render --format tsv --width 102 --height 20 --metric $spec "$R" >"$TMP/full.tsv"
    set -- $(awk -F'\t' 'NR == 1 { print $2, $22, $52 }' "$TMP/full.tsv")
    t0=$1 a=$2 b=$3
    "$TNAV" render --format tsv --width 32 --height 20 --metric $spec --from $((a - t0)) --to $((b - t0)) "$R" >"$TMP/zoom.tsv"
    res=$(awk -F'\t' -v spec=$spec '
        FNR == 1 { for (i = 2; i <= NF; i++) start[FILENAME, i] = $i; end[FILENAME] = 0; nf[FILENAME] = NF; next }
        FILENAME == ARGV[1] {
            # cells 20..49 of the full view: fields 22..51; their widths from the header
            for (i = 22; i <= 51; i++) { w = start[FILENAME, i + 1] - start[FILENAME, i]; full[$1] += (spec == "busy" || spec == "sync") ? $i * w : $i }
            next }
        { n = nf[FILENAME]
          for (i = 2; i <= n; i++) { w = (i < n ? start[FILENAME, i + 1] : zend) - start[FILENAME, i]; zoom[$1] += (spec == "busy" || spec == "sync") ? $i * w : $i } }
        END {
            bad = 0
            for (r in full) { d = full[r] - zoom[r]; if (d < 0) d = -d; tol = (spec == "busy" || spec == "sync") ? 1e-6 * (full[r] + 1) : 0; if (d > tol) { bad++; msg = msg " " r ":" full[r] "/" zoom[r] } }
            print bad ? "no" msg : "yes" }' zend=$b "$TMP/full.tsv" "$TMP/zoom.tsv")
    check "zoom: $spec in [cell 20, cell 50) of the full view = the zoomed view's sum ($res)" [ "$res" = yes ]
done

# ---- grouped rows --------------------------------------------------------------
# 8 ranks in 4 lines (height 8): rows 0..1, 2..3, ...; 60 cells either way
for red in sum mean max min-nonzero; do
    "$TNAV" render --format tsv --width 65 --height 8 --reduce $red "$R" >"$TMP/g.tsv"
    "$TNAV" render --format tsv --width 62 --height 20 --reduce $red "$R" >"$TMP/u.tsv"
    res=$(awk -F'\t' -v red=$red '
        FILENAME == ARGV[1] { if (FNR == 1) { hg = $0; next } g[FNR - 1] = $0; ng = FNR - 1; next }
        FNR == 1 { hu = $0; next }
        { u[$1] = $0 }
        END {
            if (hg != hu) { print "no: the grids differ"; exit }
            bad = 0
            for (k = 1; k <= ng; k++) {
                split(g[k], gv, "\t"); split(gv[1], ab, "\\.\\."); lo = ab[1]; hi = ab[2]
                for (c = 2; c <= length(gv); c++) {
                    acc = ""; n = 0
                    for (r = lo; r <= hi; r++) {
                        split(u[r], uv, "\t"); v = uv[c] + 0; n++
                        if (red == "sum" || red == "mean") acc += v
                        else if (red == "max") { if (acc == "" || v > acc) acc = v }
                        else if (v != 0 && (acc == "" || acc == 0 || v < acc)) acc = v
                        else if (acc == "") acc = v
                    }
                    if (red == "mean") acc /= n
                    d = acc - gv[c]; if (d < 0) d = -d
                    if (d > 1e-6 * (acc < 0 ? -acc : acc) + 1e-9) { bad++; if (bad < 3) msg = msg " " gv[1] "@" c ":" acc "/" gv[c] }
                }
            }
            print bad ? "no" msg : "yes" }' "$TMP/g.tsv" "$TMP/u.tsv")
    check "grouped rows: a group's $red is the $red of its members ($res)" [ "$res" = yes ]
done

# ---- the comm monitor adds up to the matrix ---------------------------------------------
"$TNAV" render --view comm --format tsv --width 60 --height 20 "$M" >"$TMP/comm.tsv"
"$TNAV" render --view matrix --format tsv --width 100 --height 20 "$M" >"$TMP/mxm.tsv"
res=$(awk -F'\t' '
    FILENAME == ARGV[1] { if (FNR == 1) next; s = 0; for (i = 2; i <= NF; i++) s += $i; split($1, p, "->"); comm[p[1] "," p[2]] = s; next }
    FNR == 1 { for (i = 2; i <= NF; i++) col[i] = $i; next }
    $1 == "total" { next }
    { for (i = 2; i < NF; i++) { k = $1 "," col[i]; if ((k in comm ? comm[k] : 0) != $i) { bad++; msg = msg " " k } } }
    END { print bad ? "no" msg : "yes" }' "$TMP/comm.tsv" "$TMP/mxm.tsv")
check "mw: every pair's row of the comm monitor adds up to its matrix cell ($res)" [ "$res" = yes ]

# ---- an activity that moves between locations inside nested intervals ---------------
# (each change of its innermost interval also changes the location: a
# regression test of the lane buffers, which the ASan run of this script
# checks)
awk 'BEGIN { print "ts,dur,loc,act,kind,name,peer"; print "0,2000,2,b,state,x,"
             for (i = 0; i < 60; i++) { printf "%d,%d,%d,z,state,w%d,\n", i * 10, 2000 - i * 20, i % 2, i
                                        printf "%d,,%d,z,move,mv,%d\n", i * 10 + 5, i % 2, (i + 1) % 2 } }' >"$TMP/nest.csv"
"$TNAV" render --rows act --format tsv --width 60 --height 10 "$TMP/nest.csv" >"$TMP/nest.tsv" 2>"$TMP/nest.err"
rc=$?
res=$(awk -F'\t' '$1 == "z" { n++; for (i = 2; i < NF; i++) if ($i < 0.999) idle++ } END { print n + 0, (idle ? "gaps" : "busy") }' "$TMP/nest.tsv")
check "nested intervals of a moving activity: its row is busy throughout (exit $rc, $res)" [ "$rc $res" = "0 1 busy" ]
"$TNAV" render --rows act --view gantt --width 60 --height 10 "$TMP/nest.csv" >"$TMP/nest.txt" 2>>"$TMP/nest.err"
check "... and its gantt draws the innermost interval (w59 at loc 1)" grep -q "w59" "$TMP/nest.txt"

# ---- imbalance: who waited at the barriers, and for whom -----------------------
"$TNAV" render --view imbalance --color never --width 100 --height 14 "$R" >"$TMP/imb.txt"
marks=$(grep -n '!' "$TMP/imb.txt" | grep -v 'last to arrive' | cut -d: -f1 | sort -u | tr '\n' ' ')
check "ring imbalance: every ! (the last to arrive) on rank 5's line (lines: $marks)" [ "$marks" = "6 " ]
check "... 10 of them, one per barrier" [ "$(sed -n 6p "$TMP/imb.txt" | tr -cd '!' | wc -c)" = 10 ]
"$TNAV" render --view imbalance --format tsv --width 200 --height 14 "$R" >"$TMP/imb.tsv"
"$TNAV" syncs --json "$R" >"$TMP/imb-syncs.json"
# the shaded time of each row (value x cell width) against tnav syncs' waits per location
awk -F'\t' 'NR == 1 { for (i = 2; i <= NF; i++) b[i] = $i; next }
            { s = 0; for (i = 2; i < NF; i++) s += $i * (b[i + 1] - b[i]); print $1, s }' "$TMP/imb.tsv" >"$TMP/imb.sum"
python3 - "$TMP/imb-syncs.json" "$TMP/imb.sum" "$TMP/imb.last" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
w = {}
for s in d["syncs"]:
    for p in s["participants"]:
        w[str(p["loc"])] = w.get(str(p["loc"]), 0) + p["wait_ns"]
got = {l.split()[0]: float(l.split()[1]) for l in open(sys.argv[2])}
# (the last cell's width is not in the header: its wait is left out, so below or equal, within a cell)
ok = all(got.get(k, 0) <= v + 1 and got.get(k, 0) >= v - 400000 for k, v in w.items())
open(sys.argv[3], "w").write("yes" if ok else "no %s %s" % (w, got))
PY
check "ring imbalance tsv: each row's shaded time is the waits tnav syncs gives its rank ($(cat "$TMP/imb.last"))" [ "$(cat "$TMP/imb.last")" = yes ]

# ---- the Gantt's overlays: readable by default ------------------------------------
# a row whose arrivals or instants would cover more than 1/6 of its cells
# shows none in the default (auto) mode, and the glyph legend says so;
# "all" draws them, "off" none; the overlay never hides what runs (the
# letters of the intervals under them stay where the overlay is off)
G=sample-logs/gen
if [ -x "$G" ]; then
    "$G" --events 20000 --ranks 8 -o "$TMP/mpi.csv"
    cells() { # file: the rows' cells holding a digit or + (message arrivals)
        awk -F'│' 'NF > 1 && $1 !~ /^ *$/ && /│/ { n = split($2, c, ""); for (i = 1; i <= n; i++) if (c[i] ~ /[0-9+]/) m++ } END { print m + 0 }' "$1"
    }
    "$TNAV" render --view gantt --width 100 --height 20 "$TMP/mpi.csv" >"$TMP/ov-auto.txt"
    "$TNAV" render --view gantt --width 100 --height 20 --messages all "$TMP/mpi.csv" >"$TMP/ov-all.txt"
    "$TNAV" render --view gantt --width 100 --height 20 --messages off --instants off "$TMP/mpi.csv" >"$TMP/ov-off.txt"
    a=$(cells "$TMP/ov-auto.txt"); l=$(cells "$TMP/ov-all.txt"); o=$(cells "$TMP/ov-off.txt")
    check "gantt overlays: a dense whole trace shows no arrival counts by default ($a), all of them with --messages all ($l), none with off ($o)" \
        [ "$a" -eq 0 ] && [ "$l" -gt 400 ] && [ "$o" -eq 0 ]
    check "... and the legend says they were too dense to mark" grep -q "too dense to mark: messages" "$TMP/ov-auto.txt"
    # zoomed in, arrivals are sparse: auto draws them all
    "$TNAV" render --view gantt --width 100 --height 20 --from 11ms --to 13ms "$TMP/mpi.csv" >"$TMP/oz-auto.txt"
    "$TNAV" render --view gantt --width 100 --height 20 --from 11ms --to 13ms --messages all "$TMP/mpi.csv" >"$TMP/oz-all.txt"
    z=$(cells "$TMP/oz-auto.txt")
    check "... zoomed in where they are sparse, auto draws what all draws ($z arrival cells)" \
        sh -c "[ '$z' -gt 3 ] && cmp -s '$TMP/oz-auto.txt' '$TMP/oz-all.txt'"
    check "... off leaves no glyph over the intervals (only letters and blanks in the rows)" \
        sh -c "awk -F'│' 'NF > 1 && /│/ { if (\$2 !~ /^[a-z ]*\$/) bad++ } END { exit bad ? 1 : 0 }' '$TMP/ov-off.txt'"
else
    bad "gantt overlays: sample-logs/gen is not built"
fi
# the glyph legend names what the frame shows
"$TNAV" render --view gantt --width 100 --height 16 sample-logs/x10.csv >"$TMP/x10g.txt"
check "x10 gantt: the glyph legend explains spawn, end, atomic and data moves" \
    grep -q "▸ spawn  ● end  A atomic  D move with data" "$TMP/x10g.txt"

# one location's traffic by partner (the interface's P pane): exactly the
# pairs it is part of, each with the bytes of the full comm view's row
"$TNAV" render --view comm --partner 5 --format tsv --width 100 --height 20 "$R" >"$TMP/p5.tsv"
"$TNAV" render --view comm --format tsv --width 100 --height 40 "$R" >"$TMP/pall.tsv"
rows=$(awk -F'\t' 'NR > 1 { printf "%s ", $1 }' "$TMP/p5.tsv")
check "comm --partner 5: the pairs 4->5 and 5->6 only (got '$rows')" [ "$rows" = "4->5 5->6 " ]
same=$(awk -F'\t' 'FNR == 1 { next } NR == FNR { a[$1] = $0; next } ($1 in a) { if (a[$1] != $0) bad++; n++ } END { print (n == 2 && !bad) ? "yes" : "no" }' "$TMP/p5.tsv" "$TMP/pall.tsv")
check "... each row the same cells as in the full comm view ($same)" [ "$same" = yes ]

echo "render-checks: $PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
