#!/usr/bin/env python3
"""chrome_ref.py — an independent model of how tnav reads a Chrome Trace
Event file (doc/FORMAT.md, "Chrome Trace Event JSON"), written from the
documented rules with Python's own JSON parser, to compare with
`tnav stats --json`.

usage: chrome_ref.py TRACE.json STATS.json [FLOWS.csv]
FLOWS.csv: `tnav filter -o csv --fields kind,name,from_slice,to_slice` of
the messages, sends and receives, compared with the slices the model binds
the flows' ends to.
Prints what differs and exits 1, or prints one summary line and exits 0.
"""
import bisect
import csv
import json
import sys
from decimal import Decimal, ROUND_HALF_UP


def load_events(path):
    text = open(path, encoding="utf-8").read()
    try:
        doc = json.loads(text)
    except json.JSONDecodeError:
        # the format allows a cut-off array: "[ {...}, {...},"
        t = text.rstrip()
        if t.endswith(","):
            t = t[:-1]
        doc = json.loads(t + "]")
    return doc["traceEvents"] if isinstance(doc, dict) else doc


def ns(v):
    d = Decimal(str(v)) * 1000
    return int(d.to_integral_value(rounding=ROUND_HALF_UP))


def text(v):
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return v
    return json.dumps(v)


# a row: [kind, alive, ts, dur, thread, name, slice?, bind, from, to]
KIND, ALIVE, TS, DUR, THR, NAME, SLICE, BIND, FROM, TO = range(10)


def model(events):
    rows = []
    cands = []         # (key, ts, seq, role, row, name)
    rejected = 0
    seq = 0
    cur = {}

    def row(kind, slice_=False, dur=0, bind=None):
        rows.append([kind, True, cur["ts"], dur, cur["thr"], cur["name"], slice_, bind, None, None])
        return len(rows) - 1

    for ev in events:
        if not isinstance(ev, dict):
            rejected += 1
            continue
        ph = ev.get("ph")
        if not isinstance(ph, str) or not ph:
            rejected += 1
            continue
        if ph == "M":
            continue
        if "ts" not in ev:
            rejected += 1
            continue
        ts = ns(ev["ts"])
        pid, tid = text(ev.get("pid", 0)), text(ev.get("tid"))
        name = ev.get("name")
        cur.update(ts=ts, thr=(pid, tid if "tid" in ev else None), name=name)
        p = ph if len(ph) == 1 else "?"
        if p == "X":
            d = ev.get("dur", ev.get("tdur", 0))
            row("state", True, ns(d) if isinstance(d, (int, float)) and not isinstance(d, bool) else 0)
            fin, fout = ev.get("flow_in") is True, ev.get("flow_out") is True
            fid = ev.get("bind_id", ev.get("id"))
            if (fin or fout) and fid is not None:
                key = "F" + text(fid)
                # (the X is the bound slice itself)
                if fin:
                    seq += 1
                    cands.append((key, ts, seq, "f", row("recv", bind=name), name))
                if fout:
                    seq += 1
                    cands.append((key, ts, seq, "s", row("send", bind=name), name))
        elif p in "BE":
            seq += 1
            cands.append(("T" + pid + "\x1f" + tid, ts, seq, "b" if p == "B" else "e", row("state", p == "B"), name))
        elif p in "beSF":
            id2 = ev.get("id2") or {}
            key = "A" + (pid if "local" in id2 else "") + "\x1f" + text(ev.get("cat")) + "\x1f" + text(ev.get("id")) + \
                "\x1f" + text(id2.get("local")) + "\x1f" + text(id2.get("global")) + "\x1f" + text(ev.get("scope"))
            seq += 1
            cands.append((key, ts, seq, "b" if p in "bS" else "e", row("state"), name))
        elif p in "stf":
            id2 = ev.get("id2") or {}
            key = "F" + text(ev.get("id")) + "\x1f" + text(id2.get("local")) + "\x1f" + text(id2.get("global"))
            # the start and steps bind to the enclosing slice, the finish to
            # the next (to the enclosing with bp "e")
            bind = "next" if p == "f" and ev.get("bp") != "e" else "encl"
            if p != "s":
                seq += 1
                cands.append((key, ts, seq, "f", row("recv", bind=(bind,)), name))
            if p != "f":
                seq += 1
                cands.append((key, ts, seq, "s", row("send", bind=(bind,)), name))
        elif p == "C":
            for k, v in (ev.get("args") or {}).items():
                if isinstance(v, (int, float)) and not isinstance(v, bool):
                    row("counter")
        else:
            row("mark")
    # pairing: per key, in (time, file order)
    msgs = 0
    unclosed = []      # B rows never closed
    hops = []          # (start row, finish row)
    groups = {}
    for c in cands:
        groups.setdefault(c[0], []).append(c)
    for key, cs in groups.items():
        cs.sort(key=lambda c: (c[1], c[2]))
        open_, flows = [], []
        for c in cs:
            role = c[3]
            if role == "b":
                open_.append(c)
            elif role == "e":
                at = len(open_) - 1 if open_ else None
                if open_ and key.startswith("A") and c[5] is not None:
                    at = None
                    for j in range(len(open_) - 1, -1, -1):
                        if open_[j][5] == c[5]:
                            at = j
                            break
                if at is not None:
                    b = open_.pop(at)
                    rows[b[4]][DUR] = c[1] - b[1]
                else:
                    rejected += 1
                rows[c[4]][1] = False
            elif role == "s":
                flows.append(c)
            elif role == "f":
                if flows:
                    s = flows.pop()
                    rows[s[4]][0] = "msg"
                    rows[s[4]][DUR] = c[1] - s[1]
                    rows[c[4]][1] = False
                    hops.append((s[4], c[4]))
                    msgs += 1
        for b in open_:
            unclosed.append(b[4])
    kinds = {}
    for r in rows:
        if r[ALIVE]:
            kinds[r[KIND]] = kinds.get(r[KIND], 0) + 1
    flows = bind_flows(rows, hops, unclosed)
    return sum(kinds.values()), rejected, kinds, msgs, flows


