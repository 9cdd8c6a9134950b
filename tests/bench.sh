#!/bin/sh
# tests/bench.sh — `make bench`: load, filter and view benchmarks on
# generated traces.
#
# Owns: generating the benchmark traces (cached in $BENCH_DIR, default
# build/bench; regenerated when sample-logs/gen is newer), running
# `tnav stats --bench` on each RUNS times, `tnav filter --bench` and
# `tnav render --bench` and `tnav tui --bench-keys` on the largest CSV, and printing the best and median figures next to the targets
# of doc/PERFORMANCE.md. Timings are never
# asserted here or in the tests: this prints numbers for people.
#
#   BENCH_SIZES="1000000 10000000"  RUNS=3  FILTER_RUNS=20  BENCH_DIR=build/bench  sh tests/bench.sh
export LC_ALL=C.UTF-8 TZ=UTC
TNAV=${TNAV:-./tnav}
GEN=${GEN:-sample-logs/gen}
BENCH_DIR=${BENCH_DIR:-build/bench}
BENCH_SIZES=${BENCH_SIZES:-"1000000 10000000"}
RUNS=${RUNS:-3}
mkdir -p "$BENCH_DIR"

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo), $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)"
echo "tnav:    $($TNAV --version), $(date -u +%Y-%m-%d)"
echo "load:    $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine skews timings)"
echo

field() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }

