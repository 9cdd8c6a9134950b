/*
 * fuzz_common.h — the harness shared by the loaders' libFuzzer targets
 * (fuzz_csv.c, fuzz_ndjson.c, fuzz_chrome.c, fuzz_paraver.c): the input in
 * memory (LoadOpts.mem: the loader parses it where it is, with no file in
 * between) and, for the loads that check the file reader too, a file (a
 * memfd, else a temp file); loading with chosen options, a digest of
 * everything in a store, and the comparison of two loads (abort() on any
 * difference). Included once by each target, after it defines FUZZ_FORMAT
 * and FUZZ_NAME.
 * Invariants: nothing is printed for an input unless two loads disagree;
 * a temp file (where there is no memfd) is unlinked as soon as it is open.
 */
#ifndef TNAV_FUZZ_COMMON_H
#define TNAV_FUZZ_COMMON_H

#ifndef FUZZ_FORMAT
#error "define FUZZ_FORMAT and FUZZ_NAME before including fuzz_common.h"
#endif

#include <sys/mman.h>

#include "base/par.h"


/* ASan defaults for fuzzing (ASAN_OPTIONS still overrides them): a small
 * quarantine and shorter allocation stacks — each input allocates and frees
 * a store three times, and ASan's 256 MiB quarantine then keeps touching
 * fresh pages: +40% executions a second. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "quarantine_size_mb=16:malloc_context_size=8"; }

static char g_tmpname[64]; /* the mkstemp file while it has a name */
static char g_path[64];    /* what the loader opens */
static int g_fd = -1;
static char *g_mem;        /* the input, then LOAD_MEM_SLACK zero bytes */
static size_t g_mem_len, g_mem_cap;
static bool g_written;     /* the file holds the input */
static FILE *g_devnull;

static void remove_tmp(void)
{
    if (g_tmpname[0]) unlink(g_tmpname);
}

static void harness_init(void)
{
    if (g_fd >= 0) return;
    /* A memfd where there is one: a file in memory, read through
     * /proc/self/fd/N like any path, that never touches a disk (a file on
     * ext4 rewritten from size 0 is flushed to disk when the loader closes
     * it: a quarter of the runs' time went there). */
    g_fd = memfd_create(FUZZ_NAME, MFD_CLOEXEC);
    if (g_fd >= 0) {
        snprintf(g_path, sizeof g_path, "/proc/self/fd/%d", g_fd);
        if (access(g_path, R_OK) != 0) {
            close(g_fd);
            g_fd = -1;
        }
    }
    if (g_fd < 0) {
        snprintf(g_tmpname, sizeof g_tmpname, "/tmp/" FUZZ_NAME "-XXXXXX");
        g_fd = mkstemp(g_tmpname);
        if (g_fd < 0) {
            perror(FUZZ_NAME ": mkstemp");
            abort();
        }
        /* Open it by /proc/self/fd/N and unlink the name at once, so that
         * no temp file is left behind when a crash ends the process; fall
         * back to the name (removed at exit) where /proc is not mounted. */
        snprintf(g_path, sizeof g_path, "/proc/self/fd/%d", g_fd);
        if (access(g_path, R_OK) == 0) {
            unlink(g_tmpname);
            g_tmpname[0] = 0;
        } else {
            snprintf(g_path, sizeof g_path, "%s", g_tmpname);
            atexit(remove_tmp);
        }
    }
    g_devnull = fopen("/dev/null", "w");
    if (!g_devnull) abort();
    unsetenv("TNAV_TIMING");
    unsetenv("TNAV_THREADS");
    unsetenv("TNAV_CHUNK_BYTES");
    /* a load's workers (the chunks' parsers, the store's passes) run one
     * after the other on this thread: the same split of the work as with
     * threads, checked against the 1-worker load, without a thread started
     * per pass (under ASan that cost more than parsing a small input) */
    par_set_serial();
}

/* the input, in memory (the file is written only when a load asks) */
static void set_input(const uint8_t *d, size_t n)
{
    if (g_mem_cap < n + LOAD_MEM_SLACK) {
        free(g_mem);
        g_mem_cap = n + LOAD_MEM_SLACK;
        g_mem = malloc(g_mem_cap);
        if (!g_mem) abort();
    }
    if (n) memcpy(g_mem, d, n);
    memset(g_mem + n, 0, LOAD_MEM_SLACK);
    g_mem_len = n;
    g_written = false;
}

