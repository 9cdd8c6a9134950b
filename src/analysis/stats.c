/*
 * stats.c — trace summary; see stats.h for what is counted and how.
 */
#include "stats.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report.h"
#include "analysis/syncs.h"
#include "base/out.h"
#include "base/timeparse.h"
#include "base/util.h"

static inline bool selected(const uint64_t *sel, size_t e) { return !sel || ((sel[e >> 6] >> (e & 63)) & 1); }

static int pair_cmp(const void *a, const void *b)
{
    const PairStats *x = a, *y = b;
    if (x->src != y->src) return x->src < y->src ? -1 : 1;
    return x->dst < y->dst ? -1 : x->dst > y->dst;
}

void stats_compute(const Store *s, const uint64_t *sel, int64_t t0, int64_t t1, const TimeCatRules *rules, Stats *st)
{
    memset(st, 0, sizeof *st);
    st->loc = xcalloc((size_t)s->nloc + 1, sizeof(LocStats));
    st->kinds = xcalloc((size_t)K_USER + s->nukind + 1, sizeof(uint64_t));
    st->t_min = INT64_MAX;
    st->t_max = INT64_MIN;
    st->t0 = t0;
    st->t1 = t1;
    st->loc_sort = -1;
    st->windowed = t0 > s->t_min || t1 <= s->t_max;
    /* useful, comm and sync: self times (an interval without those inside
     * it), so that nested regions are not counted twice and a sync inside
     * a state is sync, not busy — the partition the interface draws */
    int64_t *child = profile_children(s, t0, t1);
    /* (events come by location: an activity counts once per location) */
    uint32_t *seen = xcalloc((size_t)s->nact + 1, sizeof *seen);
    for (size_t e = 0; e < s->n; e++) {
        if (!selected(sel, e)) continue;
        if (!ev_in_window(s, e, t0, t1)) continue;
        int64_t a = s->ts[e], b = ev_end(s, e);
        st->events++;
        st->loc[s->loc[e]].events++;
        if (seen[s->act[e]] != s->loc[e] + 1) {
            seen[s->act[e]] = s->loc[e] + 1;
            st->loc[s->loc[e]].acts++;
        }
        st->kinds[s->kind[e]]++;
        if (a < t0) a = t0;
        if (b > t1) b = t1;
        if (a < st->t_min) st->t_min = a;
        if (b > st->t_max) st->t_max = b;
    }
    timecat_compute(s, sel, t0, t1, rules, child, &st->tc);
    for (uint32_t l = 0; l < s->nloc; l++) {
        const LocTime *T = &st->tc.loc[l];
        LocStats *L = &st->loc[l];
        L->busy_ns = T->useful;
        L->comm_ns = T->comm;
        L->sync_ns = T->sync;
        L->wait_ns = T->wait;
        L->idle_ns = T->idle;
        L->sent_bytes = T->sent_bytes;
        L->recv_bytes = T->recv_bytes;
        L->sent_msgs = T->sent_msgs;
        L->recv_msgs = T->recv_msgs;
        int64_t W = st->tc.pop.window;
        L->util = W > 0 && L->acts ? (double)L->busy_ns / ((double)W * (double)L->acts) : 0;
    }
    free(seen);
    if (!st->events) st->t_min = st->t_max = 0;
    /* messages: hash (src, dst) -> pair */
    size_t cap = 64;
    while (cap < (size_t)s->nmsg * 2 && cap < ((size_t)1 << 30)) cap *= 2;
    uint32_t *slots = xcalloc(cap, sizeof(uint32_t));
    VEC(PairStats) pairs = {0};
    for (uint32_t m = 0; m < s->nmsg; m++) {
        const Message *M = &s->msgs[m];
        bool snd = M->send_ev != NONE32 && selected(sel, M->send_ev) && s->ts[M->send_ev] >= t0 && s->ts[M->send_ev] < t1;
        int64_t by = msg_bytes(s, M);
        if (by < 0) by = 0;
        /* the pair summary counts messages from their sending event (a send
         * or a msg record); a lone receive is not counted there */
        if (!snd || M->src == NONE32 || M->dst == NONE32) continue;
        st->nmsg++;
        uint64_t key = ((uint64_t)M->src << 32) | M->dst;
        size_t i = (size_t)hash_u64(key) & (cap - 1);
        for (;;) {
            uint32_t x = slots[i];
            if (!x) {
                PairStats p = {M->src, M->dst, 0, 0};
                VEC_PUSH(pairs, p);
                slots[i] = (uint32_t)pairs.len;
                x = slots[i];
            }
            PairStats *p = &pairs.v[x - 1];
            if (p->src == M->src && p->dst == M->dst) {
                p->count++;
                p->bytes = sat_add64(p->bytes, by);
                break;
            }
            i = (i + 1) & (cap - 1);
        }
    }
    free(slots);
    profile_compute_with(s, sel, child, t0, t1, &st->prof);
    free(child);
    st->top = 10;
    /* sync groups over the selection */
    st->filtered = sel != NULL;
    st->groups = xcalloc((size_t)s->ngroups + 1, sizeof(SyncGroup));
    uint32_t *mark_act = xmalloc(((size_t)s->nact + 1) * sizeof(uint32_t));
    uint32_t *mark_loc = xmalloc(((size_t)s->nloc + 1) * sizeof(uint32_t));
    memset(mark_act, 0xFF, ((size_t)s->nact + 1) * sizeof(uint32_t));
    memset(mark_loc, 0xFF, ((size_t)s->nloc + 1) * sizeof(uint32_t));
    /* (in a window: the groups' events in it) */
    uint64_t *wsel = st->windowed ? report_window_sel(s, sel, t0, t1) : NULL;
    for (uint32_t g = 0; g < s->ngroups; g++) {
        group_summarize(s, &s->groups[g], wsel ? wsel : sel, g, mark_act, mark_loc, &st->groups[g]);
        if (st->groups[g].nev) st->ngroups++;
    }
    free(wsel);
    free(mark_act);
    free(mark_loc);
    /* their wait and straggler: the sync instances' (syncs.h, the waits of
     * tnav waits), not the time spent in them */
    Syncs y;
    syncs_compute(s, sel, t0, t1, &y);
    for (uint32_t i = 0; i < y.ninst; i++) {
        SyncGroup *G = &st->groups[y.inst[i].group];
        G->wait_ns = y.inst[i].total_wait;
        G->last_ev = y.inst[i].last_ev;
        G->last_arrival = s->ts[G->last_ev];
    }
    syncs_free(&y);
    if (pairs.len) qsort(pairs.v, pairs.len, sizeof(PairStats), pair_cmp);
    st->pairs = pairs.v;
    st->npairs = pairs.len;
}

