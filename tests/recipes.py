#!/usr/bin/env python3
"""recipes.py — the recipes of doc/FORMAT.md ("Reading other tools'
exports"), as the test suite runs them: prints one line per recipe,
NAME<TAB>ARGS (the tnav arguments, the file argument last, shell-quoted
as in the document), so that tests/run.sh runs exactly what the document
says, with its own input in place of the example file name.

usage: recipes.py doc/FORMAT.md
"""
import re
import shlex
import sys

text = open(sys.argv[1], encoding="utf-8").read()
sec = text[text.index("## Reading other tools' exports"):]
block = sec[sec.index("```") + 3:]
block = block[:block.index("```")]
name = None
for line in block.splitlines():
    m = re.match(r"# recipe ([a-z0-9-]+):", line)
    if m:
        name = m.group(1)
        continue
    if name and line.startswith("tnav "):
        words = shlex.split(line)[1:]
        print(name + "\t" + "\t".join(words))
        name = None
