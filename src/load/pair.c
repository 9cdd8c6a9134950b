/*
 * pair.c — begin/end rows into intervals, flow starts and finishes into
 * messages, and labels renamed by metadata: the passes over one file's
 * batches between parsing and building the store.
 *
 * Owns: the matching rules. Candidates (Batch.cands) group by key — the
 * row's (location, activity, name), or a key its parser gave (Chrome: a
 * thread for B/E, cat+id+scope for async slices, an id for flows) — and
 * each group is taken in time order (ties in input order). A begin opens,
 * an end closes the innermost open begin of its group: the begin's row
 * becomes the interval (kind state) and the end's row goes. An end with
 * nothing open is rejected with its line ("end with no open begin"); a
 * begin still open when the file ends is closed at the file's last time
 * (then, by load.c, at the last time of the whole trace: Batch.unfin_rows)
 * and gets the field unfinished = 1. An `end` (the activity kind) closes a
 * begin when one is open and otherwise stays what it is. A flow start and
 * its finish become one `msg` (source = the start's location, peer = the
 * finish's); a start or finish without its other half stays a `send` or a
 * `recv`. Then flowbind.c names the slices the ends bind to (from_slice,
 * to_slice: Chrome). A --pair end with nothing open stays what it is and is reported
 * (Batch.loose: its line and why), not rejected.
 * Invariants: the result does not depend on how the file was cut into
 * batches (keys are compared as text, order is (time, file order); the
 * rejections come in file order); rows are only dropped or changed in
 * place, so every batch stays valid. The matching is one pass; what it
 * adds to each batch is merged, and its dropped rows removed, batch by
 * batch in parallel.
 */
#include <stdlib.h>
#include <string.h>

#include "load_int.h"

#include "base/par.h"

typedef struct {
    uint32_t gkey, batch, ci;
    int64_t ts;
} Ent;

static int ent_cmp(const void *a, const void *b)
{
    const Ent *x = a, *y = b;
    if (x->gkey != y->gkey) return x->gkey < y->gkey ? -1 : 1;
    if (x->ts != y->ts) return x->ts < y->ts ? -1 : 1;
    if (x->batch != y->batch) return x->batch < y->batch ? -1 : 1;
    return x->ci < y->ci ? -1 : x->ci > y->ci;
}

typedef struct {
    uint32_t batch, ci; /* (the candidate: file order within a line too) */
    uint64_t line;
    char *why;
} Rej;

static int rej_cmp(const void *a, const void *b)
{
    const Rej *x = a, *y = b;
    if (x->batch != y->batch) return x->batch < y->batch ? -1 : 1;
    if (x->line != y->line) return x->line < y->line ? -1 : 1;
    if (x->ci != y->ci) return x->ci < y->ci ? -1 : 1;
    return strcmp(x->why, y->why);
}

typedef struct {
    VEC(uint32_t) rows;
    VEC(uint8_t) types;
    VEC(uint64_t) vals;
} Adds;

static int rv_cmp(const void *a, const void *b)
{
    const RowVal *x = a, *y = b;
    return x->row < y->row ? -1 : x->row > y->row;
}

void pair_merge_adds(Batch *b, uint32_t field, RowVal *v, size_t n, uint8_t type)
{
    if (!n) return;
    qsort(v, n, sizeof *v, rv_cmp);
    uint32_t *rows = xmalloc(n * sizeof *rows);
    uint8_t *types = xmalloc(n);
    uint64_t *vals = xmalloc(n * sizeof *vals);
    for (size_t i = 0; i < n; i++) {
        rows[i] = v[i].row;
        types[i] = type;
        vals[i] = v[i].val;
    }
    batch_field_merge(b, field, rows, types, vals, n);
    free(rows);
    free(types);
    free(vals);
}

static const char *label_text(const Batch *b, uint32_t sid, size_t *n)
{
    *n = strtab_len(&b->labels, sid);
    return strtab_str(&b->labels, sid);
}

/* the group key of a candidate without a parser's key, as text: its
 * (location, activity, name) */
