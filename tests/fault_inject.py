#!/usr/bin/env python3
"""Fault injection in the spirit of SQLite's: for each command on small
traces, make the Nth allocation fail for every N (TNAV_FAULT_ALLOC=N), and
the output fail after N bytes (RLIMIT_FSIZE, the error a full disk gives),
and check every time:

  * allocation: exit 3 and one line "tnav: out of memory while PHASE" on
    stderr, or (N past the last allocation) exit 0 with the normal output;
    never a crash, a sanitizer report or a hang; an output file of
    convert -o is complete or absent (no temp file left beside it);
  * writes: exit 2 and a line saying why; an output file of convert -o is
    the old one, untouched, and no temp file is left.

usage: fault_inject.py TNAV [--full] [--asan TNAV_ASAN]
Prints "ok - ..." / "not ok - ..." lines and "fault: P passed, F failed".
--full walks every N (make fuzz); otherwise every N up to 150, then a
geometric stride (make test).
"""
import os
import resource
import signal
import subprocess
import sys
import tempfile

PASS = 0
FAIL = 0


def ok(msg):
    global PASS
    PASS += 1
    print("ok - " + msg)


def bad(msg):
    global FAIL
    FAIL += 1
    print("not ok - " + msg)


def env_for(extra):
    e = dict(os.environ)
    for k in ("TNAV_THREADS", "TNAV_CHUNK_BYTES", "TNAV_TIMING", "TNAV_FAULT_OOM", "TNAV_FAULT_ALLOC"):
        e.pop(k, None)
    e.update({"TZ": "UTC", "LC_ALL": "C.UTF-8", "NO_COLOR": "1"})
    e.update(extra)
    return e


def run(argv, extra_env=None, fsize=None, stdout_path=None, cwd=None):
    def pre():
        if fsize is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    out = open(stdout_path, "wb") if stdout_path else subprocess.PIPE
    try:
        p = subprocess.run(argv, stdout=out, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                           env=env_for(extra_env or {}), preexec_fn=pre, timeout=60, cwd=cwd)
    finally:
        if stdout_path:
            out.close()
    so = open(stdout_path, "rb").read() if stdout_path else p.stdout
    return p.returncode, so, p.stderr.decode("utf-8", "replace")


def steps(full, limit=200000):
    n = 1
    while n < limit:
        yield n
        n = n + 1 if full or n < 150 else int(n * 1.07) + 1


def leftovers(d, name):
    return [f for f in os.listdir(d) if f.startswith(name + ".")]


def alloc_suite(tnav, cmd, tmp, full, label):
    """cmd: list with OUT as the placeholder of an output file (or None)"""
    outp = os.path.join(tmp, "out.dat")
    has_out = "OUT" in cmd
    argv = [tnav] + [outp if a == "OUT" else a for a in cmd]
    if has_out and os.path.exists(outp):
        os.unlink(outp)
    rc, want, err = run(argv)
    if rc != 0:
        bad("%s: the reference run failed (exit %d): %s" % (label, rc, err.strip()[:200]))
        return
    want_file = open(outp, "rb").read() if has_out else None
    problems = []
    runs = 0
    ended = False
    for n in steps(full):
        if has_out and os.path.exists(outp):
            os.unlink(outp)
        rc, out, err = run(argv, {"TNAV_FAULT_ALLOC": str(n)})
        runs += 1
        lines = [l for l in err.splitlines() if l]
        if rc == 0:
            got = open(outp, "rb").read() if has_out and os.path.exists(outp) else None
            if not label.startswith("interface") and ((has_out and got != want_file) or (not has_out and out != want)):
                problems.append("N=%d: exit 0 but a different output" % n)
            ended = True
            break
        if rc != 3:
            problems.append("N=%d: exit %d (expected 3): %s" % (n, rc, err.strip()[:300]))
        elif len(lines) != 1 or not lines[0].startswith("tnav: out of memory while "):
            problems.append("N=%d: stderr is not one 'out of memory while' line: %r" % (n, err[:300]))
        if has_out and (os.path.exists(outp) or leftovers(tmp, "out.dat")):
            problems.append("N=%d: an output or temp file was left: %s" % (n, os.listdir(tmp)))
        if len(problems) > 5:
            break
    if ended and n == 1:
        problems.append("TNAV_FAULT_ALLOC=1 did not fail: this binary does not inject faults")
    if not ended and not problems:
        problems.append("still failing after N=%d: the command never completed" % n)
    if problems:
        bad("%s: allocation failures (%d runs): %s" % (label, runs, "; ".join(problems[:5])))
    else:
        ok("%s: every allocation failure of %d (1..%d) ends with exit 3 and one line saying what was being done"
           % (label, runs, n - 1))


