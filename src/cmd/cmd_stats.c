/*
 * cmd_stats.c — the `stats` command (the summary, as text or JSON; with
 * --bench the load timed instead, --runs times in this process) and the
 * `check` command (every record validated); see cli.h.
 *
 * Owns: nothing past a command's run. Invariants: every number comes from
 * the analyses (src/analysis/) the interface uses too; a usage error exits 2.
 */
#include "cli.h"

#include <inttypes.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"
#include "analysis/timecat.h"
#include "analysis/profile.h"
#include "filters/filter.h"
#include "store/store.h"
#include "base/timeparse.h"
#include "base/util.h"

static int bench_load1(CliArgs *a, int run)
{
    size_t rss0, hwm0;
    proc_mem(&rss0, &hwm0);
    double t0 = now_sec();
    Store *s;
    LoadReport rep;
    int r = load_traces(&a->load, a->files, a->nfiles, &s, &rep);
    if (r) {
        load_report_free(&rep);
        return r;
    }
    double t1 = now_sec();
    malloc_trim(0);
    size_t rss1, hwm1, per_event, dict;
    proc_mem(&rss1, &hwm1);
    store_mem(s, &per_event, &dict);
    uint64_t bytes = 0;
    for (int i = 0; i < rep.nfiles; i++) bytes += rep.files[i].bytes;
    double tot = t1 - t0;
    size_t n = s->n ? s->n : 1;
    printf("bench run=%d events=%zu bytes=%" PRIu64 " threads=%d parse_s=%.3f build_s=%.3f total_s=%.3f mb_per_s=%.1f "
           "events_per_s=%.0f rss_bytes=%zu peak_bytes=%zu dict_bytes=%zu store_bytes_per_event=%.1f "
           "rss_per_event_beyond_dict=%.1f\n",
           run, s->n, bytes, a->load.threads > 0 ? a->load.threads : cpu_count(), rep.t_parse, rep.t_build, tot,
           (double)bytes / 1e6 / tot, (double)s->n / tot, rss1, hwm1, dict, (double)per_event / (double)n,
           ((double)rss1 - (double)rss0 - (double)dict) / (double)n);
    store_free(s);
    load_report_free(&rep);
    fflush(stdout);
    return 0;
}

/* tnav stats --bench [--runs N]: N loads in this one process, one line
 * each (the second and later find memory this process already touched,
 * as DuckDB's runs in tests/bench_duckdb.js do) */
static int bench_load(CliArgs *a, int runs)
{
    for (int k = 1; k <= runs; k++) {
        int r = bench_load1(a, k);
        if (r) return r;
    }
    return 0;
}

int cmd_stats(int argc, char **argv, int first)
{
    CliArgs a;
    memset(&a, 0, sizeof a);
    static const char *const flags[] = {"--bench", NULL};
    static const char *const opts[] = {"--top", "--sort", "--from", "--to", "--comm-names", "--sync-names", "--runs", NULL};
    a.extra_flags = flags;
    a.extra_opts = opts;
    int r = cli_begin("stats", argc, argv, first, &a);
    if (r >= 0) return r;
    int top = 10;
    ProfSort by = PS_SELF;
    const char *sort_s = cli_extra(&a, "--sort");
    if (cli_top("stats", &a, &top)) {
        cli_free(&a);
        return 2;
    }
    int loc_sort = -1;
    if (sort_s && !profile_sort_by_name(sort_s, &by) && !stats_loc_col_by_name(sort_s, &loc_sort)) {
        cli_free(&a);
        return cli_usage_error("stats",
                    "--sort must be a profile column (self, total, calls, mean, min, max, stddev, name) or a location column "
                    "(useful, comm, sync, wait, idle, events, sent, received), not '%s'",
                    sort_s);
    }
    const char *runs_s = cli_extra(&a, "--runs");
    int64_t runs = 1;
    if (runs_s && !cli_flag(&a, "--bench")) {
        cli_free(&a);
        return cli_usage_error("stats", "%s", "--runs goes with --bench (it repeats the timed load)");
    }
    if (runs_s && !parse_int_arg(runs_s, 1, 1000, &runs)) {
        cli_free(&a);
        return cli_usage_error("stats", "--runs must be a whole number 1..1000, not '%s'", runs_s);
    }
    if (cli_flag(&a, "--bench")) {
        r = bench_load(&a, (int)runs);
        cli_free(&a);
        return r;
    }
    Session ss;
    r = session_open("stats", &a, &ss);
    if (r) {
        cli_free(&a);
        return r;
    }
    int64_t t0, t1;
    r = cli_window("stats", &a, ss.s, &t0, &t1);
    TimeCatRules rules;
    char err[600];
    if (!r) {
        oom_phase("classifying the names");
        int tr = timecat_rules(ss.s, cli_extra(&a, "--comm-names"), cli_extra(&a, "--sync-names"),
                               filter_default_budget(), &rules, err, sizeof err);
        if (tr == TC_RULES_BAD_PATTERN) {
            r = cli_usage_error("stats", "%s", err);
        } else if (tr == TC_RULES_FAILED) {
            /* (as a filter's regex that failed or ran out of time: no partial answer) */
            fprintf(stderr, "tnav: %s\n", err);
            r = 2;
        }
    }
    if (r) {
        session_close(&ss);
        cli_free(&a);
        return r;
    }
    Stats st;
    oom_phase("computing the statistics");
    double ta = now_sec();
    stats_compute(ss.s, ss.sel, t0, t1, &rules, &st);
    timing_note("analysis %.3f s", now_sec() - ta);
    st.tc_comm = rules.comm;
    st.tc_sync = rules.sync;
    st.top = top;
    st.loc_sort = loc_sort;
    st.loc_top = cli_extra(&a, "--top") ? top : 0; /* (every location unless --top is given) */
    if (by != PS_SELF) profile_sort(ss.s, &st.prof, by);
    if (ss.f) {
        st.filter_text = a.filter;
        st.stage_counts = ss.stage_counts;
        st.nstages = filter_nstages(ss.f);
    }
    if (a.json) stats_print_json(stdout, ss.s, &st, &ss.rep);
    else stats_print_text(stdout, ss.s, &st, &ss.rep);
    stats_free(&st);
    timecat_rules_free(&rules);
    session_close(&ss);
    cli_free(&a);
    return fflush(stdout) == 0 ? 0 : 2;
}