static void write_input(const uint8_t *d, size_t n)
{
    /* (the new bytes first, then the size: never a truncation to 0) */
    size_t off = 0;
    while (off < n) {
        ssize_t w = pwrite(g_fd, d + off, n - off, (off_t)off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) abort();
        off += (size_t)w;
    }
    if (ftruncate(g_fd, (off_t)n) != 0) abort();
}

typedef struct {
    int format, engine, threads, chunk, unit_exp;
    bool keep_all, strict;
    bool file; /* through the file and the file reader, not from memory */
} Run;

/* At most this many chunks per load: each chunk is a batch with its own
 * dictionaries and columns merged by the store, ~100 allocations under
 * ASan, so an uncapped 7-byte chunking of a 40 kB seed runs at a few
 * execs/s; 4 chunks (3 seams, placed anew by every mutation) cost a small
 * input's load about 1.5 times. */
#define MAX_CHUNKS 4

static int chunk_bytes(int want, size_t size)
{
    size_t least = size / MAX_CHUNKS + 1;
    return (size_t)want < least ? (int)least : want;
}

/* What must not depend on the engine, the threads or the chunking. */
typedef struct {
    int rc;
    int format;
    uint64_t events, rejected, incomplete, nrej_kept, h_rej;
    uint64_t n, nloc, nact, nmsg, ngroups, ncols, nukind, nmoves, nev_msg, nev_group;
    uint64_t unmatched_send, unmatched_recv, max_depth;
    int64_t t_min, t_max;
    uint64_t sum_ts, sum_dur, sum_kind, sum_name; /* plain sums (kind and name: string bytes) */
    uint64_t h_ev, h_loc, h_act, h_msg, h_grp, h_col;
    uint64_t blank;
} Digest;

static inline uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h *= 0xff51afd7ed558ccdULL;
    return h ^ (h >> 29);
}

static uint64_t hbytes(const char *p, size_t n)
{
    uint64_t h = 1469598103934665603ULL ^ n;
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)p[i]) * 1099511628211ULL;
    return h;
}

static uint64_t hsid(const Store *s, uint32_t sid)
{
    if (sid == NONE32) return 0x5eed;
    size_t len;
    const char *p = store_strn(s, sid, &len);
    return hbytes(p, len);
}

static uint64_t sum_sid_bytes(const Store *s, uint32_t sid)
{
    if (sid == NONE32) return 0;
    size_t len;
    const unsigned char *p = (const unsigned char *)store_strn(s, sid, &len);
    uint64_t t = 0;
    for (size_t i = 0; i < len; i++) t += p[i];
    return t;
}

static uint64_t hkind(const Store *s, uint16_t k)
{
    if (k < K_USER) return mix(7, k);
    uint32_t u = (uint32_t)k - K_USER;
    return u < s->nukind ? mix(8, hsid(s, s->ukind[u])) : mix(9, k);
}

static uint64_t hloc(const Store *s, uint32_t l)
{
    return l < s->nloc ? hsid(s, s->locs[l].label) : mix(10, l);
}

/* an activity by content: its label and its home location */
static uint64_t hact(const Store *s, uint32_t a)
{
    if (a >= s->nact) return mix(11, a);
    return mix(hsid(s, s->acts[a].label), hloc(s, s->acts[a].home));
}

static uint64_t hcolval(const Store *s, const Column *c, size_t slot)
{
    switch (c->type) {
    case VT_STR: return hsid(s, col_sid_at(c, slot));
    case VT_LOC: return hloc(s, col_sid_at(c, slot));
    case VT_INT: return (uint64_t)col_int_at(c, slot);
    default: return (uint64_t)c->v.i[slot]; /* VT_FLT: its bits */
    }
}

