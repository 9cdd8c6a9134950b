#!/bin/sh
# tests/golden/render/gen.sh NAME TRACE ARGS... — one frame, as the golden
# files hold it (used by tests/run.sh and tests/update-golden.sh). The
# views are named in NAME (density, gantt, comm, matrix, line, bars) unless
# ARGS give --view; TRACE gen-mpi is generated into $TMPDIR.
TNAV=${TNAV:-./tnav}
name=$1 trace=$2
shift 2
view=${name%%-*}
case " $* " in *" --view "*) view= ;; esac
if [ "$trace" = gen-mpi ]; then
    f=${TMPDIR:-/tmp}/tnav-golden-gen-mpi.csv
    [ -s "$f" ] || sample-logs/gen --events 3000 --ranks 4 --threads 2 --seed 5 -o "$f" || exit 1
else
    f=sample-logs/$trace
fi
if [ -n "$view" ]; then "$TNAV" render --view "$view" "$@" "$f"; else "$TNAV" render "$@" "$f"; fi
