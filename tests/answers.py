#!/usr/bin/env python3
"""tests/answers.py — the analyses against answers known by construction.

usage: answers.py TNAV GEN TMPDIR

For ring and master-worker traces of several sizes and seeds, sample-logs/gen
writes (--answers) what each rank's useful time, late-sender waits (suffered
and caused), barrier waits (suffered and caused) and barrier straggles are,
and the makespan. Each is compared exactly with what `tnav stats`, `tnav
waits`, `tnav syncs` and `tnav critpath` report (--json), and the
cross-checks that hold whatever the trace: the stats' wait column is the sum
of the wait patterns, the critical path's sums equal its length, and on a
ring the path runs through the straggler's compute. Prints "ok - ..." /
"not ok - ..." lines and ends with "answers: P passed, F failed".
"""
import json
import os
import subprocess
import sys

TNAV, GEN, TMP = sys.argv[1], sys.argv[2], sys.argv[3]
PASS = FAIL = 0


def check(cond, what, detail=""):
    global PASS, FAIL
    if cond:
        PASS += 1
        print("ok - " + what)
    else:
        FAIL += 1
        print("not ok - " + what + (": " + detail if detail else ""))


def tnav(*args):
    r = subprocess.run([TNAV] + list(args), capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("tnav %s: exit %d: %s" % (" ".join(args), r.returncode, r.stderr[:300]))
    return json.loads(r.stdout)


def by_loc(rows):
    return {str(r["loc"]): r["ns"] for r in rows}


def nonzero(d):
    return {k: v for k, v in d.items() if v}


CASES = [("ring", 8, 1), ("ring", 3, 7), ("ring", 64, 42), ("mw", 6, 1), ("mw", 17, 5), ("mw", 2, 3)]

for shape, ranks, seed in CASES:
    name = "%s %d ranks seed %d" % (shape, ranks, seed)
    trace = os.path.join(TMP, "ans-%s-%d-%d.csv" % (shape, ranks, seed))
    ansf = trace + ".answers.json"
    subprocess.run([GEN, "--shape", shape, "--ranks", str(ranks), "--seed", str(seed), "-o", trace,
                    "--answers", ansf], check=True)
    ans = json.load(open(ansf))
    try:
        st = tnav("stats", "--json", trace)
        wt = tnav("waits", "--json", trace)
        sy = tnav("syncs", "--json", trace)
        cp = tnav("critpath", "--json", "--top", "0", trace)
    except RuntimeError as e:
        check(False, name, str(e))
        continue
    pat = {p["pattern"]: p for p in wt["patterns"]}
    per = {str(p["loc"]): p for p in st["per_loc"]}
    want = {str(p["loc"]): p for p in ans["per_loc"]}
    # useful time (busy) per rank
    got_u = {k: per[k]["useful_ns"] for k in per}
    want_u = {k: want[k]["useful_ns"] for k in want}
    check(got_u == want_u, name + ": useful time of every rank", "%s != %s" % (got_u, want_u))
    # late sender: victims and culprits
    ls = pat["late_sender"]
    check(by_loc(ls["by_loc"]) == nonzero({k: want[k]["late_sender_ns"] for k in want}),
          name + ": late-sender wait of every victim", str(ls["by_loc"]))
    check(by_loc(ls["by_culprit"]) == nonzero({k: want[k]["late_sender_caused_ns"] for k in want}),
          name + ": late-sender wait caused by every culprit", str(ls["by_culprit"]))
    # barriers
    wb = pat["wait_at_barrier"]
    check(by_loc(wb["by_loc"]) == nonzero({k: want[k]["barrier_wait_ns"] for k in want}),
          name + ": barrier wait of every rank", str(wb["by_loc"]))
    check(by_loc(wb["by_culprit"]) == nonzero({k: want[k]["barrier_caused_ns"] for k in want}),
          name + ": barrier wait caused by every rank", str(wb["by_culprit"]))
    lc = {str(x["loc"]): x["count"] for x in sy["last_counts"]}
    check(lc == nonzero({k: want[k]["barrier_last"] for k in want}),
          name + ": how often each rank was last at a barrier", str(lc))
    if shape == "ring":
        check(sy["last_counts"][0]["loc"] == ans["straggler"], name + ": the straggler is the most often last")
    # the stats' wait column is the wait patterns summed
    tot = {}
    for p in wt["patterns"]:
        for r in p["by_loc"]:
            tot[str(r["loc"])] = tot.get(str(r["loc"]), 0) + r["ns"]
    check(nonzero({k: per[k]["wait_ns"] for k in per}) == tot, name + ": stats' wait = the sum of the wait patterns")
    # the makespan and the critical path
    check(cp["makespan_ns"] == ans["makespan_ns"], name + ": makespan",
          "%d != %d" % (cp["makespan_ns"], ans["makespan_ns"]))
    segs = cp["segments"]
    check(sum(s["dur"] for s in segs) == cp["length_ns"] == sum(x["ns"] for x in cp["by_loc"])
          == sum(x["ns"] for x in cp["by_name"]) and cp["length_ns"] <= cp["makespan_ns"],
          name + ": the path's segments, by location and by name add up to its length (<= makespan)")
    ordered = all(segs[i]["ts"] + segs[i]["dur"] <= segs[i + 1]["ts"] for i in range(len(segs) - 1))
    check(ordered, name + ": the path's segments in time order, not overlapping")
    if shape == "ring":
        top = cp["by_loc"][0]["loc"]
        comp = sum(s["dur"] for s in segs if s["loc"] == ans["straggler"] and s["name"] == "compute")
        check(top == ans["straggler"] and comp * 2 > cp["length_ns"],
              name + ": the critical path runs through the straggler's compute",
              "top %s, compute %d of %d" % (top, comp, cp["length_ns"]))
        check(cp["length_ns"] == cp["makespan_ns"], name + ": the path covers the makespan (no idle gap)")
    # the efficiencies from the same numbers
    eff = st["efficiency"]
    us = list(want_u.values())
    lb = (sum(us) / len(us)) / max(us)
    check(abs(eff["load_balance"] - lb) < 1e-6, name + ": load balance = mean useful / max useful",
          "%s vs %s" % (eff["load_balance"], lb))
    check(abs(eff["communication_efficiency"] - max(us) / ans["makespan_ns"]) < 1e-6,
          name + ": communication efficiency = max useful / window")

print("answers: %d passed, %d failed" % (PASS, FAIL))
sys.exit(1 if FAIL else 0)