static void digest(const Store *s, const LoadReport *rep, int rc, Digest *d)
{
    memset(d, 0, sizeof *d);
    d->rc = rc;
    for (int i = 0; i < rep->nfiles; i++) {
        d->format = rep->files[i].format;
        d->events += rep->files[i].events;
        d->rejected += rep->files[i].rejected;
        d->blank += rep->files[i].blank;
        d->incomplete += rep->files[i].incomplete_tail;
    }
    if (rep->rejected != d->rejected) {
        fprintf(stderr, FUZZ_NAME ": report total %llu != per-file sum %llu\n", (unsigned long long)rep->rejected,
                (unsigned long long)d->rejected);
        abort();
    }
    d->nrej_kept = rep->nrej_kept;
    uint64_t h = 1;
    for (size_t i = 0; i < rep->nrej_kept; i++) {
        h = mix(h, (uint64_t)rep->rej[i].file);
        h = mix(h, rep->rej[i].line);
        h = mix(h, hbytes(rep->rej[i].reason, strlen(rep->rej[i].reason)));
    }
    d->h_rej = h;
    if (!s) return;
    d->n = s->n;
    d->nloc = s->nloc;
    d->nact = s->nact;
    d->nmsg = s->nmsg;
    d->ngroups = s->ngroups;
    d->ncols = s->ncols;
    d->nukind = s->nukind;
    d->nmoves = s->nmoves;
    d->nev_msg = s->nev_msg;
    d->nev_group = s->nev_group;
    d->unmatched_send = s->unmatched_send;
    d->unmatched_recv = s->unmatched_recv;
    d->max_depth = s->max_depth;
    d->t_min = s->t_min;
    d->t_max = s->t_max;
    /* events, in event order (which must not depend on threads/chunks) */
    h = 2;
    for (size_t e = 0; e < s->n; e++) {
        d->sum_ts += (uint64_t)s->ts[e];
        d->sum_dur += (uint64_t)s->dur[e];
        d->sum_kind += s->kind[e] < K_USER ? s->kind[e] : sum_sid_bytes(s, s->ukind[s->kind[e] - K_USER]);
        d->sum_name += sum_sid_bytes(s, s->name[e]);
        h = mix(h, (uint64_t)s->ts[e]);
        h = mix(h, (uint64_t)s->dur[e]);
        h = mix(h, s->flags[e]);
        h = mix(h, hkind(s, s->kind[e]));
        h = mix(h, hsid(s, s->name[e]));
        h = mix(h, hloc(s, s->loc[e]));
        h = mix(h, hact(s, s->act[e]));
        h = mix(h, s->depth[e]);
    }
    d->h_ev = h;
    h = 3;
    for (uint32_t l = 0; l < s->nloc; l++) {
        h = mix(h, hloc(s, l));
        h = mix(h, s->locs[l].first);
        h = mix(h, s->locs[l].count);
        h = mix(h, (uint64_t)s->locs[l].is_int << 1 ^ (uint64_t)s->locs[l].ival);
    }
    d->h_loc = h;
    /* activities: order-independent (ties in their order use string ids) */
    uint64_t acc = 0;
    for (uint32_t a = 0; a < s->nact; a++) {
        const Activity *A = &s->acts[a];
        uint64_t x = hact(s, a);
        x = mix(x, (uint64_t)A->first_ts);
        x = mix(x, (uint64_t)A->last_end);
        x = mix(x, A->nev);
        x = mix(x, A->nlocs);
        x = mix(x, A->nmoves);
        x = mix(x, A->parent == NONE32 ? 0xabc : hact(s, A->parent));
        x = mix(x, A->spawn_ev);
        x = mix(x, A->end_ev);
        x = mix(x, hsid(s, A->parent_label));
        uint64_t y = 4;
        for (uint32_t i = s->act_off[a]; i < s->act_off[a + 1]; i++) y = mix(y, s->act_ev[i]);
        for (uint32_t i = 0; i < A->nmoves; i++) y = mix(y, s->moves[A->moves_off + i]);
        acc += mix(x, y);
    }
    d->h_act = acc;
    acc = 0;
    for (uint32_t m = 0; m < s->nmsg; m++) {
        const Message *M = &s->msgs[m];
        uint64_t x = mix(M->send_ev, M->recv_ev);
        x = mix(x, M->src == NONE32 ? 0xdef : hloc(s, M->src));
        x = mix(x, M->dst == NONE32 ? 0xdef : hloc(s, M->dst));
        x = mix(x, (uint64_t)msg_t_send(s, M));
        x = mix(x, (uint64_t)msg_t_recv(s, M));
        x = mix(x, (uint64_t)msg_bytes(s, M));
        acc += x;
    }
    for (uint32_t i = 0; i < s->nev_msg; i++) {
        const Message *M = &s->msgs[s->ev_msg[i].idx];
        acc += mix(s->ev_msg[i].ev, mix(M->send_ev, M->recv_ev));
    }
    d->h_msg = acc;
    acc = 0;
    for (uint32_t g = 0; g < s->ngroups; g++) {
        const SyncGroup *G = &s->groups[g];
        uint64_t x = mix(G->type, G->type == VT_STR ? hsid(s, G->sid) : (uint64_t)G->ival);
        x = mix(x, G->nev);
        x = mix(x, G->nparts);
        x = mix(x, G->nlocs);
        x = mix(x, G->last_ev);
        x = mix(x, (uint64_t)G->first_ts);
        x = mix(x, (uint64_t)G->last_arrival);
        x = mix(x, (uint64_t)G->end);
        x = mix(x, (uint64_t)G->wait_ns);
        for (uint32_t i = 0; i < G->nev; i++) x = mix(x, s->group_ev[G->ev_off + i]);
        acc += x;
    }
    d->h_grp = acc;
    acc = 0;
    for (uint32_t c = 0; c < s->ncols; c++) {
        const Column *C = &s->cols[c];
        uint64_t x = mix(hbytes(C->name, strlen(C->name)), (uint64_t)C->field);
        x = mix(x, C->type);
        if (C->sparse) {
            for (size_t i = 0; i < C->npresent; i++) x = mix(mix(x, C->rows[i]), hcolval(s, C, i));
        } else {
            for (size_t e = 0; e < s->n; e++)
                if (!C->bits || ((C->bits[e >> 6] >> (e & 63)) & 1)) x = mix(mix(x, e), hcolval(s, C, e));
        }
        acc += x;
    }
    d->h_col = acc;
}

