#!/usr/bin/env python3
"""chrome_ref.py — an independent model of how tnav reads a Chrome Trace
Event file (doc/FORMAT.md, "Chrome Trace Event JSON"), written from the
documented rules with Python's own JSON parser, to compare with
`tnav stats --json`.

usage: chrome_ref.py TRACE.json STATS.json
Prints what differs and exits 1, or prints one summary line and exits 0.
"""
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


def model(events):
    rows = []          # [kind, alive]
    cands = []         # (key, ts, seq, role, row, name)
    rejected = 0
    seq = 0

    def row(kind):
        rows.append([kind, True])
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
        p = ph if len(ph) == 1 else "?"
        if p == "X":
            row("state")
            fin, fout = ev.get("flow_in") is True, ev.get("flow_out") is True
            fid = ev.get("bind_id", ev.get("id"))
            if (fin or fout) and fid is not None:
                key = "F" + text(fid)
                if fin:
                    seq += 1
                    cands.append((key, ts, seq, "f", row("recv"), name))
                if fout:
                    seq += 1
                    cands.append((key, ts, seq, "s", row("send"), name))
        elif p in "BE":
            seq += 1
            cands.append(("T" + pid + "\x1f" + tid, ts, seq, "b" if p == "B" else "e", row("state"), name))
        elif p in "beSF":
            id2 = ev.get("id2") or {}
            key = "A" + (pid if "local" in id2 else "") + "\x1f" + text(ev.get("cat")) + "\x1f" + text(ev.get("id")) + \
                "\x1f" + text(id2.get("local")) + "\x1f" + text(id2.get("global")) + "\x1f" + text(ev.get("scope"))
            seq += 1
            cands.append((key, ts, seq, "b" if p in "bS" else "e", row("state"), name))
        elif p in "stf":
            id2 = ev.get("id2") or {}
            key = "F" + text(ev.get("id")) + "\x1f" + text(id2.get("local")) + "\x1f" + text(id2.get("global"))
            if p != "s":
                seq += 1
                cands.append((key, ts, seq, "f", row("recv"), name))
            if p != "f":
                seq += 1
                cands.append((key, ts, seq, "s", row("send"), name))
        elif p == "C":
            for k, v in (ev.get("args") or {}).items():
                if isinstance(v, (int, float)) and not isinstance(v, bool):
                    row("counter")
        else:
            row("mark")
    # pairing: per key, in (time, file order)
    msgs = 0
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
                    open_.pop(at)
                else:
                    rejected += 1
                rows[c[4]][1] = False
            elif role == "s":
                flows.append(c)
            elif role == "f":
                if flows:
                    s = flows.pop()
                    rows[s[4]][0] = "msg"
                    rows[c[4]][1] = False
                    msgs += 1
    kinds = {}
    for k, alive in rows:
        if alive:
            kinds[k] = kinds.get(k, 0) + 1
    return sum(kinds.values()), rejected, kinds, msgs


def main():
    trace, stats = sys.argv[1], sys.argv[2]
    events, rejected, kinds, msgs = model(load_events(trace))
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
    if bad:
        print("\n".join(bad))
        sys.exit(1)
    print(f"{events} events, {rejected} rejected, {msgs} messages, kinds {kinds}")


if __name__ == "__main__":
    main()