int cmd_check(int argc, char **argv, int first)
{
    CliArgs a;
    memset(&a, 0, sizeof a);
    int r = cli_begin("check", argc, argv, first, &a);
    if (r >= 0) return r;
    if (a.filter) {
        cli_free(&a);
        return cli_usage_error("check", "%s", "check takes no filter: it validates every record");
    }
    a.load.keep_all_rejects = true;
    a.load.max_report = 0; /* listed below, on stdout */
    a.load.report = NULL;
    bool strict = a.load.strict;
    a.load.strict = false;
    Store *s;
    LoadReport rep;
    r = load_traces(&a.load, a.files, a.nfiles, &s, &rep);
    if (r) {
        load_report_free(&rep);
        cli_free(&a);
        return r;
    }
    for (size_t i = 0; i < rep.nrej_kept; i++)
        printf("%s:%" PRIu64 ": %s\n", rep.files[rep.rej[i].file].path, rep.rej[i].line, rep.rej[i].reason);
    uint64_t events = 0, blank = 0, comments = 0, skipped = 0;
    for (int i = 0; i < rep.nfiles; i++) {
        events += rep.files[i].events;
        skipped += rep.files[i].skipped;
        blank += rep.files[i].blank;
        comments += rep.files[i].comments;
    }
    printf("%" PRIu64 " events loaded, %" PRIu64 " rejected, %" PRIu64 " blank records skipped", events, rep.rejected,
           blank);
    if (comments) printf(", %" PRIu64 " comment line%s skipped", comments, comments == 1 ? "" : "s");
    if (skipped) printf(", %" PRIu64 " record%s of other kinds skipped (--only-kind)", skipped, skipped == 1 ? "" : "s");
    printf("\n");
    const char *err = store_check(s);
    if (err) printf("internal error: store invariant broken: %s\n", err);
    if (s->unmatched_send || s->unmatched_recv)
        printf("note: %" PRIu64 " sends and %" PRIu64 " receives have no matching other end\n", s->unmatched_send,
               s->unmatched_recv);
    for (size_t i = 0; i < rep.nloose_kept; i++)
        printf("note: %s:%" PRIu64 ": %s\n", rep.files[rep.loose[i].file].path, rep.loose[i].line, rep.loose[i].reason);
    if (rep.unpaired_ends)
        printf("note: %" PRIu64 " end%s of --pair with no open begin, kept as %s\n", rep.unpaired_ends,
               rep.unpaired_ends == 1 ? "" : "s", rep.unpaired_ends == 1 ? "it is" : "they are");
    for (int i = 0; i < rep.nfiles; i++)
        if (rep.files[i].incomplete_tail)
            printf("note: %s: the last line has no newline and does not parse (file still being written?)\n",
                   rep.files[i].path);
    bool cut = false;
    for (int i = 0; i < rep.nfiles; i++) cut |= rep.files[i].incomplete_tail;
    int rc = rep.rejected || err || (cut && events == 0) ? 1 : 0;
    if (cut && events == 0 && !rep.rejected) printf("nothing loaded: the only record is the incomplete last line\n");
    (void)strict;
    store_free(s);
    load_report_free(&rep);
    cli_free(&a);
    return rc;
}