def write_suite(tnav, cmd, tmp, full, label):
    outp = os.path.join(tmp, "out.dat")
    has_out = "OUT" in cmd
    argv = [tnav] + [outp if a == "OUT" else a for a in cmd]
    if has_out and os.path.exists(outp):
        os.unlink(outp)
    rc, want, err = run(argv)
    if rc != 0:
        bad("%s: the reference run failed (exit %d)" % (label, rc))
        return
    size = os.path.getsize(outp) if has_out else len(want)
    if size == 0:
        bad("%s: no output to cut" % label)
        return
    sizes = sorted(set([0, 1, 2, 100, 4095, 4096, 4097, size // 2, max(size - 1, 0)]))
    if full:
        sizes = sorted(set(sizes + list(range(0, size, max(1, size // 200)))))
    sizes = [s for s in sizes if s < size]
    problems = []
    stdout_file = os.path.join(tmp, "stdout.dat")
    for lim in sizes:
        if has_out:
            with open(outp, "wb") as f:
                f.write(b"old contents\n")
        rc, out, err = run(argv, fsize=lim, stdout_path=None if has_out else stdout_file)
        lines = [l for l in err.splitlines() if l]
        if rc != 2:
            problems.append("cut at %d B: exit %d (expected 2): %s" % (lim, rc, err.strip()[:200]))
        elif not lines or not ("cannot write" in lines[-1] or "File too large" in lines[-1]):
            problems.append("cut at %d B: no line saying why: %r" % (lim, err[:200]))
        if has_out:
            if open(outp, "rb").read() != b"old contents\n":
                problems.append("cut at %d B: the old output was replaced or damaged" % lim)
            if leftovers(tmp, "out.dat"):
                problems.append("cut at %d B: a temp file was left: %s" % (lim, leftovers(tmp, "out.dat")))
        if len(problems) > 5:
            break
    if problems:
        bad("%s: write failures: %s" % (label, "; ".join(problems[:5])))
    else:
        ok("%s: an output cut at any of %d sizes (0..%d B of %d) is exit 2 with a reason%s"
           % (label, len(sizes), sizes[-1], size, ", the old file intact, no temp file" if has_out else ""))


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__)
        return 2
    tnav = os.path.abspath(args[0])
    full = "--full" in args
    asan = None
    if "--asan" in args:
        asan = os.path.abspath(args[args.index("--asan") + 1])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ring = os.path.join(root, "sample-logs", "ring.csv")
    x10 = os.path.join(root, "sample-logs", "x10.ndjson")
    cmds = [
        (["stats", ring], "stats"),
        (["stats", "--json", "-f", "name =~ /^MPI/ || act_any(kind == \"move\")", x10], "stats --json -f (regex, scope)"),
        (["check", ring], "check"),
        (["filter", "-o", "csv", "dur > 1us", ring], "filter -o csv"),
        (["render", "--width", "80", ring], "render density"),
        (["render", "--view", "gantt", "--width", "80", x10], "render gantt"),
        (["convert", "-o", "OUT", "-F", "chrome", ring], "convert -F chrome -o"),
        (["convert", "-o", "OUT", "-F", "csv", x10], "convert -o (csv)"),
        (["tui", "--bench-size", "100x30", "--bench-keys", "+ + Left 2 3 4 z", x10], "interface (headless keys)"),
    ]
    with tempfile.TemporaryDirectory(prefix="tnav-fault.") as tmp:
        for cmd, label in cmds:
            alloc_suite(tnav, cmd, tmp, full, label)
        if asan and os.path.exists(asan):
            # under the sanitizers, fewer points: each run costs more
            for cmd, label in cmds[:3] + cmds[6:7]:
                alloc_suite(asan, cmd, tmp, False, label + " (asan)")
        for cmd, label in cmds[:8]:
            write_suite(tnav, cmd, tmp, full, label)
    print("fault: %d passed, %d failed" % (PASS, FAIL))
    return 1 if FAIL else 0


if __name__ == "__main__":
    sys.exit(main())
