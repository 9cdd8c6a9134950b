/*
 * emit_chrome.c — events written as Chrome Trace Event Format JSON (the
 * object form), for Perfetto, chrome://tracing and the tools that read it;
 * see emit_chrome.h.
 *
 * Owns: the mapping of the store onto Chrome's model. A location is a
 * process (pid = its index; `M` process_name = its label, process_sort_index
 * = its order); an activity is a thread of that process (a location's
 * default activity has tid = pid; a labelled activity tid = nloc + its
 * index, named by `M` thread_name); an event with a duration is an `X`
 * slice, a `counter` a `C` sample of its `value`, any other instant an `i`
 * (thread scope); `cat` is the event's kind; every other field present
 * (peer, bytes, id, tag, group, parent, file, line, extras) goes into
 * `args` under its own name; a message whose two ends are both written is
 * a flow (`s` at the send, `f` bound to the enclosing slice at the
 * receive, id = the message's index). Times are microseconds with the
 * nanoseconds as three decimals, exact as text; when a time's magnitude
 * is 2^53 ns or more (epoch times) they are written from the trace's
 * first time, recorded as `otherData.tnav_origin_ns`. `otherData.producer`
 * is "tnav", so that tnav reads the file back into the same events and
 * fields (kind from cat, args under their own names, no flow twice, a
 * nameless event — written with its kind as name and `tnav_noname` —
 * without a name).
 * Invariants: the output is one valid JSON object (UTF-8, strings
 * escaped) however many events are written, including none; metadata
 * names only locations and activities that have a written event.
 */
#include "emit_chrome.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/out.h"
#include "base/util.h"

/* a time in microseconds with the nanoseconds as decimals (trailing zeros
 * dropped) */
static void put_us(FILE *f, int64_t ns)
{
    uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
    if (ns < 0) putc('-', f);
    fprintf(f, "%" PRIu64, a / 1000);
    unsigned r = (unsigned)(a % 1000);
    if (!r) return;
    char d[4];
    snprintf(d, sizeof d, "%03u", r);
    int l = 3;
    while (d[l - 1] == '0') l--;
    fprintf(f, ".%.*s", l, d);
}

static void put_label(FILE *f, const Store *s, uint32_t sid)
{
    size_t len;
    const char *t = store_strn(s, sid, &len);
    json_str(f, t, len);
}

static void sep(ChromeOut *co, FILE *f)
{
    fputs(co->first ? "\n" : ",\n", f);
    co->first = false;
}

static uint64_t tid_of(const ChromeOut *co, uint32_t loc, uint32_t act)
{
    const Store *s = co->s;
    if (s->acts[act].label == NONE32) return loc;
    return (uint64_t)s->nloc + act;
}

void chrome_begin(FILE *f, ChromeOut *co, const Store *s, const uint64_t *sel)
{
    memset(co, 0, sizeof *co);
    co->s = s;
    co->sel = sel;
    co->first = true;
    char err[64];
    emitter_init(&co->em, s, EMIT_NDJSON, NULL, err, sizeof err); /* (all fields: cannot fail) */
    int64_t big = (int64_t)1 << 53;
    co->origin = (s->n && (s->t_min <= -big || s->t_max >= big)) ? s->t_min : 0;
    fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"producer\":\"tnav\"", f);
    if (co->origin) fprintf(f, ",\"tnav_origin_ns\":\"%" PRId64 "\"", co->origin);
    fputs("},", f);
    fputs("\"traceEvents\":[", f);
    /* which locations and (location, activity) threads have a written event */
    uint8_t *lseen = xcalloc((size_t)s->nloc + 1, 1);
    uint8_t *aseen = xcalloc((size_t)s->nact + 1, 1);
    for (uint32_t l = 0; l < s->nloc; l++) {
        size_t a = s->locs[l].first, b = a + s->locs[l].count;
        for (size_t e = a; e < b; e++) {
            if (sel && !((sel[e >> 6] >> (e & 63)) & 1)) continue;
            lseen[l] = 1;
            uint32_t act = s->act[e];
            if (aseen[act]) continue;
            aseen[act] = 1;
            /* a thread per (location, activity) that has events there */
            sep(co, f);
            fprintf(f, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%u,\"tid\":%" PRIu64 ",\"args\":{\"name\":", l,
                    tid_of(co, l, act));
            put_label(f, s, s->acts[act].label != NONE32 ? s->acts[act].label : s->locs[l].label);
            fputs("}}", f);
            sep(co, f);
            fprintf(f, "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":%u,\"tid\":%" PRIu64
                       ",\"args\":{\"sort_index\":%" PRIu64 "}}",
                    l, tid_of(co, l, act), s->acts[act].label == NONE32 ? 0 : (uint64_t)act + 1);
        }
        /* an activity seen at this location may have events at another one */
        for (size_t e = a; e < b; e++) aseen[s->act[e]] = 0;
        if (!lseen[l]) continue;
        sep(co, f);
        fprintf(f, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%u,\"args\":{\"name\":", l);
        put_label(f, s, s->locs[l].label);
        fputs("}}", f);
        sep(co, f);
        fprintf(f, "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":%u,\"args\":{\"sort_index\":%u}}", l, l);
    }
    free(lseen);
    free(aseen);
}

