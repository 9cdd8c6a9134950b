/*
 * fuzz_filter.c — libFuzzer target for the filter compiler and VM.
 *
 * Owns: only this harness. Each input is a filter text (bytes, made a C
 * string at the first NUL). It is compiled against two stores built once
 * per process: a small trace with every kind of field (integer and string
 * labels, a moved activity, messages, sync groups, float, string and mixed
 * extra columns, more than one VM block of events) and an empty trace.
 * Invariants checked (abort() on a violation, after one line on stderr):
 *  - no crash, hang, leak or sanitizer report;
 *  - a compile error has a message and a span inside the text (line and
 *    column >= 1), and printing it works; when the syntax check alone
 *    fails, compiling fails too, with the same message;
 *  - a compiled filter runs; no bit beyond the last event is set; the
 *    counts after each stage never grow and the last one is the number of
 *    selected events;
 *  - running the same compiled filter again gives the same selection (key
 *    tables and scopes are cached or rebuilt correctly), and so does a
 *    fresh compile of the same text;
 *  - the bytecode listing can be printed.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "filters/filter.h"
#include "load/load.h"
#include "store/store.h"
#include "base/util.h"

static Store *g_store, *g_empty;
static FILE *g_null;

/* the trace: a hand-written head, then enough rows for several blocks */
static const char HEAD[] =
    "ts,dur,loc,act,kind,name,peer,bytes,id,tag,group,parent,value,n,host,ratio,mix\n"
    "0,50000,0,a1,state,main,,,,,,,,1,node-a,0.5,7\n"
    "1000,,0,a1,spawn,,1,,a2,,,,,2,node-a,,x\n"
    "2000,20000,1,a2,state,work,,,,,,a1,,3,node-b,1.5,2.5\n"
    "3000,,0,a1,send,MPI_Send,1,4096,m1,7,,,,4,node-a,,\n"
    "5000,300,1,a2,recv,MPI_Recv,0,4096,m1,7,,,,5,node-b,,\n"
    "6000,,1,a2,send,MPI_Send,2,100,m2,8,,,,6,node-b,,-3\n"
    "7000,12000,2,7,recv,MPI_Recv,1,100,m2,8,,,,7,node-c,2.25,\n"
    "8000,1500,0,a1,msg,put,3,1048576,,,,,,8,node-a,,\n"
    "9000,4000,0,a1,sync,MPI_Barrier,,,,,b1,,,9,node-a,,\n"
    "9500,11000,1,a2,sync,MPI_Barrier,,,,,b1,,,10,node-b,,\n"
    "10000,3500,2,7,sync,MPI_Barrier,,,,,b1,,,11,node-c,,\n"
    "14000,,3,,mark,checkpoint,,,,,,,,12,node-d,,\n"
    "15000,,3,,counter,goals,,,,,,,42,13,node-d,,\n"
    "16000,2000,2,7,move,at,3,512,,,,,,14,node-c,,\n"
    "18000,1000,3,7,state,remote,,,,,,,,15,node-d,,\n"
    "20000,800,n4,,io,\xc3\xa9" "crire,,64,,,,,,16,node-d,,\n"
    "21000,25000,1,a3,state,MPI_Wait,,,,,,a2,,17,node-b,3.0,\n"
    "22000,5000,2,7,sync,MPI_Barrier,,,,,b2,,,18,node-c,,\n"
    "23000,1000,3,,sync,MPI_Barrier,,,,,b2,,,19,node-d,,\n"
    "24000,,1,a3,end,,,,,,,,,20,node-b,,\n";