static size_t cand_key(const Batch *b, const PairCand *c, char **buf, size_t *cap)
{
    size_t need, n1 = 0, n2 = 0, n3 = 0;
    const char *s1 = NULL, *s2 = NULL, *s3 = NULL;
    const LabelPair *p = &b->pairs[b->akey[c->row]];
    s1 = label_text(b, p->loc, &n1);
    if (p->act != NONE32) s2 = label_text(b, p->act, &n2);
    uint32_t nm = b->name[c->row];
    if (nm != NONE32) {
        s3 = strtab_str(&b->names, nm);
        n3 = strtab_len(&b->names, nm);
    }
    need = n1 + 2 + n2 + 2 + n3;
    if (need > *cap) {
        *cap = need * 2 + 64;
        *buf = xrealloc(*buf, *cap);
    }
    char *o = *buf;
    if (n1) memcpy(o, s1, n1);
    o += n1;
    *o++ = 0x1F;
    *o++ = s2 ? 'a' : '-';
    if (n2) memcpy(o, s2, n2);
    o += n2;
    *o++ = 0x1F;
    *o++ = s3 ? 'n' : '-';
    if (n3) memcpy(o, s3, n3);
    o += n3;
    return (size_t)(o - *buf);
}

typedef struct {
    Batch **bs;
    uint8_t **drop;
    RowVals *unfin, *peers, *outc, *slice;
    JobQueue q;
} Finish;

static void finish_worker(void *ctx, int w, int nw)
{
    (void)w;
    (void)nw;
    Finish *F = ctx;
    size_t i;
    while ((i = jobq_next(&F->q)) != (size_t)-1) {
        Batch *b = F->bs[i];
        uint8_t *drop = F->drop[i];
        RowVals *unfin = &F->unfin[i], *peers = &F->peers[i], *outc = &F->outc[i], *slice = &F->slice[2 * i];
        if (slice[0].len) pair_merge_adds(b, F_EXTRA + batch_extra_id(b, "from_slice", 10), slice[0].v, slice[0].len, VT_STR);
        if (slice[1].len) pair_merge_adds(b, F_EXTRA + batch_extra_id(b, "to_slice", 8), slice[1].v, slice[1].len, VT_STR);
        VEC_FREE(slice[0]);
        VEC_FREE(slice[1]);
        if (!drop) continue;
        pair_merge_adds(b, F_PEER, peers->v, peers->len, VT_STR);
        if (unfin->len) pair_merge_adds(b, F_EXTRA + batch_extra_id(b, "unfinished", 10), unfin->v, unfin->len, VT_INT);
        if (outc->len) pair_merge_adds(b, F_EXTRA + batch_extra_id(b, "outcome", 7), outc->v, outc->len, VT_STR);
        VEC_FREE(*outc);
        if (unfin->len) {
            /* (their rows after the compaction: load.c extends them to the
             * end of the whole trace) */
            uint32_t *before = xmalloc((b->n + 1) * sizeof *before);
            uint32_t nd = 0;
            for (size_t r = 0; r < b->n; r++) {
                before[r] = nd;
                nd += drop[r];
            }
            for (size_t k = 0; k < unfin->len; k++) VEC_PUSH(b->unfin_rows, unfin->v[k].row - before[unfin->v[k].row]);
            free(before);
        }
        batch_compact(b, drop);
        free(drop);
        VEC_FREE(*unfin);
        VEC_FREE(*peers);
    }
}

