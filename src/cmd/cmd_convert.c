/*
 * cmd_convert.c — `tnav convert -o OUT [-F csv|ndjson|chrome] TRACE...`:
 * the events of a trace (those --filter selects, and with --from/--to
 * those that meet the window) written to a file in canonical CSV or
 * NDJSON, or as Chrome Trace Event JSON for Perfetto and chrome://tracing.
 *
 * Owns: nothing beyond one command's run.
 * Invariants: OUT is written through a temp file renamed into place, so it
 * is complete or untouched (a failed write removes the temp file and
 * exits 2); `-o -` writes standard output; an input file is never the
 * output; events are written in time order, each once; an interval meets
 * the window [from, to) when it starts before `to` and ends after `from`,
 * an instant when from <= ts < to (intervals are kept whole, not clipped).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "emit.h"
#include "emit_chrome.h"
#include "filters/filter.h"
#include "store/store.h"
#include "base/out.h"
#include "base/util.h"

typedef enum { OUT_CSV, OUT_NDJSON, OUT_CHROME } OutFormat;

static void convert_usage(FILE *f)
{
    fputs("usage: tnav convert -o OUT [-F csv|ndjson|chrome] [-f EXPR] [--from T] [--to T]\n"
          "                    [--fields F,...] TRACE...\n"
          "Write the events of TRACE (those EXPR selects; with --from/--to those that meet\n"
          "the window, intervals kept whole) to OUT, in time order: canonical CSV or NDJSON\n"
          "(as tnav filter writes them), or Chrome Trace Event JSON for Perfetto and\n"
          "chrome://tracing. -F defaults from OUT's extension (.csv, .ndjson/.jsonl,\n"
          ".json); OUT '-' is standard output. OUT appears complete or not at all.\n"
          "Times for --from/--to: from the trace's start (10ms, 1.5s) or RFC 3339.\n",
          f);
}

static bool ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcasecmp(s + a - b, suf);
}

/* the events of sel that meet [t0, t1), as a new bitmap */
static uint64_t *window_sel(const Store *s, const uint64_t *sel, int64_t t0, int64_t t1)
{
    size_t nw = (s->n + 63) / 64;
    uint64_t *w = xcalloc(nw + 1, 8);
    for (size_t e = 0; e < s->n; e++) {
        if (sel && !((sel[e >> 6] >> (e & 63)) & 1)) continue;
        int64_t a = s->ts[e];
        bool in = (s->flags[e] & EVF_DUR) && s->dur[e] > 0 ? a < t1 && ev_end(s, e) > t0 : a >= t0 && a < t1;
        if (in) w[e >> 6] |= 1ULL << (e & 63);
    }
    return w;
}