void chrome_event(FILE *f, ChromeOut *co, size_t e)
{
    const Store *s = co->s;
    const Emitter *em = &co->em;
    uint32_t loc = s->loc[e], act = s->act[e];
    bool has_dur = s->flags[e] & EVF_DUR, counter = !has_dur && s->kind[e] == K_COUNTER;
    sep(co, f);
    fprintf(f, "{\"ph\":\"%s\",\"pid\":%u,\"tid\":%" PRIu64 ",\"ts\":", has_dur ? "X" : counter ? "C" : "i", loc,
            tid_of(co, loc, act));
    put_us(f, s->ts[e] - co->origin);
    if (has_dur) {
        fputs(",\"dur\":", f);
        put_us(f, s->dur[e]);
    } else if (!counter) {
        fputs(",\"s\":\"t\"", f);
    }
    fputs(",\"name\":", f);
    if (s->name[e] != NONE32) put_label(f, s, s->name[e]);
    else {
        /* (viewers need a name: the kind's, marked so that tnav reads the
         * event back without one) */
        json_cstr(f, kind_name(s, s->kind[e]));
        fputs(",\"tnav_noname\":true", f);
    }
    fputs(",\"cat\":", f);
    json_cstr(f, kind_name(s, s->kind[e]));
    /* args: every other field the event has (a counter: its value only,
     * since a viewer draws each of a C event's args as a series; its other
     * fields go to tnav_args, which viewers ignore and tnav reads back) */
    for (int pass = 0; pass < (counter ? 2 : 1); pass++) {
        bool first = true;
        for (int i = 0; i < em->ncols; i++) {
            const EmitCol *c = &em->cols[i];
            if (c->what != EC_COL || !emit_present(em, c, e)) continue;
            if (counter && (s->cols[c->col].field == F_VALUE) != (pass == 0)) continue;
            fputs(first ? (pass ? ",\"tnav_args\":{" : ",\"args\":{") : ",", f);
            first = false;
            json_cstr(f, c->name);
            putc(':', f);
            emit_value(f, em, c, e);
        }
        if (!first) putc('}', f);
    }
    putc('}', f);
}

static bool selected(const ChromeOut *co, uint32_t e)
{
    return e != NONE32 && (!co->sel || ((co->sel[e >> 6] >> (e & 63)) & 1));
}

void chrome_flows(FILE *f, ChromeOut *co)
{
    const Store *s = co->s;
    for (uint32_t m = 0; m < s->nmsg; m++) {
        const Message *M = &s->msgs[m];
        if (!selected(co, M->send_ev) || !selected(co, M->recv_ev)) continue;
        uint32_t se = M->send_ev, re = M->recv_ev;
        int64_t t_send = s->ts[se], t_recv = s->ts[re];
        uint32_t rloc = s->loc[re];
        uint64_t rtid = tid_of(co, rloc, s->act[re]);
        if (se == re) {
            /* a msg record: sent at its start, arrived at its end, at its peer */
            if (M->dst == NONE32) continue;
            t_recv = ev_end(s, se);
            rloc = M->dst;
            rtid = rloc;
        } else if (t_recv < t_send) {
            /* a receive that began waiting before the send: the message
             * arrives inside it, not before it was sent (readers pair a
             * flow's ends in time order) */
            t_recv = t_send < ev_end(s, re) ? t_send : ev_end(s, re);
        }
        sep(co, f);
        fprintf(f, "{\"ph\":\"s\",\"id\":%u,\"name\":\"message\",\"cat\":\"message\",\"pid\":%u,\"tid\":%" PRIu64 ",\"ts\":", m,
                s->loc[se], tid_of(co, s->loc[se], s->act[se]));
        put_us(f, t_send - co->origin);
        fputs("}", f);
        sep(co, f);
        fprintf(f, "{\"ph\":\"f\",\"bp\":\"e\",\"id\":%u,\"name\":\"message\",\"cat\":\"message\",\"pid\":%u,\"tid\":%" PRIu64
                   ",\"ts\":",
                m, rloc, rtid);
        put_us(f, t_recv - co->origin);
        fputs("}", f);
    }
}

void chrome_end(FILE *f, ChromeOut *co)
{
    fputs(co->first ? "]}\n" : "\n]}\n", f);
    emitter_free(&co->em);
}
