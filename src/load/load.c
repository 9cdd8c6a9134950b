/*
 * load.c — the loader: the read windows of a file (Reader), the parser
 * threads over each file's chunks (opened and cut by load_open.c), the
 * seams verified, the passes after parsing (pairing, names, lanes), the
 * rejection report, and the store built. See load.h for the invariants.
 *
 * Chunk seams: chunk k+1 starts right after a newline chosen near its
 * nominal offset, assuming that newline ends a record. Chunk k parses every
 * record that starts before that offset, reading past it if its last record
 * continues (a quoted CSV field with newlines), and reports where that record
 * really ended. If it is not where chunk k+1 started, chunk k+1 was parsed
 * from inside a record: its batch is discarded and the chunk parsed again
 * from the true seam. So the result is what a sequential parse would give.
 */
#include "load.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "load_int.h"

#include "base/par.h"
#include "store/store.h"
#include "base/timeparse.h"
#include "base/util.h"

#define READ_BLOCK (256u << 10)

/* ---- progress ---------------------------------------------------------- */

/* The chunk a parser thread is parsing, for the progress counters: set by
 * run_chunk around the parse, read by rd_window (so the parsers need not
 * know about progress). NULL outside a chunk or without counters. */
typedef struct {
    LoadProgress *p;
    uint64_t start, len; /* the chunk */
    uint64_t counted;    /* of its bytes, added to p->done so far */
} ChunkProg;
static _Thread_local ChunkProg *tl_prog;

/* a window asked for at off: the chunk's bytes before off are consumed */
static inline void prog_at(ChunkProg *cp, uint64_t off)
{
    if (off <= cp->start) return;
    uint64_t c = off - cp->start;
    if (c > cp->len) c = cp->len;
    if (c > cp->counted) {
        atomic_fetch_add_explicit(&cp->p->done, c - cp->counted, memory_order_relaxed);
        cp->counted = c;
    }
}

/* ---- reader ------------------------------------------------------------ */

void rd_init(Reader *r, int fd, const char *mem, uint64_t limit)
{
    memset(r, 0, sizeof *r);
    r->fd = fd;
    r->mem = mem;
    r->limit = limit;
}

void rd_free(Reader *r) { free(r->buf); }

void rd_finish(Reader *r, Batch *b)
{
    if (r->io_error && !b->read_errno) b->read_errno = r->err ? r->err : EIO;
    if (r->shrank) b->file_shrank = true;
    rd_free(r);
}

const char *rd_window(Reader *r, uint64_t off, size_t min, size_t *avail)
{
    ChunkProg *cp = tl_prog;
    if (cp) {
        if (atomic_load_explicit(&cp->p->cancel, memory_order_relaxed)) {
            /* cancelled: the file ends here for this reader (as when a file
             * shrinks), so every parser loop sees its end and stops */
            if (off < r->limit) r->limit = off;
            *avail = 0;
            return r->buf ? r->buf : "";
        }
        prog_at(cp, off);
    }
    if (r->mem) {
        /* in memory: the window is the rest of the input, zeros after it */
        if (off > r->limit) off = r->limit;
        *avail = (size_t)(r->limit - off);
        return r->mem + off;
    }
    if (off >= r->limit) {
        *avail = 0;
        return r->buf ? r->buf : "";
    }
    uint64_t have_end = r->base + r->len;
    if (off >= r->base && off + min <= have_end && off < have_end) {
        *avail = (size_t)(have_end - off);
        return r->buf + (off - r->base);
    }
    /* keep the bytes from off that are already here, read the rest */
    size_t keep = 0;
    if (off >= r->base && off < have_end) keep = (size_t)(have_end - off);
    size_t want = min > READ_BLOCK ? min : READ_BLOCK;
    if (want < min + 1) want = min + 1;
    /* never more than what is left of the file (a small file, or a
     * min past its end: a window holds at most the rest) */
    if (r->limit - off < want) want = (size_t)(r->limit - off) + 1;
    if (r->cap < want) {
        /* (a small file gets a window of its size, not READ_BLOCK) */
        size_t nc = r->cap ? r->cap : want < READ_BLOCK ? want : READ_BLOCK;
        while (nc < want) nc *= 2;
        char *nb = xmalloc_big(nc + RD_SLACK); /* (4 MiB and more: recycled pages when there are) */
        if (keep) memcpy(nb, r->buf + (off - r->base), keep);
        free(r->buf);
        r->buf = nb;
        r->cap = nc;
    } else if (keep) {
        memmove(r->buf, r->buf + (off - r->base), keep);
    }
    r->base = off;
    r->len = keep;
    while (r->len < r->cap && r->base + r->len < r->limit) {
        size_t toread = r->cap - r->len;
        if (r->base + r->len + toread > r->limit) toread = (size_t)(r->limit - r->base - r->len);
        ssize_t got = pread(r->fd, r->buf + r->len, toread, (off_t)(r->base + r->len));
        if (got < 0) {
            if (errno == EINTR) continue;
            r->io_error = true;
            r->err = errno;
            break;
        }
        if (got == 0) {
            /* the file shrank: read no further (and say so: the load is
             * not the file) */
            r->limit = r->base + r->len;
            r->shrank = true;
            break;
        }
        r->len += (size_t)got;
        if (r->len >= min && r->len >= (size_t)1 << 16 && (size_t)got < toread) break;
    }
    memset(r->buf + r->len, 0, RD_SLACK); /* scanners may read (and mask) past the data */
    *avail = r->len;
    return r->buf;
}