void pair_file(Batch **bs, size_t nb, int nthreads)
{
    size_t total = 0;
    for (size_t i = 0; i < nb; i++) total += bs[i]->cands.len;
    if (!total) return;
    for (size_t i = 0; i < nb; i++) bs[i]->nx_parsed = bs[i]->xnames.count;
    /* only soft ends (`end` rows) and no begin, flow or hard end anywhere:
     * no group ever has a begin open, and a soft end that finds none stays
     * what it is, unreported; nothing changes (the grouping of 200,000 ends
     * by their keys' text would cost 0.05-0.1 s, serial) */
    {
        bool soft_only = true;
        for (size_t i = 0; i < nb && soft_only; i++)
            for (size_t c = 0; c < bs[i]->cands.len; c++)
                if (bs[i]->cands.v[c].role != PR_SOFTEND) {
                    soft_only = false;
                    break;
                }
        if (soft_only) {
            for (size_t i = 0; i < nb; i++) bs[i]->cands.len = 0; /* (as batch_compact leaves them) */
            return;
        }
    }
    /* the groups: a parser's keys (by their text) and the others (by
     * location, activity, name) in two tables, numbered together in the
     * order they first come */
    StrTab gk, gg;
    strtab_init(&gk);
    strtab_init(&gg);
    VEC(uint32_t) gid_k = {0}, gid_g = {0};
    uint32_t ngroups = 0;
    Ent *fo = xmalloc(total * sizeof *fo); /* in file order */
    char *kb = NULL;
    size_t kcap = 0, ne = 0;
    for (size_t i = 0; i < nb; i++) {
        Batch *b = bs[i];
        /* (a key the parser gave, as its group: looked up once per batch) */
        uint32_t *gof = b->pkeys.count ? xmalloc(b->pkeys.count * sizeof *gof) : NULL;
        for (uint32_t k = 0; k < b->pkeys.count; k++) gof[k] = NONE32;
        for (size_t c = 0; c < b->cands.len; c++) {
            const PairCand *pc = &b->cands.v[c];
            uint32_t g;
            if (pc->key != NONE32) {
                g = gof[pc->key];
                if (g == NONE32) {
                    uint32_t id = strtab_intern_from(&gk, &b->pkeys, pc->key);
                    if (id == gid_k.len) VEC_PUSH(gid_k, ngroups++);
                    g = gof[pc->key] = gid_k.v[id];
                }
            } else {
                size_t kn = cand_key(b, pc, &kb, &kcap);
                uint32_t id = strtab_intern(&gg, kb, kn);
                if (id == gid_g.len) VEC_PUSH(gid_g, ngroups++);
                g = gid_g.v[id];
            }
            Ent e = {g, (uint32_t)i, (uint32_t)c, b->ts[pc->row]};
            fo[ne++] = e;
        }
        free(gof);
    }
    VEC_FREE(gid_k);
    VEC_FREE(gid_g);
    strtab_free(&gk);
    strtab_free(&gg);
    /* in ent_cmp's order: grouped by key with a counting sort (stable, so
     * each group stays in file order), then a group not in time order
     * sorted (most files have each thread's events in time order) */
    Ent *ents = fo;
    {
        /* (ids are given in file order: keys used once or in a row, as
         * flows' often are, come grouped already) */
        bool grouped = true;
        for (size_t k = 1; k < ne && grouped; k++) grouped = fo[k].gkey >= fo[k - 1].gkey;
        if (!grouped) {
            ents = xmalloc(total * sizeof *ents);
            size_t *at = xcalloc((size_t)ngroups + 1, sizeof *at);
            for (size_t k = 0; k < ne; k++) at[fo[k].gkey + 1]++;
            for (size_t g = 0; g < ngroups; g++) at[g + 1] += at[g];
            for (size_t k = 0; k < ne; k++) ents[at[fo[k].gkey]++] = fo[k];
            free(at);
            free(fo);
        }
        for (size_t g = 0; g < ne;) {
            size_t h = g + 1;
            bool sorted = true;
            for (; h < ne && ents[h].gkey == ents[g].gkey; h++)
                if (ents[h].ts < ents[h - 1].ts) sorted = false;
            if (!sorted) qsort(ents + g, h - g, sizeof *ents, ent_cmp);
            g = h;
        }
    }

    uint8_t **drop = xcalloc(nb, sizeof *drop);
    for (size_t i = 0; i < nb; i++)
        if (bs[i]->cands.len) drop[i] = xcalloc(bs[i]->n ? bs[i]->n : 1, 1);
    RowVals *unfin = xcalloc(nb, sizeof *unfin);
    RowVals *peers = xcalloc(nb, sizeof *peers);
    RowVals *outc = xcalloc(nb, sizeof *outc);
    VEC(Ent) open = {0}, flows = {0}, left = {0};
    VEC(Rej) rejs = {0}, loose = {0};
    VEC(FlowEnd) ends = {0}; /* flow ends to bind to slices (flowbind.c) */
    for (size_t g = 0; g < ne;) {
        size_t h = g;
        while (h < ne && ents[h].gkey == ents[g].gkey) h++;
        open.len = flows.len = 0;
        for (size_t k = g; k < h; k++) {
            Ent *e = &ents[k];
            Batch *b = bs[e->batch];
            PairCand *c = &b->cands.v[e->ci];
            switch (c->role) {
            case PR_BEGIN: VEC_PUSH(open, *e); break;
            case PR_END:
            case PR_END_KEEP:
            case PR_SOFTEND: {
                /* the innermost open begin; for an end under a key of its
                 * own (async slices), the innermost of the same name when
                 * the end has one */
                size_t at = open.len;
                if (open.len) {
                    at = open.len - 1;
                    uint32_t en = b->name[c->row];
                    if (c->key != NONE32 && en != NONE32 && strtab_str(&b->pkeys, c->key)[0] == 'A') {
                        const char *et = strtab_str(&b->names, en);
                        size_t enl = strtab_len(&b->names, en);
                        at = open.len;
                        for (size_t j = open.len; j-- > 0;) {
                            Batch *jb = bs[open.v[j].batch];
                            uint32_t jn = jb->name[jb->cands.v[open.v[j].ci].row];
                            if (jn != NONE32 && strtab_len(&jb->names, jn) == enl &&
                                !memcmp(strtab_str(&jb->names, jn), et, enl)) {
                                at = j;
                                break;
                            }
                        }
                    }
                }
                if (at < open.len) {
                    Ent o = open.v[at];
                    memmove(&open.v[at], &open.v[at + 1], (open.len - at - 1) * sizeof(Ent));
                    open.len--;
                    Batch *ob = bs[o.batch];
                    uint32_t orow = ob->cands.v[o.ci].row;
                    ob->dur[orow] = e->ts - o.ts;
                    ob->kind[orow] = K_STATE;
                    ob->lsw_stale = true;
                    drop[e->batch][c->row] = 1;
                    if (c->role == PR_END_KEEP && b->kind[c->row] >= K_USER) {
                        /* (--pair: the end's kind is the interval's outcome) */
                        uint32_t ks = b->ukinds.v[b->kind[c->row] - K_USER];
                        RowVal ov = {orow, strtab_intern(&ob->strs, strtab_str(&b->strs, ks), strtab_len(&b->strs, ks))};
                        VEC_PUSH(outc[o.batch], ov);
                    }
                } else if (c->role == PR_END || c->role == PR_END_KEEP) {
                    char nm[80], lb[80];
                    uint32_t ns = b->name[c->row];
                    if (ns != NONE32) quote_excerpt(nm, sizeof nm, strtab_str(&b->names, ns), strtab_len(&b->names, ns), 40);
                    else snprintf(nm, sizeof nm, "(no name)");
                    size_t ln;
                    const char *lt = label_text(b, b->pairs[b->akey[c->row]].loc, &ln);
                    quote_excerpt(lb, sizeof lb, lt, ln, 30);
                    if (c->role == PR_END_KEEP) {
                        /* (--pair: the end stays what it is, and is reported) */
                        char kw[80];
                        uint32_t ks = b->kind[c->row] >= K_USER ? b->ukinds.v[b->kind[c->row] - K_USER] : NONE32;
                        if (ks != NONE32) quote_excerpt(kw, sizeof kw, strtab_str(&b->strs, ks), strtab_len(&b->strs, ks), 30);
                        else snprintf(kw, sizeof kw, "end");
                        Rej rj = {e->batch, e->ci, c->line, xasprintf("%s with no open begin (%s at location %s): kept as it is", kw, nm, lb)};
                        VEC_PUSH(loose, rj);
                        break;
                    }
                    Rej rj = {e->batch, e->ci, c->line, xasprintf("end with no open begin (%s at location %s)", nm, lb)};
                    VEC_PUSH(rejs, rj);
                    drop[e->batch][c->row] = 1;
                }
                break;
            }
            case PR_FLOW_S: VEC_PUSH(flows, *e); break;
            case PR_FLOW_F:
                if (flows.len) {
                    Ent o = flows.v[--flows.len];
                    Batch *ob = bs[o.batch];
                    uint32_t orow = ob->cands.v[o.ci].row;
                    size_t ln;
                    const char *lt = label_text(b, b->pairs[b->akey[c->row]].loc, &ln);
                    RowVal pv = {orow, strtab_intern(&ob->labels, lt, ln)};
                    VEC_PUSH(peers[o.batch], pv);
                    ob->dur[orow] = e->ts - o.ts;
                    ob->kind[orow] = K_MSG;
                    ob->lsw_stale = true;
                    drop[e->batch][c->row] = 1;
                    if (ob->cands.v[o.ci].bind) {
                        FlowEnd f = {o.batch, o.ci, o.batch, orow, 0};
                        VEC_PUSH(ends, f);
                    }
                    if (c->bind) {
                        FlowEnd f = {e->batch, e->ci, o.batch, orow, 1};
                        VEC_PUSH(ends, f);
                    }
                } else if (c->bind) {
                    FlowEnd f = {e->batch, e->ci, e->batch, c->row, 1};
                    VEC_PUSH(ends, f);
                }
                break;
            }
        }
        for (size_t k = 0; k < flows.len; k++) {
            /* (a start without its finish: its own slice) */
            Batch *ob = bs[flows.v[k].batch];
            PairCand *oc = &ob->cands.v[flows.v[k].ci];
            if (oc->bind) {
                FlowEnd f = {flows.v[k].batch, flows.v[k].ci, flows.v[k].batch, oc->row, 0};
                VEC_PUSH(ends, f);
            }
        }
        for (size_t k = 0; k < open.len; k++) VEC_PUSH(left, open.v[k]);
        g = h;
    }
    /* the rejections in file order (the first of each problem are the
     * first lines, however the file was cut into batches) */
    if (rejs.len) qsort(rejs.v, rejs.len, sizeof(Rej), rej_cmp);
    for (size_t k = 0; k < rejs.len; k++) {
        batch_reject(bs[rejs.v[k].batch], rejs.v[k].line, "%s", rejs.v[k].why);
        free(rejs.v[k].why);
    }
    VEC_FREE(rejs);
    if (loose.len) qsort(loose.v, loose.len, sizeof(Rej), rej_cmp);
    for (size_t k = 0; k < loose.len; k++) {
        BatchReject br = {loose.v[k].line, loose.v[k].why};
        VEC_PUSH(bs[loose.v[k].batch]->loose, br);
    }
    VEC_FREE(loose);
    /* begins still open: closed at the file's last time */
    if (left.len) {
        int64_t fend = INT64_MIN;
        for (size_t i = 0; i < nb; i++) {
            Batch *b = bs[i];
            for (size_t r = 0; r < b->n; r++) {
                if (drop[i] && drop[i][r]) continue;
                int64_t t = b->ts[r] + (b->dur[r] > 0 ? b->dur[r] : 0);
                if (t > fend) fend = t;
            }
        }
        for (size_t k = 0; k < left.len; k++) {
            Ent *o = &left.v[k];
            Batch *b = bs[o->batch];
            uint32_t row = b->cands.v[o->ci].row;
            b->dur[row] = fend > o->ts ? fend - o->ts : 0;
            b->kind[row] = K_STATE;
            b->lsw_stale = true;
            RowVal uv = {row, 1};
            VEC_PUSH(unfin[o->batch], uv);
        }
    }
    /* the slices the flows' ends bind to (their intervals are all known
     * now) */
    free(ents);
    RowVals *slice = xcalloc(nb * 2, sizeof *slice);
    bind_flows(bs, nb, drop, ends.v, ends.len, slice);
    VEC_FREE(ends);
    /* each batch: what the passes add merged, its dropped rows gone (the
     * batches apart, in parallel) */
    Finish fin = {bs, drop, unfin, peers, outc, slice, {0}};
    jobq_init(&fin.q, nb);
    par_run(nthreads < (int)nb ? nthreads : (int)nb, finish_worker, &fin);
    free(slice);
    free(drop);
    free(unfin);
    free(peers);
    free(outc);
    VEC_FREE(open);
    VEC_FREE(flows);
    VEC_FREE(left);
    free(kb);
}