bool stats_loc_col_by_name(const char *name, int *out)
{
    static const char *const N[LC__N] = {"events", "useful", "comm", "sync", "wait", "idle", "sent", "received"};
    for (int i = 0; i < LC__N; i++)
        if (!strcmp(name, N[i]) || (i == LC_USEFUL && !strcmp(name, "busy"))) {
            *out = i;
            return true;
        }
    return false;
}

static int64_t loc_value(const LocStats *L, int c)
{
    switch (c) {
    case LC_EVENTS: return (int64_t)L->events;
    case LC_USEFUL: return L->busy_ns;
    case LC_COMM: return L->comm_ns;
    case LC_SYNC: return L->sync_ns;
    case LC_WAIT: return L->wait_ns;
    case LC_IDLE: return L->idle_ns;
    case LC_SENT: return L->sent_bytes;
    default: return L->recv_bytes;
    }
}

static _Thread_local const Stats *tl_st; /* (qsort has no context argument) */
static int loc_row_cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    int64_t vx = loc_value(&tl_st->loc[x], tl_st->loc_sort), vy = loc_value(&tl_st->loc[y], tl_st->loc_sort);
    if (vx != vy) return vx > vy ? -1 : 1;
    return x < y ? -1 : x > y;
}

void stats_free(Stats *st)
{
    free(st->loc);
    free(st->kinds);
    free(st->pairs);
    free(st->groups);
    profile_free(&st->prof);
    timecat_free(&st->tc);
    memset(st, 0, sizeof *st);
}