uint64_t rd_find_lf(Reader *r, uint64_t off)
{
    size_t scanned = 0; /* bytes from off known to hold no LF */
    size_t want = 1;
    for (;;) {
        size_t avail;
        const char *w = rd_window(r, off, want, &avail);
        if (avail <= scanned) return r->limit;
        const char *q = memchr(w + scanned, '\n', avail - scanned);
        if (q) return off + (uint64_t)(q - w);
        scanned = avail;
        if (off + avail >= r->limit) return r->limit;
        want = avail * 2; /* a long line: widen the window */
    }
}

/* Rows a chunk's batch is sized for before its parse: the densest of
 * samples spread over the chunk, plus 5%. (The first window alone misjudges
 * a file whose lines grow along it, as location numbers gain digits, and a
 * batch that outgrows its size copies every row it has into fresh memory.
 * Sizing too big costs address space only: pages never written are never
 * faulted in.) A sample that cannot be read (a pipe) is skipped. */
void batch_presize(Batch *b, Reader *rd, uint64_t start, uint64_t end)
{
    enum { SAMPLES = 8, SAMPLE_BYTES = 32768 };
    if (end <= start) return;
    uint64_t span = end - start;
    double dens = 0; /* lines per byte, the densest sample's */
    char *tmp = NULL;
    for (int s = 0; s < SAMPLES; s++) {
        uint64_t off = start + span / SAMPLES * (uint64_t)s;
        if (s > 0 && off == start) break; /* (a small chunk: one sample) */
        size_t len = 0;
        const char *p = NULL;
        if (s == 0) {
            p = rd_window(rd, start, 1, &len); /* (the window the parse starts with) */
        } else if (rd->mem) {
            p = rd->mem + off;
            len = off < rd->limit ? (size_t)(rd->limit - off) : 0;
        } else {
            if (!tmp) tmp = xmalloc(SAMPLE_BYTES);
            ssize_t got = pread(rd->fd, tmp, SAMPLE_BYTES, (off_t)off);
            if (got <= 0) continue;
            p = tmp;
            len = (size_t)got;
        }
        if (len > (s == 0 ? (size_t)8 * SAMPLE_BYTES : SAMPLE_BYTES)) len = s == 0 ? (size_t)8 * SAMPLE_BYTES : SAMPLE_BYTES;
        if (len > end - off) len = (size_t)(end - off);
        /* whole lines only: from the chunk's start (a line's), or from the
         * first LF of a sample in the middle of a line; to the last LF */
        const char *first = s == 0 ? p - 1 : memchr(p, '\n', len);
        if (!first) continue;
        const char *last = NULL;
        size_t lines = 0;
        for (const char *q = first + 1; q < p + len && (q = memchr(q, '\n', (size_t)(p + len - q))) != NULL; q++) {
            lines++;
            last = q;
        }
        if (!lines) continue;
        double d = (double)lines / (double)(last - first);
        if (d > dens) dens = d;
    }
    free(tmp);
    if (dens > 0) batch_reserve(b, (size_t)((double)span * dens * 1.05) + 64);
}