/* ---- names from metadata ------------------------------------------------ */

typedef struct {
    StrTab keys;  /* "L" loc, "A" loc \x1F act */
    StrTab texts; /* the new labels */
    VEC(uint32_t) text_of; /* key -> text id, NONE32: unchanged; DROP_ACT: no act */
} Names;
#define DROP_ACT (NONE32 - 1)

static uint32_t key_of(StrTab *t, char **kb, size_t *kcap, char tag, const char *s1, size_t n1, const char *s2, size_t n2,
                       bool intern)
{
    size_t need = 2 + n1 + n2 + 1;
    if (need > *kcap) {
        *kcap = need * 2 + 64;
        *kb = xrealloc(*kb, *kcap);
    }
    char *o = *kb;
    o[0] = tag;
    memcpy(o + 1, s1, n1);
    size_t kn = 1 + n1;
    if (s2) {
        o[kn++] = 0x1F;
        memcpy(o + kn, s2, n2);
        kn += n2;
    }
    return intern ? strtab_intern(t, o, kn) : strtab_find(t, o, kn);
}

/* Location and activity labels named by metadata: a process's label is its
 * name, a thread's its name; when two processes (two threads of one
 * process) share a name, the id follows it: "Renderer (7792)". A name equal
 * to the id changes nothing. A thread whose id is its process's and whose
 * name is its process's name (as tnav convert writes a location's default
 * activity) is the location's default activity: no act. The last name
 * given for an id wins. */
