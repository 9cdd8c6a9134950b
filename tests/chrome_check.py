#!/usr/bin/env python3
"""tests/chrome_check.py CHROME.json CANON.csv [MESSAGES]

Checks that a Chrome Trace Event file written by `tnav convert -F chrome`
holds exactly the events of the canonical CSV that `tnav convert` wrote
from the same selection: valid JSON (the object form), one X/i/C event per
CSV row with the same time, duration (microseconds with the nanoseconds
as decimals, exact as text), name and kind; each event's process and
thread named by metadata with the row's location and activity; the other
fields in args; MESSAGES (if given) flows, as s/f pairs of equal ids.
Prints "chrome-check: N passed, N failed".
"""
import csv
import json
import sys
from collections import Counter
from decimal import Decimal

passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
        print("ok - " + what)
    else:
        failed += 1
        print("not ok - " + what)


def ns(v, origin):
    return int(Decimal(str(v)) * 1000) + origin


def main():
    jpath, cpath = sys.argv[1], sys.argv[2]
    nmsg = int(sys.argv[3]) if len(sys.argv) > 3 else None
    raw = open(jpath, "rb").read()
    try:
        doc = json.loads(raw.decode("utf-8"), parse_float=Decimal)
    except Exception as e:  # noqa: BLE001
        check(False, "valid UTF-8 JSON: %s" % e)
        return
    check(isinstance(doc, dict) and isinstance(doc.get("traceEvents"), list), "the object form with traceEvents")
    origin = int(doc.get("otherData", {}).get("tnav_origin_ns", "0"))
    evs = doc["traceEvents"]
    pname, tname = {}, {}
    for e in evs:
        if e["ph"] == "M" and e["name"] == "process_name":
            pname[e["pid"]] = e["args"]["name"]
        if e["ph"] == "M" and e["name"] == "thread_name":
            tname[(e["pid"], e["tid"])] = e["args"]["name"]
    rows = list(csv.DictReader(open(cpath, newline="", encoding="utf-8")))
    want = Counter()
    for r in rows:
        act = r.get("act") or r["loc"]
        dur = int(r["dur"]) if r.get("dur") else None
        want[(int(r["ts"]), dur, r.get("name") or r["kind"], r["kind"], r["loc"], act)] += 1
    got = Counter()
    bad_args = 0
    for e in evs:
        if e["ph"] not in ("X", "i", "C"):
            continue
        dur = ns(e["dur"], 0) if e["ph"] == "X" else None
        key = (ns(e["ts"], origin), dur, e["name"], e["cat"], str(pname.get(e["pid"])), str(tname.get((e["pid"], e["tid"]))))
        got[key] += 1
        if e["ph"] == "C" and set(e.get("args", {})) - {"value"}:
            bad_args += 1
    check(sum(got.values()) == len(rows), "one X/i/C event per event (%d, %d)" % (sum(got.values()), len(rows)))
    diff = (want - got) + (got - want)
    check(not diff, "the same times, durations, names, kinds, locations and activities%s" %
          ("" if not diff else ": e.g. " + repr(list(diff.items())[:3])))
    check(bad_args == 0, "counters carry their value only")
    # the other fields in args, on intervals and instants
    extra = [k for k in (rows[0].keys() if rows else []) if k not in ("ts", "dur", "loc", "act", "kind", "name", "value")]
    nargs = sum(1 for r in rows for k in extra if r.get(k) not in (None, "") and r["kind"] != "counter")
    gargs = sum(len(e.get("args", {})) for e in evs if e["ph"] in ("X", "i"))
    check(nargs == gargs, "every other field present is an arg (%d, %d)" % (gargs, nargs))
    if nmsg is not None:
        s = Counter(e["id"] for e in evs if e["ph"] == "s")
        f = Counter(e["id"] for e in evs if e["ph"] == "f")
        check(len(s) == nmsg and s == f and all(v == 1 for v in s.values()),
              "a flow per message (%d starts, %d ends, %d messages)" % (len(s), len(f), nmsg))


main()
print("chrome-check: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