/* ---- per file ---------------------------------------------------------- */


typedef struct {
    FileJob *fj;
    const LoadOpts *o;
    JobQueue q;
    long delay_ms; /* TNAV_TEST_LOAD_DELAY_MS */
} ChunkRun;

static bool cancelled(const LoadOpts *o)
{
    return o->progress && atomic_load_explicit(&o->progress->cancel, memory_order_relaxed);
}

/* count: add the chunk's bytes to the progress counters (not when a chunk
 * is parsed again from its true seam: its bytes were counted) */
static void run_chunk(FileJob *fj, const LoadOpts *o, int k, bool count)
{
    Batch *b = xmalloc(sizeof *b);
    batch_init(b, o->unit_exp, o->keep_all_rejects);
    b->lanes = o->lanes;
    b->ts_end = o->ts_end;
    b->pair_words = o->pair_words;
    b->pair_key = o->pair_key;
    b->only_kinds = o->only_kinds;
    b->not_busy = o->not_busy;
    fj->batches[k] = b;
    ChunkProg cp = {o->progress, fj->starts[k], fj->starts[k + 1] - fj->starts[k], 0};
    if (cancelled(o)) return; /* (an empty batch) */
    if (count && o->progress) tl_prog = &cp;
    if (fj->fmt == FMT_CSV) csv_parse_chunk(&fj->csv, b, fj->starts[k], fj->starts[k + 1]);
    else if (fj->fmt == FMT_CHROME) chrome_parse_chunk(&fj->ch, b, fj->starts[k], fj->starts[k + 1]);
    else if (fj->fmt == FMT_PARAVER) prv_parse_chunk(&fj->prv, b, fj->starts[k], fj->starts[k + 1]);
    else if (fj->fmt == FMT_OTF2) {
        fj->fatal = otf2_parse_archive(fj->otf2_path, b);
        b->chunk_stop = fj->starts[k + 1];
    }
    else ndjson_parse_chunk(&fj->nd, b, fj->starts[k], fj->starts[k + 1]);
    batch_parse_done(b);
    if (tl_prog) {
        prog_at(&cp, fj->starts[k + 1]);
        tl_prog = NULL;
    }
}

static void chunk_worker(void *ctx, int w, int nw)
{
    (void)w;
    (void)nw;
    ChunkRun *cr = ctx;
    size_t k;
    while ((k = jobq_next(&cr->q)) != (size_t)-1) {
        if (cr->delay_ms > 0 && !cancelled(cr->o)) {
            struct timespec ts = {cr->delay_ms / 1000, (cr->delay_ms % 1000) * 1000000L};
            nanosleep(&ts, NULL);
        }
        run_chunk(cr->fj, cr->o, (int)k, true);
    }
}

static void free_batches(Batch **v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (!v[i]) continue;
        batch_free(v[i]);
        free(v[i]);
    }
}


/* add a batch's problems to the load's (batches come in file order, so the
 * first three of each problem stay the first three) */
#define PROBLEMS_MAX 64
typedef VEC(ProblemSummary) ProblemVec;
static void merge_problems(ProblemVec *v, Batch *b, int fi, uint64_t lines_before)
{
    for (int i = 0; i < b->nprobs; i++) {
        Problem *P = &b->probs[i];
        ProblemSummary *S = NULL;
        for (size_t k = 0; k < v->len && !S; k++)
            if (!strcmp(v->v[k].problem, P->key)) S = &v->v[k];
        if (!S && v->len >= PROBLEMS_MAX) S = &v->v[v->len - 1]; /* (counted with the last) */
        if (!S) {
            ProblemSummary z = {xstrdup(P->key), 0, 0, {{0}}};
            VEC_PUSH(*v, z);
            S = &v->v[v->len - 1];
        }
        S->count += P->count;
        for (int j = 0; j < P->nfirst && S->nfirst < 3; j++) {
            Rejection r = {fi, lines_before + P->first[j].line, P->first[j].reason};
            P->first[j].reason = NULL;
            S->first[S->nfirst++] = r;
        }
    }
}