for n in $BENCH_SIZES; do
    for fmt in csv ndjson; do
        f="$BENCH_DIR/mpi-$n.$fmt"
        if [ ! -s "$f" ] || [ "$GEN" -nt "$f" ]; then
            echo "generating $f ..."
            "$GEN" --events "$n" --format "$fmt" -o "$f.tmp" && mv "$f.tmp" "$f" || exit 1
        fi
        # warm the page cache so that every run reads from memory
        cat "$f" >/dev/null
        rm -f "$BENCH_DIR/runs"
        i=0
        while [ $i -lt "$RUNS" ]; do
            "$TNAV" stats --bench "$f" >>"$BENCH_DIR/runs" || exit 1
            i=$((i + 1))
        done
        sort -t= -k1,1 "$BENCH_DIR/runs" >/dev/null
        best=$(awk '{for(i=1;i<=NF;i++){split($i,kv,"="); if(kv[1]=="total_s") print kv[2], $0}}' "$BENCH_DIR/runs" | sort -n | head -1 | cut -d' ' -f2-)
        med=$(awk '{for(i=1;i<=NF;i++){split($i,kv,"="); if(kv[1]=="total_s") print kv[2]}}' "$BENCH_DIR/runs" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
        mb=$(( $(field "$best" bytes) / 1000000 ))
        printf '%-7s %9s events %6s MB: best %s s (median %s s) = %s MB/s, %s events/s; parse %s s + index %s s; RSS %s B/event beyond the %s MiB dictionary (store %s B/event), peak %s MiB\n' \
            "$fmt" "$n" "$mb" "$(field "$best" total_s)" "$med" "$(field "$best" mb_per_s)" "$(field "$best" events_per_s)" \
            "$(field "$best" parse_s)" "$(field "$best" build_s)" "$(field "$best" rss_per_event_beyond_dict)" \
            "$(( $(field "$best" dict_bytes) / 1048576 ))" "$(field "$best" store_bytes_per_event)" \
            "$(( $(field "$best" peak_bytes) / 1048576 ))"
    done
done
# libcsv's callback path against the hybrid engine on the same file: the
# measurement behind the byte scanner (doc/PERFORMANCE.md)
n=$(echo $BENCH_SIZES | cut -d' ' -f1)
f="$BENCH_DIR/mpi-$n.csv"
[ -x build/rel/bench_libcsv ] && build/rel/bench_libcsv "$f"
for threads in 1 2; do
    for eng in libcsv hybrid; do
        best=""
        i=0
        while [ $i -lt "$RUNS" ]; do
            r=$("$TNAV" stats --bench --threads $threads --csv-engine $eng "$f")
            t=$(field "$r" parse_s)
            if [ -z "$best" ] || [ "$(echo "$t < $best" | awk '{print ($1 < $3)}')" = 1 ]; then best=$t; fi
            i=$((i + 1))
        done
        printf 'csv engine %-6s %d thread(s): parse %s s for %s events = %s MB/s\n' "$eng" $threads "$best" "$n" \
            "$(awk -v b="$(stat -c %s "$f")" -v t="$best" 'BEGIN {printf "%.0f", b / 1e6 / t}')"
    done
done

# the filter VM (one thread) on the largest CSV trace: compile once, run
# FILTER_RUNS times; the first run includes building the key tables
n=$(echo $BENCH_SIZES | tr ' ' '\n' | sort -n | tail -1)
f="$BENCH_DIR/mpi-$n.csv"
echo
for q in 'name =~ /^MPI_/ && dur > 10us && loc in 0..31' \
         'act_any(kind == "move")' \
         'act_any(kind == "send" && peer == 3)' \
         'kind == "sync" | group_any(dur > 5ms) || msg_any(bytes > 64KiB)'; do
    r=$("$TNAV" filter --bench --runs "${FILTER_RUNS:-20}" "$q" "$f") || exit 1
    printf 'filter %-66s %s events: best %s ms (median %s ms, first %s ms), %s selected\n' "'$q'" \
        "$(field "$r" events)" "$(field "$r" best_ms)" "$(field "$r" median_ms)" "$(field "$r" first_ms)" "$(field "$r" selected)"
done

# views: the summaries (after a filter change) and density frames of 200 x 60
# cells at several zooms (best of RENDER_RUNS)
echo
r=$("$TNAV" render --bench --runs "${RENDER_RUNS:-20}" -f 'dur > 10us' "$f") || exit 1
printf 'render %s events: summaries %s ms (first build, fresh memory: %s ms); filter %s ms; frame 200x60: full %s ms, 1/10 %s ms, 1/1000 %s ms, 1/1e6 %s ms\n' \
    "$(field "$r" events)" "$(field "$r" summary_after_filter_ms)" "$(field "$r" summary_ms)" "$(field "$r" filter_ms)" \
    "$(field "$r" frame_full_ms)" "$(field "$r" frame_z10_ms)" "$(field "$r" frame_z1000_ms)" "$(field "$r" frame_z1e6_ms)"

# the interface: keypress-to-frame latency, driven by a key script on the
# largest trace (a terminal of 208 x 66; each key is timed from app_key to a
# finished frame; /TEXT types a filter untimed, then times its Enter)
echo
script='+ + + + + - - l l l l PgDn PgDn PgUp Home End 0 + + + h h Right Right z Z 0 /dur_>_10us /loc_in_0..31 /kind_==_"send" /name_=~_/^MPI_/_&&_dur_>_1ms C 3 + + - 0 4 1'
r=$(XDG_STATE_HOME="$BENCH_DIR/state" "$TNAV" tui --bench-size 208x66 --bench-keys "$script" "$f") || exit 1
printf 'tui %s events, %s: zoom/pan %s keys: mean %s ms, max %s ms; new filter %s keys: mean %s ms, max %s ms; other %s keys (views, fit): mean %s ms, max %s ms\n' \
    "$(field "$r" events)" "$(field "$r" size)" "$(field "$r" zoom_pan_keys)" "$(field "$r" zoom_pan_mean_ms)" "$(field "$r" zoom_pan_max_ms)" \
    "$(field "$r" filter_keys)" "$(field "$r" filter_mean_ms)" "$(field "$r" filter_max_ms)" \
    "$(field "$r" other_keys)" "$(field "$r" other_mean_ms)" "$(field "$r" other_max_ms)"

echo
echo "targets (10M events, 2 cores): CSV <= 1.5 s, NDJSON <= 2.5 s, <= 48 B/event beyond the dictionaries"
echo "filter targets (10M events, one core): the first query <= 25 ms, act_any(kind == \"move\") <= 60 ms"
echo "render targets (10M events, 200 x 60 cells): <= 10 ms per frame at any zoom, <= 150 ms to rebuild the summaries"
echo "tui targets (10M events): keypress to frame <= 50 ms for zoom and pan, <= 300 ms for a new filter"