/* sync groups ordered by total wait, longest first (ties: first in time) */
static uint32_t *groups_by_wait(const Store *s, const SyncGroup *groups)
{
    uint32_t n = s->ngroups;
    uint32_t *ord = xmalloc(((size_t)n + 1) * sizeof(uint32_t)), *tmp = xmalloc(((size_t)n + 1) * sizeof(uint32_t));
    for (uint32_t i = 0; i < n; i++) ord[i] = i;
    for (uint32_t w = 1; w < n; w *= 2) {
        for (uint32_t a = 0; a < n; a += 2 * w) {
            uint32_t mid = a + w < n ? a + w : n, b = a + 2 * w < n ? a + 2 * w : n, i = a, j = mid, o = a;
            while (i < mid && j < b) {
                const SyncGroup *x = &groups[ord[i]], *y = &groups[ord[j]];
                bool ylt = y->wait_ns != x->wait_ns ? y->wait_ns > x->wait_ns : y->first_ts < x->first_ts;
                tmp[o++] = ylt ? ord[j++] : ord[i++];
            }
            while (i < mid) tmp[o++] = ord[i++];
            while (j < b) tmp[o++] = ord[j++];
        }
        uint32_t *t = ord;
        ord = tmp;
        tmp = t;
    }
    free(tmp);
    return ord;
}

static void json_ratio(FILE *f, const char *key, bool valid, double v)
{
    fprintf(f, ",\"%s\":", key);
    if (valid) fprintf(f, "%.6f", v);
    else fputs("null", f);
}

void stats_print_pop_json(FILE *f, const Stats *st)
{
    const Pop *P = &st->tc.pop;
    fprintf(f, "\"efficiency\":{\"window_ns\":%" PRId64 ",\"locations\":%u,\"max_useful_ns\":%" PRId64
               ",\"mean_useful_ns\":%" PRId64,
            P->window, P->nloc, P->max_useful, P->nloc ? P->sum_useful / (int64_t)P->nloc : 0);
    json_ratio(f, "load_balance", P->valid, P->load_balance);
    json_ratio(f, "communication_efficiency", P->valid, P->comm_eff);
    json_ratio(f, "serialisation_efficiency", P->valid, P->ser_eff);
    json_ratio(f, "transfer_efficiency", P->valid && P->ser_eff > 0, P->transfer_eff);
    json_ratio(f, "parallel_efficiency", P->valid, P->par_eff);
    fputc('}', f);
}

void stats_print_pop_text(FILE *f, const Stats *st)
{
    const Pop *P = &st->tc.pop;
    char a[32];
    if (!P->valid) {
        fputs("\nefficiency   none: no useful time in the window\n", f);
        return;
    }
    fprintf(f, "\nefficiency of the window (%s, %u location%s)\n", format_dur(a, sizeof a, P->window), P->nloc,
            P->nloc == 1 ? "" : "s");
    fprintf(f, "  parallel efficiency        %6.1f%%  = load balance x communication efficiency\n",
            100 * P->par_eff);
    fprintf(f, "  load balance               %6.1f%%  = mean useful / max useful\n", 100 * P->load_balance);
    fprintf(f, "  communication efficiency   %6.1f%%  = max useful / window\n", 100 * P->comm_eff);
    fprintf(f, "  serialisation efficiency   %6.1f%%  = max over locations of (window - waiting) / window\n",
            100 * P->ser_eff);
    if (P->ser_eff > 0)
        fprintf(f, "  transfer efficiency        %6.1f%%  = communication / serialisation efficiency\n",
                100 * P->transfer_eff);
}