static void free_problems(ProblemSummary *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(p[i].problem);
        for (int j = 0; j < p[i].nfirst; j++) free(p[i].first[j].reason);
    }
    free(p);
}

static int prob_cmp(const void *a, const void *b)
{
    const ProblemSummary *x = a, *y = b;
    if (!x->nfirst || !y->nfirst) return x->nfirst ? -1 : y->nfirst ? 1 : 0;
    if (x->first[0].file != y->first[0].file) return x->first[0].file < y->first[0].file ? -1 : 1;
    return x->first[0].line < y->first[0].line ? -1 : x->first[0].line > y->first[0].line;
}

static int rej_cmp(const void *a, const void *b)
{
    const Rejection *x = a, *y = b;
    if (x->file != y->file) return x->file < y->file ? -1 : 1;
    if (x->line != y->line) return x->line < y->line ? -1 : 1;
    /* two on one line (Chrome events, or a parse and a pairing problem):
     * by their text, whatever batch each came from */
    return strcmp(x->reason, y->reason);
}

/* Timestamps read as ns (the default) that look like epoch seconds,
 * milliseconds or microseconds: the start falls in 2000..2100 in that unit
 * and the whole trace spans less than 10 ms, 10 s or 10000 s "of ns" —
 * about 115 days in that unit. (A relative trace that starts near 0 never
 * matches.) A warning naming the --time-unit to use. */
static void unit_warning(const LoadOpts *o, const Store *s)
{
    if (o->unit_exp != 0 || s->n == 0) return;
    static const struct { int64_t lo, hi, span; const char *what, *unit; } U[] = {
        {946684800LL, 4102444800LL, 10000000LL, "epoch seconds", "s"},
        {946684800000LL, 4102444800000LL, 10000000000LL, "epoch milliseconds", "ms"},
        {946684800000000LL, 4102444800000000LL, 10000000000000LL, "epoch microseconds", "us"},
    };
    int64_t span = s->t_max - s->t_min;
    for (size_t i = 0; i < sizeof U / sizeof U[0]; i++)
        if (s->t_min >= U[i].lo && s->t_min < U[i].hi && span >= 0 && span < U[i].span) {
            fprintf(o->report,
                    "tnav: warning: the timestamps look like %s read as nanoseconds (the first is %lld; the whole "
                    "trace would span %lld ns): if so, load with --time-unit %s\n",
                    U[i].what, (long long)s->t_min, (long long)span, U[i].unit);
            return;
        }
}

