#!/bin/sh
# tests/golden/disasm/gen.sh NAME TRACE FILTER... — one listing, as the
# golden files hold it (used by tests/run.sh and tests/update-golden.sh)
TNAV=${TNAV:-./tnav}
name=$1 trace=$2
shift 2
if [ "$trace" = - ]; then "$TNAV" filter --disasm -f "$*"; else "$TNAV" filter --disasm -f "$*" "sample-logs/$trace"; fi
