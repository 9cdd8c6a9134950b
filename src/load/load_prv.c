/*
 * load_prv.c — Paraver traces (.prv, from Extrae and Paraver's tools) with
 * the .pcf (names of states, event types and values) and .row (names of
 * tasks and threads) beside them.
 *
 * Owns: the header (time unit), the .pcf and .row tables, and the meaning
 * of each record:
 *   1:cpu:appl:task:thread:begin:end:state   an interval named by the
 *       .pcf's STATES ("Running"), else "state N", of kind state, sync (the
 *       waiting and communicating states) or idle (Idle, Not created,
 *       Tracing Disabled): see state_kind;
 *   2:cpu:appl:task:thread:time:type:value[:type:value]...   one row per
 *       pair: a type with VALUES in the .pcf gives an instant (mark) named
 *       by its value ("MPI_Isend"), any other type a counter named by the
 *       type ("PAPI_TOT_INS") with the value; fields event_type, event_value;
 *   3:cpu:appl:task:thread:lsend:psend:cpu:appl:task:thread:lrecv:precv:size:tag
 *       a message (msg) from the sender at its logical send time to the
 *       receiver, arriving at the physical receive (not before the send),
 *       bytes = size, tag; fields psend and lrecv keep the other two times;
 *   c:..., #... (communicators, comments) skipped and counted.
 * The location is appl.task, the activity appl.task.thread, each labelled
 * by the .row's TASK / THREAD names when it has them; the cpu is a field.
 * Invariants: the tables are read once, before the chunks, and only read
 * after; a record is one line, so chunks are cut at newlines.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/timeparse.h"
#include "load_int.h"

static int id_cmp(const void *a, const void *b)
{
    const PrvName *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

static const PrvName *find_name(const PrvName *v, size_t n, int64_t id)
{
    PrvName key = {id, NULL, 0, 0};
    return n ? bsearch(&key, v, n, sizeof *v, id_cmp) : NULL;
}

static char *slurp(const char *path, size_t max)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 65536, len = 0;
    char *buf = xmalloc(cap + 1);
    size_t k;
    while ((k = fread(buf + len, 1, cap - len, f)) > 0) {
        len += k;
        if (len == cap) {
            if (cap >= max) break;
            cap *= 2;
            buf = xrealloc(buf, cap + 1);
        }
    }
    fclose(f);
    buf[len] = 0;
    return buf;
}

/* the path with its .prv (and .gz / .zst) ending replaced by ext */
static char *sibling(const char *path, const char *ext)
{
    size_t n = strlen(path);
    char *p = xmalloc(n + strlen(ext) + 1);
    memcpy(p, path, n + 1);
    for (const char *z = ".gz"; z;) {
        size_t zl = strlen(z);
        if (n > zl && !strcmp(p + n - zl, z)) {
            n -= zl;
            p[n] = 0;
        }
        z = !strcmp(z, ".gz") ? ".zst" : NULL;
    }
    if (n > 4 && !strcmp(p + n - 4, ".prv")) n -= 4;
    strcpy(p + n, ext);
    return p;
}

static void add_name(PrvNames *t, int64_t id, const char *s, size_t n, int64_t type)
{
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) n--;
    while (n && (*s == ' ' || *s == '\t')) s++, n--;
    char *c = xmalloc(n + 1);
    memcpy(c, s, n);
    c[n] = 0;
    PrvName e = {id, c, n, type};
    VEC_PUSH(*t, e);
}

/* "ID<ws>NAME" or "GRADIENT<ws>ID<ws>NAME" lines: the id and where the name starts */
static bool id_then(const char **pp, const char *e, int64_t *id)
{
    const char *p = *pp;
    while (p < e && (*p == ' ' || *p == '\t')) p++;
    const char *d = p;
    if (p < e && *p == '-') p++;
    while (p < e && *p >= '0' && *p <= '9') p++;
    if (p == d || (p - d == 1 && *d == '-')) return false;
    if (parse_int64(d, (size_t)(p - d), id) != TP_OK) return false;
    *pp = p;
    return true;
}