def bind_flows(rows, hops, unclosed):
    """the slices flow ends bind to; (kind, name, from_slice, to_slice) of
    each message, lone send and lone receive"""
    # a slice still open at the end closes at the file's last time
    if unclosed:
        last = max(r[TS] + max(r[DUR], 0) for r in rows if r[ALIVE])
        for i in unclosed:
            rows[i][DUR] = max(last - rows[i][TS], 0)
    threads = {}
    for i, r in enumerate(rows):
        if r[ALIVE] and r[SLICE] and r[KIND] == "state":
            threads.setdefault(r[THR], []).append((r[TS], r[TS] + max(r[DUR], 0), i))
    starts = {}
    for t, sl in threads.items():
        sl.sort()
        starts[t] = [x[0] for x in sl]

    def name_of(i):
        r = rows[i]
        if not isinstance(r[BIND], tuple):
            return r[BIND]     # an X's own name (or none)
        sl, st = threads.get(r[THR], []), starts.get(r[THR], [])
        t = r[TS]
        if r[BIND][0] == "next":
            # the first to begin at or after t; of several, the longest, then the first in the file
            j = bisect.bisect_left(st, t)
            if j == len(sl):
                return None
            best = min((x for x in sl[j:] if x[0] == sl[j][0]), key=lambda x: (-x[1], x[2]))
            return rows[best[2]][NAME]
        # the innermost enclosing: of those with start <= t <= end, the last
        # to begin, then the shortest, then the last in the file
        best = None
        for x in sl[:bisect.bisect_right(st, t)]:
            if x[1] >= t and (best is None or (x[0], -x[1], x[2]) > (best[0], -best[1], best[2])):
                best = x
        return rows[best[2]][NAME] if best else None

    paired = set()
    out = []
    for s, f in hops:
        paired.update((s, f))
        out.append(("msg", rows[s][NAME], name_of(s), name_of(f)))
    for i, r in enumerate(rows):
        if r[ALIVE] and r[KIND] in ("send", "recv") and i not in paired:
            nm = name_of(i)
            out.append((r[KIND], r[NAME], nm if r[KIND] == "send" else None, nm if r[KIND] == "recv" else None))
    return sorted((k, text(n), text(a), text(b)) for k, n, a, b in out)


def main():
    trace, stats = sys.argv[1], sys.argv[2]
    events, rejected, kinds, msgs, flows = model(load_events(trace))
    st = json.load(open(stats))
    got_msgs = sum(m["count"] for m in st["messages"])
    bad = []
    if st["events"] != events:
        bad.append(f"events: tnav {st['events']}, model {events}")
    if st["rejected"] != rejected:
        bad.append(f"rejected: tnav {st['rejected']}, model {rejected}")
    if st["kinds"] != kinds:
        bad.append(f"kinds: tnav {st['kinds']}, model {kinds}")
    if got_msgs != msgs:
        bad.append(f"messages: tnav {got_msgs}, model {msgs}")
    nbound = 0
    if len(sys.argv) > 3:
        with open(sys.argv[3], newline="") as f:
            rd = csv.reader(f)
            next(rd, None)
            got = sorted(tuple(r) for r in rd)
        nbound = sum(1 for x in flows for y in x[2:] if y)
        if got != flows:
            diff = sorted(set(got) ^ set(flows))[:3]
            bad.append(f"flows' slices: tnav {len(got)} rows, model {len(flows)}; "
                       + "; ".join(("tnav " if x in got else "model ") + ",".join(x) for x in diff))
    if bad:
        print("\n".join(bad))
        sys.exit(1)
    print(f"{events} events, {rejected} rejected, {msgs} messages ({nbound} ends bound to slices), kinds {kinds}")


if __name__ == "__main__":
    main()