int load_traces(const LoadOpts *o, char *const *paths, int npaths, Store **out, LoadReport *rep)
{
    memset(rep, 0, sizeof *rep);
    *out = NULL;
    int nthreads = o->threads > 0 ? o->threads : cpu_count();
    double t0 = now_sec();
    rep->files = xcalloc((size_t)npaths + 1, sizeof(FileInfo));
    rep->nfiles = npaths;
    VEC(Batch *) all = {0};
    VEC(Rejection) rej = {0};
    ProblemVec probs = {0};
    uint64_t dropped_extras = 0;
    LoadProgress *pg = o->progress;
    long delay_ms = 0;
    const char *dl = getenv("TNAV_TEST_LOAD_DELAY_MS");
    if (dl) delay_ms = atol(dl);
    if (pg) {
        uint64_t total = 0;
        for (int fi = 0; fi < npaths; fi++) {
            struct stat st;
            if (stat(paths[fi], &st) == 0 && S_ISREG(st.st_mode)) total += (uint64_t)st.st_size;
        }
        atomic_store(&pg->total, total);
        atomic_store(&pg->done, 0);
        atomic_store(&pg->phase, LOAD_PH_PARSE);
    }
    uint64_t done_files = 0; /* bytes of the files before this one */
    for (int fi = 0; fi < npaths; fi++) {
        FileJob fj;
        char *err = NULL;
        FileInfo *inf = &rep->files[fi];
        inf->path = xstrdup(!o->mem && !strcmp(paths[fi], "-") ? "standard input" : paths[fi]);
        int of = open_file(paths[fi], &fj, o, nthreads, done_files, &err);
        if (of == LOAD_CANCELLED) break;
        if (of != 0) {
            if (pg && pg->before_report) pg->before_report(pg->ctx);
            fprintf(o->report ? o->report : stderr, "%s\n", err);
            free(err);
            free_batches(all.v, all.len);
            VEC_FREE(all);
            for (size_t i = 0; i < rej.len; i++) free(rej.v[i].reason);
            VEC_FREE(rej);
            free_problems(probs.v, probs.len);
            return 2;
        }
        inf->format = fj.fmt;
        if (pg && !o->mem) {
            /* a copied input (standard input, a pipe, a compressed file)
             * counts with its size as read, not as found before */
            struct stat st;
            uint64_t was = stat(paths[fi], &st) == 0 && S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
            if (was != fj.size) atomic_store(&pg->total, atomic_load(&pg->total) - was + fj.size);
        }
        if (fj.nchunks == 0) continue;
        inf->bytes = fj.starts[fj.nchunks];
        if (pg) atomic_store(&pg->done, done_files + fj.starts[0]); /* (the header) */
        double t_file0 = now_sec();
        ChunkRun cr = {&fj, o, {0}, delay_ms};
        jobq_init(&cr.q, (size_t)fj.nchunks);
        par_run(nthreads < fj.nchunks ? nthreads : fj.nchunks, chunk_worker, &cr);
        if (cancelled(o)) {
            free_batches(fj.batches, (size_t)fj.nchunks);
            close_file(&fj);
            free(fj.batches);
            break;
        }
        if (fj.fatal) {
            /* an archive that cannot be read (OTF2): the load fails */
            if (pg && pg->before_report) pg->before_report(pg->ctx);
            fprintf(o->report ? o->report : stderr, "tnav: %s: %s\n", inf->path, fj.fatal);
            free_batches(fj.batches, (size_t)fj.nchunks);
            close_file(&fj);
            free(fj.batches);
            free_batches(all.v, all.len);
            VEC_FREE(all);
            for (size_t i = 0; i < rej.len; i++) free(rej.v[i].reason);
            VEC_FREE(rej);
            free_problems(probs.v, probs.len);
            return 2;
        }
        double tpass = now_sec();
        timing_note("  chunks parsed      %.3f s", tpass - t_file0);
        /* verify the seams; re-parse a chunk that began inside a record */
        for (int k = 1; k < fj.nchunks; k++) {
            uint64_t stop = fj.batches[k - 1]->chunk_stop;
            if (stop == fj.starts[k]) continue;
            if (getenv("TNAV_TIMING"))
                fprintf(stderr, "tnav: timing: chunk %d of %s starts inside a record (%llu != %llu): parsed again\n", k,
                        paths[fi], (unsigned long long)stop, (unsigned long long)fj.starts[k]);
            batch_free(fj.batches[k]);
            free(fj.batches[k]);
            /* start at the true seam; when it lies past this chunk's end the
             * chunk is empty and passes the seam on to the next one */
            fj.starts[k] = stop;
            run_chunk(&fj, o, k, false);
        }
        /* begin/end rows into intervals, flows into messages, rows named
         * by metadata (pair.c) */
        for (int k = 0; k < fj.nchunks; k++) fj.batches[k]->nlab_parsed = fj.batches[k]->labels.count;
        if (fj.fmt == FMT_CHROME) {
            /* beginningOfTime (clang -ftime-trace): times since the epoch */
            bool has = fj.ch.has_bot;
            int64_t bot = fj.ch.bot_ns;
            for (int k = 0; k < fj.nchunks; k++)
                if (fj.batches[k]->has_bot) {
                    has = true;
                    bot = fj.batches[k]->bot_ns;
                }
            for (int k = 0; has && bot && k < fj.nchunks; k++) {
                Batch *b = fj.batches[k];
                b->lsw_stale = true;
                for (size_t r = 0; r < b->n; r++)
                    if (__builtin_add_overflow(b->ts[r], bot, &b->ts[r])) b->ts[r] = INT64_MAX;
            }
        }
        pair_file(fj.batches, (size_t)fj.nchunks, nthreads);
        timing_note("  paired             %.3f s", now_sec() - tpass);
        tpass = now_sec();
        rename_labels(fj.batches, (size_t)fj.nchunks);
        if (fj.fmt == FMT_CHROME && npaths > 1) {
            /* several Chrome files (a directory of clang -ftime-trace
             * files): each file's processes are its own, named by it */
            const char *base = strrchr(inf->path, '/');
            base = base ? base + 1 : inf->path;
            size_t bl = strlen(base);
            if (bl > 5 && !strcmp(base + bl - 5, ".json")) bl -= 5;
            else if (bl > 8 && !strcmp(base + bl - 8, ".json.gz")) bl -= 8;
            else if (bl > 9 && !strcmp(base + bl - 9, ".json.zst")) bl -= 9;
            char *stem = xasprintf("%.*s", (int)bl, base);
            prefix_locations(fj.batches, (size_t)fj.nchunks, stem);
            free(stem);
        }
        if (!o->no_lanes || o->lanes) lanes_file(fj.batches, (size_t)fj.nchunks, o->no_lanes, nthreads);
        for (int k = 0; k < fj.nchunks; k++) batch_free_sweep(fj.batches[k]); /* (read, or not wanted: --no-lanes) */
        timing_note("  names, lanes       %.3f s", now_sec() - tpass);
        /* absolute line numbers */
        uint64_t lines_before = (fj.fmt == FMT_CSV ? fj.csv.header_lines : fj.head_lines);
        for (int k = 0; k < fj.nchunks; k++) {
            Batch *b = fj.batches[k];
            b->file_index = fi;
            inf->events += b->n;
            inf->rejected += b->nrej;
            inf->blank += b->nblank;
            inf->skipped += b->nskipped;
            inf->comments += b->ncomment;
            if (b->tail_incomplete) inf->incomplete_tail = true;
            dropped_extras += b->dropped_extras;
            for (size_t i = 0; i < b->rej.len; i++) {
                Rejection r = {fi, lines_before + b->rej.v[i].line, b->rej.v[i].reason};
                VEC_PUSH(rej, r);
                b->rej.v[i].reason = NULL;
            }
            merge_problems(&probs, b, fi, lines_before);
            inf->unpaired_ends += b->loose.len;
            rep->unpaired_ends += b->loose.len;
            for (size_t i = 0; i < b->loose.len; i++) {
                if (o->keep_all_rejects || rep->nloose_kept < (size_t)o->max_report) {
                    rep->loose = xrealloc(rep->loose, (rep->nloose_kept + 1) * sizeof *rep->loose);
                    Rejection r = {fi, lines_before + b->loose.v[i].line, b->loose.v[i].reason};
                    rep->loose[rep->nloose_kept++] = r;
                    b->loose.v[i].reason = NULL;
                }
            }
            lines_before += b->nlf;
            VEC_PUSH(all, b);
        }
        rep->rejected += inf->rejected;
        if (fj.fmt == FMT_CSV) inf->comments += fj.csv.comments;
        /* a read that failed, a file that changed while it was read: the
         * load is not the file, and says so */
        int rerr = 0;
        bool shrank = false;
        for (size_t i = all.len - (size_t)fj.nchunks; i < all.len; i++) {
            if (all.v[i]->read_errno && !rerr) rerr = all.v[i]->read_errno;
            shrank |= all.v[i]->file_shrank;
        }
        struct stat st2;
        int wfd = fj.fmt == FMT_CSV       ? fj.csv.fd
                  : fj.fmt == FMT_CHROME  ? fj.ch.fd
                  : fj.fmt == FMT_PARAVER ? fj.prv.fd
                  : fj.fmt == FMT_OTF2    ? fj.otf2_fd
                                          : fj.nd.fd;
        bool changed = shrank;
        if (!changed && fj.watch && wfd >= 0 && fstat(wfd, &st2) == 0)
            changed = (uint64_t)st2.st_size < fj.size ||
                      ((uint64_t)st2.st_size == fj.size &&
                       (st2.st_mtim.tv_sec != fj.mtime.tv_sec || st2.st_mtim.tv_nsec != fj.mtime.tv_nsec));
        if (rerr || changed) {
            if (pg && pg->before_report) pg->before_report(pg->ctx);
            FILE *rf = o->report ? o->report : stderr;
            if (rerr)
                fprintf(rf, "tnav: %s: a read failed while loading it: %s; the load is incomplete\n", inf->path,
                        strerror(rerr));
            else
                fprintf(rf,
                        "tnav: %s changed while it was read (%s); what was loaded is not the file: load it again "
                        "when it is complete\n",
                        inf->path, shrank || (fj.watch && (uint64_t)st2.st_size < fj.size) ? "it got shorter" : "it was rewritten in place");
            close_file(&fj);
            free(fj.batches);
            free_batches(all.v, all.len);
            VEC_FREE(all);
            for (size_t i = 0; i < rej.len; i++) free(rej.v[i].reason);
            VEC_FREE(rej);
            free_problems(probs.v, probs.len);
            return rerr ? 2 : 1;
        }
        close_file(&fj);
        free(fj.batches);
        done_files += inf->bytes;
        if (pg) atomic_store(&pg->done, done_files);
    }
    /* problems in the order of their first line (a pass after parsing may
     * add one whose first line comes before another's) */
    if (probs.len > 1) qsort(probs.v, probs.len, sizeof(ProblemSummary), prob_cmp);
    rep->problems = probs.v;
    rep->nproblems = (int)probs.len;
    {
        /* begins never ended close at the end of the whole trace (all its
         * files), not of their own file */
        bool any = false;
        for (size_t i = 0; i < all.len && !any; i++) any = all.v[i]->unfin_rows.len > 0;
        if (any && all.len > 1) {
            int64_t tend = INT64_MIN;
            for (size_t i = 0; i < all.len; i++) {
                const Batch *b = all.v[i];
                for (size_t r = 0; r < b->n; r++) {
                    int64_t t;
                    if (__builtin_add_overflow(b->ts[r], b->dur[r] > 0 ? b->dur[r] : 0, &t)) t = INT64_MAX;
                    if (t > tend) tend = t;
                }
            }
            for (size_t i = 0; i < all.len; i++) {
                Batch *b = all.v[i];
                for (size_t k = 0; k < b->unfin_rows.len; k++) {
                    uint32_t r = b->unfin_rows.v[k];
                    if (r < b->n && tend > b->ts[r]) b->dur[r] = tend - b->ts[r];
                }
            }
        }
    }
    if (cancelled(o)) {
        free_batches(all.v, all.len);
        VEC_FREE(all);
        for (size_t i = 0; i < rej.len; i++) free(rej.v[i].reason);
        VEC_FREE(rej);
        load_report_free(rep);
        big_cache_trim();
        return LOAD_CANCELLED;
    }
    if (pg) {
        atomic_store(&pg->done, atomic_load(&pg->total) > done_files ? atomic_load(&pg->total) : done_files);
        atomic_store(&pg->phase, LOAD_PH_BUILD);
        if (pg->before_report) pg->before_report(pg->ctx);
    }
    rep->t_parse = now_sec() - t0;
    if (rej.len) qsort(rej.v, rej.len, sizeof(Rejection), rej_cmp);
    if (!o->keep_all_rejects && rej.len > (size_t)o->max_report) {
        for (size_t i = (size_t)o->max_report; i < rej.len; i++) free(rej.v[i].reason);
        rej.len = (size_t)o->max_report;
    }
    rep->rej = rej.v;
    rep->nrej_kept = rej.len;
    if (o->report) {
        /* per problem: its first three records, then how many more */
        size_t budget = (size_t)o->max_report;
        for (int k = 0; k < rep->nproblems; k++) {
            const ProblemSummary *S = &rep->problems[k];
            for (int j = 0; j < S->nfirst && budget; j++, budget--)
                fprintf(o->report, "%s:%llu: %s\n", rep->files[S->first[j].file].path,
                        (unsigned long long)S->first[j].line, S->first[j].reason);
            if (S->count > (uint64_t)S->nfirst)
                fprintf(o->report, "tnav: %s: %llu more record%s (%llu in all)\n", S->problem,
                        (unsigned long long)(S->count - (uint64_t)S->nfirst), S->count - (uint64_t)S->nfirst == 1 ? "" : "s",
                        (unsigned long long)S->count);
        }
        if (rep->rejected)
            fprintf(o->report, "tnav: %llu record%s rejected%s\n", (unsigned long long)rep->rejected,
                    rep->rejected == 1 ? "" : "s", rep->nproblems > 1 ? " in all" : "");
        if (!o->quiet && rep->unpaired_ends && !o->keep_all_rejects) {
            /* (tnav check lists them itself) */
            for (size_t i = 0; i < rep->nloose_kept; i++)
                fprintf(o->report, "%s:%llu: %s\n", rep->files[rep->loose[i].file].path, (unsigned long long)rep->loose[i].line,
                        rep->loose[i].reason);
            fprintf(o->report, "tnav: %llu end%s of --pair with no open begin, kept as %s\n",
                    (unsigned long long)rep->unpaired_ends, rep->unpaired_ends == 1 ? "" : "s",
                    rep->unpaired_ends == 1 ? "it is" : "they are");
        }
        if (!o->quiet) {
            for (int fi = 0; fi < npaths; fi++)
                if (rep->files[fi].incomplete_tail)
                    fprintf(o->report,
                            "tnav: %s: the last line has no newline and does not parse; left out as an "
                            "incomplete record (is the file still being written?)\n",
                            rep->files[fi].path);
            if (dropped_extras)
                fprintf(o->report, "tnav: warning: %llu values of extra fields beyond the limit of %u distinct extra fields were not loaded\n",
                        (unsigned long long)dropped_extras, (unsigned)MAX_EXTRA_FIELDS);
        }
    }
    uint64_t loaded = 0;
    for (int fi = 0; fi < npaths; fi++) loaded += rep->files[fi].events;
    bool cut = false; /* (a last line left out as incomplete) */
    for (int fi = 0; fi < npaths; fi++) cut |= rep->files[fi].incomplete_tail;
    if (!loaded && (rep->rejected || cut) && !o->keep_all_rejects) {
        /* (tnav check lists them all and exits 1 itself) */
        FILE *rf = o->report ? o->report : stderr;
        if (!rep->rejected) fprintf(rf, "tnav: nothing loaded: the only record is the incomplete last line\n");
        else if (rep->rejected == 1 && !cut) fprintf(rf, "tnav: nothing loaded: its only record was rejected\n");
        else fprintf(rf, "tnav: nothing loaded: all %llu records were rejected%s\n", (unsigned long long)rep->rejected,
                     cut ? " (and the last line is incomplete)" : "");
        free_batches(all.v, all.len);
        VEC_FREE(all);
        return 1;
    }
    if (o->strict && rep->rejected) {
        free_batches(all.v, all.len);
        VEC_FREE(all);
        if (o->report) fprintf(o->report, "tnav: --strict: giving up because records were rejected\n");
        return 1;
    }
    double t1 = now_sec();
    Store *s = all.len ? store_build(all.v, all.len, nthreads, o->keep_big_blocks, o->defer_tail) : store_empty();
    rep->t_build = now_sec() - t1;
    timing_note("parse %.3f s (%d threads), build %.3f s", rep->t_parse, nthreads, rep->t_build);
    free_batches(all.v, all.len);
    VEC_FREE(all);
    if (!o->keep_big_blocks) big_cache_trim(); /* the blocks nobody reused go back to the system */
    timing_note("batches freed");
    if (cancelled(o)) {
        store_free(s);
        load_report_free(rep);
        big_cache_trim();
        return LOAD_CANCELLED;
    }
    bool unit_given = true; /* (by --time-unit, or by the format: Chrome's is us) */
    for (int fi = 0; fi < npaths; fi++)
        if (rep->files[fi].format != FMT_CHROME && rep->files[fi].format != FMT_PARAVER &&
            rep->files[fi].format != FMT_OTF2 && rep->files[fi].events)
            unit_given = false;
    if (o->report && !o->quiet && !unit_given) unit_warning(o, s);
    if (pg) atomic_store(&pg->phase, LOAD_PH_DONE);
    *out = s;
    return 0;
}

void load_report_free(LoadReport *rep)
{
    free_problems(rep->problems, (size_t)rep->nproblems);
    for (int i = 0; i < rep->nfiles; i++) free(rep->files[i].path);
    free(rep->files);
    for (size_t i = 0; i < rep->nrej_kept; i++) free(rep->rej[i].reason);
    free(rep->rej);
    for (size_t i = 0; i < rep->nloose_kept; i++) free(rep->loose[i].reason);
    free(rep->loose);
    memset(rep, 0, sizeof *rep);
}