static void read_pcf(PrvFile *pf, const char *text)
{
    enum { NONE, STATES, TYPES, VALUES } sec = NONE;
    VEC(int64_t) cur = {0}; /* the types of the current EVENT_TYPE block */
    for (const char *l = text; *l;) {
        const char *e = strchr(l, '\n');
        if (!e) e = l + strlen(l);
        const char *p = l;
        size_t n = (size_t)(e - l);
        while (n && (l[n - 1] == '\r' || l[n - 1] == ' ')) n--;
        if (n == 0) {
            if (sec == VALUES || sec == TYPES) cur.len = 0;
            sec = sec == STATES ? NONE : sec == TYPES || sec == VALUES ? NONE : sec;
        } else if (n == 6 && !memcmp(l, "STATES", 6)) {
            sec = STATES;
        } else if (n == 10 && !memcmp(l, "EVENT_TYPE", 10)) {
            sec = TYPES;
            cur.len = 0;
        } else if (n == 6 && !memcmp(l, "VALUES", 6)) {
            sec = VALUES;
        } else if (sec == STATES) {
            int64_t id;
            if (id_then(&p, l + n, &id)) add_name(&pf->states, id, p, (size_t)(l + n - p), 0);
        } else if (sec == TYPES) {
            int64_t grad, id;
            if (id_then(&p, l + n, &grad) && id_then(&p, l + n, &id)) {
                add_name(&pf->types, id, p, (size_t)(l + n - p), 0);
                VEC_PUSH(cur, id);
            }
        } else if (sec == VALUES) {
            int64_t id;
            if (id_then(&p, l + n, &id))
                for (size_t k = 0; k < cur.len; k++) add_name(&pf->values, id, p, (size_t)(l + n - p), cur.v[k]);
        } else if (isupper((unsigned char)l[0])) {
            sec = NONE;
        }
        l = *e ? e + 1 : e;
    }
    VEC_FREE(cur);
}