void rename_labels(Batch **bs, size_t nb)
{
    size_t total = 0;
    for (size_t i = 0; i < nb; i++) total += bs[i]->renames.len;
    if (!total) return;
    StrTab raw; /* "L" loc / "A" loc \x1F act -> its name (in nm) */
    StrTab nm;
    strtab_init(&raw);
    strtab_init(&nm);
    VEC(uint32_t) name_of = {0};
    char *kb = NULL;
    size_t kcap = 0;
    for (size_t i = 0; i < nb; i++) {
        Batch *b = bs[i];
        for (size_t k = 0; k < b->renames.len; k++) {
            LabelRename *r = &b->renames.v[k];
            size_t n1, n2 = 0, nt;
            const char *s1 = label_text(b, r->loc, &n1), *s2 = r->act != NONE32 ? label_text(b, r->act, &n2) : NULL;
            const char *t = label_text(b, r->text, &nt);
            uint32_t kid = key_of(&raw, &kb, &kcap, s2 ? 'A' : 'L', s1, n1, s2, n2, true);
            while (name_of.len <= kid) VEC_PUSH(name_of, NONE32);
            name_of.v[kid] = strtab_intern(&nm, t, nt);
        }
    }
    /* how many processes, and threads of each process, have each name */
    StrTab cnt;
    strtab_init(&cnt);
    VEC(uint32_t) count = {0};
    for (uint32_t kid = 0; kid < raw.count; kid++) {
        const char *k = strtab_str(&raw, kid);
        size_t kn = strtab_len(&raw, kid);
        uint32_t t = name_of.v[kid];
        /* "L" name, or "A" loc \x1F name */
        const char *sep = k[0] == 'A' ? memchr(k, 0x1F, kn) : NULL;
        size_t pre = sep ? (size_t)(sep - k) + 1 : 1;
        uint32_t c = key_of(&cnt, &kb, &kcap, k[0], k + 1, pre - 1, strtab_str(&nm, t), strtab_len(&nm, t), true);
        while (count.len <= c) VEC_PUSH(count, 0);
        count.v[c]++;
    }
    Names N;
    strtab_init(&N.keys);
    strtab_init(&N.texts);
    memset(&N.text_of, 0, sizeof N.text_of);
    for (uint32_t kid = 0; kid < raw.count; kid++) {
        const char *k = strtab_str(&raw, kid);
        size_t kn = strtab_len(&raw, kid);
        const char *sep = k[0] == 'A' ? memchr(k, 0x1F, kn) : NULL;
        const char *id = sep ? sep + 1 : k + 1;
        size_t idn = sep ? kn - (size_t)(sep + 1 - k) : kn - 1;
        size_t pre = sep ? (size_t)(sep - k) + 1 : 1;
        uint32_t t = name_of.v[kid];
        const char *nt = strtab_str(&nm, t);
        size_t nn = strtab_len(&nm, t);
        uint32_t out = NONE32;
        if (sep) {
            /* the main thread named like its process: the default activity */
            size_t ln = (size_t)(sep - k) - 1;
            uint32_t pk = key_of(&raw, &kb, &kcap, 'L', k + 1, ln, NULL, 0, false);
            if (idn == ln && !memcmp(id, k + 1, ln) && pk != NONE32 && strtab_len(&nm, name_of.v[pk]) == nn &&
                !memcmp(strtab_str(&nm, name_of.v[pk]), nt, nn))
                out = DROP_ACT;
        }
        if (out == NONE32 && !(nn == idn && !memcmp(nt, id, nn)) && nn > 0) {
            uint32_t c = key_of(&cnt, &kb, &kcap, k[0], k + 1, pre - 1, nt, nn, false);
            if (c != NONE32 && count.v[c] == 1) {
                out = strtab_intern(&N.texts, nt, nn);
            } else {
                size_t need = nn + idn + 4;
                char *tmp = xmalloc(need);
                memcpy(tmp, nt, nn);
                memcpy(tmp + nn, " (", 2);
                memcpy(tmp + nn + 2, id, idn);
                tmp[nn + 2 + idn] = ')';
                out = strtab_intern(&N.texts, tmp, nn + idn + 3);
                free(tmp);
            }
        }
        uint32_t nk = strtab_intern(&N.keys, k, kn);
        while (N.text_of.len <= nk) VEC_PUSH(N.text_of, NONE32);
        N.text_of.v[nk] = out;
    }
    VEC_FREE(count);
    strtab_free(&cnt);
    VEC_FREE(name_of);
    strtab_free(&raw);
    strtab_free(&nm);

    for (size_t i = 0; i < nb; i++) {
        Batch *b = bs[i];
        uint32_t nlab = b->labels.count;
        /* old label sid -> new, for locations (NONE32: unchanged) */
        uint32_t *lmap = xmalloc((nlab + 1) * sizeof *lmap);
        for (uint32_t s = 0; s < nlab; s++) {
            size_t n;
            const char *t = label_text(b, s, &n);
            uint32_t kid = key_of(&N.keys, &kb, &kcap, 'L', t, n, NULL, 0, false);
            lmap[s] = NONE32;
            if (kid != NONE32 && N.text_of.v[kid] != NONE32 && N.text_of.v[kid] != DROP_ACT) {
                uint32_t tx = N.text_of.v[kid];
                lmap[s] = strtab_intern(&b->labels, strtab_str(&N.texts, tx), strtab_len(&N.texts, tx));
            }
        }
        for (uint32_t p = 0; p < b->npairs; p++) {
            LabelPair *lp = &b->pairs[p];
            if (lp->act != NONE32) {
                size_t n1, n2;
                const char *s1 = label_text(b, lp->loc, &n1), *s2 = label_text(b, lp->act, &n2);
                uint32_t kid = key_of(&N.keys, &kb, &kcap, 'A', s1, n1, s2, n2, false);
                if (kid != NONE32 && N.text_of.v[kid] == DROP_ACT) {
                    lp->act = NONE32;
                } else if (kid != NONE32 && N.text_of.v[kid] != NONE32) {
                    uint32_t tx = N.text_of.v[kid];
                    lp->act = strtab_intern(&b->labels, strtab_str(&N.texts, tx), strtab_len(&N.texts, tx));
                }
            }
            if (lp->loc < nlab && lmap[lp->loc] != NONE32) lp->loc = lmap[lp->loc];
        }
        if (F_PEER < b->nfb) {
            FieldBuf *fb = &b->fb[F_PEER];
            for (size_t k = 0; k < fb->rows.len; k++)
                if (fb->types.v[k] == VT_STR && fb->vals.v[k] < nlab && lmap[fb->vals.v[k]] != NONE32)
                    fb->vals.v[k] = lmap[fb->vals.v[k]];
        }
        for (size_t k = 0; k < b->loc_orders.len; k++)
            if (b->loc_orders.v[k].loc < nlab && lmap[b->loc_orders.v[k].loc] != NONE32)
                b->loc_orders.v[k].loc = lmap[b->loc_orders.v[k].loc];
        for (size_t k = 0; k < b->act_orders.len; k++) {
            /* (as the pairs above: the thread's name, then its process's) */
            ActOrder *ao = &b->act_orders.v[k];
            size_t n1, n2;
            const char *s1 = label_text(b, ao->loc, &n1), *s2 = label_text(b, ao->act, &n2);
            uint32_t kid = key_of(&N.keys, &kb, &kcap, 'A', s1, n1, s2, n2, false);
            if (kid != NONE32 && N.text_of.v[kid] == DROP_ACT) {
                ao->act = NONE32;
            } else if (kid != NONE32 && N.text_of.v[kid] != NONE32) {
                uint32_t tx = N.text_of.v[kid];
                ao->act = strtab_intern(&b->labels, strtab_str(&N.texts, tx), strtab_len(&N.texts, tx));
            }
            if (ao->loc < nlab && lmap[ao->loc] != NONE32) ao->loc = lmap[ao->loc];
        }
        free(lmap);
    }
    VEC_FREE(N.text_of);
    free(kb);
    strtab_free(&N.keys);
    strtab_free(&N.texts);
}

