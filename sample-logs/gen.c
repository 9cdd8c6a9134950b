/*
 * sample-logs/gen.c — synthetic trace generator for tnav (benchmarks, scale
 * tests, and the small bundled sample traces).
 *
 * Owns: the `gen` program only — simulation of the program shapes (mpi,
 * tasks, wide, ring, x10, mw) and writing them as CSV or NDJSON in tnav's
 * canonical fields.  It shares no code with tnav itself.
 *
 * Invariants:
 *  - Deterministic: the output bytes depend only on the options and --seed
 *    (a splitmix64 PRNG, integer arithmetic only, no clocks, no addresses).
 *  - The output is a valid trace in tnav's format: every message id occurs
 *    exactly once as a send (at the source, peer = destination) and once as
 *    a recv (at the destination, peer = source) with the same tag and
 *    recv ts >= send ts; every sync group names one barrier/finish instance;
 *    a finish's sync ends exactly at the latest `end` of that group (tasks:
 *    or 100 ns after it began, when every child had already ended);
 *    intervals of one activity either nest or do not overlap; a spawned
 *    activity's first event carries `parent`.
 *  - --order time: rows sorted by ts (ties keep generation order, so an
 *    enclosing interval precedes the intervals it contains); --order loc:
 *    rows grouped by loc in ascending order, each group sorted the same way.
 *    Both orders hold exactly the same rows.
 *  - mpi shape: exactly --events rows whenever N is at least the fixed
 *    start-up + shut-down cost of 4T-1 rows per rank (7 with 2 threads);
 *    below that, that minimum is written (with a note on stderr).
 *  - wide shape: the mpi shape with 10,000 ranks unless --ranks says
 *    otherwise (the same bytes as `--shape mpi --ranks 10000`); it needs
 *    N >= 70,000 with 2 threads to write exactly N rows.
 *  - tasks shape: exactly --events rows (at least 10); every activity (task)
 *    has 10..100 events; every event has `file` and `line`; message ids are
 *    the strings `m<n>`, groups `finish-<n>`, activities `t<n>`.
 *
 * Build: gcc -std=c11 -O2 -Wall -Wextra -Werror -D_GNU_SOURCE \
 *            -o sample-logs/gen sample-logs/gen.c -lm
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Event kinds, flags, names                                           */

enum {
    K_STATE, K_SEND, K_RECV, K_MSG, K_SPAWN, K_END, K_MOVE, K_SYNC,
    K_ATOMIC, K_COUNTER, K_MARK, K__N
};
static const char *const KIND_STR[K__N] = {
    "state", "send", "recv", "msg", "spawn", "end", "move", "sync",
    "atomic", "counter", "mark"
};

enum {
    EF_DUR = 1u << 0, EF_PEER = 1u << 1, EF_BYTES = 1u << 2,
    EF_ID = 1u << 3,      /* numeric message id */
    EF_IDLABEL = 1u << 4, /* id is an activity label (spawn) */
    EF_TAG = 1u << 5, EF_GROUP = 1u << 6, EF_PARENT = 1u << 7,
    EF_VALUE = 1u << 8, EF_CPU = 1u << 9,
    EF_SRC = 1u << 10,    /* file and line */
    EF_IDSTR = 1u << 11   /* message id written as the string "m<id>" */
};

enum { G_BARRIER, G_FINISH, G_FINISH_DASH };
static const char *const GROUP_STR[] = { "barrier:", "finish:", "finish-" };

/* Region / function names.  Index 0 means "no name". */
enum {
    N_NONE,
    /* mpi shape */
    N_TIMESTEP, N_NEIGHBOR, N_FORCES, N_NONBONDED, N_BONDED, N_BOUNDARY,
    N_HALO, N_PACK, N_UNPACK, N_MPI_SEND, N_MPI_RECV, N_MPI_ALLREDUCE,
    N_MPI_BARRIER, N_MPI_INIT, N_MPI_FINALIZE, N_INTEGRATE, N_SOLVE, N_SPMV,
    N_DOT, N_REDUCE_ENERGY, N_IO_WRITE, N_CHECKPOINT_WRITE, N_THREAD_INIT,
    N_OMP_FOR, N_ACCUMULATE, N_FLOPS, N_MEM_MB, N_ITER_BEGIN, N_CHECKPOINT,
    /* small shapes */
    N_MAIN, N_COMPUTE, N_FINISH, N_WORK, N_REMOTE_WORK, N_COMBINE, N_REPORT,
    N_UPDATE_TOTAL, N_UPDATE_HISTOGRAM, N_TASK,
    N__N
};
static const char *const NAME_STR[N__N] = {
    "",
    /* mpi: an MD-style C++ code (demangled, namespace-qualified names as a
     * profiler shows them) plus the MPI calls */
    "mdsim::integrate::Integrator::timestep", "mdsim::force::NeighborList::build_neighbor_list",
    "mdsim::force::ForceField::compute_forces", "mdsim::force::ForceField::compute_nonbonded",
    "mdsim::force::ForceField::compute_bonded", "mdsim::domain::Domain::apply_boundary_conditions",
    "mdsim::domain::Domain::update_halo", "mdsim::domain::Domain::pack_buffer",
    "mdsim::domain::Domain::unpack_buffer", "MPI_Send", "MPI_Recv", "MPI_Allreduce", "MPI_Barrier",
    "MPI_Init", "MPI_Finalize", "mdsim::integrate::Integrator::integrate_positions",
    "mdsim::solver::PressureSolver::solve_pressure", "mdsim::solver::PressureSolver::sparse_matvec",
    "mdsim::solver::PressureSolver::dot_product", "mdsim::analysis::Thermo::reduce_energy",
    "mdsim::io::Output::io_write", "mdsim::io::Output::checkpoint_write", "omp_thread_init",
    "mdsim::force::ForceField::compute_nonbonded._omp_fn.0", "mdsim::analysis::Thermo::accumulate_energy",
    "flops", "mem_mb", "iteration_begin", "checkpoint",
    /* small shapes: short plain names */
    "main", "compute", "finish", "work", "remote_work", "combine", "report",
    "update_total", "update_histogram", "task",
};

#define MAX_NAME 64
#define MAXROW 1024 /* upper bound of one formatted row (names <= 64 B) */

/* The name table: the fixed names above, then the names a shape adds
 * (name_add), each pre-escaped for CSV and JSON.  Ev.name indexes it. */
static char **name_csv, **name_json;
static uint16_t *name_csv_len, *name_json_len;
static uint32_t nnames, names_cap;

/* Escape a field for CSV (RFC 4180: quote only when needed). */
static size_t csv_escape(char *dst, const char *s)
{
    size_t n = strlen(s), k = 0;
    if (strpbrk(s, ",\"\r\n") == NULL) {
        memcpy(dst, s, n);
        return n;
    }
    dst[k++] = '"';
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"')
            dst[k++] = '"';
        dst[k++] = s[i];
    }
    dst[k++] = '"';
    return k;
}

/* Escape a string as a JSON string literal, quotes included. */
static size_t json_escape(char *dst, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    size_t k = 0;
    dst[k++] = '"';
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        unsigned char c = *p;
        if (c == '"' || c == '\\') {
            dst[k++] = '\\';
            dst[k++] = (char)c;
        } else if (c == '\n') {
            dst[k++] = '\\';
            dst[k++] = 'n';
        } else if (c == '\t') {
            dst[k++] = '\\';
            dst[k++] = 't';
        } else if (c == '\r') {
            dst[k++] = '\\';
            dst[k++] = 'r';
        } else if (c < 0x20) {
            memcpy(dst + k, "\\u00", 4);
            k += 4;
            dst[k++] = hex[c >> 4];
            dst[k++] = hex[c & 15];
        } else {
            dst[k++] = (char)c;
        }
    }
    dst[k++] = '"';
    return k;
}

static void *xrealloc(void *p, size_t n);

/* Add a name (at most MAX_NAME bytes) to the table; returns its index. */
static uint32_t name_add(const char *s)
{
    if (strlen(s) > MAX_NAME || nnames >= UINT16_MAX) {
        fprintf(stderr, "gen: internal error: name too long or too many names\n");
        exit(1);
    }
    if (nnames == names_cap) {
        names_cap = names_cap ? names_cap * 2 : 64;
        name_csv = xrealloc(name_csv, names_cap * sizeof *name_csv);
        name_json = xrealloc(name_json, names_cap * sizeof *name_json);
        name_csv_len = xrealloc(name_csv_len, names_cap * sizeof *name_csv_len);
        name_json_len = xrealloc(name_json_len, names_cap * sizeof *name_json_len);
    }
    char csv[MAX_NAME * 2 + 8], json[6 * MAX_NAME + 8];
    size_t nc = csv_escape(csv, s), nj = json_escape(json, s);
    name_csv[nnames] = xrealloc(NULL, nc);
    memcpy(name_csv[nnames], csv, nc);
    name_csv_len[nnames] = (uint16_t)nc;
    name_json[nnames] = xrealloc(NULL, nj);
    memcpy(name_json[nnames], json, nj);
    name_json_len[nnames] = (uint16_t)nj;
    return nnames++;
}

static void names_init(void)
{
    for (int i = 0; i < N__N; i++)
        name_add(NAME_STR[i]);
}

static void names_free(void)
{
    for (uint32_t i = 0; i < nnames; i++) {
        free(name_csv[i]);
        free(name_json[i]);
    }
    free(name_csv);
    free(name_json);
    free(name_csv_len);
    free(name_json_len);
}

/* ------------------------------------------------------------------ */
/* PRNG: splitmix64                                                    */

typedef struct { uint64_t s; } Rng;