static Store *load_text(const char *text)
{
    char path[] = "/tmp/fuzz_filter-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) abort();
    FILE *f = fdopen(fd, "w");
    if (!f) abort();
    fputs(text, f);
    for (int i = 0; i < 2500; i++)
        fprintf(f, "%d,%d,%d,t%d,%s,f%d,%d,%d,,%d,%s,,,%d,node-x,,%s\n", 30000 + i, i % 7 ? 100 + i % 50 : 0, i % 5,
                i % 3, i % 4 ? "state" : "send", i % 11, (i + 1) % 5, i * 3, i % 9, i % 100 == 0 ? "g9" : "",
                21 + i, i % 2 ? "y" : "");
    if (fclose(f) != 0) abort();
    LoadOpts o;
    load_opts_default(&o);
    o.quiet = true;
    o.threads = 1;
    char *paths[1] = {path};
    Store *s = NULL;
    LoadReport rep;
    int rc = load_traces(&o, paths, 1, &s, &rep);
    unlink(path);
    load_report_free(&rep);
    if (rc || !s) {
        fprintf(stderr, "fuzz_filter: the fixture does not load\n");
        abort();
    }
    return s;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    g_store = load_text(HEAD);
    g_empty = store_empty();
    g_null = fopen("/dev/null", "w");
    if (!g_null) abort();
    return 0;
}

static void check_error(const char *text, const FilterError *e)
{
    size_t n = strlen(text);
    if (!e->msg[0] || e->line < 1 || e->col < 1 || e->start < 0 || (size_t)e->start > n || e->end < e->start) {
        fprintf(stderr, "fuzz_filter: bad error (line %d col %d span %d-%d, '%s')\n", e->line, e->col, e->start,
                e->end, e->msg);
        abort();
    }
    filter_print_error(g_null, text, e);
}

static void run_one(const Store *s, const char *text)
{
    FilterError e1, e2;
    bool syntax = filter_syntax_ok(text, &e1);
    Filter *f = filter_compile(s, text, &e2);
    if (!f) {
        check_error(text, &e2);
        if (!syntax && strcmp(e1.msg, e2.msg) != 0) {
            fprintf(stderr, "fuzz_filter: syntax error '%s' but compile error '%s'\n", e1.msg, e2.msg);
            abort();
        }
        return;
    }
    if (!syntax) {
        fprintf(stderr, "fuzz_filter: the syntax check failed ('%s') but the filter compiled\n", e1.msg);
        abort();
    }
    size_t nw = (s->n + 63) / 64 + 1;
    uint64_t *a = xcalloc(nw, 8), *b = xcalloc(nw, 8), *c = xcalloc(nw, 8);
    int ns = filter_nstages(f);
    uint64_t *counts = xcalloc((size_t)ns + 1, 8);
    filter_run(f, a, counts);
    filter_run(f, b, NULL);
    uint64_t pop = 0;
    for (size_t w = 0; w < nw; w++) pop += popcount64(a[w]);
    if (s->n % 64 && (a[s->n / 64] >> (s->n % 64))) {
        fprintf(stderr, "fuzz_filter: bits beyond the last event\n");
        abort();
    }
    if (a[nw - 1] && (s->n + 63) / 64 < nw) {
        fprintf(stderr, "fuzz_filter: a word beyond the selection was written\n");
        abort();
    }
    for (int i = 0; i < ns; i++)
        if ((i && counts[i] > counts[i - 1]) || counts[i] > s->n) {
            fprintf(stderr, "fuzz_filter: stage counts grow\n");
            abort();
        }
    if (ns && counts[ns - 1] != pop) {
        fprintf(stderr, "fuzz_filter: last stage count %llu != %llu selected\n", (unsigned long long)counts[ns - 1],
                (unsigned long long)pop);
        abort();
    }
    if (memcmp(a, b, nw * 8) != 0) {
        fprintf(stderr, "fuzz_filter: a second run selects differently\n");
        abort();
    }
    filter_disasm(f, g_null);
    filter_free(f);
    Filter *g = filter_compile(s, text, &e2);
    if (!g) {
        fprintf(stderr, "fuzz_filter: a second compile failed\n");
        abort();
    }
    filter_run(g, c, NULL);
    if (memcmp(a, c, nw * 8) != 0) {
        fprintf(stderr, "fuzz_filter: a fresh compile selects differently\n");
        abort();
    }
    filter_free(g);
    free(a);
    free(b);
    free(c);
    free(counts);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096) return 0; /* longer filters add nothing but time */
    char *text = xmalloc(size + 1);
    memcpy(text, data, size);
    text[size] = 0;
    run_one(g_store, text);
    run_one(g_empty, text);
    free(text);
    return 0;
}