void prefix_locations(Batch **bs, size_t nb, const char *prefix)
{
    size_t pl = strlen(prefix);
    char *buf = NULL;
    size_t cap = 0;
    for (size_t i = 0; i < nb; i++) {
        Batch *b = bs[i];
        uint32_t nlab = b->labels.count;
        uint32_t *map = xmalloc(((size_t)nlab + 1) * sizeof *map);
        for (uint32_t s = 0; s < nlab; s++) map[s] = NONE32;
        for (uint32_t p = 0; p < b->npairs + (F_PEER < b->nfb ? (uint32_t)b->fb[F_PEER].rows.len : 0); p++) {
            /* the location labels: of pairs, then of peers */
            uint32_t *ref = p < b->npairs ? &b->pairs[p].loc : NULL;
            uint64_t *pv = p >= b->npairs ? &b->fb[F_PEER].vals.v[p - b->npairs] : NULL;
            uint32_t old = ref ? *ref : (uint32_t)*pv;
            if (old >= nlab) continue;
            if (map[old] == NONE32) {
                size_t n;
                const char *t = label_text(b, old, &n);
                if (pl + n + 3 > cap) {
                    cap = (pl + n) * 2 + 64;
                    buf = xrealloc(buf, cap);
                }
                memcpy(buf, prefix, pl);
                memcpy(buf + pl, ": ", 2);
                memcpy(buf + pl + 2, t, n);
                map[old] = strtab_intern(&b->labels, buf, pl + 2 + n);
            }
            if (ref) *ref = map[old];
            else *pv = map[old];
        }
        for (size_t k = 0; k < b->loc_orders.len; k++)
            if (b->loc_orders.v[k].loc < nlab && map[b->loc_orders.v[k].loc] != NONE32)
                b->loc_orders.v[k].loc = map[b->loc_orders.v[k].loc];
        for (size_t k = 0; k < b->act_orders.len; k++)
            if (b->act_orders.v[k].loc < nlab && map[b->act_orders.v[k].loc] != NONE32)
                b->act_orders.v[k].loc = map[b->act_orders.v[k].loc];
        free(map);
    }
    free(buf);
}