static inline uint64_t rng_next(Rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform integer in [0, n), n >= 1. */
static inline uint32_t rnd(Rng *r, uint32_t n)
{
    return (uint32_t)(((rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

/* ------------------------------------------------------------------ */
/* Events                                                              */

typedef struct {
    uint64_t ts, dur, id; /* id: message id, or label code when EF_IDLABEL */
    int64_t value;
    uint32_t loc, peer, bytes, act, parent, group_n;
    uint16_t flags, name, cpu;
    uint16_t file, line; /* EF_SRC: index into the file table, line number */
    uint8_t kind, tag, group_type;
} Ev;

/* Activity label codes.  Style DOT: code = rank << 8 | thread, written
 * "rank.thread".  Style A: code = n, written "a<n>"; style T: "t<n>". */
enum { LBL_DOT, LBL_A, LBL_T };

typedef struct {
    int format;   /* 0 csv, 1 ndjson */
    int by_loc;   /* --order loc */
    int label_style;
    int has_cpu;  /* write the extra `cpu` column */
    int has_src;  /* write the `file` and `line` columns */
    uint32_t nloc;

    Ev *ev;       /* events of the current phase (not yet emitted) */
    size_t n, cap;
    uint64_t emitted;

    /* sort scratch */
    struct Key { uint64_t ts; uint32_t loc, idx; } *key, *tmp;
    size_t kcap;

    /* output */
    FILE *out;
    char *obuf;
    size_t olen, ocap;
    const char *oname;

    /* --order loc: per-loc buffers spilled to one temporary file */
    FILE *spill;
    char **lbuf;
    size_t *llen;
    size_t lcap;
    struct Chunk { long off; size_t len; uint32_t loc; } *chunks;
    size_t nchunks, chunkcap;
    long spill_pos;
} Gen;

static Gen G;

/* --answers FILE (ring and mw): what the analyses must find, known by
 * construction — per rank its useful time (main's self time plus its
 * compute: main minus every non-state interval inside it), the
 * late-sender waits it suffered and caused, its barrier waits and the
 * barriers it was last at; the makespan. */
typedef struct {
    int on;
    uint32_t nloc;
    uint64_t *main_dur, *nonstate, *ls_wait, *ls_caused, *bar_wait, *bar_last, *bar_caused;
    uint64_t t_min, t_max;
} Answers;
static Answers ANS;

static void ans_init(uint32_t nloc)
{
    ANS.nloc = nloc;
    uint64_t **arr[] = {&ANS.main_dur, &ANS.nonstate, &ANS.ls_wait, &ANS.ls_caused, &ANS.bar_wait, &ANS.bar_last,
                        &ANS.bar_caused};
    for (size_t k = 0; k < sizeof arr / sizeof *arr; k++) {
        *arr[k] = malloc(nloc * sizeof(uint64_t));
        if (!*arr[k]) {
            fputs("gen: out of memory\n", stderr);
            exit(1);
        }
        memset(*arr[k], 0, nloc * sizeof(uint64_t));
    }
    ANS.t_min = UINT64_MAX;
}

/* a receive at recv_ts lasting dur whose send started at send_ts */
static void ans_late_sender(uint32_t victim, uint32_t culprit, uint64_t recv_ts, uint64_t dur, uint64_t send_ts)
{
    if (!ANS.on || send_ts <= recv_ts) return;
    uint64_t w = send_ts - recv_ts;
    if (w > dur) w = dur;
    ANS.ls_wait[victim] += w;
    ANS.ls_caused[culprit] += w;
}

static void die_io(const char *what)
{
    fprintf(stderr, "gen: %s: %s\n", what, strerror(errno));
    exit(1);
}

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fprintf(stderr, "gen: out of memory\n");
        exit(1);
    }
    return q;
}

static size_t ev_new(uint32_t kind)
{
    if (G.n == G.cap) {
        G.cap = G.cap ? G.cap * 2 : 4096;
        G.ev = xrealloc(G.ev, G.cap * sizeof *G.ev);
    }
    Ev *e = &G.ev[G.n];
    memset(e, 0, sizeof *e);
    e->kind = (uint8_t)kind;
    return G.n++;
}

/* An activity's context: where it runs and how it is labelled. */
typedef struct {
    uint32_t loc, act, parent;
    uint16_t cpu;
    int has_cpu;
    int need_parent; /* the next event is its first one: write `parent` */
} Ctx;

static size_t push(Ctx *c, uint32_t kind, uint32_t name, uint64_t ts)
{
    size_t i = ev_new(kind);
    Ev *e = &G.ev[i];
    e->ts = ts;
    e->loc = c->loc;
    e->act = c->act;
    e->name = (uint16_t)name;
    if (c->has_cpu) {
        e->flags |= EF_CPU;
        e->cpu = c->cpu;
    }
    if (c->need_parent) {
        e->flags |= EF_PARENT;
        e->parent = c->parent;
        c->need_parent = 0;
    }
    return i;
}

/* Interval helpers.  `open` starts an interval whose end is set by
 * `close`; `span` writes a complete interval. */
static size_t open_iv(Ctx *c, uint32_t kind, uint32_t name, uint64_t ts)
{
    size_t i = push(c, kind, name, ts);
    G.ev[i].flags |= EF_DUR;
    return i;
}

static void close_iv(size_t i, uint64_t end)
{
    G.ev[i].dur = end - G.ev[i].ts;
    if (ANS.on && G.ev[i].loc < ANS.nloc) { /* (ring, mw: main) */
        ANS.main_dur[G.ev[i].loc] += G.ev[i].dur;
        if (G.ev[i].ts < ANS.t_min) ANS.t_min = G.ev[i].ts;
        if (end > ANS.t_max) ANS.t_max = end;
    }
}

static size_t span(Ctx *c, uint32_t kind, uint32_t name, uint64_t ts, uint64_t dur)
{
    size_t i = open_iv(c, kind, name, ts);
    G.ev[i].dur = dur;
    if (ANS.on && kind != K_STATE && c->loc < ANS.nloc) ANS.nonstate[c->loc] += dur;
    return i;
}

static void set_msg(size_t i, uint32_t peer, uint32_t bytes, uint64_t id, uint32_t tag)
{
    Ev *e = &G.ev[i];
    e->flags |= EF_PEER | EF_BYTES | EF_ID | EF_TAG;
    e->peer = peer;
    e->bytes = bytes;
    e->id = id;
    e->tag = (uint8_t)tag;
}

static void set_group(size_t i, int type, uint32_t n)
{
    G.ev[i].flags |= EF_GROUP;
    G.ev[i].group_type = (uint8_t)type;
    G.ev[i].group_n = n;
}

/* ------------------------------------------------------------------ */
/* Formatting                                                          */

static const char DIGITS2[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

static inline char *put_u64(char *p, uint64_t v)
{
    char tmp[24];
    char *q = tmp + sizeof tmp;
    while (v >= 100) {
        unsigned d = (unsigned)(v % 100) * 2;
        v /= 100;
        *--q = DIGITS2[d + 1];
        *--q = DIGITS2[d];
    }
    if (v >= 10) {
        unsigned d = (unsigned)v * 2;
        *--q = DIGITS2[d + 1];
        *--q = DIGITS2[d];
    } else {
        *--q = (char)('0' + v);
    }
    size_t n = (size_t)(tmp + sizeof tmp - q);
    memcpy(p, q, n);
    return p + n;
}

static inline char *put_i64(char *p, int64_t v)
{
    if (v < 0) {
        *p++ = '-';
        return put_u64(p, (uint64_t)0 - (uint64_t)v);
    }
    return put_u64(p, (uint64_t)v);
}

static inline char *put_str(char *p, const char *s, size_t n)
{
    memcpy(p, s, n);
    return p + n;
}

#define PUT_LIT(p, s) put_str((p), (s), sizeof(s) - 1)

static inline char *put_label(char *p, uint32_t code)
{
    if (G.label_style == LBL_DOT) {
        p = put_u64(p, code >> 8);
        *p++ = '.';
        return put_u64(p, code & 0xff);
    }
    *p++ = G.label_style == LBL_A ? 'a' : 't';
    return put_u64(p, code);
}

/* Source files (the tasks shape): paths without characters that need
 * quoting in CSV or escaping in JSON. */
static char **file_str;
static uint8_t *file_len;
static uint32_t nfiles;

static inline char *put_group(char *p, const Ev *e)
{
    const char *g = GROUP_STR[e->group_type];
    p = put_str(p, g, strlen(g));
    return put_u64(p, e->group_n);
}

static const char CSV_HEADER[] =
    "ts,dur,loc,act,kind,name,peer,bytes,id,tag,group,parent,value";

static size_t fmt_csv(char *buf, const Ev *e)
{
    char *p = buf;
    unsigned f = e->flags;
    p = put_u64(p, e->ts);
    *p++ = ',';
    if (f & EF_DUR)
        p = put_u64(p, e->dur);
    *p++ = ',';
    p = put_u64(p, e->loc);
    *p++ = ',';
    p = put_label(p, e->act);
    *p++ = ',';
    p = put_str(p, KIND_STR[e->kind], strlen(KIND_STR[e->kind]));
    *p++ = ',';
    p = put_str(p, name_csv[e->name], name_csv_len[e->name]);
    *p++ = ',';
    if (f & EF_PEER)
        p = put_u64(p, e->peer);
    *p++ = ',';
    if (f & EF_BYTES)
        p = put_u64(p, e->bytes);
    *p++ = ',';
    if (f & EF_ID)
        p = put_u64(p, e->id);
    else if (f & EF_IDLABEL)
        p = put_label(p, (uint32_t)e->id);
    else if (f & EF_IDSTR) {
        *p++ = 'm';
        p = put_u64(p, e->id);
    }
    *p++ = ',';
    if (f & EF_TAG)
        p = put_u64(p, e->tag);
    *p++ = ',';
    if (f & EF_GROUP)
        p = put_group(p, e);
    *p++ = ',';
    if (f & EF_PARENT)
        p = put_label(p, e->parent);
    *p++ = ',';
    if (f & EF_VALUE)
        p = put_i64(p, e->value);
    if (G.has_cpu) {
        *p++ = ',';
        if (f & EF_CPU)
            p = put_u64(p, e->cpu);
    }
    if (G.has_src) {
        *p++ = ',';
        if (f & EF_SRC)
            p = put_str(p, file_str[e->file], file_len[e->file]);
        *p++ = ',';
        if (f & EF_SRC)
            p = put_u64(p, e->line);
    }
    *p++ = '\n';
    return (size_t)(p - buf);
}

static size_t fmt_json(char *buf, const Ev *e)
{
    char *p = buf;
    unsigned f = e->flags;
    p = PUT_LIT(p, "{\"ts\":");
    p = put_u64(p, e->ts);
    if (f & EF_DUR) {
        p = PUT_LIT(p, ",\"dur\":");
        p = put_u64(p, e->dur);
    }
    p = PUT_LIT(p, ",\"loc\":");
    p = put_u64(p, e->loc);
    p = PUT_LIT(p, ",\"act\":\"");
    p = put_label(p, e->act);
    p = PUT_LIT(p, "\",\"kind\":\"");
    p = put_str(p, KIND_STR[e->kind], strlen(KIND_STR[e->kind]));
    *p++ = '"';
    if (e->name != N_NONE) {
        p = PUT_LIT(p, ",\"name\":");
        p = put_str(p, name_json[e->name], name_json_len[e->name]);
    }
    if (f & EF_PEER) {
        p = PUT_LIT(p, ",\"peer\":");
        p = put_u64(p, e->peer);
    }
    if (f & EF_BYTES) {
        p = PUT_LIT(p, ",\"bytes\":");
        p = put_u64(p, e->bytes);
    }
    if (f & EF_ID) {
        p = PUT_LIT(p, ",\"id\":");
        p = put_u64(p, e->id);
    } else if (f & EF_IDLABEL) {
        p = PUT_LIT(p, ",\"id\":\"");
        p = put_label(p, (uint32_t)e->id);
        *p++ = '"';
    } else if (f & EF_IDSTR) {
        p = PUT_LIT(p, ",\"id\":\"m");
        p = put_u64(p, e->id);
        *p++ = '"';
    }
    if (f & EF_TAG) {
        p = PUT_LIT(p, ",\"tag\":");
        p = put_u64(p, e->tag);
    }
    if (f & EF_GROUP) {
        p = PUT_LIT(p, ",\"group\":\"");
        p = put_group(p, e);
        *p++ = '"';
    }
    if (f & EF_PARENT) {
        p = PUT_LIT(p, ",\"parent\":\"");
        p = put_label(p, e->parent);
        *p++ = '"';
    }
    if (f & EF_VALUE) {
        p = PUT_LIT(p, ",\"value\":");
        p = put_i64(p, e->value);
    }
    if (f & EF_CPU) {
        p = PUT_LIT(p, ",\"cpu\":");
        p = put_u64(p, e->cpu);
    }
    if (f & EF_SRC) {
        p = PUT_LIT(p, ",\"file\":\"");
        p = put_str(p, file_str[e->file], file_len[e->file]);
        p = PUT_LIT(p, "\",\"line\":");
        p = put_u64(p, e->line);
    }
    *p++ = '}';
    *p++ = '\n';
    return (size_t)(p - buf);
}

/* ------------------------------------------------------------------ */
/* Output                                                              */

#define OBUF_SIZE (1u << 20)

static void out_flush(void)
{
    if (G.olen && fwrite(G.obuf, 1, G.olen, G.out) != G.olen)
        die_io(G.oname);
    G.olen = 0;
}

static void out_write(const char *s, size_t n)
{
    if (G.olen + n > G.ocap)
        out_flush();
    if (n > G.ocap) {
        if (fwrite(s, 1, n, G.out) != n)
            die_io(G.oname);
        return;
    }
    memcpy(G.obuf + G.olen, s, n);
    G.olen += n;
}

static void spill_loc(uint32_t loc)
{
    if (!G.llen[loc])
        return;
    if (!G.spill) {
        G.spill = tmpfile();
        if (!G.spill)
            die_io("temporary file");
    }
    if (fwrite(G.lbuf[loc], 1, G.llen[loc], G.spill) != G.llen[loc])
        die_io("temporary file");
    if (G.nchunks == G.chunkcap) {
        G.chunkcap = G.chunkcap ? G.chunkcap * 2 : 256;
        G.chunks = xrealloc(G.chunks, G.chunkcap * sizeof *G.chunks);
    }
    G.chunks[G.nchunks].off = G.spill_pos;
    G.chunks[G.nchunks].len = G.llen[loc];
    G.chunks[G.nchunks].loc = loc;
    G.nchunks++;
    G.spill_pos += (long)G.llen[loc];
    G.llen[loc] = 0;
}

static void out_begin(uint32_t nloc)
{
    G.nloc = nloc;
    G.ocap = OBUF_SIZE;
    G.obuf = xrealloc(NULL, G.ocap);
    if (G.format == 0) {
        out_write(CSV_HEADER, sizeof CSV_HEADER - 1);
        if (G.has_cpu)
            out_write(",cpu", 4);
        if (G.has_src)
            out_write(",file,line", 10);
        out_write("\n", 1);
    }
    if (G.by_loc) {
        size_t per = (64u << 20) / (nloc ? nloc : 1);
        if (per > OBUF_SIZE)
            per = OBUF_SIZE;
        if (per < 16384)
            per = 16384;
        G.lcap = per;
        G.lbuf = xrealloc(NULL, nloc * sizeof *G.lbuf);
        G.llen = xrealloc(NULL, nloc * sizeof *G.llen);
        for (uint32_t i = 0; i < nloc; i++) {
            G.lbuf[i] = NULL;
            G.llen[i] = 0;
        }
    }
}

static void out_end(void)
{
    if (G.by_loc) {
        /* Chunks of one loc were spilled in order; a stable pass per loc
         * over the chunk list (sorted by loc, counting sort) restores them. */
        size_t *start = xrealloc(NULL, (G.nloc + 1) * sizeof *start);
        size_t *order = xrealloc(NULL, (G.nchunks ? G.nchunks : 1) * sizeof *order);
        memset(start, 0, (G.nloc + 1) * sizeof *start);
        for (size_t c = 0; c < G.nchunks; c++)
            start[G.chunks[c].loc + 1]++;
        for (uint32_t l = 0; l < G.nloc; l++)
            start[l + 1] += start[l];
        for (size_t c = 0; c < G.nchunks; c++)
            order[start[G.chunks[c].loc]++] = c;
        size_t c = 0;
        for (uint32_t l = 0; l < G.nloc; l++) {
            for (; c < G.nchunks && G.chunks[order[c]].loc == l; c++) {
                const struct Chunk *ch = &G.chunks[order[c]];
                out_flush();
                if (fseek(G.spill, ch->off, SEEK_SET) != 0)
                    die_io("temporary file");
                size_t left = ch->len;
                while (left) {
                    size_t want = left < G.ocap ? left : G.ocap;
                    if (fread(G.obuf, 1, want, G.spill) != want)
                        die_io("temporary file");
                    G.olen = want;
                    out_flush();
                    left -= want;
                }
            }
            if (G.llen[l])
                out_write(G.lbuf[l], G.llen[l]);
            free(G.lbuf[l]);
        }
        free(start);
        free(order);
        free(G.lbuf);
        free(G.llen);
        free(G.chunks);
        if (G.spill)
            fclose(G.spill);
    }
    out_flush();
    if (fflush(G.out) != 0)
        die_io(G.oname);
}

/* ------------------------------------------------------------------ */
/* Sorting and emitting a phase                                        */

static inline int key_less(const struct Key *a, const struct Key *b, int by_loc)
{
    if (by_loc && a->loc != b->loc)
        return a->loc < b->loc;
    if (a->ts != b->ts)
        return a->ts < b->ts;
    return a->idx < b->idx;
}

/* Stable bottom-up merge sort (insertion-sorted runs of 32). */
static void sort_keys(struct Key *a, struct Key *t, size_t n, int by_loc)
{
    const size_t RUN = 32;
    for (size_t lo = 0; lo < n; lo += RUN) {
        size_t hi = lo + RUN < n ? lo + RUN : n;
        for (size_t i = lo + 1; i < hi; i++) {
            struct Key k = a[i];
            size_t j = i;
            while (j > lo && key_less(&k, &a[j - 1], by_loc)) {
                a[j] = a[j - 1];
                j--;
            }
            a[j] = k;
        }
    }
    struct Key *src = a, *dst = t;
    for (size_t w = RUN; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n;
            size_t hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                dst[k++] = key_less(&src[j], &src[i], by_loc) ? src[j++] : src[i++];
            while (i < mid)
                dst[k++] = src[i++];
            while (j < hi)
                dst[k++] = src[j++];
        }
        struct Key *x = src;
        src = dst;
        dst = x;
    }
    if (src != a)
        memcpy(a, src, n * sizeof *a);
}

/* Sort the events of the current phase and write them out.  A phase must
 * end at a time fence: no later phase has an event before its last one
 * (per loc for --order loc, globally for --order time). */
static void flush_phase(void)
{
    if (G.n > G.kcap) {
        G.kcap = G.n * 2;
        G.key = xrealloc(G.key, G.kcap * sizeof *G.key);
        G.tmp = xrealloc(G.tmp, G.kcap * sizeof *G.tmp);
    }
    for (size_t i = 0; i < G.n; i++) {
        G.key[i].ts = G.ev[i].ts;
        G.key[i].loc = G.ev[i].loc;
        G.key[i].idx = (uint32_t)i;
    }
    sort_keys(G.key, G.tmp, G.n, G.by_loc);
    size_t (*fmt)(char *, const Ev *) = G.format ? fmt_json : fmt_csv;
    if (!G.by_loc) {
        for (size_t i = 0; i < G.n; i++) {
            if (G.olen + MAXROW > G.ocap)
                out_flush();
            G.olen += fmt(G.obuf + G.olen, &G.ev[G.key[i].idx]);
        }
    } else {
        for (size_t i = 0; i < G.n; i++) {
            const Ev *e = &G.ev[G.key[i].idx];
            uint32_t l = e->loc;
            if (!G.lbuf[l])
                G.lbuf[l] = xrealloc(NULL, G.lcap);
            if (G.llen[l] + MAXROW > G.lcap)
                spill_loc(l);
            G.llen[l] += fmt(G.lbuf[l] + G.llen[l], e);
        }
    }
    G.emitted += G.n;
    G.n = 0;
}

/* ------------------------------------------------------------------ */
/* Shape: mpi (benchmark)                                              */

typedef struct {
    uint32_t src, dst, bytes, tag;
    uint64_t id, ts;
} Msg;

typedef struct {
    uint32_t R, T, straggler;
    uint64_t target;
    Rng rng;
    uint64_t next_id;
    Ctx *ctx;          /* R*T */
    uint64_t *t;       /* per-thread clock, R*T */
    uint64_t *arrive;  /* barrier arrival, R*T */
    size_t *open_ts;   /* index of the open `timestep` per rank */
    size_t *open_halo;
    Msg *msg;
    size_t nmsg, msgcap;
    uint32_t *inb_start; /* R+1 */
    uint32_t *inb;       /* message indices bucketed by destination */
} Mpi;

static uint32_t log2u(uint32_t v)
{
    uint32_t l = 0;
    while (v > 1) {
        v >>= 1;
        l++;
    }
    return l;
}

/* Duration around a median: uniform in [0.7, 1.3] x median, a rare 4x
 * spike (OS noise), and +20% on the straggler rank when `compute`. */
static uint64_t vdur(Mpi *m, uint64_t median, uint32_t rank, int compute)
{
    uint64_t d = median * (700 + rnd(&m->rng, 601)) / 1000;
    if (rnd(&m->rng, 512) == 0)
        d *= 4;
    if (compute && rank == m->straggler)
        d += d / 5;
    return d ? d : 1;
}

/* A state of `median` ns at the thread's clock, then a small gap. */
static void mpi_state(Mpi *m, uint32_t r, uint32_t th, uint32_t name,
                      uint64_t median, int compute)
{
    size_t k = (size_t)r * m->T + th;
    uint64_t d = vdur(m, median, r, compute);
    span(&m->ctx[k], K_STATE, name, m->t[k], d);
    m->t[k] += d + 100 + rnd(&m->rng, 400);
}

/* Enclosing state: open at the clock; children follow after a short gap. */
static size_t mpi_open(Mpi *m, uint32_t r, uint32_t th, uint32_t name)
{
    size_t k = (size_t)r * m->T + th;
    size_t i = open_iv(&m->ctx[k], K_STATE, name, m->t[k]);
    m->t[k] += 200 + rnd(&m->rng, 200);
    return i;
}

static void mpi_close(Mpi *m, uint32_t r, uint32_t th, size_t i)
{
    size_t k = (size_t)r * m->T + th;
    close_iv(i, m->t[k]);
    m->t[k] += 100 + rnd(&m->rng, 300);
}

/* Message size: 8 B .. 1 MiB, heavily skewed towards small messages. */
static uint32_t msg_bytes(Rng *rng)
{
    uint32_t a = rnd(rng, 18), b = rnd(rng, 18);
    uint32_t e = 3 + (a * b) / 17; /* 3..20 */
    uint32_t v = 1u << e;
    if (e > 3 && e < 20)
        v += rnd(rng, v) & ~7u;
    return v;
}

/* Barrier over every thread of every rank; returns the exit time. */
static uint64_t mpi_barrier(Mpi *m, uint32_t k)
{
    uint64_t last = 0;
    size_t n = (size_t)m->R * m->T;
    for (size_t i = 0; i < n; i++)
        if (m->arrive[i] > last)
            last = m->arrive[i];
    uint64_t exit_t = last + 1500 + 250 * (uint64_t)log2u(m->R * m->T);
    for (size_t i = 0; i < n; i++) {
        size_t e = span(&m->ctx[i], K_SYNC, N_MPI_BARRIER, m->arrive[i], exit_t - m->arrive[i]);
        set_group(e, G_BARRIER, k);
    }
    return exit_t;
}

static void mpi_init_phase(Mpi *m)
{
    for (uint32_t r = 0; r < m->R; r++) {
        size_t k0 = (size_t)r * m->T;
        m->t[k0] = 1000000000ull + (r ? 1000 * (uint64_t)rnd(&m->rng, 200) : 0);
        mpi_state(m, r, 0, N_MPI_INIT, 6000000, 0);
        for (uint32_t th = 1; th < m->T; th++) {
            size_t e = push(&m->ctx[k0], K_SPAWN, N_NONE, m->t[k0]);
            G.ev[e].flags |= EF_IDLABEL | EF_PEER;
            G.ev[e].id = (r << 8) | th;
            G.ev[e].peer = r;
            m->t[k0 + th] = m->t[k0] + 3000 + rnd(&m->rng, 2000);
            m->t[k0] += 1500 + rnd(&m->rng, 500);
            mpi_state(m, r, th, N_THREAD_INIT, 40000, 0);
            m->arrive[k0 + th] = m->t[k0 + th];
        }
        m->arrive[k0] = m->t[k0];
    }
}

/* One timestep of every rank followed by a barrier over all threads.
 * Returns the barrier exit time (a time fence: nothing of this round is
 * at or after it, nothing of the next round before it). */
static uint64_t mpi_round(Mpi *m, uint32_t k, uint64_t t0)
{
    const uint32_t R = m->R, T = m->T;
    Rng *rng = &m->rng;
    static const uint8_t NSEND[6] = { 1, 2, 3, 4, 2, 4 }; /* mean 8/3 */

    /* Phase A (thread 0): timestep start, forces. */
    for (uint32_t r = 0; r < R; r++) {
        size_t k0 = (size_t)r * T;
        m->t[k0] = t0 + 200 + rnd(rng, 800);
        m->open_ts[r] = mpi_open(m, r, 0, N_TIMESTEP);
        if (rnd(rng, 3) < 2) {
            uint32_t nm = (k % 50 == 0) ? N_CHECKPOINT : N_ITER_BEGIN;
            push(&m->ctx[k0], K_MARK, nm, m->t[k0]);
            m->t[k0] += 100;
        }
        if (k % 10 == 1)
            mpi_state(m, r, 0, N_NEIGHBOR, 1200000, 1);
        size_t f = mpi_open(m, r, 0, N_FORCES);
        mpi_state(m, r, 0, N_NONBONDED, 1800000, 1);
        mpi_state(m, r, 0, N_BONDED, 300000, 1);
        mpi_close(m, r, 0, f);
        if (rnd(rng, 2))
            mpi_state(m, r, 0, N_BOUNDARY, 25000, 1);
    }

    /* Phase B (thread 0): halo exchange, sends. */
    m->nmsg = 0;
    for (uint32_t r = 0; r < R; r++) {
        size_t k0 = (size_t)r * T;
        m->open_halo[r] = mpi_open(m, r, 0, N_HALO);
        mpi_state(m, r, 0, N_PACK, 40000, 1);
        uint32_t ns = R > 1 ? NSEND[rnd(rng, 6)] : 0;
        for (uint32_t j = 0; j < ns; j++) {
            uint32_t u = rnd(rng, 4), p;
            if (u == 0)
                p = (r + 1) % R;
            else if (u == 1)
                p = (r + R - 1) % R;
            else {
                p = rnd(rng, R - 1);
                if (p >= r)
                    p++;
            }
            uint32_t bytes = msg_bytes(rng);
            uint32_t tag = rnd(rng, 8);
            size_t st = mpi_open(m, r, 0, N_MPI_SEND);
            uint64_t sd = 300 + bytes / 16;
            size_t e = span(&m->ctx[k0], K_SEND, N_NONE, m->t[k0], sd);
            uint64_t id = m->next_id++;
            set_msg(e, p, bytes, id, tag);
            if (m->nmsg == m->msgcap) {
                m->msgcap = m->msgcap ? m->msgcap * 2 : 1024;
                m->msg = xrealloc(m->msg, m->msgcap * sizeof *m->msg);
            }
            m->msg[m->nmsg++] = (Msg){ r, p, bytes, tag, id, m->t[k0] };
            m->t[k0] += sd + 200 + rnd(rng, 100);
            mpi_close(m, r, 0, st);
        }
    }

    /* Bucket messages by destination, each bucket by send time. */
    memset(m->inb_start, 0, (R + 1) * sizeof *m->inb_start);
    for (size_t i = 0; i < m->nmsg; i++)
        m->inb_start[m->msg[i].dst + 1]++;
    for (uint32_t r = 0; r < R; r++)
        m->inb_start[r + 1] += m->inb_start[r];
    for (size_t i = 0; i < m->nmsg; i++)
        m->inb[m->inb_start[m->msg[i].dst]++] = (uint32_t)i;
    for (uint32_t r = R; r > 0; r--)
        m->inb_start[r] = m->inb_start[r - 1];
    m->inb_start[0] = 0;

    /* Phase C (thread 0): receives, the rest of the timestep. */
    for (uint32_t r = 0; r < R; r++) {
        size_t k0 = (size_t)r * T;
        uint32_t *b = m->inb + m->inb_start[r];
        uint32_t nb = m->inb_start[r + 1] - m->inb_start[r];
        for (uint32_t i = 1; i < nb; i++) { /* insertion sort by send ts */
            uint32_t x = b[i], j = i;
            while (j > 0 && (m->msg[b[j - 1]].ts > m->msg[x].ts ||
                             (m->msg[b[j - 1]].ts == m->msg[x].ts && b[j - 1] > x))) {
                b[j] = b[j - 1];
                j--;
            }
            b[j] = x;
        }
        for (uint32_t i = 0; i < nb; i++) {
            const Msg *g = &m->msg[b[i]];
            size_t st = mpi_open(m, r, 0, N_MPI_RECV);
            uint64_t rts = m->t[k0] > g->ts ? m->t[k0] : g->ts;
            uint64_t arr = g->ts + 1500 + g->bytes / 10;
            if (arr < rts + 200)
                arr = rts + 200;
            size_t e = span(&m->ctx[k0], K_RECV, N_NONE, rts, arr - rts);
            set_msg(e, g->src, g->bytes, g->id, g->tag);
            m->t[k0] = arr + 250 + rnd(rng, 100);
            mpi_close(m, r, 0, st);
        }
        mpi_state(m, r, 0, N_UNPACK, 40000, 1);
        mpi_close(m, r, 0, m->open_halo[r]);
        mpi_state(m, r, 0, N_INTEGRATE, 400000, 1);
        size_t sp = mpi_open(m, r, 0, N_SOLVE);
        uint32_t it = 2 + rnd(rng, 3);
        for (uint32_t i = 0; i < it; i++)
            mpi_state(m, r, 0, N_SPMV, 150000, 1);
        mpi_state(m, r, 0, N_DOT, 20000, 1);
        mpi_state(m, r, 0, N_MPI_ALLREDUCE, 18000, 0);
        mpi_close(m, r, 0, sp);
        if (rnd(rng, 2))
            mpi_state(m, r, 0, N_REDUCE_ENERGY, 100000, 1);
        if (k % 100 == 50)
            mpi_state(m, r, 0, N_IO_WRITE, 7000000, 0);
        if (rnd(rng, 3) < 2) {
            size_t e = push(&m->ctx[k0], K_COUNTER, N_FLOPS, m->t[k0]);
            G.ev[e].flags |= EF_VALUE;
            G.ev[e].value = 1000000000 + (int64_t)rnd(rng, 400000000);
            m->t[k0] += 100;
        }
        mpi_close(m, r, 0, m->open_ts[r]);
        m->arrive[k0] = m->t[k0];
    }

    /* Worker threads. */
    static const uint16_t WORK[4] = { N_NONBONDED, N_OMP_FOR, N_SPMV, N_INTEGRATE };
    static const uint32_t WMED[4] = { 1500000, 900000, 400000, 600000 };
    for (uint32_t r = 0; r < R; r++) {
        for (uint32_t th = 1; th < T; th++) {
            size_t kt = (size_t)r * T + th;
            m->t[kt] = t0 + 500 + rnd(rng, 1500);
            uint32_t n = 2 + rnd(rng, 3);
            uint32_t at = rnd(rng, 3) < 2 ? rnd(rng, n) : UINT32_MAX;
            for (uint32_t i = 0; i < n; i++) {
                uint32_t w = rnd(rng, 4);
                mpi_state(m, r, th, WORK[w], WMED[w], 1);
                if (i == at) {
                    push(&m->ctx[kt], K_ATOMIC, N_ACCUMULATE, m->t[kt]);
                    m->t[kt] += 200;
                }
            }
            if (rnd(rng, 3) < 2) {
                size_t e = push(&m->ctx[kt], K_COUNTER, N_MEM_MB, m->t[kt]);
                G.ev[e].flags |= EF_VALUE;
                G.ev[e].value = 1500 + (int64_t)((r * 37u) % 400 + k / 64 + rnd(rng, 50));
                m->t[kt] += 100;
            }
            m->arrive[kt] = m->t[kt];
        }
    }
    return mpi_barrier(m, k);
}

/* After the last barrier: `rest` states spread over all threads, then each
 * thread's `end` (thread 0 ends last, after joining its workers). */
static void mpi_tail(Mpi *m, uint64_t t0, uint64_t rest)
{
    static const uint16_t FIN0[3] = { N_REDUCE_ENERGY, N_IO_WRITE, N_CHECKPOINT_WRITE };
    static const uint32_t FMED0[3] = { 100000, 5000000, 3000000 };
    static const uint16_t FINW[2] = { N_OMP_FOR, N_INTEGRATE };
    static const uint32_t FMEDW[2] = { 300000, 400000 };
    size_t nt = (size_t)m->R * m->T;
    for (uint32_t r = 0; r < m->R; r++) {
        size_t k0 = (size_t)r * m->T;
        uint64_t last = 0;
        for (uint32_t th = m->T; th-- > 0;) {
            size_t k = k0 + th;
            uint64_t q = rest / nt + (k < rest % nt ? 1 : 0);
            m->t[k] = t0 + 300 + rnd(&m->rng, 700);
            for (uint64_t j = 0; j < q; j++) {
                if (th == 0) {
                    if (j + 1 == q)
                        mpi_state(m, r, 0, N_MPI_FINALIZE, 2000000, 0);
                    else
                        mpi_state(m, r, 0, FIN0[j % 3], FMED0[j % 3], 1);
                } else {
                    mpi_state(m, r, th, FINW[j % 2], FMEDW[j % 2], 1);
                }
            }
            if (th == 0 && m->t[k] < last)
                m->t[k] = last;
            push(&m->ctx[k], K_END, N_NONE, m->t[k] + (th == 0 ? 1000 : 0));
            if (m->t[k] > last)
                last = m->t[k];
        }
    }
}

static void shape_mpi(uint32_t R, uint32_t T, uint64_t target, uint64_t seed)
{
    Mpi m;
    memset(&m, 0, sizeof m);
    m.R = R;
    m.T = T;
    m.target = target;
    m.rng.s = seed;
    m.next_id = 1;
    m.straggler = R > 1 ? (R * 3) / 4 : UINT32_MAX;
    size_t nt = (size_t)R * T;
    m.ctx = xrealloc(NULL, nt * sizeof *m.ctx);
    m.t = xrealloc(NULL, nt * sizeof *m.t);
    m.arrive = xrealloc(NULL, nt * sizeof *m.arrive);
    m.open_ts = xrealloc(NULL, R * sizeof *m.open_ts);
    m.open_halo = xrealloc(NULL, R * sizeof *m.open_halo);
    m.inb_start = xrealloc(NULL, (R + 1) * sizeof *m.inb_start);
    m.inb = xrealloc(NULL, (size_t)R * 4 * sizeof *m.inb);
    for (uint32_t r = 0; r < R; r++) {
        for (uint32_t th = 0; th < T; th++) {
            Ctx *c = &m.ctx[(size_t)r * T + th];
            memset(c, 0, sizeof *c);
            c->loc = r;
            c->act = (r << 8) | th;
            c->has_cpu = 1;
            /* 128-core nodes, ranks packed, threads on adjacent cores */
            uint32_t per_node = 128 / T ? 128 / T : 1;
            c->cpu = (uint16_t)(((r % per_node) * T + th) % 128);
            if (th > 0) {
                c->parent = r << 8;
                c->need_parent = 1;
            }
        }
    }
    G.has_cpu = 1;
    G.label_style = LBL_DOT;
    out_begin(R);

    mpi_init_phase(&m);
    uint64_t t0 = mpi_barrier(&m, 0);
    flush_phase();
    for (uint32_t k = 1;; k++) {
        Rng save = m.rng;
        uint64_t save_id = m.next_id;
        uint64_t t1 = mpi_round(&m, k, t0);
        if (G.emitted + G.n + nt > target) {
            G.n = 0;
            m.rng = save;
            m.next_id = save_id;
            break;
        }
        flush_phase();
        t0 = t1;
    }
    uint64_t rest = target > G.emitted + nt ? target - G.emitted - nt : 0;
    mpi_tail(&m, t0, rest);
    flush_phase();
    out_end();
    if (G.emitted != target)
        fprintf(stderr, "gen: note: --events %llu is below the minimum for %u ranks x %u threads;"
                " wrote %llu events\n",
                (unsigned long long)target, R, T, (unsigned long long)G.emitted);
    free(m.ctx);
    free(m.t);
    free(m.arrive);
    free(m.open_ts);
    free(m.open_halo);
    free(m.inb_start);
    free(m.inb);
    free(m.msg);
}

/* ------------------------------------------------------------------ */
/* Shape: ring                                                         */

static Ctx rank_ctx(uint32_t r)
{
    Ctx c;
    memset(&c, 0, sizeof c);
    c.loc = r;
    c.act = r << 8;
    return c;
}

static void shape_ring(uint32_t R, uint64_t seed)
{
    const uint32_t ITERS = 10;
    const uint32_t S = R > 5 ? 5 : R - 1; /* the straggler */
    Rng rng = { seed };
    G.label_style = LBL_DOT;
    out_begin(R);

    Ctx *c = xrealloc(NULL, R * sizeof *c);
    size_t *main_i = xrealloc(NULL, R * sizeof *main_i);
    uint64_t *arr = xrealloc(NULL, R * sizeof *arr);
    const uint64_t T0 = 1000000000ull;
    for (uint32_t r = 0; r < R; r++) {
        c[r] = rank_ctx(r);
        main_i[r] = open_iv(&c[r], K_STATE, N_MAIN, T0);
    }
    uint64_t s = T0 + 100000; /* iteration start (all ranks) */
    for (uint32_t i = 0; i <= ITERS; i++) {
        for (uint32_t r = 0; r < R; r++) {
            uint64_t t = s;
            if (i > 0) {
                /* the message sent to us in the previous iteration */
                uint32_t src = (r + R - 1) % R;
                size_t e = span(&c[r], K_RECV, N_NONE, t, 4000);
                set_msg(e, src, 4096, (uint64_t)(i - 1) * R + src + 1, 0);
                t += 5000;
            }
            if (i == ITERS) {
                close_iv(main_i[r], t + 5000);
                continue;
            }
            uint64_t cd = (r == S ? 6000000 : 2000000) + 10000 * (uint64_t)rnd(&rng, 8);
            span(&c[r], K_STATE, N_COMPUTE, t, cd);
            t += cd;
            size_t e = span(&c[r], K_SEND, N_NONE, t, 3000);
            set_msg(e, (r + 1) % R, 4096, (uint64_t)i * R + r + 1, 0);
            arr[r] = t + 3000;
        }
        if (i == ITERS)
            break;
        uint64_t last = 0;
        for (uint32_t r = 0; r < R; r++)
            if (arr[r] > last)
                last = arr[r];
        uint64_t ex = last + 2000;
        for (uint32_t r = 0; r < R; r++) {
            size_t e = span(&c[r], K_SYNC, N_MPI_BARRIER, arr[r], ex - arr[r]);
            set_group(e, G_BARRIER, i);
        }
        if (ANS.on) {
            uint32_t lr = 0; /* the last to arrive (ties: the highest rank, as the latest in time order) */
            for (uint32_t r = 0; r < R; r++)
                if (arr[r] >= arr[lr]) lr = r;
            ANS.bar_last[lr]++;
            for (uint32_t r = 0; r < R; r++) {
                ANS.bar_wait[r] += last - arr[r];
                ANS.bar_caused[lr] += last - arr[r];
            }
        }
        s = ex;
    }
    flush_phase();
    out_end();
    free(c);
    free(main_i);
    free(arr);
}

/* ------------------------------------------------------------------ */
/* Shape: x10                                                          */

static Ctx act_ctx(uint32_t place, uint32_t label, int has_parent, uint32_t parent)
{
    Ctx c;
    memset(&c, 0, sizeof c);
    c.loc = place;
    c.act = label;
    c.parent = parent;
    c.need_parent = has_parent;
    return c;
}

static void x10_spawn(Ctx *c, uint64_t ts, uint32_t child, uint32_t place)
{
    size_t e = push(c, K_SPAWN, N_NONE, ts);
    G.ev[e].flags |= EF_IDLABEL | EF_PEER;
    G.ev[e].id = child;
    G.ev[e].peer = place;
}

/* `at (dst)`: the activity leaves its place carrying `bytes`. */
static uint64_t x10_move(Ctx *c, uint64_t ts, uint32_t dst, uint32_t bytes, uint64_t dur)
{
    size_t e = span(c, K_MOVE, N_NONE, ts, dur);
    G.ev[e].flags |= EF_PEER | EF_BYTES;
    G.ev[e].peer = dst;
    G.ev[e].bytes = bytes;
    c->loc = dst;
    return ts + dur + 2000;
}

static void x10_atomic(Ctx *c, uint64_t ts, uint32_t name)
{
    span(c, K_ATOMIC, name, ts, 1000);
}

static void x10_end(Ctx *c, uint64_t ts, uint32_t finish)
{
    size_t e = push(c, K_END, N_NONE, ts);
    if (finish)
        set_group(e, G_FINISH, finish);
}

static uint64_t jit(Rng *rng, uint64_t step, uint32_t n)
{
    return step * rnd(rng, n);
}

static void shape_x10(uint64_t seed)
{
    Rng rng = { seed };
    G.label_style = LBL_A;
    out_begin(4);
    const uint64_t T0 = 1000000000ull;

    Ctx a0 = act_ctx(0, 0, 0, 0);
    size_t main_i = open_iv(&a0, K_STATE, N_MAIN, T0);

    /* finish 1: one async per place; the one at place 3 is slow. */
    uint64_t t = T0 + 100000;
    uint64_t sp[5];
    for (uint32_t p = 0; p < 4; p++) {
        sp[p + 1] = t;
        x10_spawn(&a0, t, p + 1, p);
        t += 5000;
    }
    size_t f1 = open_iv(&a0, K_SYNC, N_FINISH, t);
    set_group(f1, G_FINISH, 1);
    uint64_t end1 = 0, e;

    /* a1 @0: work with an atomic update. */
    Ctx a1 = act_ctx(0, 1, 1, 0);
    uint64_t s = sp[1] + 2000, w = 2000000 + jit(&rng, 100000, 5);
    span(&a1, K_STATE, N_WORK, s, w);
    x10_atomic(&a1, s + w / 2, N_UPDATE_TOTAL);
    e = s + w + 1000;
    x10_end(&a1, e, 1);
    end1 = e > end1 ? e : end1;

    /* a2 @1: work, at(2) { remote_work }, work. */
    Ctx a2 = act_ctx(1, 2, 1, 0);
    s = sp[2] + 10000;
    w = 1500000 + jit(&rng, 100000, 5);
    span(&a2, K_STATE, N_WORK, s, w);
    s = x10_move(&a2, s + w + 1000, 2, 65536, 20000);
    w = 1000000 + jit(&rng, 100000, 3);
    span(&a2, K_STATE, N_REMOTE_WORK, s, w);
    s = x10_move(&a2, s + w + 1000, 1, 8192, 5000);
    w = 500000;
    span(&a2, K_STATE, N_WORK, s, w);
    e = s + w + 1000;
    x10_end(&a2, e, 1);
    end1 = e > end1 ? e : end1;

    /* a3 @2: work with two atomic updates. */
    Ctx a3 = act_ctx(2, 3, 1, 0);
    s = sp[3] + 10000;
    w = 2500000 + jit(&rng, 100000, 5);
    span(&a3, K_STATE, N_WORK, s, w);
    x10_atomic(&a3, s + w / 3, N_UPDATE_HISTOGRAM);
    x10_atomic(&a3, s + 2 * (w / 3), N_UPDATE_HISTOGRAM);
    e = s + w + 1000;
    x10_end(&a3, e, 1);
    end1 = e > end1 ? e : end1;

    /* a4 @3: the slow one that keeps finish 1 open. */
    Ctx a4 = act_ctx(3, 4, 1, 0);
    s = sp[4] + 10000;
    w = 8000000 + jit(&rng, 100000, 5);
    span(&a4, K_STATE, N_WORK, s, w);
    e = s + w + 1000;
    x10_end(&a4, e, 1);
    end1 = e > end1 ? e : end1;
    close_iv(f1, end1);

    /* combine, then finish 2 with a nested async. */
    t = end1 + 5000;
    w = 500000 + jit(&rng, 100000, 3);
    span(&a0, K_STATE, N_COMBINE, t, w);
    t += w + 5000;
    uint64_t sp5 = t;
    x10_spawn(&a0, t, 5, 1);
    t += 5000;
    uint64_t sp6 = t;
    x10_spawn(&a0, t, 6, 2);
    t += 5000;
    size_t f2 = open_iv(&a0, K_SYNC, N_FINISH, t);
    set_group(f2, G_FINISH, 2);
    uint64_t end2 = 0;

    /* a5 @1: work, spawns a7 @3 (governed by finish 2 too), work. */
    Ctx a5 = act_ctx(1, 5, 1, 0);
    s = sp5 + 10000;
    w = 1000000 + jit(&rng, 100000, 3);
    span(&a5, K_STATE, N_WORK, s, w);
    s += w + 1000;
    uint64_t sp7 = s;
    x10_spawn(&a5, s, 7, 3);
    s += 2000;
    w = 1000000 + jit(&rng, 100000, 3);
    span(&a5, K_STATE, N_WORK, s, w);
    e = s + w + 1000;
    x10_end(&a5, e, 2);
    end2 = e > end2 ? e : end2;

    /* a6 @2: work, at(0) { remote_work }, back, ends at place 2. */
    Ctx a6 = act_ctx(2, 6, 1, 0);
    s = sp6 + 10000;
    w = 1200000 + jit(&rng, 100000, 3);
    span(&a6, K_STATE, N_WORK, s, w);
    s = x10_move(&a6, s + w + 1000, 0, 16384, 10000);
    w = 400000;
    span(&a6, K_STATE, N_REMOTE_WORK, s, w);
    s = x10_move(&a6, s + w + 1000, 2, 1024, 5000);
    e = s + 1000;
    x10_end(&a6, e, 2);
    end2 = e > end2 ? e : end2;

    /* a7 @3 (child of a5): the longest of finish 2. */
    Ctx a7 = act_ctx(3, 7, 1, 5);
    s = sp7 + 10000;
    w = 3000000 + jit(&rng, 100000, 5);
    span(&a7, K_STATE, N_WORK, s, w);
    x10_atomic(&a7, s + w / 2, N_UPDATE_TOTAL);
    e = s + w + 1000;
    x10_end(&a7, e, 2);
    end2 = e > end2 ? e : end2;
    close_iv(f2, end2);

    t = end2 + 5000;
    span(&a0, K_STATE, N_REPORT, t, 100000);
    t += 105000;
    close_iv(main_i, t);
    x10_end(&a0, t + 1000, 0);

    flush_phase();
    out_end();
}

/* ------------------------------------------------------------------ */
/* Shape: mw (master-worker)                                           */

/* Blocking receive: the rank waits in MPI_Recv from `ready` until the data
 * is in; the recv interval spans the wait (it is what the rank is doing),
 * so the time shows as waiting, not as busy. Returns the time after it. */
static uint64_t blocking_recv(Ctx *c, uint64_t ready, uint32_t src, uint32_t bytes,
                              uint64_t id, uint32_t tag, uint64_t send_ts, uint64_t arrival)
{
    uint64_t rts = ready;
    uint64_t rend = arrival > rts + 1000 ? arrival : rts + 1000;
    if (rend < send_ts + 1000) rend = send_ts + 1000;
    ans_late_sender(c->loc, src, rts, rend - rts, send_ts);
    size_t e = span(c, K_RECV, N_MPI_RECV, rts, rend - rts);
    set_msg(e, src, bytes, id, tag);
    return rend + 2000;
}

/* A worker's receive: the worker waits in MPI_Recv from when it is ready
 * until the task is in. Returns the time after it. */
static uint64_t idle_recv(Ctx *c, uint64_t ready, uint32_t src, uint32_t bytes,
                          uint64_t id, uint32_t tag, uint64_t arrival, uint64_t send_ts)
{
    uint64_t rend = (arrival > ready ? arrival : ready) + 2000;
    ans_late_sender(c->loc, src, ready, rend - ready, send_ts);
    size_t e = span(c, K_RECV, N_MPI_RECV, ready, rend - ready);
    set_msg(e, src, bytes, id, tag);
    return rend + 1000;
}

typedef struct { uint32_t w, bytes; uint64_t id, ts, arr; } Result;

static void shape_mw(uint32_t R, uint64_t seed)
{
    const uint32_t W = R - 1;
    const uint32_t SLOW = W >= 3 ? 3 : W;
    const uint32_t rounds = W >= 60 ? 1 : 60 / W;
    enum { TAG_TASK = 0, TAG_RESULT = 1, TAG_STOP = 2 };
    Rng rng = { seed };
    G.label_style = LBL_DOT;
    out_begin(R);
    const uint64_t T0 = 1000000000ull;

    Ctx *c = xrealloc(NULL, R * sizeof *c);
    size_t *main_i = xrealloc(NULL, R * sizeof *main_i);
    uint64_t *wt = xrealloc(NULL, R * sizeof *wt);
    Result *res = xrealloc(NULL, R * sizeof *res);
    uint64_t *tsend = xrealloc(NULL, R * sizeof *tsend);
    uint64_t *tarr = xrealloc(NULL, R * sizeof *tarr);
    uint32_t *tbytes = xrealloc(NULL, R * sizeof *tbytes);
    uint64_t *tid = xrealloc(NULL, R * sizeof *tid);
    for (uint32_t r = 0; r < R; r++) {
        c[r] = rank_ctx(r);
        main_i[r] = open_iv(&c[r], K_STATE, N_MAIN, T0);
        wt[r] = T0 + 20000;
    }
    uint64_t t = T0 + 50000, id = 1;
    for (uint32_t round = 0; round <= rounds; round++) {
        int stop = round == rounds;
        /* master hands out one task (or the stop message) per worker */
        for (uint32_t w = 1; w <= W; w++) {
            uint32_t bytes = stop ? 8 : 1024u << rnd(&rng, 7);
            size_t e = span(&c[0], K_SEND, N_NONE, t, 2000);
            set_msg(e, w, bytes, id, stop ? TAG_STOP : TAG_TASK);
            tsend[w] = t;
            tarr[w] = t + 5000 + 1000 * (uint64_t)(bytes / 1024);
            tbytes[w] = bytes;
            tid[w] = id++;
            t += 3000;
        }
        /* workers: idle until the task arrives, compute, send the result back */
        for (uint32_t w = 1; w <= W; w++) {
            uint64_t x = idle_recv(&c[w], wt[w], 0, tbytes[w], tid[w],
                                   stop ? TAG_STOP : TAG_TASK, tarr[w], tsend[w]);
            if (stop) {
                close_iv(main_i[w], x + 10000);
                continue;
            }
            uint64_t d = (w == SLOW ? 4000000 : 1000000) + 50000 * (uint64_t)rnd(&rng, 5);
            span(&c[w], K_STATE, N_TASK, x, d);
            x += d + 1000;
            uint32_t rb = 256 * (1 + rnd(&rng, 4));
            size_t e = span(&c[w], K_SEND, N_NONE, x, 2000);
            set_msg(e, 0, rb, id, TAG_RESULT);
            res[w - 1] = (Result){ w, rb, id, x, x + 3000 };
            id++;
            wt[w] = x + 3000;
        }
        if (stop)
            break;
        /* master: receive the results in arrival order (MPI_ANY_SOURCE) */
        for (uint32_t i = 1; i < W; i++) {
            Result x = res[i];
            uint32_t j = i;
            while (j > 0 && (res[j - 1].arr > x.arr || (res[j - 1].arr == x.arr && res[j - 1].w > x.w))) {
                res[j] = res[j - 1];
                j--;
            }
            res[j] = x;
        }
        for (uint32_t i = 0; i < W; i++)
            t = blocking_recv(&c[0], t, res[i].w, res[i].bytes, res[i].id, TAG_RESULT,
                              res[i].ts, res[i].arr);
        t += 8000;
    }
    close_iv(main_i[0], t + 10000);
    flush_phase();
    out_end();
    free(c);
    free(main_i);
    free(wt);
    free(res);
    free(tsend);
    free(tarr);
    free(tbytes);
    free(tid);
}

/* ------------------------------------------------------------------ */
/* Shape: tasks (task-parallel runtime)                                */

/* A task runtime (X10/HClib/HPX style) on W worker threads (the
 * locations).  The run is a chain of iterations; each iteration is a tree
 * of tasks: a root task spawns children inside `finish` scopes and waits
 * for them (a sync interval whose group `finish-<n>` is shared with the
 * `end` events of the children it governs), children spawn their own.
 * About half the children send their result to the parent's worker (a
 * send with a string id `m<n>` and a recv at the parent when it resumes).
 * The last thing an iteration's root does is spawn the next iteration's
 * root, so every task but the very first has a parent.
 *
 * Every task has between 10 and 100 events, planned before it runs, so the
 * total is exactly --events (at least 10).  Tasks are scheduled by a
 * discrete-event simulation: a new task runs on the worker that is free
 * first (never the parent's worker when it sends a result), a task that
 * waits in a finish frees its worker, and it resumes on its own worker
 * once its children have ended and the worker is free.  Every event has
 * `file` and `line`: state events those of their function (5,000 names
 * such as `ns4::Module42::kernel_18`, 300 files), the other events a line
 * of the task's own function. */

#define TK_NFUNC 5000u
#define TK_NFILE 300u
#define TK_MAXC 32u /* children per task */

static const char *const TK_VERB[10] = {
    "kernel", "update", "compute", "apply", "reduce", "scan", "pack", "assemble", "solve", "visit"
};
static const char *const TK_DIR[6] = { "solver", "mesh", "physics", "linalg", "io", "graph" };

enum {
    TN_ASYNC, TN_FINISH, TN_SEND, TN_RECV, TN_END, TN_STEAL, TN_YIELD, TN_PHASE,
    TN_READY, TN_MEM, TN_ATOMIC, TN__N
};
static const char *const TK_RT_NAME[TN__N] = {
    "rt::async", "rt::finish", "rt::send_result", "rt::recv_result", "rt::task_end",
    "rt::steal", "rt::yield", "rt::phase", "rt::ready_tasks", "rt::mem_kb", "rt::atomic_update"
};

typedef struct {
    Ctx c;
    uint32_t parent;       /* index in the iteration; UINT32_MAX for the root */
    uint32_t child0, nchild;
    uint16_t E, done;      /* planned and written events */
    uint16_t fn;           /* function: index in 0..TK_NFUNC-1 */
    uint8_t nfin, fin;     /* finishes; the segment to run next */
    uint8_t split[4];      /* finish f: children child0+split[f] .. child0+split[f+1]-1 */
    uint8_t sends;         /* sends its result to the parent */
    uint8_t nrecv;         /* children that send their result */
    uint16_t inst;         /* instants left to write in the body */
    uint16_t body;         /* body items left (states and instants) */
    uint16_t lineoff;      /* the next line offset in its function */
    uint32_t group;        /* the parent's finish it belongs to */
    uint32_t pending;      /* children of the open finish not yet ended */
    size_t spawn_ev, top_ev, sync_ev; /* SIZE_MAX: none */
    uint64_t t_wait, last_end;
    uint64_t msg_id;       /* its result message */
    uint32_t msg_bytes, msg_tag;
} Task;

typedef struct { uint64_t t, seq; uint32_t task; } TkItem;

typedef struct {
    uint32_t W;
    Rng rng;
    uint32_t name0;        /* name index of function 0 */
    uint32_t rt0;          /* name index of TK_RT_NAME[0] */
    uint16_t fn_file[TK_NFUNC], fn_line[TK_NFUNC];
    uint64_t *free_at;     /* per worker */
    uint32_t *seg, segn;   /* min tree over workers: (free_at, index) */
    Task *task;
    uint32_t ntask, taskcap;
    TkItem *heap;
    uint32_t nheap, heapcap;
    uint64_t seq, next_msg, next_group;
    uint32_t next_label;   /* label of the iteration's root */
    uint32_t prev_root;    /* label of the previous iteration's root */
} Tk;

static inline int tk_wless(const Tk *k, uint32_t a, uint32_t b)
{
    return k->free_at[a] != k->free_at[b] ? k->free_at[a] < k->free_at[b] : a < b;
}

static void tk_wset(Tk *k, uint32_t w, uint64_t t)
{
    k->free_at[w] = t;
    uint32_t i = (w + k->segn) >> 1;
    for (; i >= 1; i >>= 1) {
        uint32_t l = k->seg[2 * i], r = k->seg[2 * i + 1];
        k->seg[i] = r == UINT32_MAX || (l != UINT32_MAX && tk_wless(k, l, r)) ? l : r;
    }
}

/* The worker free first in [lo, hi) (UINT32_MAX if the range is empty). */
static uint32_t tk_wmin(const Tk *k, uint32_t lo, uint32_t hi)
{
    uint32_t best = UINT32_MAX;
    for (lo += k->segn, hi += k->segn; lo < hi; lo >>= 1, hi >>= 1) {
        if (lo & 1) {
            uint32_t x = k->seg[lo++];
            if (x != UINT32_MAX && (best == UINT32_MAX || tk_wless(k, x, best)))
                best = x;
        }
        if (hi & 1) {
            uint32_t x = k->seg[--hi];
            if (x != UINT32_MAX && (best == UINT32_MAX || tk_wless(k, x, best)))
                best = x;
        }
    }
    return best;
}

static uint32_t tk_worker(const Tk *k, uint32_t avoid)
{
    if (avoid == UINT32_MAX)
        return k->seg[1];
    uint32_t a = tk_wmin(k, 0, avoid), b = tk_wmin(k, avoid + 1, k->W);
    if (a == UINT32_MAX)
        return b;
    if (b == UINT32_MAX)
        return a;
    return tk_wless(k, a, b) ? a : b;
}

static void tk_push(Tk *k, uint64_t t, uint32_t task)
{
    if (k->nheap == k->heapcap) {
        k->heapcap = k->heapcap ? k->heapcap * 2 : 1024;
        k->heap = xrealloc(k->heap, k->heapcap * sizeof *k->heap);
    }
    TkItem x = { t, k->seq++, task };
    uint32_t i = k->nheap++;
    while (i > 0) {
        uint32_t p = (i - 1) / 2;
        if (k->heap[p].t < x.t || (k->heap[p].t == x.t && k->heap[p].seq < x.seq))
            break;
        k->heap[i] = k->heap[p];
        i = p;
    }
    k->heap[i] = x;
}

static TkItem tk_pop(Tk *k)
{
    TkItem top = k->heap[0], x = k->heap[--k->nheap];
    uint32_t i = 0, n = k->nheap;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && (k->heap[c + 1].t < k->heap[c].t ||
                          (k->heap[c + 1].t == k->heap[c].t && k->heap[c + 1].seq < k->heap[c].seq)))
            c++;
        if (x.t < k->heap[c].t || (x.t == k->heap[c].t && x.seq < k->heap[c].seq))
            break;
        k->heap[i] = k->heap[c];
        i = c;
    }
    if (n)
        k->heap[i] = x;
    return top;
}

/* Duration of a leaf state: mostly microseconds, a heavy tail of
 * milliseconds (the kernels that keep a finish open). */
static uint64_t tk_dur(Tk *k)
{
    uint64_t d = 500 + 500 * (uint64_t)rnd(&k->rng, 40) + rnd(&k->rng, 500);
    uint32_t r = rnd(&k->rng, 256);
    if (r < 16)
        d *= 40;
    else if (r == 16)
        d *= 800;
    return d;
}

static size_t tk_ev(Tk *k, Task *t, uint32_t kind, uint32_t rtname, uint64_t ts)
{
    size_t i = push(&t->c, kind, k->rt0 + rtname, ts);
    Ev *e = &G.ev[i];
    e->flags |= EF_SRC;
    e->file = k->fn_file[t->fn];
    e->line = (uint16_t)(k->fn_line[t->fn] + t->lineoff);
    t->lineoff = (uint16_t)((t->lineoff + 1 + rnd(&k->rng, 3)) % 100);
    return i;
}

static size_t tk_state(Tk *k, Task *t, uint32_t fn, uint64_t ts)
{
    size_t i = open_iv(&t->c, K_STATE, k->name0 + fn, ts);
    Ev *e = &G.ev[i];
    e->flags |= EF_SRC;
    e->file = k->fn_file[fn];
    e->line = k->fn_line[fn];
    return i;
}

/* A body item at `t`: an instant or a leaf state (or, with `open`, a state
 * that the caller closes later).  Returns the time after it. */
static uint64_t tk_item(Tk *k, Task *t, uint64_t ts, int instant, size_t *open)
{
    if (instant) {
        t->inst--;
        uint32_t r = rnd(&k->rng, 20);
        if (r < 10) {
            tk_ev(k, t, K_MARK, TN_STEAL + rnd(&k->rng, 3), ts);
        } else if (r < 17) {
            int ready = r < 14;
            size_t e = tk_ev(k, t, K_COUNTER, ready ? TN_READY : TN_MEM, ts);
            G.ev[e].flags |= EF_VALUE;
            G.ev[e].value = ready ? (int64_t)k->nheap : 2048 + (int64_t)rnd(&k->rng, 65536);
        } else {
            tk_ev(k, t, K_ATOMIC, TN_ATOMIC, ts);
        }
        return ts + 50 + rnd(&k->rng, 150);
    }
    /* callee: half the time a function of the same module */
    uint32_t fn = rnd(&k->rng, 2) ? (t->fn / 50) * 50 + rnd(&k->rng, 50) : rnd(&k->rng, TK_NFUNC);
    size_t i = tk_state(k, t, fn, ts);
    if (open) {
        *open = i;
        return ts + 200 + rnd(&k->rng, 300);
    }
    uint64_t d = tk_dur(k);
    G.ev[i].dur = d;
    return ts + d + 100 + rnd(&k->rng, 400);
}

/* Run `items` body items and `nspawn` spawns (children c0.. of the task)
 * in random order from `ts`, with up to two levels of enclosing states
 * around them.  Returns the time after them. */
static uint64_t tk_body(Tk *k, Task *t, uint64_t ts, uint32_t items, uint32_t c0,
                        uint32_t nspawn)
{
    size_t reg[2];
    uint32_t regleft[2], depth = 0;
    uint32_t left = items + nspawn;
    while (left) {
        if (nspawn && rnd(&k->rng, left) < nspawn) {
            Task *ch = &k->task[c0];
            size_t e = tk_ev(k, t, K_SPAWN, TN_ASYNC, ts);
            G.ev[e].flags |= EF_IDLABEL | EF_PEER;
            G.ev[e].id = ch->c.act;
            G.ev[e].peer = t->c.loc; /* the worker it runs on, set when it starts */
            ch->spawn_ev = e;
            ch->group = (uint32_t)k->next_group;
            tk_push(k, ts + 500 + rnd(&k->rng, 2000), c0);
            ts += 300 + rnd(&k->rng, 700);
            c0++;
            nspawn--;
        } else {
            int instant = rnd(&k->rng, t->body) < t->inst;
            t->body--;
            /* an enclosing state around the next 1..3 items, inside the
             * one already open */
            uint32_t cap = left - 1 < 3 ? left - 1 : 3;
            if (depth && regleft[depth - 1] - 1 < cap)
                cap = regleft[depth - 1] - 1;
            if (!instant && depth < 2 && cap >= 1 && rnd(&k->rng, 4) == 0) {
                ts = tk_item(k, t, ts, 0, &reg[depth]);
                for (uint32_t d = 0; d < depth; d++)
                    regleft[d]--;
                regleft[depth] = 1 + rnd(&k->rng, cap);
                depth++;
                left--;
                continue;
            }
            ts = tk_item(k, t, ts, instant, NULL);
        }
        left--;
        /* close the enclosing states whose items are done */
        for (uint32_t d = depth; d-- > 0;)
            regleft[d]--;
        while (depth && regleft[depth - 1] == 0) {
            depth--;
            close_iv(reg[depth], ts);
            ts += 100 + rnd(&k->rng, 200);
        }
    }
    while (depth) {
        depth--;
        close_iv(reg[depth], ts);
        ts += 100 + rnd(&k->rng, 200);
    }
    return ts;
}

/* Run segment `t->fin` of task ti from `ts` on its worker: the
 * continuation after finish fin-1 (receives of its children's results),
 * body, then either finish `fin` (spawns, wait) or the task's end. */
static void tk_segment(Tk *k, uint32_t ti, uint64_t ts, uint32_t next_root_loc)
{
    Task *t = &k->task[ti];
    size_t n0 = G.n;
    uint32_t s = t->fin, w = t->c.loc;
    if (s == 0) {
        t->top_ev = tk_state(k, t, t->fn, ts);
        ts += 300 + rnd(&k->rng, 700);
    } else {
        for (uint32_t c = t->child0 + t->split[s - 1]; c < t->child0 + t->split[s]; c++) {
            const Task *ch = &k->task[c];
            if (!ch->sends)
                continue;
            uint64_t d = 300 + ch->msg_bytes / 20;
            size_t e = tk_ev(k, t, K_RECV, TN_RECV, ts);
            G.ev[e].flags |= EF_DUR | EF_PEER | EF_BYTES | EF_IDSTR | EF_TAG;
            G.ev[e].dur = d;
            G.ev[e].peer = ch->c.loc;
            G.ev[e].bytes = ch->msg_bytes;
            G.ev[e].id = ch->msg_id;
            G.ev[e].tag = (uint8_t)ch->msg_tag;
            ts += d + 100 + rnd(&k->rng, 200);
        }
    }
    /* this segment's share of the body */
    uint32_t segs_left = t->nfin + 1u - s;
    uint32_t items = t->body / segs_left;
    if (s < t->nfin) {
        uint32_t c0 = t->child0 + t->split[s], nc = t->split[s + 1] - t->split[s];
        ts = tk_body(k, t, ts, items, c0, nc);
        t->sync_ev = tk_ev(k, t, K_SYNC, TN_FINISH, ts);
        G.ev[t->sync_ev].flags |= EF_DUR;
        set_group(t->sync_ev, G_FINISH_DASH, (uint32_t)k->next_group);
        k->next_group++;
        t->t_wait = ts;
        t->pending = nc;
        t->last_end = 0;
        t->fin++;
        tk_wset(k, w, ts + 100);
    } else {
        ts = tk_body(k, t, ts, t->body, 0, 0);
        if (next_root_loc != UINT32_MAX) {
            size_t e = tk_ev(k, t, K_SPAWN, TN_ASYNC, ts);
            G.ev[e].flags |= EF_IDLABEL | EF_PEER;
            G.ev[e].id = k->next_label + k->ntask; /* the next iteration's root */
            G.ev[e].peer = next_root_loc;
            ts += 300 + rnd(&k->rng, 700);
        }
        if (t->sends) {
            Task *p = &k->task[t->parent];
            uint64_t d = 300 + t->msg_bytes / 16;
            size_t e = tk_ev(k, t, K_SEND, TN_SEND, ts);
            G.ev[e].flags |= EF_DUR | EF_PEER | EF_BYTES | EF_IDSTR | EF_TAG;
            G.ev[e].dur = d;
            G.ev[e].peer = p->c.loc;
            G.ev[e].bytes = t->msg_bytes;
            t->msg_id = k->next_msg++;
            G.ev[e].id = t->msg_id;
            G.ev[e].tag = (uint8_t)t->msg_tag;
            ts += d + 100 + rnd(&k->rng, 200);
        }
        close_iv(t->top_ev, ts);
        ts += 100 + rnd(&k->rng, 200);
        size_t e = tk_ev(k, t, K_END, TN_END, ts);
        if (t->parent != UINT32_MAX)
            set_group(e, G_FINISH_DASH, t->group);
        tk_wset(k, w, ts + 100);
        t->fin = 0xff; /* done */
    }
    t->done = (uint16_t)(t->done + (G.n - n0));
    if (t->fin == 0xff) {
        if (t->done != t->E || t->body || t->inst) {
            fprintf(stderr, "gen: internal error: task wrote %u of %u events\n", t->done, t->E);
            exit(1);
        }
        if (t->parent != UINT32_MAX) {
            Task *p = &k->task[t->parent];
            if (ts > p->last_end)
                p->last_end = ts;
            if (--p->pending == 0) {
                uint64_t end = p->last_end > p->t_wait ? p->last_end : p->t_wait + 100;
                close_iv(p->sync_ev, end);
                tk_push(k, end + 500 + rnd(&k->rng, 1500), t->parent);
            }
        }
    }
}

/* Events of a task besides its body items. */
static uint32_t tk_fixed(const Task *t, int spawns_next)
{
    return 2u + t->nchild + t->nfin + t->nrecv + t->sends + (spawns_next ? 1u : 0u);
}

static uint32_t tk_fanout(Rng *r)
{
    uint32_t x = rnd(r, 100);
    if (x < 20)
        return 0;
    if (x < 70)
        return 1 + rnd(r, 4);
    if (x < 96)
        return 5 + rnd(r, 8);
    return 16 + rnd(r, TK_MAXC - 15);
}

/* Plan one iteration of exactly B events (B >= 10): the task tree and
 * every task's events.  Task 0 is the root; tasks are in BFS order. */
static void tk_plan(Tk *k, uint64_t B, int spawns_next)
{
    Rng *r = &k->rng;
    uint32_t n = (uint32_t)(B / 47);
    if (n == 0)
        n = 1;
    if (n > k->taskcap) {
        k->taskcap = n;
        k->task = xrealloc(k->task, n * sizeof *k->task);
    }
    k->ntask = n;
    memset(k->task, 0, n * sizeof *k->task);
    /* the tree: children of a task are consecutive */
    uint32_t want = n > 1 ? 8 + rnd(r, 9) : 0, p = 0;
    k->task[0].parent = UINT32_MAX;
    for (uint32_t i = 1; i < n; i++) {
        while (k->task[p].nchild >= want) {
            p++;
            want = tk_fanout(r);
            if (want == 0 && p + 1 >= i)
                want = 1;
        }
        if (k->task[p].nchild == 0)
            k->task[p].child0 = i;
        k->task[p].nchild++;
        k->task[i].parent = p;
    }
    /* finishes, results, minimum and planned events */
    uint64_t sum = 0;
    uint32_t *lo = xrealloc(NULL, n * sizeof *lo);
    for (uint32_t i = 0; i < n; i++) {
        Task *t = &k->task[i];
        t->c.act = k->next_label + i;
        t->c.need_parent = i > 0 || k->next_label > 0;
        t->c.parent = i > 0 ? k->next_label + t->parent : k->prev_root;
        t->fn = (uint16_t)rnd(r, TK_NFUNC);
        t->spawn_ev = t->top_ev = t->sync_ev = SIZE_MAX;
        uint32_t C = t->nchild;
        t->nfin = (uint8_t)(C == 0 ? 0 : C <= 2 ? 1 : 1 + rnd(r, 3));
        for (uint32_t f = 0; f <= t->nfin; f++)
            t->split[f] = (uint8_t)(t->nfin ? f * C / t->nfin : 0);
        if (i > 0 && k->W > 1 && rnd(r, 2)) {
            t->sends = 1;
            t->msg_bytes = msg_bytes(r);
            t->msg_tag = rnd(r, 4);
            k->task[t->parent].nrecv++;
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        Task *t = &k->task[i];
        /* a body state and the fixed events: top state, end, spawns, waits,
         * receives, send, the next root's spawn */
        uint32_t m = 1 + tk_fixed(t, i == 0 && spawns_next);
        lo[i] = m > 10 ? m : 10;
        uint32_t a = rnd(r, 91), b = rnd(r, 91);
        uint32_t e = 10 + (a + (a < b ? a : b)) / 2;
        t->E = (uint16_t)(e < lo[i] ? lo[i] : e);
        sum += t->E;
    }
    /* adjust to exactly B: n * 10 <= B <= n * 100 and the minima fit */
    for (uint32_t i = 0; sum != B; i = (i + 1) % n) {
        Task *t = &k->task[i];
        if (sum < B && t->E < 100) {
            uint64_t d = (B - sum + n - 1) / n;
            if (d > 100u - t->E)
                d = 100u - t->E;
            t->E = (uint16_t)(t->E + d);
            sum += d;
        } else if (sum > B && t->E > lo[i]) {
            uint64_t d = (sum - B + n - 1) / n;
            if (d > (uint64_t)t->E - lo[i])
                d = t->E - lo[i];
            t->E = (uint16_t)(t->E - d);
            sum -= d;
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        Task *t = &k->task[i];
        uint32_t body = t->E - tk_fixed(t, i == 0 && spawns_next);
        t->body = (uint16_t)body;
        uint32_t inst = (t->E * 6 + rnd(r, 100)) / 100;
        t->inst = (uint16_t)(inst < body ? inst : body - 1);
    }
    free(lo);
}

static void shape_tasks(uint32_t W, uint64_t target, uint64_t seed)
{
    Tk k;
    memset(&k, 0, sizeof k);
    k.W = W;
    k.rng.s = seed;
    k.next_msg = 1;
    k.next_group = 1;
    /* names and files */
    char buf[MAX_NAME + 1];
    for (uint32_t i = 0; i < TK_NFUNC; i++) {
        uint32_t m = i / 50, j = i % 50;
        snprintf(buf, sizeof buf, "ns%u::Module%u::%s_%u", m / 10, m, TK_VERB[(j + m) % 10], j);
        uint32_t x = name_add(buf);
        if (i == 0)
            k.name0 = x;
        k.fn_file[i] = (uint16_t)((m * 3 + j % 3) % TK_NFILE);
        k.fn_line[i] = (uint16_t)(1 + (j * 97 + m * 13) % 4800);
    }
    for (uint32_t i = 0; i < TN__N; i++) {
        uint32_t x = name_add(TK_RT_NAME[i]);
        if (i == 0)
            k.rt0 = x;
    }
    nfiles = TK_NFILE;
    file_str = xrealloc(NULL, nfiles * sizeof *file_str);
    file_len = xrealloc(NULL, nfiles);
    for (uint32_t i = 0; i < nfiles; i++) {
        int len = snprintf(buf, sizeof buf, "src/%s/part_%u.cc", TK_DIR[i % 6], i);
        file_str[i] = xrealloc(NULL, (size_t)len);
        memcpy(file_str[i], buf, (size_t)len);
        file_len[i] = (uint8_t)len;
    }
    /* workers */
    k.free_at = xrealloc(NULL, W * sizeof *k.free_at);
    for (k.segn = 1; k.segn < W; k.segn *= 2)
        ;
    k.seg = xrealloc(NULL, 2 * k.segn * sizeof *k.seg);
    for (uint32_t i = 0; i < 2 * k.segn; i++)
        k.seg[i] = UINT32_MAX;
    for (uint32_t w = 0; w < W; w++) {
        k.seg[k.segn + w] = w;
        k.free_at[w] = 0;
    }
    for (uint32_t i = k.segn; --i >= 1;)
        k.seg[i] = k.seg[2 * i];
    G.has_src = 1;
    G.label_style = LBL_T;
    out_begin(W);

    if (target < 10) {
        fprintf(stderr, "gen: note: --shape tasks writes at least 10 events; wrote 10\n");
        target = 10;
    }
    /* iterations of about 32 tasks per worker, 20k..200k events */
    uint64_t per = 32ull * W * 47;
    per = per < 20000 ? 20000 : per > 200000 ? 200000 : per;
    uint64_t iters = target / per ? target / per : 1;
    uint64_t t0 = 1000000000ull;
    uint32_t root_loc = 0;
    for (uint64_t it = 0; it < iters; it++) {
        uint64_t B = target / iters + (it < target % iters ? 1 : 0);
        int last = it + 1 == iters;
        tk_plan(&k, B, !last);
        uint32_t next_root_loc = last ? UINT32_MAX : (uint32_t)((it + 1) * 7 % W);
        k.task[0].c.loc = root_loc;
        tk_push(&k, t0, 0);
        uint64_t t_end = 0;
        while (k.nheap) {
            TkItem x = tk_pop(&k);
            Task *t = &k.task[x.task];
            uint32_t w;
            if (t->fin == 0 && x.task != 0) {
                w = tk_worker(&k, t->sends ? k.task[t->parent].c.loc : UINT32_MAX);
                t->c.loc = w;
                G.ev[t->spawn_ev].peer = w;
            } else {
                w = t->c.loc;
            }
            uint64_t s = x.t > k.free_at[w] ? x.t : k.free_at[w];
            tk_segment(&k, x.task, s, x.task == 0 ? next_root_loc : UINT32_MAX);
            if (x.task == 0 && t->fin == 0xff)
                t_end = k.free_at[w];
        }
        k.prev_root = k.next_label;
        k.next_label += k.ntask;
        flush_phase();
        t0 = t_end + 2000 + rnd(&k.rng, 20000);
        root_loc = next_root_loc;
    }
    out_end();
    free(k.free_at);
    free(k.seg);
    free(k.task);
    free(k.heap);
    for (uint32_t i = 0; i < nfiles; i++)
        free(file_str[i]);
    free(file_str);
    free(file_len);
}

/* ------------------------------------------------------------------ */
/* Command line                                                        */

static const char USAGE[] =
    "usage: gen [--shape mpi|tasks|wide|ring|x10|mw] [--format csv|ndjson] [--events N]\n"
    "           [--ranks R] [--threads T] [--seed S] [--order time|loc] [-o FILE]\n"
    "\n"
    "Writes a deterministic synthetic execution trace in tnav's format\n"
    "(same options and seed => identical bytes).\n"
    "\n"
    "  --shape mpi     (default) hybrid MPI+threads benchmark: R ranks x T threads,\n"
    "                  exactly N events, timesteps with nested states, point-to-\n"
    "                  point messages, a barrier per timestep, counters, marks;\n"
    "                  rank 3R/4 is a slight straggler; extra column `cpu`\n"
    "  --shape tasks   task runtime on R worker threads (default 64): exactly N\n"
    "                  events in tasks of 10..100 events (about N/47 tasks),\n"
    "                  spawned by parent tasks and joined by `finish` groups\n"
    "                  (finish-<n>: the parent's sync and its children's ends),\n"
    "                  results sent to the parent's worker (ids m<n>), 5,000\n"
    "                  function names, `file` and `line` on every event, about\n"
    "                  10% instants; 10M events span about 30 s\n"
    "  --shape wide    the mpi shape with 10,000 ranks (--ranks changes it);\n"
    "                  needs N >= 4T-1 events per rank\n"
    "  --shape ring    R ranks (default 8), 10 iterations of compute, send to\n"
    "                  r+1 mod R and a barrier; rank 5 is a 3x straggler\n"
    "  --shape x10     4 places: two finishes of asyncs with at-moves, atomics\n"
    "                  and a nested async; the async at place 3 is the slow one\n"
    "  --shape mw      master rank 0 + R-1 workers (default R 6), 60 tasks;\n"
    "                  worker 3 gets tasks 4x longer\n"
    "  --format F      csv (default) or ndjson\n"
    "  --events N      mpi, wide, tasks: number of events (default 1000000)\n"
    "  --ranks R       mpi, tasks: ranks / workers (default 64); wide, ring, mw:\n"
    "                  see above; x10: ignored\n"
    "  --threads T     mpi, wide: threads per rank, 1..64 (default 2)\n"
    "  --seed S        PRNG seed (default 1)\n"
    "  --answers FILE  ring, mw: also write what the analyses must find (per rank\n"
    "                  useful time, late-sender and barrier waits suffered and\n"
    "                  caused, barriers last at; the straggler, the makespan), JSON\n"
    "  --order O       time (default): all rows sorted by ts;\n"
    "                  loc: rows grouped by loc, each group sorted by ts\n"
    "  -o FILE         output file (default: standard output; also --output)\n"
    "  --help          show this text\n";

static void usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "gen: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry 'gen --help'.\n");
    exit(2);
}

static uint64_t parse_u64(const char *opt, const char *s, uint64_t lo, uint64_t hi)
{
    if (!s || !*s || *s < '0' || *s > '9')
        usage_error("bad number for %s", opt);
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v < lo || v > hi) {
        char msg[200];
        snprintf(msg, sizeof msg, "%%s: %s must be in %llu..%llu", opt,
                 (unsigned long long)lo, (unsigned long long)hi);
        usage_error(msg, s);
    }
    return v;
}

