#!/bin/sh
# tests/tui_e2e.sh — end-to-end tests of the full-screen interface in a real
# terminal: tmux at a fixed size runs tnav on the sample traces, send-keys
# types, capture-pane reads the screen, and the checks are on what a user
# sees: the status line's range after zooming, the count after a filter,
# the error caret under a bad filter, the details of the event under the
# cursor, the help, the views, colours (256, 8, none) and --ascii, a
# resize, and a clean exit (q, SIGTERM, SIGINT) that leaves nothing drawn.
#
# Every wait polls the screen until what is expected shows (or a time
# limit passes and the check fails with the screen printed): no blind
# sleeps. Prints "ok - ..." / "not ok - ..." and ends with
# "tui-e2e: P passed, F failed".
#
#   TNAV=./tnav sh tests/tui_e2e.sh
export LC_ALL=C.UTF-8 TZ=UTC
TNAV=${TNAV:-./tnav}
case "$TNAV" in /*) ;; *) TNAV="$(pwd)/$TNAV" ;; esac
TMP=$(mktemp -d /tmp/tnav-e2e.XXXXXX)
# one tmux server per scenario (start sets SOCK), all killed at the end
SOCK="tnav-e2e-$$"
SOCKS=""
T() { tmux -L "$SOCK" -f /dev/null "$@"; }
cleanup() {
    for s in $SOCKS; do tmux -L "$s" kill-server >/dev/null 2>&1; done
    rm -rf "$TMP"
}
trap cleanup EXIT INT TERM
PASS=0
FAIL=0
ok() { PASS=$((PASS + 1)); echo "ok - $*"; }
bad() { FAIL=$((FAIL + 1)); echo "not ok - $*"; }
LIMIT=${E2E_LIMIT:-15} # seconds a wait may take before it fails

if ! command -v tmux >/dev/null 2>&1; then
    echo "tmux is not installed"
    echo "tui-e2e: 0 passed, 1 failed"
    exit 1
fi

# start NAME W H CMD...: a session running CMD in sh, with a marker before
# and the exit status after, then a shell that waits
start() {
    name=$1 w=$2 h=$3
    shift 3
    SOCK="tnav-e2e-$$-$name"
    SOCKS="$SOCKS $SOCK"
    # (a state directory per scenario: a session saved by one does not
    # restore into the next; the session tests share one explicitly)
    T new-session -d -s "$name" -x "$w" -y "$h" -e TZ=UTC -e LC_ALL=C.UTF-8 -e "XDG_STATE_HOME=$TMP/state-$name" \
        -e TERM=xterm-256color \
        "sh -c 'printf \"before-tnav\\n\"; $*; echo tnav-exit=\$?; exec sleep 3600'"
    T set-option -t "$name" -g window-size manual >/dev/null 2>&1
}
screen() { T capture-pane -p -t "$1"; }
screen_esc() { T capture-pane -p -e -t "$1"; }
# wait NAME GREP-PATTERN [F]: until the screen matches (F: fixed string)
wait_for() {
    n=0
    lim=$((LIMIT * 20))
    while [ $n -lt $lim ]; do
        if [ "$3" = F ]; then screen "$1" | grep -qF -- "$2" && return 0
        else screen "$1" | grep -qE -- "$2" && return 0; fi
        n=$((n + 1))
        sleep 0.05
    done
    echo "    (waited ${LIMIT}s for '$2'; the screen:)"
    screen "$1" | sed 's/^/    | /'
    return 1
}
# until the screen no longer matches
wait_gone() {
    n=0
    lim=$((LIMIT * 20))
    while [ $n -lt $lim ]; do
        screen "$1" | grep -qF -- "$2" || return 0
        n=$((n + 1))
        sleep 0.05
    done
    echo "    (waited ${LIMIT}s for '$2' to go; the screen:)"
    screen "$1" | sed 's/^/    | /'
    return 1
}
check() { # description, command
    d=$1
    shift
    if "$@"; then ok "$d"; else bad "$d"; fi
}
keys() { name=$1; shift; T send-keys -t "$name" "$@"; }
type_text() { T send-keys -t "$1" -l -- "$2"; }
last_line() { screen "$1" | tail -1; }
line_no() { screen "$1" | sed -n "$2p"; }

R=sample-logs/ring.csv

# ---- the first frame, zoom, go to, fit ------------------------------------------------
start main 100 30 "$TNAV $R"
check "the first frame: the status line names the view, the whole range, the events, no filter" \
    wait_for main "gantt: locations │ 0 ns – 60.62 ms │ 328 of 328 events │ x1.00 │ no filter │ ? help" F
st=$(line_no main 30)
check "the status line is the last line of a 100x30 terminal" [ "${st#*gantt: locations}" != "$st" ]
keys main +
check "+ zooms in: x2.00 and half the range in the status line" wait_for main "│ 154.6 us – 30.46 ms │ 176 of 328 events │ x2.00 │" F
keys main z z
check "z zooms in too: x8.00" wait_for main "│ x8.00 │" F
keys main Z
check "Z zooms out: x4.00" wait_for main "│ x4.00 │" F
keys main g
check "g opens the go-to prompt" wait_for main "go to:" F
type_text main "30ms"
keys main Enter
check "go to 30ms centres the window on it" wait_for main "│ 22.42 ms – 37.58 ms │" F
keys main Right Right l
check "cursor moves do not move the window" wait_for main "│ 22.42 ms – 37.58 ms │" F
keys main PgDn
check "PgDn pans a screen later" wait_for main "│ 37.58 ms – 52.73 ms │" F
keys main Home
check "Home pans to the start" wait_for main "│ 0 ns – 15.15 ms │" F
keys main End
check "End pans to the end" wait_for main "– 60.62 ms │ " F
keys main 0
check "0 fits the whole trace" wait_for main "│ 0 ns – 60.62 ms │ 328 of 328 events │ x1.00 │" F

# ---- the filter prompt -------------------------------------------------------------------
keys main /
check "/ opens the filter prompt with its hint" wait_for main "type a filter" F
type_text main 'kind == "send"'
check "as it is typed, the count of matches updates" wait_for main "80 of 328 events match" F
keys main Enter
check "Enter applies: 80 of 328 events, and the filter in the status line" \
    wait_for main '│ 80 of 328 events │ x1.00 │ filter: kind == "send" │' F
keys main /
keys main C-u
type_text main 'dur > 10us && bytes > 10us'
check "a bad filter: the message with line:column" wait_for main "1:23: 'bytes' is a size; this literal is a time" F
s=$(screen main)
pl=$(echo "$s" | grep -n '^/ dur > 10us && bytes > 10us' | cut -d: -f1)
cl=$(echo "$s" | grep -n '^ *\^~~~ *$' | cut -d: -f1)
pcol=$(echo "$s" | grep '^/ dur > 10us && bytes > 10us' | awk '{ print index($0, "bytes > 10us") + 8 }')
ccol=$(echo "$s" | grep '^ *\^~~~ *$' | awk '{ print index($0, "^") }')
check "the caret is on the line under the prompt, under the culprit, the message under it (prompt line $pl, caret line $cl, columns $pcol and $ccol)" \
    [ "${pl:-x}:$((${pl:-0} + 1)):$pcol:$((${pl:-0} + 2))" = "${pl:-y}:$cl:$ccol:$(echo "$s" | grep -n "^1:23: " | cut -d: -f1)" ]
check "the previous result stays while the filter is wrong" wait_for main '│ 80 of 328 events │ x1.00 │ filter: kind == "send" │' F
keys main Escape
check "Esc cancels" wait_gone main "1:23: "
keys main C
check "C clears the filter" wait_for main "│ 328 of 328 events │ x1.00 │ no filter" F
keys main /
keys main C-u
keys main Up
check "Up in the prompt brings back the last filter" wait_for main '^/ kind == "send"'
keys main Escape

# ---- details of the event under the cursor ---------------------------------------------------
keys main g
type_text main "2.1415ms"
keys main Enter + + + + + + + + + + + + + +
keys main i
check "i opens the details: the send under the cursor with its fields" wait_for main "(send)" F
check "... its bytes, peer and the other end of the message" \
    sh -c "tmux -L '$SOCK' capture-pane -p -t main >'$TMP/d.txt' && grep -q 'bytes   4096' '$TMP/d.txt' && grep -q 'peer    1' '$TMP/d.txt' && grep -q 'the receive is at' '$TMP/d.txt'"
keys main i

# ---- help, views ---------------------------------------------------------------------------------
keys main '?'
check "? shows the help generated from the actions" wait_for main "tnav keys" F
check "... with the keys and what they do" wait_for main "zoom in around the cursor" F
keys main Escape
check "any key closes the help" wait_gone main "tnav keys"
for v in "3:density" "4:comm monitor" "5:comm matrix" "6:analyses" "7:events" "8:split: density + gantt" "2:gantt: activities" "1:gantt: locations"; do
    keys main "${v%%:*}"
    check "key ${v%%:*} shows the ${v#*:} view" wait_for main " ${v#*:} │" F
    [ "${v%%:*}" = 6 ] && check "... 6: the time per location table with util% (as tnav stats)" wait_for main "^location +events +useful +util%"
done
keys main Tab
check "Tab goes to the next view" wait_for main " gantt: activities │" F
keys main 1

# ---- resize --------------------------------------------------------------------------------------
T resize-window -t main -x 140 -y 40
check "a resize re-lays out at once: the status line is line 40" sh -c '
    n=0; while [ $n -lt '"$((LIMIT * 20))"' ]; do
        tmux -L "'"$SOCK"'" capture-pane -p -t main | sed -n 40p | grep -q "gantt: locations │" && exit 0
        n=$((n + 1)); sleep 0.05
    done; exit 1'
w=$(screen main | sed -n 38p | wc -m)
check "... and the time axis fills the new width ($w columns)" [ "${w:-0}" -gt 120 ]

# ---- quit ------------------------------------------------------------------------------------------
keys main q
check "q quits with status 0" wait_for main "tnav-exit=0" F
s=$(screen main)
if echo "$s" | grep -q "before-tnav" && ! echo "$s" | grep -qE "│|\\? help|gantt"; then ok "nothing of the interface is left on the terminal"; else bad "the terminal after q:"; echo "$s" | sed 's/^/    | /'; fi

# ---- signals -----------------------------------------------------------------------------------
for sig in TERM INT HUP; do
    start "sig$sig" 100 30 "exec $TNAV $R"
    wait_for "sig$sig" "? help" F >/dev/null
    pid=$(T list-panes -t "sig$sig" -F '#{pane_pid}')
    [ -n "$pid" ] || { bad "SIG$sig: no tnav to signal"; continue; }
    kill -$sig "$pid" 2>/dev/null
    # (exec: the pane's process is tnav; the pane dies with it, so read the
    # status from tmux)
    n=0
    while [ $n -lt $((LIMIT * 20)) ] && kill -0 "$pid" 2>/dev/null; do n=$((n + 1)); sleep 0.05; done
    kill -0 "$pid" 2>/dev/null && bad "SIG$sig: tnav still runs" || ok "SIG$sig ends tnav"
done
start sigterm2 100 30 "$TNAV $R"
wait_for sigterm2 "? help" F >/dev/null
tpid=$(pgrep -P "$(T list-panes -t sigterm2 -F '#{pane_pid}')" tnav | head -1)
[ -n "$tpid" ] && kill -TERM "$tpid"
check "after SIGTERM the terminal is restored (exit status printed, nothing drawn)" wait_for sigterm2 "tnav-exit=" F
s=$(screen sigterm2)
echo "$s" | grep -qE "│|\\? help" && { bad "SIGTERM left the interface drawn"; echo "$s" | sed 's/^/    | /'; } || ok "SIGTERM leaves nothing drawn"
start ctrlc 100 30 "$TNAV $R"
wait_for ctrlc "? help" F >/dev/null
keys ctrlc C-c
check "Ctrl-C quits and restores the terminal" wait_for ctrlc "tnav-exit=0" F

# ---- colours and --ascii -------------------------------------------------------------------------
start c256 100 30 "$TNAV --view 3 $R"
wait_for c256 "density │" F >/dev/null
check "256 colours: the density map uses the 256-colour palette" sh -c "tmux -L '$SOCK' capture-pane -p -e -t c256 | grep -q '38;5;'"
start c8 100 30 "TERM=xterm $TNAV --view 3 $R"
wait_for c8 "density │" F >/dev/null
e8=$(screen_esc c8)
if echo "$e8" | grep -qE '\[([0-9;]*;)?3[0-7][;m]' && ! echo "$e8" | grep -q '38;5;'; then ok "8 colours: only the basic colours"; else bad "8 colours"; echo "$e8" | head -5 | cat -v | sed 's/^/    | /'; fi
start nocol 100 30 "NO_COLOR=1 $TNAV --view 3 $R"
wait_for nocol "density │" F >/dev/null
en=$(screen_esc nocol)
if ! echo "$en" | grep -qE '\[([0-9;]*;)?(3[0-7]|38;5;[0-9]+|4[0-7]|48;5;[0-9]+)[;m]'; then ok "NO_COLOR: no colours at all"; else bad "NO_COLOR still colours"; fi
check "... and the map stays readable: shading glyphs and a legend" sh -c "tmux -L '$SOCK' capture-pane -p -t nocol | grep -q '[░▒▓█]'"
start never 100 30 "$TNAV --color never --view 1 $R"
wait_for never "gantt: locations │" F >/dev/null
en=$(screen_esc never)
if ! echo "$en" | grep -qE '\[([0-9;]*;)?(3[0-7]|38;5;[0-9]+|4[0-7]|48;5;[0-9]+)[;m]'; then ok "--color never: no colours"; else bad "--color never still colours"; fi
start ascii 100 30 "$TNAV --ascii $R"
check "--ascii: the status line uses ASCII separators" wait_for ascii "gantt: locations | 0 ns - 60.62 ms | 328 of 328 events" F
s=$(screen ascii)
if echo "$s" | LC_ALL=C grep -q '[^ -~]'; then bad "--ascii: non-ASCII characters on the screen"; echo "$s" | LC_ALL=C grep '[^ -~]' | head -3 | sed 's/^/    | /'; else ok "--ascii: nothing but ASCII on the screen"; fi

# ---- opening: the progress of the load, Esc cancels ----------------------------------------------
# (TNAV_CHUNK_BYTES cuts the sample into ~30 chunks, TNAV_TEST_LOAD_DELAY_MS
# makes each take a while: the load lasts seconds)
SLOW="TNAV_CHUNK_BYTES=512 TNAV_TEST_LOAD_DELAY_MS=200"
start loadesc 100 30 "$SLOW $TNAV $R"
check "while it loads: a box with the file, a percentage and the rate" wait_for loadesc "[0-9]+%  [0-9]+ of 16 kB  [0-9]+ kB/s"
check "... and how to cancel" wait_for loadesc "Esc: cancel" F
keys loadesc Escape
check "Esc cancels the load: exit status 130" wait_for loadesc "tnav-exit=130" F
s=$(screen loadesc)
if echo "$s" | grep -q "^tnav: load cancelled$" && echo "$s" | grep -q "before-tnav" && ! echo "$s" | grep -qE "│|Esc: cancel|tnav: loading"; then
    ok "... with the message 'tnav: load cancelled', and the terminal restored"
else
    bad "the terminal after Esc during the load:"; echo "$s" | sed 's/^/    | /'
fi
start loadq 100 30 "$SLOW $TNAV $R"
wait_for loadq "Esc: cancel" F >/dev/null
keys loadq q
check "q cancels the load too" wait_for loadq "tnav-exit=130" F
start loadcc 100 30 "$SLOW $TNAV $R"
wait_for loadcc "Esc: cancel" F >/dev/null
keys loadcc C-c
check "Ctrl-C cancels the load too" wait_for loadcc "tnav-exit=130" F
start loadterm 100 30 "$SLOW $TNAV $R"
wait_for loadterm "Esc: cancel" F >/dev/null
tpid=$(pgrep -P "$(T list-panes -t loadterm -F '#{pane_pid}')" tnav | head -1)
[ -n "$tpid" ] && kill -TERM "$tpid"
check "SIGTERM while loading: cancelled, exit 130" wait_for loadterm "tnav-exit=130" F
s=$(screen loadterm)
echo "$s" | grep -qE "│|Esc: cancel" && { bad "SIGTERM while loading left the box drawn"; echo "$s" | sed 's/^/    | /'; } || ok "... and the terminal restored"
start loadok 100 30 "TNAV_CHUNK_BYTES=512 TNAV_TEST_LOAD_DELAY_MS=60 $TNAV $R"
check "a slow load shows its progress" wait_for loadok "tnav: loading" F
check "... and ends with the first frame" wait_for loadok "gantt: locations │ 0 ns – 60.62 ms │ 328 of 328 events │" F
keys loadok q
check "... which quits normally" wait_for loadok "tnav-exit=0" F
start loadwinch 100 30 "$SLOW $TNAV $R"
wait_for loadwinch "Esc: cancel" F >/dev/null
T resize-window -t loadwinch -x 140 -y 40
check "a resize while loading centres the box again" wait_for loadwinch "^ {38}┌─ tnav: loading"
keys loadwinch Escape
check "... and Esc still cancels" wait_for loadwinch "tnav-exit=130" F

# ---- a terminal type this machine has no description of (TERM set on another machine) -----------
start unkterm 100 30 "TERM=no-such-terminal-xyz $SLOW $TNAV $R"
check "an unknown TERM: checked before the load, which shows its progress (drawn as xterm-256color)" wait_for unkterm "Esc: cancel" F
check "... then the first frame" wait_for unkterm "gantt: locations │ 0 ns – 60.62 ms │ 328 of 328 events │" F
keys unkterm q
check "... a normal exit that says which description was used" wait_for unkterm "^tnav: TERM 'no-such-terminal-xyz' has no terminfo entry here: drawn as xterm-256color$"
check "... exit 0" wait_for unkterm "tnav-exit=0" F

# ---- no terminal description at all: exit 2 at once, before loading ------------------------------
# (root only: a mount namespace of its own with an empty tmpfs over every
# terminfo directory; $HOME without .terminfo, no TERMINFO*). The trace does
# not exist: its error would come first if tnav loaded before checking.
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null 2>&1 && unshare -m true 2>/dev/null; then
    cat >"$TMP/noterm.sh" <<EOS
for d in /etc/terminfo /lib/terminfo /usr/share/terminfo /usr/lib/terminfo; do
    [ -d "\$d" ] && mount -t tmpfs tmpfs "\$d"
done
unset TERMINFO TERMINFO_DIRS
HOME=$TMP/nohome TERM=no-such-terminal-xyz $TNAV $TMP/no-such-trace.csv
EOS
    start noterm 200 30 "unshare -m sh $TMP/noterm.sh"
    check "no terminfo description at all (not even xterm or vt100): exit 2" wait_for noterm "tnav-exit=2" F
    check "... at once, before loading (the missing trace is not reached), saying so" \
        wait_for noterm "^tnav: the terminal type 'no-such-terminal-xyz' \(TERM\) has no terminfo description on this machine, nor have xterm-256color, xterm or vt100"
    s=$(screen noterm)
    if echo "$s" | grep -q "no-such-trace\|cannot open"; then bad "... the trace was opened before the terminal check"; echo "$s" | sed 's/^/    | /'; else ok "... the trace never opened"; fi
else
    echo "skip - no terminfo at all: needs root and unshare -m (a private mount namespace) to hide the terminfo directories"
fi

# ---- a headless command's progress on stderr ends its line -------------------------------------
start errprog 100 30 "TNAV_TEST_PROGRESS_MIN_BYTES=0 $SLOW $TNAV stats $R | head -3"
check "tnav stats on a terminal: a progress line on stderr while it loads" wait_for errprog "tnav: loading $R: [0-9]+%"
check "... then the summary" wait_for errprog "tnav-exit=0" F
s=$(screen errprog)
if echo "$s" | grep -q "^1 file, " && echo "$s" | grep -q "^before-tnav$" && ! echo "$s" | grep -q "tnav: loading"; then ok "... which starts on a clean line, the progress line gone"; else bad "the terminal after tnav stats:"; echo "$s" | sed 's/^/    | /'; fi
start errprog2 100 30 "TNAV_TEST_PROGRESS_MIN_BYTES=0 $SLOW $TNAV stats $R /nonexistent.csv"
check "... and an error after it starts on a clean line too" wait_for errprog2 "^tnav: cannot open /nonexistent.csv"
TNAV_TEST_PROGRESS_MIN_BYTES=0 TNAV_CHUNK_BYTES=512 TNAV_TEST_LOAD_DELAY_MS=20 "$TNAV" stats "$R" >"$TMP/st.out" 2>"$TMP/st.err"
check "no progress when stderr is not a terminal" [ ! -s "$TMP/st.err" ]

# ---- a slow filter: the screen answers, Esc cancels it, the selection stays -------------------
awk 'BEGIN { print "ts,loc,name"; for (i = 0; i < 20000; i++) printf "%d,%d,aaaaaaaaaaaaaaaaaa!%d\n", i * 1000, i % 4, i }' >"$TMP/slow.csv"
start slowf 120 30 "$TNAV --filter-timeout 600 $TMP/slow.csv"
check "a trace of 20000 distinct names opens" wait_for slowf "20000 of 20000 events │" F
keys slowf /
type_text slowf 'loc == 1'
keys slowf Enter
check "a quick filter: applied" wait_for slowf "5000 of 20000 events │" F
keys slowf /
keys slowf C-u
type_text slowf 'name =~ /(a+)+\d$/'
check "as one types a slow filter, it is not counted (no wait)" wait_for slowf "not counted as you type" F
keys slowf Enter
check "Enter: the filter runs and the screen says so, with its time" wait_for slowf "filtering… [0-9.]+ s  \(Esc cancels"
keys slowf Escape
check "Esc cancels it: said on the status line" wait_for slowf "filter cancelled: previous selection kept" F
check "... and the previous selection is still the one shown" wait_for slowf "5000 of 20000 events │" F
keys slowf 2
check "... and the interface answers keys" wait_for slowf "gantt: activities │" F
keys slowf q
check "... q: exit 0" wait_for slowf "tnav-exit=0" F
start slowt 180 30 "$TNAV --filter-timeout 0.3 $TMP/slow.csv"
check "(the same trace, a 0.3 s budget)" wait_for slowt "20000 of 20000 events │" F
keys slowt /
type_text slowt 'name =~ /(a+)+\d$/'
keys slowt Enter
check "a filter past its budget stops by itself: said, the selection kept" wait_for slowt "filter stopped after 0.3 s \(--filter-timeout\): previous selection kept"
check "... every event still shown" wait_for slowt "20000 of 20000 events │" F
keys slowt q
check "... q: exit 0" wait_for slowt "tnav-exit=0" F

# ---- view 9: the analyses, the critical path, a range's efficiency ------------------------------
start an 120 30 "env TNAV_SAVE_DIR=$TMP $TNAV $R"
check "(the ring sample)" wait_for an "328 of 328 events" F
keys an 9
check "9: the analyses, the profile first" wait_for an "MPI_Barrier +80 +280.5 ms"
keys an Right
check "Right: time per location and the POP efficiencies, as tnav stats" wait_for an "parallel efficiency 42.0% = load balance 42.1%" F
check "... rank 5: 60.52 ms useful, 99.9% of the window" wait_for an "^5 +41 +60.52 ms +99.9%"
keys an w
check "w: the table saved as CSV" wait_for an "wrote 8 rows to" F
check "... a CSV with a row per location" [ "$(wc -l <"$TMP/tnav-time.csv" 2>/dev/null)" = 9 ]
"$TNAV" stats --json "$R" >"$TMP/stats.json" 2>/dev/null
same=$(python3 - "$TMP/tnav-time.csv" "$TMP/stats.json" <<'PY'
import csv, json, sys
rows = {r["location"]: r for r in csv.DictReader(open(sys.argv[1]))}
per = {str(p["loc"]): p for p in json.load(open(sys.argv[2]))["per_loc"]}
keys = [("events", "events"), ("useful", "useful_ns"), ("comm", "comm_ns"), ("sync", "sync_ns"), ("wait", "wait_ns"),
        ("idle", "idle_ns"), ("sent", "sent_bytes"), ("received", "recv_bytes")]
bad = [l for l in per if l not in rows or any(float(rows[l][a]) != float(per[l][b]) for a, b in keys)
       or abs(float(rows[l]["util%"]) - per[l]["util"]) > 1e-6 or per[l]["util"] > 1]
print("yes" if len(rows) == len(per) and not bad else "no %s" % bad)
PY
)
check "... every number of the table equals tnav stats --json's, util at most 1 ($same)" [ "$same" = yes ]
keys an Right
check "waits: the longest first" wait_for an "wait_at_barrier +7 +40.16 ms"
keys an Enter
check "Enter: the Gantt at the worst instance, victim and culprit highlighted" wait_for an "wait_at_barrier: 7 waited 4.07 ms for 5" F
keys an 0 9 Right Right
check "the critical path table" wait_for an "path 60.62 ms of 60.62 ms \\(100.0%\\); most on 5"
keys an 1 c
check "c: the critical path on the Gantt" wait_for an "critical path 60.62 ms of 60.62 ms" F
keys an "}"
check "}: walks to a segment of it" wait_for an "path [0-9]+/51: "
keys an I
check "I: the imbalance view, the last to arrive marked" wait_for an "imbalance: waits at syncs │ 0 ns – 60.62 ms" F
check "... rank 5's line: a ! per barrier, no shade" wait_for an "^5│ *! +! +! +! +! +! +! +! +! +!"
keys an 0 "[" End "]"
check "a marked range: its efficiency on the status line" wait_for an "range: efficiency [0-9.]+% \\(LB"
keys an q
check "... q: exit 0" wait_for an "tnav-exit=0" F

# ---- the comm view's metric: messages without a size are counted ---------------------------------
printf 'ts,dur,loc,kind,peer,bytes,id\n0,50,0,state,,,\n0,50,1,state,,,\n10,,0,send,1,,7\n30,,1,recv,0,,7\n' >"$TMP/nosize.csv"
start cm 100 14 "$TNAV $TMP/nosize.csv"
keys cm 4
check "comm view of messages without a size: messages by default (events), not an empty frame of bytes" \
    wait_for cm "comm monitor │ events │" F
check "... its legend: events per cell" wait_for cm "events per cell" F
keys cm M
check "M in the comm view: bytes" wait_for cm "comm monitor │ bytes │" F
check "... whose empty frame says why" wait_for cm "no bytes sent in this window (messages without a size" F
keys cm :
type_text cm "metric events"
keys cm Enter
check ":metric events in the comm view" wait_for cm "comm monitor │ events │" F
keys cm :
type_text cm "metric busy"
keys cm Enter
check ":metric busy in the comm view: not a metric it shows" wait_for cm "the comm view shows bytes or events, not 'busy'" F
keys cm Escape q
check "... q: exit 0" wait_for cm "tnav-exit=0" F

# ---- the command line ----------------------------------------------------------------------------
# (TERM=xterm-256color set explicitly: the interface inside tmux as most users' terminals announce it)
start cmd 120 30 "TERM=xterm-256color $TNAV $R"
check "(the ring sample, TERM=xterm-256color)" wait_for cmd "328 of 328 events" F
check "... drawn in 256 colours" sh -c "tmux -L '$SOCK' capture-pane -p -e -t cmd | grep -q '38;5;'"
keys cmd :
check ": opens the command line with its hint" wait_for cmd "a command: Tab completes" F
type_text cmd "zo"
keys cmd Tab
check "Tab lists the commands a prefix starts" wait_for cmd "zoom  zoom-in  zoom-out" F
type_text cmd " 10ms 20ms"
check "the command's synopsis as it is typed" wait_for cmd ":zoom FROM TO  show the range" F
keys cmd Enter
check ":zoom 10ms 20ms shows that window" wait_for cmd "│ 10 ms – 20 ms │" F
keys cmd :
type_text cmd "go"
keys cmd Tab
check "Tab completes a command's name" wait_for cmd "^:goto"
type_text cmd "40ms"
keys cmd Enter
check ":goto 40ms centres the window on it" wait_for cmd "│ 35 ms – 45 ms │" F
keys cmd :
type_text cmd "view de"
keys cmd Tab Enter
check ":view de<Tab> completes and shows the density view" wait_for cmd " density │ busy (sum) │ 35 ms – 45 ms" F
keys cmd :
type_text cmd 'filter kind == "send"'
keys cmd Enter
check ":filter applies the filter" wait_for cmd 'filter: kind == "send" │' F
keys cmd :
type_text cmd "view nosuch"
keys cmd Enter
check "an unknown view: the message with line:column" wait_for cmd "1:6: no view 'nosuch' (Tab lists them)" F
check "... and the caret under it" wait_for cmd "^      \^~~~~~$"
keys cmd Escape
check "Esc cancels the command line" wait_gone cmd "no view 'nosuch'"
keys cmd :
type_text cmd "frob"
keys cmd Enter
check "an unknown command is said, with its caret" wait_for cmd "1:1: unknown command 'frob'" F
keys cmd Escape
keys cmd :
type_text cmd "save $TMP/density.txt"
keys cmd Enter
check ":save FILE in a view: the text drawn" wait_for cmd "wrote the density view (120x29) to" F
check "... the file holds the view's rows" sh -c "grep -q '^0│' '$TMP/density.txt' && [ \$(wc -l <'$TMP/density.txt') -eq 29 ]"
keys cmd :
type_text cmd "view events"
keys cmd Enter :
type_text cmd "save $TMP/events.csv"
keys cmd Enter
check ":save FILE in the event list: CSV" wait_for cmd "wrote [0-9]+ rows to $TMP/events.csv"
n=$(screen cmd | grep -o 'wrote [0-9]* rows' | grep -o '[0-9]*')
check "... a header and a row per event listed ($n), every one a send" sh -c "head -1 '$TMP/events.csv' | grep -qx 'time,dur,loc,act,kind,name' && [ \$(wc -l <'$TMP/events.csv') -eq \$(( ${n:-0} + 1 )) ] && [ ${n:-0} -gt 0 ] && ! awk -F, 'NR > 1 && \$5 != \"send\"' '$TMP/events.csv' | grep -q ."
keys cmd :
type_text cmd "save /nonexistent-dir/x.csv"
keys cmd Enter
check ":save to a directory that does not exist: said on the status line" wait_for cmd "could not write /nonexistent-dir/x.csv: No such file" F
keys cmd :
type_text cmd "set ascii on"
keys cmd Enter
check ":set ascii on: ASCII separators" wait_for cmd "events | 35 ms - 45 ms |" F
keys cmd :
type_text cmd "set color off"
keys cmd Enter
check ":set color off: no colours" sh -c "n=0; while [ \$n -lt $((LIMIT * 20)) ]; do tmux -L '$SOCK' capture-pane -p -e -t cmd | grep -qE '\[([0-9;]*;)?(3[0-7]|38;5;[0-9]+|4[0-7]|48;5;[0-9]+)[;m]' || exit 0; n=\$((n + 1)); sleep 0.05; done; exit 1"
keys cmd :
type_text cmd "help zoom"
keys cmd Enter
check ":help zoom: the help, its description" wait_for cmd "show the range from FROM to TO" F
keys cmd Escape :
keys cmd Up
check "Up on the command line: the last command" wait_for cmd "^:help zoom"
keys cmd Escape
keys cmd :
type_text cmd "quit"
keys cmd Enter
check ":quit quits, exit 0" wait_for cmd "tnav-exit=0" F
"$TNAV" tui --list-actions >"$TMP/actions.txt"
check "tnav tui --list-actions: the table, a line per action with keys, command and description" \
    sh -c "grep -qP '^g\t:goto \\[TIME\\|NAME\\]\tgo to a time' '$TMP/actions.txt' && grep -qP '^-\t:save FILE\t' '$TMP/actions.txt' && ! awk -F'\t' 'NF != 3' '$TMP/actions.txt' | grep -q ."

# ---- sessions: the state of a trace comes back when it is opened again ---------------------------
S="XDG_STATE_HOME=$TMP/sessions"
start sess1 120 30 "$S $TNAV $R"
wait_for sess1 "328 of 328 events" F >/dev/null
keys sess1 :
type_text sess1 "view density"
keys sess1 Enter :
type_text sess1 "zoom 10ms 20ms"
keys sess1 Enter :
type_text sess1 'filter kind == "send"'
keys sess1 Enter :
type_text sess1 "mark hot spot"
keys sess1 Enter
check "(a first run: density, 10-20 ms, a filter, a named bookmark)" wait_for sess1 "bookmark a 'hot spot' set" F
keys sess1 q
check "... quits" wait_for sess1 "tnav-exit=0" F
start sess2 120 30 "$S $TNAV $R"
check "the second run on the trace restores the view, the window and the filter" \
    wait_for sess2 ' density │ busy \(sum\) │ 10 ms – 20 ms │ (.* │ )?filter: kind == "send"'
check "... and says so" wait_for sess2 "session restored" F
keys sess2 Right
check "... the filter" wait_for sess2 '│ x6.06 │ filter: kind == "send" │ ? help' F
keys sess2 "'"
check "... the bookmarks with their names" wait_for sess2 "a   +10 ms          hot spot" F
keys sess2 Escape :
type_text sess2 "goto 50ms"
keys sess2 Enter :
type_text sess2 "goto hot spot"
keys sess2 Enter
check "... :goto NAME goes to the bookmark" wait_for sess2 "bookmark a (hot spot)" F
keys sess2 q
wait_for sess2 "tnav-exit=0" F >/dev/null
start sess3 120 30 "$S $TNAV --no-session $R"
check "--no-session: the whole trace, no filter" wait_for sess3 "gantt: locations │ 0 ns – 60.62 ms │ 328 of 328 events │ x1.00 │ no filter │" F
keys sess3 3 q
wait_for sess3 "tnav-exit=0" F >/dev/null
start sess4 120 30 "$S $TNAV $R"
check "... and saves nothing: the next run restores the session before it" wait_for sess4 ' density │ busy \(sum\) │ [0-9.]+ ms – [0-9.]+ ms │ (.* │ )?filter: kind == "send"'
keys sess4 q
wait_for sess4 "tnav-exit=0" F >/dev/null
printf 'tnav-sessions 1\ntrace\t/x\n' >"$TMP/sessions/tnav/sessions"
start sess5 120 30 "$S $TNAV $R"
check "a corrupt sessions file: a one-line note, the trace opens as new" wait_for sess5 "session not restored: .*sessions is corrupt"
keys sess5 Right
check "... whole" wait_for sess5 "gantt: locations │ 0 ns – 60.62 ms │ 328 of 328 events │ x1.00 │ no filter │ ? help" F
keys sess5 q
check "... exit 0" wait_for sess5 "tnav-exit=0" F
check "... and the file is whole again" sh -c "head -1 '$TMP/sessions/tnav/sessions' | grep -qx 'tnav-sessions 1' && grep -q '^end$' '$TMP/sessions/tnav/sessions'"

# ---- a trace piped in: the keys come from the terminal ----------------------------------------
start piped 100 30 "gzip -c $R | $TNAV -"
check "a gzip trace piped into tnav -: the interface opens on it" wait_for piped "gantt: locations │ 0 ns – 60.62 ms │ 328 of 328 events │" F
keys piped 2
check "... and answers keys typed on the terminal" wait_for piped "gantt: activities │ 0 ns – 60.62 ms │ 328 of 328 events │" F
keys piped q
check "... q: exit 0" wait_for piped "tnav-exit=0" F

# ---- special keys whatever TERM says; the event list in time order --------------------------
# TERM=xterm-256color inside tmux (whose panes send the keys of its own
# terminal description): Home, End, PgUp, PgDn and F-keys still work
start keys 100 30 "$TNAV $R"
wait_for keys "? help" F >/dev/null
keys keys 7
check "7: the event list in time order, opened at the cursor's time" wait_for keys "event 1 of 328 in the trace, in time order" F
keys keys End
check "End: the last event of the trace (TERM mismatch)" wait_for keys "event 328 of 328 in the trace" F
check "... the list ends with the trace's last event (rank 7's last receive at 60.6 ms)" wait_for keys "60.6 ms +4 us +7 +7.0 +recv +recv$"
keys keys PgUp
check "PgUp: a screen of events back" wait_for keys "event 302 of 328" F
keys keys PgDn
check "PgDn: a screen forward" wait_for keys "event 328 of 328" F
keys keys Home
check "Home: the first event" wait_for keys "event 1 of 328 in the trace" F
keys keys j j
check "j: the next event" wait_for keys "event 3 of 328" F
keys keys F1
check "F1: the help" wait_for keys "tnav keys" F
keys keys Escape
keys keys K
check "K: the full legend, names and glyphs" wait_for keys "legend, lines 1-" F
check "... what a message connector is" wait_for keys "one message arriving in the column" F
keys keys K
keys keys 1
check "back to the Gantt: no stray characters were taken as keys" wait_for keys "gantt: locations │" F
keys keys o
check "o: messages on the Gantt cycle (all)" wait_for keys "messages on the Gantt: all" F
keys keys j j j j j L
check "L: a pane with the cursor row's busy time over time, in braille" wait_for keys "line: busy of 5 over time"
check "... its plot under the Gantt's time columns" wait_for keys "^ +1│⠉"
keys keys B
check "B: every location's busy time at the cursor's time, as bars" wait_for keys "bars: busy of every location at" F
keys keys P
check "P: rank 5's traffic by partner over time" wait_for keys "partners of 5: bytes per pair over time (2 pairs)" F
keys keys P
check "... P again closes the pane" wait_gone keys "partners of 5"
keys keys F10
check "F10 quits: exit 0" wait_for keys "tnav-exit=0" F

# ---- 80 x 24: the status line keeps the filter and the highlight -------------------------------
start narrow 80 24 "$TNAV $R"
wait_for narrow "? help" F >/dev/null
keys narrow /
type_text narrow 'name =~ /^MPI_Barrier$/ || (kind == "send" && loc in 0..7)'
keys narrow Enter
keys narrow t
type_text narrow 'kind == "recv" && dur > 1us'
keys narrow Enter
check "80x24: the status line shows the filter and the highlight, elided in their middles" \
    wait_for narrow 'filter: name =~ .*….* loc in 0..7\) │ highlight: kind == "recv" && dur > 1us'
check "... and fits the line (nothing cut at its end)" sh -c "[ \$(tmux -L '$SOCK' capture-pane -p -t narrow | sed -n 24p | wc -m) -le 81 ]"
keys narrow q
check "... q: exit 0" wait_for narrow "tnav-exit=0" F

# ---- a realistic trace: 1M events of the task-runtime shape (Step 5) -------------------------------
# ~21,000 short tasks on 64 workers, string message ids, a finish group per
# instance, file/line on every event, ~10% instants
BIG=$TMP/tasks-1m.csv
if [ -x sample-logs/gen ] && sample-logs/gen --shape tasks --events 1000000 -o "$BIG" 2>/dev/null; then
    SAVED_LIMIT=$LIMIT
    LIMIT=$((LIMIT * 4)) # (1M events, also under ASan)
    start big 120 40 "$TNAV $BIG"
    check "1M-event task trace: the Gantt opens" wait_for big "gantt: locations │ .* of 1000000 events" 
    # readable: the message counts do not cover the rows, and the legend says why
    digits=$(screen big | head -30 | awk -F'[│┆]' 'NF > 1 { n = split($2, c, ""); for (i = 1; i <= n; i++) if (c[i] ~ /[0-9+]/) d++ } END { print d + 0 }')
    check "... no wall of message counts over the rows ($digits cells)" [ "$digits" -lt 60 ]
    check "... the glyph legend line says what was too dense to mark" wait_for big "too dense to mark" F
    keys big 7
    check "7: the event list in time order" wait_for big "event [0-9]+ of 1000000 in the trace, in time order"
    keys big End
    check "End: the last of the 1,000,000 events" wait_for big "event 1000000 of 1000000 in the trace" F
    keys big Home
    check "Home: the first" wait_for big "event 1 of 1000000 in the trace" F
    keys big 6
    check "6: time per location with util%" wait_for big "^location +events +useful +util%"
    over=$(screen big | awk '$1 ~ /^[0-9]+$/ && $4 ~ /%$/ { v = $4; sub(/%/, "", v); if (v + 0 > 100) n++ } END { print n + 0 }')
    check "... no location above 100% ($over)" [ "$over" = 0 ]
    keys big 1 /
    type_text big 'name =~ /kernel_1/ && dur > 10us'
    keys big Enter
    check "a filter on the names: its count and the filter on the status line" wait_for big "of 1000000 events .*filter: name =~ /kernel_1/"
    keys big L
    check "L: the cursor row's busy time over time (its group's rows combined)" wait_for big "line: busy of 0..1 over time (the row under the cursor, its rows combined)" F
    keys big q
    check "... q: exit 0" wait_for big "tnav-exit=0" F
    LIMIT=$SAVED_LIMIT
else
    bad "1M-event task trace: sample-logs/gen --shape tasks failed"
fi

# ---- not a terminal ----------------------------------------------------------------------------
"$TNAV" tui "$R" </dev/null >"$TMP/notty.out" 2>"$TMP/notty.err"
rc=$?
grep -q "needs a terminal" "$TMP/notty.err" && msg=yes || msg=no
check "tnav tui without a terminal: exit 2 with a message (exit $rc, message: $msg)" [ "$rc $msg" = "2 yes" ]

echo "tui-e2e: $PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
