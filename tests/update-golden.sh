#!/bin/sh
# tests/update-golden.sh — regenerate the golden outputs in tests/golden/
# from the current build. Review the diff before committing it: a golden
# file changes only when the output is meant to change.
export TZ=UTC LC_ALL=C.UTF-8
unset TNAV_THREADS TNAV_CHUNK_BYTES TNAV_TIMING
TNAV=${TNAV:-./tnav}
mkdir -p tests/golden
for f in sample-logs/*.csv sample-logs/*.ndjson; do
    b=$(basename "$f")
    "$TNAV" stats "$f" >tests/golden/$b.stats.text 2>&1
    "$TNAV" stats --json "$f" >tests/golden/$b.stats.json 2>&1
done
while read -r name trace filt; do
    case "$name" in \#* | "") continue ;; esac
    TNAV="$TNAV" sh tests/golden/disasm/gen.sh "$name" "$trace" "$filt" >tests/golden/disasm/$name.txt 2>&1
done <tests/golden/disasm/filters.txt
while read -r name trace args; do
    case "$name" in \#* | "") continue ;; esac
    TNAV="$TNAV" sh tests/golden/render/gen.sh "$name" "$trace" $args >tests/golden/render/$name.txt 2>&1
done <tests/golden/render/list.txt
git diff --stat -- tests/golden 2>/dev/null || true