/* the same file (device and inode) */
static bool same_file(const char *a, const char *b)
{
    struct stat x, y;
    return stat(a, &x) == 0 && stat(b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

int cmd_convert(int argc, char **argv, int first)
{
    CliArgs a;
    memset(&a, 0, sizeof a);
    static const char *const opts[] = {"-o", "--output", "-F", "--to-format", "--from", "--to", "--fields", NULL};
    a.extra_opts = opts;
    int r = cli_parse("convert", argc, argv, first, &a);
    if (r) return r;
    if (a.help) {
        convert_usage(stdout);
        cli_free(&a);
        return fflush(stdout) == 0 ? 0 : 2;
    }
    const char *out = cli_extra(&a, "-o");
    if (!out) out = cli_extra(&a, "--output");
    const char *fs = cli_extra(&a, "-F");
    if (!fs) fs = cli_extra(&a, "--to-format");
    OutFormat fmt = OUT_CSV;
    char q[ARG_QUOTE_BUF];
#define BAD(...)                                                                                                       \
    do {                                                                                                               \
        fprintf(stderr, "tnav convert: " __VA_ARGS__);                                                                 \
        fputc('\n', stderr);                                                                                           \
        cli_free(&a);                                                                                                  \
        return 2;                                                                                                      \
    } while (0)
    if (!out) BAD("no output given: tnav convert -o OUT [-F csv|ndjson|chrome] TRACE...");
    if (a.nfiles == 0) BAD("no trace file given");
    if (fs) {
        if (!strcmp(fs, "csv")) fmt = OUT_CSV;
        else if (!strcmp(fs, "ndjson")) fmt = OUT_NDJSON;
        else if (!strcmp(fs, "chrome") || !strcmp(fs, "json")) fmt = OUT_CHROME;
        else BAD("-F must be csv, ndjson or chrome, not '%s'", arg_quote(fs, q));
    } else if (ends_with(out, ".ndjson") || ends_with(out, ".jsonl")) {
        fmt = OUT_NDJSON;
    } else if (ends_with(out, ".json")) {
        fmt = OUT_CHROME;
    } else if (!ends_with(out, ".csv") && strcmp(out, "-") != 0) {
        BAD("cannot tell the output format from '%s': give -F csv, ndjson or chrome", arg_quote(out, q));
    }
    if (fmt == OUT_CHROME && cli_extra(&a, "--fields")) BAD("--fields is for -F csv and ndjson");
    if (strcmp(out, "-") != 0)
        for (int i = 0; i < a.nfiles; i++)
            if (same_file(out, a.files[i])) BAD("the output '%s' is an input: tnav never writes over a trace", arg_quote(out, q));
#undef BAD
    const char *from = cli_extra(&a, "--from"), *to = cli_extra(&a, "--to");
    Session ss;
    r = session_open("convert", &a, &ss);
    if (r) {
        cli_free(&a);
        return r;
    }
    const Store *s = ss.s;
    int64_t t0, t1;
    r = cli_window_of("convert", from, to, s, &t0, &t1);
    Emitter em;
    memset(&em, 0, sizeof em);
    char err[300];
    if (!r && fmt != OUT_CHROME &&
        !emitter_init(&em, s, fmt == OUT_CSV ? EMIT_CSV : EMIT_NDJSON, cli_extra(&a, "--fields"), err, sizeof err)) {
        fprintf(stderr, "tnav convert: %s\n", err);
        r = 2;
    }
    if (r) {
        session_close(&ss);
        cli_free(&a);
        return r;
    }
    uint64_t *sel = ss.sel, *wsel = NULL;
    if (from || to) sel = wsel = window_sel(s, ss.sel, t0, t1);
    /* the output */
    AtomicFile af;
    memset(&af, 0, sizeof af);
    FILE *f = stdout;
    if (strcmp(out, "-") != 0) {
        if (!atomic_open(&af, out, false)) {
            fprintf(stderr, "tnav convert: cannot write '%s': %s\n", arg_quote(out, q), strerror(errno));
            free(wsel);
            if (fmt != OUT_CHROME) emitter_free(&em);
            session_close(&ss);
            cli_free(&a);
            return 2;
        }
        f = af.f;
    }
    static char buf[1 << 16];
    setvbuf(f, buf, _IOFBF, sizeof buf);
    size_t nv;
    uint32_t *v = events_in_time_order(s, sel, &nv);
    if (fmt == OUT_CHROME) {
        ChromeOut co;
        chrome_begin(f, &co, s, sel);
        for (size_t i = 0; i < nv; i++) chrome_event(f, &co, v[i]);
        chrome_flows(f, &co);
        chrome_end(f, &co);
    } else {
        emit_header(f, &em);
        for (size_t i = 0; i < nv; i++) emit_event(f, &em, v[i]);
        emitter_free(&em);
    }
    xfree_big(v, (nv + 1) * sizeof(uint32_t));
    bool ok = !ferror(f);
    if (f == stdout) {
        ok = fflush(stdout) == 0 && ok; /* (main says why) */
    } else {
        bool in_place = af.tmp == NULL; /* (a device or a pipe) */
        if (!atomic_commit(&af, ok)) {
            fprintf(stderr, "tnav convert: cannot write '%s': %s%s\n", arg_quote(out, q), strerror(errno),
                    in_place ? "" : " (nothing written)");
            ok = false;
        }
    }
    if (ok && f != stdout && !a.load.quiet)
        fprintf(stderr, "tnav convert: %zu events written to %s\n", nv, out);
    free(wsel);
    session_close(&ss);
    cli_free(&a);
    return ok ? 0 : 2;
}
