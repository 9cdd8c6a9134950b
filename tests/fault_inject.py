#!/usr/bin/env python3
"""Fault injection in the spirit of SQLite's: for each command on small
traces, make the Nth allocation fail for every N (TNAV_FAULT_ALLOC=N), and
the output fail after N bytes (RLIMIT_FSIZE, the error a full disk gives),
and check every time:

  * allocation: exit 3 and one line "tnav: out of memory while PHASE" on
    stderr, or (N past the last allocation) exit 0 with the normal output;
    never a crash, a sanitizer report or a hang; an output file of
    convert -o is complete or absent (no temp file left beside it);
  * under ASan (--asan): no leak at the out-of-memory exit either — die_oom
    runs LeakSanitizer's check before _exit and exits 23 (TNAV_EXIT_LEAK)
    when it finds one — and the write failures too;
  * writes: exit 2 and a line saying why; an output file of convert -o is
    the old one, untouched, and no temp file is left;
  * the interface in a real terminal (tmux), for a bounded sample of N:
    exit 3 and the line, and the terminal given back (alternate screen off)
    — or, N past the start, the interface up and 'q' quits it (exit 0).

usage: fault_inject.py TNAV [--full] [--asan TNAV_ASAN]
Prints "ok - ..." / "not ok - ..." lines and "fault: P passed, F failed".
--full walks every N (make fuzz); otherwise every N up to 150, then a
geometric stride (make test).
"""
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

EXIT_LEAK = 23  # TNAV_EXIT_LEAK (src/base/util.h)

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
        if rc == EXIT_LEAK:
            problems.append("N=%d: LeakSanitizer found a leak at the out-of-memory exit: %s" % (n, err.strip()[-400:]))
        elif rc != 3:
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
        ok("%s: every allocation failure of %d (1..%d) ends with exit 3 and one line saying what was being done%s"
           % (label, runs, n - 1, ", no leak" if label.endswith("(asan)") else ""))


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


def tmux_suite(tnav, trace, samples, label):
    """the interface in tmux with the Nth allocation failing, for each N of
    samples: exit 3, the line, the alternate screen off; or the interface
    comes up (N past its start), 'q' quits it and it exits 0"""
    if not shutil.which("tmux"):
        print("skip - %s: tmux is not installed" % label)
        return
    problems = []
    seen = {"oom": 0, "up": 0}
    phases = []
    for n in samples:
        sock = "tnav-fi-%d-%d" % (os.getpid(), n)
        tm = ["tmux", "-L", sock]
        subprocess.run(tm + ["new-session", "-d", "-x", "100", "-y", "30", "sh"], env=env_for({}),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            def pane():
                return subprocess.run(tm + ["capture-pane", "-p"], capture_output=True, text=True).stdout

            def alt():
                return subprocess.run(tm + ["display", "-p", "#{alternate_on}"], capture_output=True,
                                      text=True).stdout.strip()
            t0 = time.time()
            while time.time() - t0 < 10 and not pane().strip():
                time.sleep(0.05)
            # (--no-session: a session saved by the run before would be
            # restored, and its note take the status line's help hint)
            subprocess.run(tm + ["send-keys", "TERM=xterm LC_ALL=C.UTF-8 TZ=UTC TNAV_FAULT_ALLOC=%d %s --no-session %s; "
                                 "echo rc=$?" % (n, tnav, trace), "Enter"])
            quit_sent = False
            t0 = time.time()
            while time.time() - t0 < 20:
                p = pane()
                if any(l.startswith("rc=") for l in p.splitlines()):
                    break
                if not quit_sent and alt() == "1" and "gantt: locations" in p:
                    subprocess.run(tm + ["send-keys", "q"])
                    quit_sent = True
                time.sleep(0.05)
            p, a = pane(), alt()
            rcs = [l for l in p.splitlines() if l.startswith("rc=")]
            if not rcs:
                problems.append("N=%d: no exit within 20 s" % n)
            elif rcs[-1] == "rc=3":
                seen["oom"] += 1
                ph = [l.split("while ", 1)[1] for l in p.splitlines() if "tnav: out of memory while " in l]
                if ph and ph[0] not in phases:
                    phases.append(ph[0])
                if "tnav: out of memory while " not in p or a != "0":
                    problems.append("N=%d: exit 3 but the terminal not given back (alternate screen %s) or no line: %r"
                                    % (n, a, p[-300:]))
            elif rcs[-1] == "rc=0" and quit_sent:
                seen["up"] += 1
                if a != "0":
                    problems.append("N=%d: quit, but the alternate screen is still on" % n)
            else:
                problems.append("N=%d: %s: %r" % (n, rcs[-1], p[-300:]))
        finally:
            subprocess.run(tm + ["kill-server"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if not seen["oom"]:
        problems.append("no N of %s failed: nothing was tested" % samples)
    if problems:
        bad("%s: %s" % (label, "; ".join(problems[:5])))
    else:
        ok("%s: for %d values of N (%s), %d out of memory (while %s) with the terminal given back and the line, "
           "%d came up and quit" % (label, len(samples), ",".join(map(str, samples)), seen["oom"], "; ".join(phases),
                                    seen["up"]))


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
        if asan and os.path.exists(asan):
            for cmd, label in cmds[:1] + cmds[3:4] + cmds[6:7]:
                write_suite(asan, cmd, tmp, False, label + " (asan)")
        # the interface in a terminal: a bounded sample (every N under --full
        # would take hours); from the first allocations to past the start
        samples = [1, 2, 5, 20, 80, 200, 300, 400, 450, 500, 550, 600, 650, 700, 1500, 10000]
        tmux_suite(tnav, ring, samples, "interface in tmux, out of memory at the Nth allocation")
    print("fault: %d passed, %d failed" % (PASS, FAIL))
    return 1 if FAIL else 0


if __name__ == "__main__":
    sys.exit(main())
