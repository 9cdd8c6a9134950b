#!/bin/sh
# tests/layers.sh — the architecture's one-way dependencies, checked.
#
# Owns: the order of the stages (below) and the check that every
# #include "..." in src/, filters/ and tui/ names a header of the same
# folder or of an earlier stage, so there is no include cycle between
# folders; and that only tui/screen.c includes curses.
# Prints "layers: N passed, N failed".
#
#   sh tests/layers.sh        (from the repository's root)

ORDER="src/base src/store src/load filters src/analysis src/agg src/view src/cmd tui src"
rank() { # folder -> its position in ORDER
    i=0
    for d in $ORDER; do
        [ "$d" = "$1" ] && { echo $i; return; }
        i=$((i + 1))
    done
    echo -1
}
pass=0
fail=0
for f in $(find src filters tui -name '*.[ch]' | sort); do
    dir=$(dirname "$f")
    me=$(rank "$dir")
    if [ "$me" -lt 0 ]; then
        echo "not ok - $f: folder $dir is not a stage in tests/layers.sh"
        fail=$((fail + 1))
        continue
    fi
    bad=0
    for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
        case "$inc" in
        */*) target=$(dirname "$inc"); [ -f "src/$inc" ] && target="src/$target" ;;
        *) target=$dir ;;
        esac
        if [ ! -f "$inc" ] && [ ! -f "src/$inc" ] && [ ! -f "$dir/$inc" ]; then
            echo "not ok - $f includes $inc, which does not exist"
            bad=1
            continue
        fi
        r=$(rank "$target")
        if [ "$r" -lt 0 ] || [ "$r" -gt "$me" ]; then
            echo "not ok - $f ($dir) includes $inc from $target, a later stage"
            bad=1
        fi
    done
    if grep -qE '#[[:space:]]*include[[:space:]]*<n?curses' "$f" && [ "$f" != tui/screen.c ]; then
        echo "not ok - $f includes curses (only tui/screen.c may)"
        bad=1
    fi
    if [ $bad = 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "layers: $pass passed, $fail failed"
[ $fail = 0 ]