static int val_cmp(const void *a, const void *b)
{
    const PrvName *x = a, *y = b;
    if (x->type != y->type) return x->type < y->type ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

static void read_row(PrvFile *pf, const char *text)
{
    PrvNames *into = NULL;
    int64_t k = 0;
    for (const char *l = text; *l;) {
        const char *e = strchr(l, '\n');
        if (!e) e = l + strlen(l);
        size_t n = (size_t)(e - l);
        while (n && (l[n - 1] == '\r' || l[n - 1] == ' ')) n--;
        if (n >= 6 && !memcmp(l, "LEVEL ", 6)) {
            into = NULL;
            k = 0;
            if (n >= 12 && !memcmp(l + 6, "THREAD", 6)) into = &pf->thread_names;
            else if (n >= 10 && !memcmp(l + 6, "TASK", 4)) into = &pf->task_names;
        } else if (n && into) {
            add_name(into, k++, l, n, 0);
        }
        l = *e ? e + 1 : e;
    }
}

static void free_names(PrvNames *t)
{
    for (size_t i = 0; i < t->len; i++) free(t->v[i].name);
    VEC_FREE(*t);
}

void prv_file_free(PrvFile *pf)
{
    free_names(&pf->states);
    free_names(&pf->types);
    free_names(&pf->values);
    free_names(&pf->task_names);
    free_names(&pf->thread_names);
    free(pf->tasks_before);
    free(pf->threads_before);
}

/* #Paraver (dd/mm/yyyy at hh:mm):TIME[_unit]:nodes(cpus):nappl:appl(ntasks:node,...)[:,]appl(...)...[,ncomms] */
char *prv_read_header(PrvFile *pf, const char *head, size_t n, uint64_t bom)
{
    const char *p = head + bom, *e = head + n;
    const char *nl = memchr(p, '\n', (size_t)(e - p));
    if (!nl) return xstrdup("a Paraver header (#Paraver ...) without a line end in its first 64 KiB");
    e = nl;
    pf->data_start = (uint64_t)(nl + 1 - head);
    const char *q = memchr(p, ')', (size_t)(e - p));
    if (!q || q + 1 >= e || q[1] != ':') return xstrdup("not a Paraver header: expected '#Paraver (date):time:...'");
    p = q + 2;
    const char *t = p;
    while (p < e && *p != ':') p++;
    /* the duration, and its unit: _ns, _us, _ms; none is microseconds */
    const char *u = memchr(t, '_', (size_t)(p - t));
    pf->unit_exp = 3;
    if (u) {
        size_t ul = (size_t)(p - u - 1);
        if (ul == 2 && !memcmp(u + 1, "ns", 2)) pf->unit_exp = 0;
        else if (ul == 2 && !memcmp(u + 1, "us", 2)) pf->unit_exp = 3;
        else if (ul == 2 && !memcmp(u + 1, "ms", 2)) pf->unit_exp = 6;
        else return xasprintf("a Paraver time unit tnav does not know: '%.*s'", (int)ul, u + 1);
    }
    if (p >= e) return xstrdup("not a Paraver header: nothing after the duration");
    /* the resources (nodes(cpus,...)) or 0, then the applications:
     * nappl:appl1(ntasks:node,...),appl2(...) */
    p++;
    int depth = 0;
    while (p < e && (depth || *p != ':')) {
        if (*p == '(') depth++;
        else if (*p == ')') depth--;
        p++;
    }
    if (p >= e) return xstrdup("not a Paraver header: no application list");
    p++;
    int64_t nappl = 0;
    const char *d = p;
    while (p < e && *p >= '0' && *p <= '9') p++;
    if (p == d || parse_int64(d, (size_t)(p - d), &nappl) != TP_OK || nappl < 0 || nappl > 1000000)
        return xstrdup("not a Paraver header: bad number of applications");
    pf->nappl = (int)nappl;
    pf->tasks_before = xcalloc((size_t)nappl + 2, sizeof(int64_t));
    VEC(int64_t) thr = {0};
    int64_t tasks = 0, threads = 0;
    for (int64_t a = 0; a < nappl; a++) {
        pf->tasks_before[a] = tasks;
        /* applications are separated by ':' (the format's documentation)
         * or ',' (Extrae's multi-application headers: 2:8(...),12(...),14);
         * a ",N" after the last one counts the communicators (c: lines) */
        if (p >= e || (*p != ':' && *p != ',')) continue; /* (an application the header does not describe: no tasks) */
        p++;
        int64_t nt = 0;
        d = p;
        while (p < e && *p >= '0' && *p <= '9') p++;
        if (parse_int64(d, (size_t)(p - d), &nt) != TP_OK || nt < 0 || tasks + nt > 10000000) {
            VEC_FREE(thr);
            return xstrdup("not a Paraver header: bad number of tasks");
        }
        int64_t k = 0;
        if (p < e && *p == '(') {
            p++;
            for (; k < nt && p < e && *p != ')'; k++) {
                int64_t nth = 1;
                d = p;
                while (p < e && *p >= '0' && *p <= '9') p++;
                parse_int64(d, (size_t)(p - d), &nth);
                VEC_PUSH(thr, threads);
                threads += nth;
                while (p < e && *p != ',' && *p != ')') p++;
                if (p < e && *p == ',') p++;
            }
            while (p < e && *p != ')') p++;
            if (p < e) p++;
        }
        /* (tasks the list leaves out: one thread each) */
        for (; k < nt; k++) {
            VEC_PUSH(thr, threads);
            threads++;
        }
        tasks += nt;
    }
    pf->tasks_before[nappl] = tasks;
    VEC_PUSH(thr, threads);
    pf->threads_before = thr.v;
    pf->ntasks = tasks;
    return NULL;
}

void prv_read_names(PrvFile *pf, const char *path, FILE *report)
{
    if (pf->mem) return;
    char *pcf = sibling(path, ".pcf"), *row = sibling(path, ".row");
    char *t = slurp(pcf, (size_t)256 << 20);
    if (t) {
        read_pcf(pf, t);
        free(t);
    } else if (report && !pf->quiet) {
        fprintf(report, "tnav: warning: %s: no %s beside it: states and events are named by their numbers\n", path, pcf);
    }
    t = slurp(row, (size_t)256 << 20);
    if (t) {
        read_row(pf, t);
        free(t);
    }
    free(pcf);
    free(row);
    if (pf->states.len) qsort(pf->states.v, pf->states.len, sizeof(PrvName), id_cmp);
    if (pf->types.len) qsort(pf->types.v, pf->types.len, sizeof(PrvName), id_cmp);
    if (pf->values.len) qsort(pf->values.v, pf->values.len, sizeof(PrvName), val_cmp);
}

/* ---- records ------------------------------------------------------------- */

typedef struct {
    const PrvFile *pf;
    Batch *b;
    Rec rec;
    char lbuf[4][96]; /* labels and names built for the record */
    uint32_t x_cpu, x_type, x_value, x_psend, x_lrecv;
} Prv;

/* split a line on ':' into at most max fields; the count */
static size_t split(const char *s, const char *e, const char **f, size_t *fl, size_t max)
{
    size_t n = 0;
    const char *p = s;
    for (;;) {
        const char *c = memchr(p, ':', (size_t)(e - p));
        const char *end = c ? c : e;
        if (n < max) {
            f[n] = p;
            fl[n] = (size_t)(end - p);
        }
        n++;
        if (!c) break;
        p = c + 1;
    }
    return n;
}

static bool num(const char *p, size_t n, int64_t *v) { return n && parse_int64(p, n, v) == TP_OK; }

/* the location and activity labels of appl:task:thread (1-based) */
static bool labels(Prv *P, int64_t appl, int64_t task, int64_t thread, int slot, const char **loc, size_t *ln,
                   const char **act, size_t *an)
{
    const PrvFile *pf = P->pf;
    if (appl < 1 || task < 1 || thread < 1) return false;
    int64_t gt = -1, gth = -1;
    if (appl <= pf->nappl && pf->tasks_before && task <= pf->tasks_before[appl] - pf->tasks_before[appl - 1]) {
        gt = pf->tasks_before[appl - 1] + task - 1;
        gth = pf->threads_before[gt] + thread - 1;
        if (gt + 1 <= pf->ntasks && gth >= pf->threads_before[gt + 1]) gth = -1;
    }
    const PrvName *tn = gt >= 0 ? find_name(pf->task_names.v, pf->task_names.len, gt) : NULL;
    const PrvName *hn = gth >= 0 ? find_name(pf->thread_names.v, pf->thread_names.len, gth) : NULL;
    char *lb = P->lbuf[slot], *ab = P->lbuf[slot + 1];
    if (tn) {
        *loc = tn->name;
        *ln = tn->len;
    } else {
        *ln = (size_t)snprintf(lb, 96, "%lld.%lld", (long long)appl, (long long)task);
        *loc = lb;
    }
    if (hn && (!tn || strcmp(hn->name, tn->name))) {
        *act = hn->name;
        *an = hn->len;
    } else {
        *an = (size_t)snprintf(ab, 96, "%lld.%lld.%lld", (long long)appl, (long long)task, (long long)thread);
        *act = ab;
    }
    return true;
}

/* What a state is in tnav's terms, by its name in the .pcf (Extrae's
 * standard names) or, without one, by Extrae's standard numbers: waiting
 * and communicating states are sync, idle ones idle, the rest (Running,
 * I/O, overheads...) state. */
static const char *state_kind(const char *name, int64_t id)
{
    static const struct { int id; const char *name; const char *kind; } T[] = {
        {0, "Idle", "idle"},
        {2, "Not created", "idle"},
        {14, "Tracing Disabled", "idle"},
        {3, "Waiting a message", "sync"},
        {4, "Blocking Send", "sync"},
        {5, "Synchronization", "sync"},
        {6, "Test/Probe", "sync"},
        {8, "Wait/WaitAll", "sync"},
        {9, "Blocked", "sync"},
        {10, "Immediate Send", "sync"},
        {11, "Immediate Receive", "sync"},
        {13, "Group Communication", "sync"},
        {16, "Send Receive", "sync"},
    };
    for (size_t i = 0; i < sizeof T / sizeof T[0]; i++)
        if (name ? !strcasecmp(name, T[i].name) : id == T[i].id) return T[i].kind;
    return "state";
}

static void commit(Prv *P, uint64_t line)
{
    char why[256];
    P->b->cur_line = line;
    if (!batch_commit(P->b, &P->rec, why, sizeof why)) batch_reject(P->b, line, "%s", why);
}

static void prv_line(Prv *P, const char *s, const char *e, uint64_t line)
{
    Batch *b = P->b;
    if (s == e) return;
    if (*s == '#' || *s == 'c') {
        b->ncomment++;
        return;
    }
    const char *f[16];
    size_t fl[16];
    size_t nf = split(s, e, f, fl, 16);
    int64_t v[16];
    char kind = fl[0] == 1 ? f[0][0] : '?';
    Rec *r = &P->rec;
    rec_reset(r);
    const char *loc, *act;
    size_t ln, an;
    if (kind == '1') {
        if (nf != 8) {
            batch_reject(b, line, "a state record needs 8 fields (1:cpu:appl:task:thread:begin:end:state), not %zu", nf);
            return;
        }
        for (int i = 1; i < 8; i++)
            if (!num(f[i], fl[i], &v[i])) {
                batch_reject(b, line, "field %d of a state record is not an integer", i + 1);
                return;
            }
        if (!labels(P, v[2], v[3], v[4], 0, &loc, &ln, &act, &an)) {
            batch_reject(b, line, "appl, task and thread count from 1");
            return;
        }
        rec_set(r, F_LOC, loc, ln, V_STR);
        rec_set(r, F_ACT, act, an, V_STR);
        rec_set(r, F_TS, f[5], fl[5], V_TEXT);
        rec_set(r, F_END, f[6], fl[6], V_TEXT);
        const PrvName *sn = find_name(P->pf->states.v, P->pf->states.len, v[7]);
        const char *k = state_kind(sn ? sn->name : NULL, v[7]);
        rec_set(r, F_KIND, k, strlen(k), V_STR);
        if (sn) rec_set(r, F_NAME, sn->name, sn->len, V_STR);
        else rec_set(r, F_NAME, P->lbuf[2], (size_t)snprintf(P->lbuf[2], 96, "state %lld", (long long)v[7]), V_STR);
        rec_add_extra(r, P->x_cpu, f[1], fl[1], V_TEXT);
        commit(P, line);
    } else if (kind == '2') {
        if (nf < 8 || nf % 2) {
            batch_reject(b, line, "an event record needs 6 fields and type:value pairs (2:cpu:appl:task:thread:time:type:value...), not %zu fields", nf);
            return;
        }
        for (int i = 1; i < 6; i++)
            if (!num(f[i], fl[i], &v[i])) {
                batch_reject(b, line, "field %d of an event record is not an integer", i + 1);
                return;
            }
        if (!labels(P, v[2], v[3], v[4], 0, &loc, &ln, &act, &an)) {
            batch_reject(b, line, "appl, task and thread count from 1");
            return;
        }
        /* the pairs, however many */
        const char *p = f[6];
        while (p < e) {
            const char *c1 = memchr(p, ':', (size_t)(e - p));
            if (!c1) break;
            const char *vs = c1 + 1;
            const char *c2 = memchr(vs, ':', (size_t)(e - vs));
            const char *ve = c2 ? c2 : e;
            int64_t type, val;
            if (!num(p, (size_t)(c1 - p), &type) || !num(vs, (size_t)(ve - vs), &val)) {
                batch_reject(b, line, "an event type or value is not an integer");
                return;
            }
            rec_reset(r);
            rec_set(r, F_LOC, loc, ln, V_STR);
            rec_set(r, F_ACT, act, an, V_STR);
            rec_set(r, F_TS, f[5], fl[5], V_TEXT);
            rec_add_extra(r, P->x_cpu, f[1], fl[1], V_TEXT);
            const PrvName *tn = find_name(P->pf->types.v, P->pf->types.len, type);
            PrvName key = {val, NULL, 0, type};
            const PrvName *vn = P->pf->values.len ? bsearch(&key, P->pf->values.v, P->pf->values.len, sizeof(PrvName), val_cmp) : NULL;
            bool has_values = false;
            if (!vn && P->pf->values.len) {
                /* does the type have a VALUES table at all? */
                PrvName k0 = {INT64_MIN, NULL, 0, type};
                size_t lo = 0, hi = P->pf->values.len;
                while (lo < hi) {
                    size_t mid = (lo + hi) / 2;
                    if (val_cmp(&P->pf->values.v[mid], &k0) < 0) lo = mid + 1;
                    else hi = mid;
                }
                has_values = lo < P->pf->values.len && P->pf->values.v[lo].type == type;
            }
            const char *tname = tn ? tn->name : P->lbuf[2];
            size_t tlen = tn ? tn->len : (size_t)snprintf(P->lbuf[2], 96, "event %lld", (long long)type);
            rec_add_extra(r, P->x_type, tname, tlen, V_STR);
            rec_add_extra(r, P->x_value, vs, (size_t)(ve - vs), V_TEXT);
            if (vn || has_values) {
                rec_set(r, F_KIND, "mark", 4, V_STR);
                if (vn) rec_set(r, F_NAME, vn->name, vn->len, V_STR);
                else rec_set(r, F_NAME, P->lbuf[3], (size_t)snprintf(P->lbuf[3], 96, "%s = %lld", tname, (long long)val), V_STR);
            } else {
                rec_set(r, F_KIND, "counter", 7, V_STR);
                rec_set(r, F_NAME, tname, tlen, V_STR);
                rec_set(r, F_VALUE, vs, (size_t)(ve - vs), V_TEXT);
            }
            commit(P, line);
            p = c2 ? c2 + 1 : e;
        }
    } else if (kind == '3') {
        if (nf != 15) {
            batch_reject(b, line, "a communication record needs 15 fields (3:cpu:appl:task:thread:lsend:psend:cpu:appl:task:thread:lrecv:precv:size:tag), not %zu", nf);
            return;
        }
        for (int i = 1; i < 15; i++)
            if (!num(f[i], fl[i], &v[i])) {
                batch_reject(b, line, "field %d of a communication record is not an integer", i + 1);
                return;
            }
        const char *ploc, *pact;
        size_t pln, pan;
        if (!labels(P, v[2], v[3], v[4], 0, &loc, &ln, &act, &an) || !labels(P, v[8], v[9], v[10], 2, &ploc, &pln, &pact, &pan)) {
            batch_reject(b, line, "appl, task and thread count from 1");
            return;
        }
        rec_set(r, F_LOC, loc, ln, V_STR);
        rec_set(r, F_ACT, act, an, V_STR);
        rec_set(r, F_PEER, ploc, pln, V_STR);
        rec_set(r, F_KIND, "msg", 3, V_STR);
        rec_set(r, F_TS, f[5], fl[5], V_TEXT);
        /* it arrives at the physical receive, not before it was sent */
        rec_set(r, F_END, v[12] >= v[5] ? f[12] : f[5], v[12] >= v[5] ? fl[12] : fl[5], V_TEXT);
        rec_set(r, F_BYTES, f[13], fl[13], V_TEXT);
        rec_set(r, F_TAG, f[14], fl[14], V_TEXT);
        rec_add_extra(r, P->x_cpu, f[1], fl[1], V_TEXT);
        rec_add_extra(r, P->x_psend, f[6], fl[6], V_TEXT);
        rec_add_extra(r, P->x_lrecv, f[11], fl[11], V_TEXT);
        commit(P, line);
    } else {
        batch_reject(b, line, "not a Paraver record (1: state, 2: event, 3: communication, c: communicator, #: comment)");
    }
}

void prv_parse_chunk(const PrvFile *pf, Batch *b, uint64_t start, uint64_t end)
{
    Reader rd;
    rd_init(&rd, pf->fd, pf->mem, pf->size);
    b->unit_exp = pf->unit_exp;
    b->chunk_start = start;
    batch_presize(b, &rd, start, end);
    Prv P;
    memset(&P, 0, sizeof P);
    P.pf = pf;
    P.b = b;
    P.x_cpu = batch_extra_id(b, "cpu", 3);
    P.x_type = batch_extra_id(b, "event_type", 10);
    P.x_value = batch_extra_id(b, "event_value", 11);
    P.x_psend = batch_extra_id(b, "psend", 5);
    P.x_lrecv = batch_extra_id(b, "lrecv", 5);
    uint64_t pos = start, line = 1;
    size_t want = 1;
    while (pos < end && pos < rd.limit) {
        size_t avail;
        const char *w = rd_window(&rd, pos, want, &avail);
        if (avail == 0) break;
        want = 1;
        const char *lim = w + avail, *ls = w;
        bool at_eof = pos + avail >= rd.limit;
        for (;;) {
            uint64_t off = pos + (uint64_t)(ls - w);
            if (off >= end || ls >= lim) {
                pos = off;
                break;
            }
            const char *q = memchr(ls, '\n', (size_t)(lim - ls));
            if (!q && !at_eof) {
                pos = off;
                want = (size_t)(lim - ls) * 2 + 4096;
                break;
            }
            const char *le = q ? q : lim;
            const char *le2 = le > ls && le[-1] == '\r' ? le - 1 : le;
            prv_line(&P, ls, le2, line);
            if (!q) {
                pos = rd.limit;
                break;
            }
            line++;
            ls = q + 1;
        }
    }
    b->chunk_stop = pos;
    b->nlf = line - 1;
    VEC_FREE(P.rec.x);
    rd_finish(&rd, b);
}