static void load_digest(const Run *r, Digest *d)
{
    if (r->chunk > 0) {
        char b[24];
        snprintf(b, sizeof b, "%d", r->chunk);
        setenv("TNAV_CHUNK_BYTES", b, 1);
    } else {
        unsetenv("TNAV_CHUNK_BYTES");
    }
    LoadOpts o;
    load_opts_default(&o);
    o.format = r->format;
    o.csv_engine = r->engine;
    o.threads = r->threads;
    o.unit_exp = r->unit_exp;
    o.keep_all_rejects = r->keep_all;
    o.strict = r->strict;
    o.report = g_devnull;
    char *paths[1] = {g_path};
    if (r->file) {
        if (!g_written) write_input((const uint8_t *)g_mem, g_mem_len);
        g_written = true;
    } else {
        o.mem = g_mem;
        o.mem_len = g_mem_len;
    }
    Store *s = NULL;
    LoadReport rep;
    int rc = load_traces(&o, paths, 1, &s, &rep);
    unsetenv("TNAV_CHUNK_BYTES");
    if (rc == 0) {
        if (!s) {
            fprintf(stderr, FUZZ_NAME ": load_traces returned 0 without a store\n");
            abort();
        }
        const char *bad = store_check(s);
        if (bad) {
            fprintf(stderr, FUZZ_NAME ": store_check (engine %d, threads %d, chunk %d): %s\n", r->engine, r->threads,
                    r->chunk, bad);
            abort();
        }
    } else if (s) {
        fprintf(stderr, FUZZ_NAME ": load_traces returned %d with a store\n", rc);
        abort();
    }
    digest(s, &rep, rc, d);
    store_free(s);
    load_report_free(&rep);
}

static void compare(const Digest *a, const Digest *b, const char *what)
{
    bool same = true;
#define CMP(f)                                                                                                       \
    if (a->f != b->f) {                                                                                              \
        fprintf(stderr, FUZZ_NAME ": %s: %s differs: %llu != %llu\n", what, #f, (unsigned long long)a->f,             \
                (unsigned long long)b->f);                                                                           \
        same = false;                                                                                                \
    }
    CMP(rc) CMP(format) CMP(events) CMP(rejected) CMP(incomplete) CMP(nrej_kept) CMP(h_rej)
    CMP(n) CMP(nloc) CMP(nact) CMP(nmsg) CMP(ngroups) CMP(ncols) CMP(nukind) CMP(nmoves) CMP(nev_msg) CMP(nev_group)
    CMP(unmatched_send) CMP(unmatched_recv) CMP(max_depth) CMP(t_min) CMP(t_max)
    CMP(sum_ts) CMP(sum_dur) CMP(sum_kind) CMP(sum_name)
    CMP(h_ev) CMP(h_loc) CMP(h_act) CMP(h_msg) CMP(h_grp) CMP(h_col)
#undef CMP
    if (a->blank != b->blank && !getenv("FUZZ_IGNORE_BLANK")) {
        fprintf(stderr, FUZZ_NAME ": %s: blank differs: %llu != %llu\n", what, (unsigned long long)a->blank,
                (unsigned long long)b->blank);
        same = false;
    }
    if (!same) abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    harness_init();
    return 0;
}

#endif