void stats_print_json(FILE *f, const Store *s, const Stats *st, const LoadReport *rep)
{
    fprintf(f, "{\"events\":%" PRIu64 ",\"rejected\":%" PRIu64 ",", st->events, rep ? rep->rejected : 0);
    if (st->filtered) {
        fprintf(f, "\"loaded\":%zu,\"filter\":{\"text\":", s->n);
        json_cstr(f, st->filter_text ? st->filter_text : "");
        fputs(",\"stages\":[", f);
        for (int i = 0; i < st->nstages; i++) fprintf(f, "%s%" PRIu64, i ? "," : "", st->stage_counts[i]);
        fputs("]},", f);
    }
    if (st->events) fprintf(f, "\"t_min\":%" PRId64 ",\"t_max\":%" PRId64 ",", st->t_min, st->t_max);
    else fputs("\"t_min\":null,\"t_max\":null,", f);
    fprintf(f, "\"window\":[%" PRId64 ",%" PRId64 "],\"locations\":%u,\"activities\":%u,", st->t0, st->t1, s->nloc,
            s->nact);
    fputs("\"categories\":{\"comm_names\":", f);
    json_cstr(f, st->tc_comm ? st->tc_comm : "");
    fputs(",\"sync_names\":", f);
    json_cstr(f, st->tc_sync ? st->tc_sync : "");
    fputs("},", f);
    fputs("\"kinds\":{", f);
    bool first = true;
    for (uint32_t k = 0; k < K_USER + s->nukind; k++) {
        if (!st->kinds[k]) continue;
        if (!first) putc(',', f);
        first = false;
        json_cstr(f, kind_name(s, (uint16_t)k));
        fprintf(f, ":%" PRIu64, st->kinds[k]);
    }
    fputs("},\"per_loc\":[", f);
    for (uint32_t l = 0; l < s->nloc; l++) {
        const LocStats *L = &st->loc[l];
        if (l) putc(',', f);
        fputs("{\"loc\":", f);
        report_json_loc(f, s, l);
        fprintf(f,
                ",\"events\":%" PRIu64 ",\"busy_ns\":%" PRId64 ",\"useful_ns\":%" PRId64 ",\"comm_ns\":%" PRId64
                ",\"sync_ns\":%" PRId64 ",\"wait_ns\":%" PRId64 ",\"idle_ns\":%" PRId64 ",\"sent_bytes\":%" PRId64
                ",\"recv_bytes\":%" PRId64 ",\"sent_msgs\":%" PRIu64 ",\"recv_msgs\":%" PRIu64
                ",\"acts\":%" PRIu32 ",\"util\":%.6f}",
                L->events, L->busy_ns, L->busy_ns, L->comm_ns, L->sync_ns, L->wait_ns, L->idle_ns, L->sent_bytes,
                L->recv_bytes, L->sent_msgs, L->recv_msgs, L->acts, L->util);
    }
    fputs("],", f);
    stats_print_pop_json(f, st);
    fputs(",\"messages\":[", f);
    for (size_t i = 0; i < st->npairs; i++) {
        const PairStats *p = &st->pairs[i];
        if (i) putc(',', f);
        fputs("{\"src\":", f);
        report_json_loc(f, s, p->src);
        fputs(",\"dst\":", f);
        report_json_loc(f, s, p->dst);
        fprintf(f, ",\"count\":%" PRIu64 ",\"bytes\":%" PRId64 "}", p->count, p->bytes);
    }
    fprintf(f, "],\"unmatched_sends\":%" PRIu64 ",\"unmatched_recvs\":%" PRIu64 ",\"sync_groups\":%u,\"max_depth\":%u,",
            s->unmatched_send, s->unmatched_recv, st->ngroups, s->max_depth);
    fputs("\"fields\":[", f);
    for (uint32_t c = 0; c < s->ncols; c++) {
        if (c) putc(',', f);
        fputs("{\"name\":", f);
        json_cstr(f, s->cols[c].name);
        static const char *tn[] = {"none", "int", "float", "string", "loc", "mixed"};
        fprintf(f, ",\"type\":\"%s\",\"present\":%zu,\"extra\":%s}", tn[s->cols[c].type], s->cols[c].npresent,
                s->cols[c].field == F_EXTRA ? "true" : "false");
    }
    fputs("],\"sync\":[", f);
    bool gfirst = true;
    for (uint32_t g = 0; g < s->ngroups; g++) {
        const SyncGroup *G = &st->groups[g];
        char gb[32], ab[128];
        if (!G->nev) continue;
        if (!gfirst) putc(',', f);
        gfirst = false;
        fputs("{\"group\":", f);
        if (G->type == VT_STR) json_cstr(f, report_group_label(s, G, gb, sizeof gb));
        else fputs(report_group_label(s, G, gb, sizeof gb), f);
        fprintf(f, ",\"events\":%u,\"participants\":%u,\"wait_ns\":%" PRId64 ",\"first_ts\":%" PRId64
                   ",\"last_arrival\":%" PRId64 ",\"end\":%" PRId64 ",\"last_loc\":",
                G->nev, G->nparts, G->wait_ns, G->first_ts, G->last_arrival, G->end);
        report_json_loc(f, s, s->loc[G->last_ev]);
        fputs(",\"last_act\":", f);
        json_cstr(f, act_label(s, s->act[G->last_ev], ab, sizeof ab));
        putc('}', f);
    }
    fputs("],\"profile\":", f);
    profile_print_json(f, s, &st->prof);
    fputs(",\"files\":[", f);
    for (int i = 0; rep && i < rep->nfiles; i++) {
        const FileInfo *fi = &rep->files[i];
        if (i) putc(',', f);
        fputs("{\"path\":", f);
        json_cstr(f, fi->path);
        fprintf(f,
                ",\"format\":\"%s\",\"bytes\":%" PRIu64 ",\"events\":%" PRIu64 ",\"rejected\":%" PRIu64
                ",\"blank\":%" PRIu64 ",\"comments\":%" PRIu64 ",\"incomplete_tail\":%s",
                format_name(fi->format), fi->bytes, fi->events, fi->rejected, fi->blank, fi->comments,
                fi->incomplete_tail ? "true" : "false");
        if (fi->unpaired_ends) fprintf(f, ",\"unpaired_ends\":%" PRIu64, fi->unpaired_ends);
        if (fi->skipped) fprintf(f, ",\"skipped\":%" PRIu64, fi->skipped);
        putc('}', f);
    }
    fputs("]}\n", f);
}

