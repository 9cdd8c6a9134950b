/*
 * cmd_filter.c — `tnav filter`: the events a filter selects, in canonical
 * CSV or NDJSON and in time order; or their count (after each stage); or
 * the filter's bytecode listing; or a timing of the filter VM (--bench).
 *
 * Owns: nothing beyond one command's run.
 * Invariants: nothing is loaded or evaluated when the filter does not
 * compile (exit 2, caret under the culprit); the events written are
 * exactly the selection, each once, ordered by (ts, longer first, location
 * order).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "emit.h"
#include "filters/filter.h"
#include "store/store.h"
#include "base/util.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* tnav filter --bench: compile once, run the VM RUNS times on one thread */
static int bench_filter(Session *ss, const char *text, int runs)
{
    FilterError fe;
    double t0 = now_sec();
    Filter *f = filter_compile(ss->s, text, &fe);
    double t1 = now_sec();
    if (!f) {
        filter_print_error(stderr, text, &fe);
        return 2;
    }
    size_t nw = (ss->s->n + 63) / 64;
    uint64_t *sel = xcalloc(nw + 1, 8);
    double *ms = xmalloc((size_t)runs * sizeof(double));
    uint64_t count = 0;
    for (int i = 0; i < runs; i++) {
        double a = now_sec();
        if (filter_run(f, sel, NULL) != FILTER_OK) {
            fprintf(stderr, "tnav: %s\n", filter_run_error(f));
            free(ms);
            free(sel);
            filter_free(f);
            return 2;
        }
        ms[i] = (now_sec() - a) * 1e3;
    }
    count += bitmap_count(sel, nw);
    double firstms = ms[0];
    qsort(ms, (size_t)runs, sizeof(double), cmp_double);
    printf("bench filter events=%zu selected=%" PRIu64 " compile_ms=%.3f first_ms=%.3f best_ms=%.3f median_ms=%.3f "
           "runs=%d\n",
           ss->s->n, count, (t1 - t0) * 1e3, firstms, ms[0], ms[runs / 2], runs);
    free(ms);
    free(sel);
    filter_free(f);
    return 0;
}

int cmd_filter(int argc, char **argv, int first)
{
    CliArgs a;
    memset(&a, 0, sizeof a);
    static const char *const flags[] = {"--count", "--stages", "--disasm", "--bench", NULL};
    static const char *const opts[] = {"-o", "--output", "--runs", "--fields", NULL};
    a.extra_flags = flags;
    a.extra_opts = opts;
    int r = cli_parse("filter", argc, argv, first, &a);
    if (r) return r;
    if (a.help) {
        usage(stdout);
        cli_free(&a);
        return 0;
    }
    /* the filter: -f EXPR, else the first operand */
    char **all = a.files, **files = a.files;
    int nfiles = a.nfiles;
    if (!a.filter) {
        if (!nfiles) {
            cli_free(&a);
            return cli_usage_error("filter", "%s", "no filter given: tnav filter EXPR TRACE...");
        }
        a.filter = files[0];
        files++;
        nfiles--;
    }
    const char *o = cli_extra(&a, "-o");
    if (!o) o = cli_extra(&a, "--output");
    EmitFormat fmt = EMIT_CSV;
    if (o && !strcmp(o, "ndjson")) fmt = EMIT_NDJSON;
    else if (o && strcmp(o, "csv") != 0) {
        cli_free(&a);
        return cli_usage_error("filter", "-o must be csv or ndjson, not '%s'", o);
    }
    bool count = cli_flag(&a, "--count"), stages = cli_flag(&a, "--stages"), disasm = cli_flag(&a, "--disasm");
    FilterError fe;
    if (disasm && nfiles == 0) {
        /* the listing against an empty trace: canonical fields only */
        Store *s = store_empty();
        Filter *f = filter_compile(s, a.filter, &fe);
        if (!f) {
            filter_print_error(stderr, a.filter, &fe);
            r = 2;
        } else {
            filter_disasm(f, stdout);
            filter_free(f);
        }
        store_free(s);
        cli_free(&a);
        return r ? r : (fflush(stdout) == 0 ? 0 : 2);
    }
    if (nfiles == 0) {
        cli_free(&a);
        return cli_usage_error("filter", "%s", "no trace file given");
    }
    a.files = files;
    a.nfiles = nfiles;
    const char *text = a.filter;
    bool bench = cli_flag(&a, "--bench");
    int64_t runs = 10;
    const char *rs = cli_extra(&a, "--runs");
    if (rs && !parse_int_arg(rs, 1, 100000, &runs)) {
        r = cli_usage_error("filter", "--runs must be a whole number 1..100000, not '%s'", rs);
        goto out;
    }
    if (bench || disasm) a.filter = NULL; /* compiled below */
    Session ss;
    r = session_open("filter", &a, &ss);
    if (r) goto out;
    if (bench) {
        r = bench_filter(&ss, text, (int)runs);
        session_close(&ss);
        goto out;
    }
    if (disasm) {
        Filter *f = filter_compile(ss.s, text, &fe);
        if (!f) {
            filter_print_error(stderr, text, &fe);
            r = 2;
        } else {
            filter_disasm(f, stdout);
            filter_free(f);
        }
        session_close(&ss);
        goto out;
    }
    int ns = filter_nstages(ss.f);
    FILE *sf = count ? stdout : stderr;
    if (stages)
        for (int i = 0; i < ns; i++) fprintf(sf, "stage %d: %" PRIu64 "\n", i + 1, ss.stage_counts[i]);
    if (count) {
        printf("%" PRIu64 "\n", ss.nsel);
    } else {
        Emitter em;
        char err[300];
        if (!emitter_init(&em, ss.s, fmt, cli_extra(&a, "--fields"), err, sizeof err)) {
            fprintf(stderr, "tnav filter: %s\n", err);
            session_close(&ss);
            r = 2;
            goto out;
        }
        static char buf[1 << 16];
        setvbuf(stdout, buf, _IOFBF, sizeof buf);
        size_t nv;
        uint32_t *v = events_in_time_order(ss.s, ss.sel, &nv);
        emit_header(stdout, &em);
        for (size_t i = 0; i < nv; i++) emit_event(stdout, &em, v[i]);
        xfree_big(v, (nv + 1) * sizeof(uint32_t));
        emitter_free(&em);
    }
    session_close(&ss);
    if (fflush(stdout) != 0) r = 2;
out:
    a.files = all; /* (the whole list, and the paths cli_parse made) */
    cli_free(&a);
    return r;
}