int main(int argc, char **argv)
{
    const char *shape = "mpi", *order = "time", *format = "csv", *outpath = NULL, *anspath = NULL;
    uint64_t events = 1000000, seed = 1;
    uint32_t ranks = 0, threads = 2;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = NULL;
        char opt[32];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(USAGE, stdout);
            return 0;
        }
        if (!strcmp(a, "-o")) {
            snprintf(opt, sizeof opt, "-o");
        } else if (!strncmp(a, "--", 2)) {
            const char *eq = strchr(a, '=');
            size_t n = eq ? (size_t)(eq - a) : strlen(a);
            if (n >= sizeof opt)
                usage_error("unknown option %s", a);
            memcpy(opt, a, n);
            opt[n] = 0;
            if (eq)
                val = eq + 1;
        } else {
            usage_error("unexpected argument %s", a);
        }
        static const char *const KNOWN[] = { "-o", "--shape", "--format", "--events", "--ranks",
                                             "--threads", "--seed", "--order", "--output", "--answers" };
        int known = 0;
        for (size_t k = 0; k < sizeof KNOWN / sizeof *KNOWN; k++)
            known |= !strcmp(opt, KNOWN[k]);
        if (!known)
            usage_error("unknown option %s", a);
        if (!val) {
            if (i + 1 >= argc)
                usage_error("option %s needs a value", opt);
            val = argv[++i];
        }
        if (!strcmp(opt, "-o") || !strcmp(opt, "--output")) {
            outpath = val;
        } else if (!strcmp(opt, "--answers")) {
            anspath = val;
        } else if (!strcmp(opt, "--shape")) {
            if (strcmp(val, "mpi") && strcmp(val, "ring") && strcmp(val, "x10") && strcmp(val, "mw") &&
                strcmp(val, "tasks") && strcmp(val, "wide"))
                usage_error("unknown shape '%s' (mpi, tasks, wide, ring, x10, mw)", val);
            shape = val;
        } else if (!strcmp(opt, "--format")) {
            if (strcmp(val, "csv") && strcmp(val, "ndjson"))
                usage_error("unknown format '%s' (csv, ndjson)", val);
            format = val;
        } else if (!strcmp(opt, "--order")) {
            if (strcmp(val, "time") && strcmp(val, "loc"))
                usage_error("unknown order '%s' (time, loc)", val);
            order = val;
        } else if (!strcmp(opt, "--events")) {
            events = parse_u64(opt, val, 1, 10000000000ull);
        } else if (!strcmp(opt, "--ranks")) {
            ranks = (uint32_t)parse_u64(opt, val, 1, 100000);
        } else if (!strcmp(opt, "--threads")) {
            threads = (uint32_t)parse_u64(opt, val, 1, 64);
        } else if (!strcmp(opt, "--seed")) {
            seed = parse_u64(opt, val, 0, UINT64_MAX);
        }
    }
    if (!strcmp(shape, "ring") || !strcmp(shape, "mw")) {
        if (ranks == 0)
            ranks = !strcmp(shape, "ring") ? 8 : 6;
        if (ranks < 2)
            usage_error("--shape %s needs --ranks >= 2", shape);
    } else if (ranks == 0) {
        ranks = !strcmp(shape, "wide") ? 10000 : 64;
    }

    if (anspath && strcmp(shape, "ring") && strcmp(shape, "mw"))
        usage_error("--answers is written for the shapes ring and mw, not '%s'", shape);
    names_init();
    memset(&G, 0, sizeof G);
    if (anspath) {
        ANS.on = 1;
        ans_init(ranks);
    }
    G.format = !strcmp(format, "ndjson");
    G.by_loc = !strcmp(order, "loc");
    if (outpath && strcmp(outpath, "-")) {
        G.out = fopen(outpath, "wb");
        if (!G.out)
            die_io(outpath);
        G.oname = outpath;
    } else {
        G.out = stdout;
        G.oname = "standard output";
    }
    setvbuf(G.out, NULL, _IONBF, 0); /* we do our own 1 MiB buffering */

    if (!strcmp(shape, "mpi") || !strcmp(shape, "wide"))
        shape_mpi(ranks, threads, events, seed);
    else if (!strcmp(shape, "tasks"))
        shape_tasks(ranks, events, seed);
    else if (!strcmp(shape, "ring"))
        shape_ring(ranks, seed);
    else if (!strcmp(shape, "x10"))
        shape_x10(seed);
    else
        shape_mw(ranks, seed);

    if (G.out != stdout && fclose(G.out) != 0)
        die_io(G.oname);
    if (anspath) {
        FILE *af = fopen(anspath, "w");
        if (!af)
            die_io(anspath);
        fprintf(af, "{\"shape\":\"%s\",\"t_min\":%llu,\"t_max\":%llu,\"makespan_ns\":%llu,\"per_loc\":[", shape,
                (unsigned long long)ANS.t_min, (unsigned long long)ANS.t_max,
                (unsigned long long)(ANS.t_max - ANS.t_min));
        uint32_t straggler = 0;
        for (uint32_t l = 0; l < ANS.nloc; l++) {
            if (ANS.bar_last[l] > ANS.bar_last[straggler]) straggler = l;
            fprintf(af,
                    "%s{\"loc\":%u,\"useful_ns\":%llu,\"late_sender_ns\":%llu,\"late_sender_caused_ns\":%llu,"
                    "\"barrier_wait_ns\":%llu,\"barrier_last\":%llu,\"barrier_caused_ns\":%llu}",
                    l ? "," : "", l, (unsigned long long)(ANS.main_dur[l] - ANS.nonstate[l]),
                    (unsigned long long)ANS.ls_wait[l], (unsigned long long)ANS.ls_caused[l],
                    (unsigned long long)ANS.bar_wait[l], (unsigned long long)ANS.bar_last[l],
                    (unsigned long long)ANS.bar_caused[l]);
        }
        fprintf(af, "],\"straggler\":%u}\n", straggler);
        if (fclose(af) != 0)
            die_io(anspath);
    }
    free(G.ev);
    free(G.key);
    free(G.tmp);
    free(G.obuf);
    names_free();
    return 0;
}