void stats_print_text(FILE *f, const Store *s, const Stats *st, const LoadReport *rep)
{
    char a[64], b[64], c[64], d[64];
    if (rep) {
        uint64_t bytes = 0;
        for (int i = 0; i < rep->nfiles; i++) bytes += rep->files[i].bytes;
        fprintf(f, "%d file%s, %s\n", rep->nfiles, rep->nfiles == 1 ? "" : "s", format_bytes(a, sizeof a, (int64_t)bytes));
        for (int i = 0; i < rep->nfiles; i++) {
            const FileInfo *fi = &rep->files[i];
            fprintf(f, "  %-40s %-6s %10" PRIu64 " events", fi->path, format_name(fi->format), fi->events);
            if (fi->rejected) fprintf(f, ", %" PRIu64 " rejected", fi->rejected);
            if (fi->comments) fprintf(f, ", %" PRIu64 " comment line%s", fi->comments, fi->comments == 1 ? "" : "s");
            if (fi->incomplete_tail) fputs(", incomplete last line left out", f);
            if (fi->skipped) fprintf(f, ", %" PRIu64 " of other kinds skipped", fi->skipped);
            if (fi->unpaired_ends) fprintf(f, ", %" PRIu64 " unpaired --pair end%s", fi->unpaired_ends, fi->unpaired_ends == 1 ? "" : "s");
            putc('\n', f);
        }
    }
    if (st->filtered) {
        if (st->filter_text) {
            fputs("filter       ", f);
            for (const char *p = st->filter_text; *p; p++) putc(*p == '\n' ? ' ' : *p, f);
            putc('\n', f);
        }
        if (st->nstages > 1) {
            fputs("             after each stage:", f);
            for (int i = 0; i < st->nstages; i++) fprintf(f, " %" PRIu64, st->stage_counts[i]);
            putc('\n', f);
        }
        fprintf(f, "events       %" PRIu64 " selected of %zu loaded, %" PRIu64 " rejected\n", st->events, s->n,
                rep ? rep->rejected : 0);
    } else {
        fprintf(f, "events       %" PRIu64 " loaded, %" PRIu64 " rejected\n", st->events, rep ? rep->rejected : 0);
    }
    if (st->events) {
        fprintf(f, "time         %s .. %s (span %s)\n", format_ts(a, sizeof a, st->t_min), format_ts(b, sizeof b, st->t_max),
                format_dur(c, sizeof c, st->t_max - st->t_min));
    }
    if (st->windowed)
        fprintf(f, "window       %s .. %s (%s)\n", format_ts(a, sizeof a, st->t0), format_ts(b, sizeof b, st->t1),
                format_dur(c, sizeof c, st->t1 - st->t0));
    fprintf(f, "locations    %u\nactivities   %u (max nesting depth %u)\n", s->nloc, s->nact, s->max_depth);
    fprintf(f, "messages     %" PRIu64 " (%" PRIu64 " unmatched sends, %" PRIu64 " unmatched receives)\n", st->nmsg,
            s->unmatched_send, s->unmatched_recv);
    fprintf(f, "sync groups  %u\n", st->ngroups);
    if (!st->events) return;
    fputs("\nkind                     events\n", f);
    for (uint32_t k = 0; k < K_USER + s->nukind; k++)
        if (st->kinds[k]) fprintf(f, "%-20s %10" PRIu64 "\n", kind_name(s, (uint16_t)k), st->kinds[k]);
    uint32_t *lord = xmalloc(((size_t)s->nloc + 1) * sizeof *lord);
    for (uint32_t l = 0; l < s->nloc; l++) lord[l] = l;
    if (st->loc_sort >= 0 && s->nloc > 1) {
        tl_st = st;
        qsort(lord, s->nloc, sizeof *lord, loc_row_cmp);
    }
    uint32_t nshow = st->loc_top > 0 && (uint32_t)st->loc_top < s->nloc ? (uint32_t)st->loc_top : s->nloc;
    /* the label column as wide as the labels shown (12 to 32) */
    int lw = 12;
    for (uint32_t i = 0; i < nshow; i++) {
        int w = text_cols(loc_label(s, lord[i]));
        if (w > lw) lw = w < 32 ? w : 32;
    }
    fputc('\n', f);
    fput_col(f, "loc", lw);
    fprintf(f, " %9s %10s %6s %10s %10s %10s %10s %9s %9s\n", "events", "useful", "util%", "comm", "sync", "wait", "idle",
            "sent", "received");
    for (uint32_t i = 0; i < nshow; i++) {
        uint32_t l = lord[i];
        const LocStats *L = &st->loc[l];
        char e[64], g[64], h[64];
        fput_col(f, loc_label(s, l), lw);
        fprintf(f, " %9" PRIu64 " %10s %5.1f%% %10s %10s %10s %10s %9s %9s\n", L->events,
                format_dur(a, sizeof a, L->busy_ns), 100 * L->util, format_dur(b, sizeof b, L->comm_ns),
                format_dur(c, sizeof c, L->sync_ns), format_dur(d, sizeof d, L->wait_ns),
                format_dur(e, sizeof e, L->idle_ns), format_bytes(g, sizeof g, L->sent_bytes),
                format_bytes(h, sizeof h, L->recv_bytes));
    }
    if (nshow < s->nloc) fprintf(f, "(%u more locations: --top 0 lists them all)\n", s->nloc - nshow);
    free(lord);
    fprintf(f, "(util%%: useful / (window x the location's activities); comm: send and recv intervals%s%s%s; sync: sync "
               "intervals%s%s%s)\n",
            st->tc_comm && *st->tc_comm ? ", names ~ /" : "", st->tc_comm && *st->tc_comm ? st->tc_comm : "",
            st->tc_comm && *st->tc_comm ? "/" : "", st->tc_sync && *st->tc_sync ? ", names ~ /" : "",
            st->tc_sync && *st->tc_sync ? st->tc_sync : "", st->tc_sync && *st->tc_sync ? "/" : "");
    stats_print_pop_text(f, st);
    if (st->npairs) {
        /* the heaviest pairs by bytes, then count */
        size_t np = st->npairs;
        size_t *idx = xmalloc(np * sizeof(size_t));
        for (size_t i = 0; i < np; i++) idx[i] = i;
        size_t show = np < 20 ? np : 20;
        for (size_t i = 0; i < show; i++) {
            size_t best = i;
            for (size_t j = i + 1; j < np; j++) {
                const PairStats *x = &st->pairs[idx[j]], *y = &st->pairs[idx[best]];
                if (x->bytes > y->bytes || (x->bytes == y->bytes && x->count > y->count)) best = j;
            }
            size_t t = idx[i];
            idx[i] = idx[best];
            idx[best] = t;
        }
        fprintf(f, "\nmessages by pair (%zu pair%s%s)\n%-25s %10s %12s\n", np, np == 1 ? "" : "s",
                np > show ? ", heaviest 20 shown" : "", "src -> dst", "count", "bytes");
        for (size_t i = 0; i < show; i++) {
            const PairStats *p = &st->pairs[idx[i]];
            char pr[96];
            snprintf(pr, sizeof pr, "%s -> %s", loc_label(s, p->src), loc_label(s, p->dst));
            fprintf(f, "%-25s %10" PRIu64 " %12s\n", pr, p->count, format_bytes(a, sizeof a, p->bytes));
        }
        free(idx);
    }
    if (st->ngroups) {
        uint32_t *ord = groups_by_wait(s, st->groups);
        uint32_t show = st->ngroups < 10 ? st->ngroups : 10;
        fprintf(f, "\nsync groups by total wait (%u group%s%s)\n%-20s %6s %12s %12s  %s\n", st->ngroups,
                st->ngroups == 1 ? "" : "s", st->ngroups > show ? ", longest 10 shown" : "", "group", "parts", "wait",
                "span", "last to arrive");
        uint32_t shown = 0;
        for (uint32_t i = 0; i < s->ngroups && shown < show; i++) {
            const SyncGroup *G = &st->groups[ord[i]];
            if (!G->nev) continue;
            shown++;
            char gb[32], ab[128], w[32], sp[32], at[64];
            uint32_t e = G->last_ev;
            fprintf(f, "%-20s %6u %12s %12s  loc %s, act %s, at %s\n", report_group_label(s, G, gb, sizeof gb), G->nparts,
                    format_dur(w, sizeof w, G->wait_ns), format_dur(sp, sizeof sp, G->end - G->first_ts),
                    loc_label(s, s->loc[e]), act_label(s, s->act[e], ab, sizeof ab), format_ts(at, sizeof at, s->ts[e]));
        }
        free(ord);
    }
    profile_print_text(f, s, &st->prof, st->top);
}
