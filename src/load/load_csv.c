/*
 * load_csv.c — CSV chunk parser.
 *
 * Owns: the CSV dialect (libcsv's, non-strict): fields separated by the
 * delimiter found in the header, records ended by CR, LF or CRLF, blank
 * records skipped, a field quoted only when its first non-blank character is
 * a quote (then "" is a literal quote and delimiters and newlines are data),
 * spaces and tabs around unquoted fields trimmed.
 * Records are split by libcsv whenever they contain a quote character (and
 * always with --csv-engine libcsv); a record without any quote is split by a
 * byte-class scan that implements the same rules for that case, because
 * libcsv's per-byte callback path is the bottleneck of a load (measured in
 * doc/PERFORMANCE.md). tests/ compares both engines on every sample and the
 * fuzz target compares them on arbitrary input. The header: csv_header.c.
 * Invariants: see load_int.h (records starting in [start, end) only).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv_int.h"
#include "base/timeparse.h"

enum { C_NONE = 0, C_DELIM = 1, C_TERM = 2, C_QUOTE = 3, C_HIGH = 4 };

/* fp and fl hold maxf fields, then SCAN_SLACK more that scan_record may
 * write past them (see there), then one empty column, EMPTY_COL(maxf):
 * CsvView.col_of points an absent field at it */
enum { SCAN_SLACK = 16 };
#define EMPTY_COL(maxf) ((maxf) + SCAN_SLACK)

/* ---- libcsv driven path ------------------------------------------------ */

void csv_slow_cb1(void *s, size_t len, void *data)
{
    Slow *sl = data;
    if (sl->nf == sl->fcapn) {
        sl->fcapn = sl->fcapn ? sl->fcapn * 2 : 32;
        sl->foff = xrealloc(sl->foff, sl->fcapn * sizeof(size_t));
        sl->fl = xrealloc(sl->fl, sl->fcapn * sizeof(size_t));
    }
    if (sl->flen + len + 1 > sl->fcap) {
        size_t nc = sl->fcap ? sl->fcap * 2 : 4096;
        while (nc < sl->flen + len + 1) nc *= 2;
        sl->fbuf = xrealloc(sl->fbuf, nc);
        sl->fcap = nc;
    }
    if (len) memcpy(sl->fbuf + sl->flen, s, len);
    sl->foff[sl->nf] = sl->flen;
    sl->fl[sl->nf] = len;
    sl->flen += len;
    sl->nf++;
}

static inline __attribute__((always_inline)) void commit_fields(Batch *b, const CsvFile *cf, const uint32_t *xid, Rec *rec, const char *const *fp,
                          const size_t *fl, size_t nf, uint64_t line, bool last_line, bool check_utf8, bool slack)
{
    char why[256];
    if (nf != (size_t)cf->ncols) {
        if (last_line) {
            b->tail_incomplete = true;
            return;
        }
        batch_reject(b, line, "wrong field count (expected %d, got %zu)", cf->ncols, nf);
        return;
    }
    if (check_utf8) {
        for (size_t i = 0; i < nf; i++) {
            size_t bad = utf8_invalid_at((const unsigned char *)fp[i], fl[i]);
            if (bad != fl[i]) {
                if (last_line) {
                    b->tail_incomplete = true;
                    return;
                }
                batch_reject(b, line, "invalid UTF-8 in field %zu (%s) at byte %zu", i + 1, cf->colnames[i], bad);
                return;
            }
        }
    }
    /* canonical fields are read in place through rec->csv (set up by the
     * caller over these fp/fl arrays); the extras are listed. Fields in the
     * reader's window (slack): an integer of 1 to 16 digits is read here
     * once (ts, dur, bytes, line: Rec.iv; an extra: XVal.isint), so that
     * batch_commit parses none of it again. */
    rec->x.len = 0;
    rec->ivh = 0;
    if (slack) {
        const int *col_of = rec->csv->col_of;
        /* (written out per field: constant bits, no loop over a table) */
        uint32_t ivh = 0;
#define INTF(f)                                                                                                         \
    do {                                                                                                                \
        int c_ = col_of[f];                                                                                             \
        if (csv_field_int(fp[c_], fl[c_], &rec->iv[f])) ivh |= 1u << (f);                                               \
    } while (0)
        INTF(F_TS);
        INTF(F_DUR);
        INTF(F_BYTES);
        INTF(F_LINE);
#undef INTF
        rec->ivh = ivh;
        if (UNLIKELY(rec->x.cap < (size_t)cf->nextra)) VEC_RESERVE(rec->x, (size_t)cf->nextra);
        XVal *xv = rec->x.v;
        size_t nx = 0;
        for (int k = 0; k < cf->nextra; k++) {
            int c = cf->extra_col[k];
            if (!fl[c]) continue;
            XVal *x = &xv[nx++];
            x->xid = xid[c];
            x->v.p = fp[c];
            x->v.n = (uint32_t)fl[c];
            x->isint = csv_field_int(fp[c], fl[c], &x->iv);
            x->v.t = V_TEXT;
        }
        rec->x.len = nx;
    } else {
        for (int k = 0; k < cf->nextra; k++) {
            int c = cf->extra_col[k];
            if (fl[c]) rec_add_extra(rec, xid[c], fp[c], fl[c], V_TEXT);
        }
    }
    b->cur_line = line;
    if (!batch_commit(b, rec, why, sizeof why)) {
        if (last_line) {
            b->tail_incomplete = true;
            return;
        }
        batch_reject(b, line, "%s", why);
    }
}

void csv_slow_cb2(int c, void *data)
{
    Slow *sl = data;
    if (sl->header_mode) {
        sl->header_done = 1;
        return;
    }
    size_t nf = sl->nf;
    size_t empty = EMPTY_COL((size_t)sl->cf->ncols + 1);
    if (nf > sl->ptrcap || empty >= sl->ptrcap) {
        sl->ptrcap = nf > empty ? nf : empty + 1;
        sl->ptrs = xrealloc(sl->ptrs, sl->ptrcap * sizeof(char *));
        sl->lens = xrealloc(sl->lens, sl->ptrcap * sizeof(size_t));
    }
    for (size_t i = 0; i < nf; i++) {
        sl->ptrs[i] = sl->fbuf + sl->foff[i];
        sl->lens[i] = sl->fl[i];
    }
    /* (a record of more fields than that is rejected for its count) */
    sl->ptrs[empty] = "";
    sl->lens[empty] = 0;
    csv_view_bind(sl->view, sl->ptrs, sl->lens);
    commit_fields(sl->b, sl->cf, sl->xid, sl->rec, sl->ptrs, sl->lens, nf, sl->rec_line, sl->on_last_line, true, false);
    sl->nf = 0;
    sl->flen = 0;
    /* a record ended by a lone CR is followed by another on the same line */
    sl->rec_line = c == '\r' ? sl->cur_line : sl->cur_line + 1;
}

void csv_slow_free(Slow *sl)
{
    free(sl->fbuf);
    free(sl->foff);
    free(sl->fl);
    free(sl->ptrs);
    free(sl->lens);
}

/* libcsv's field buffer: libcsv asks for it to grow by blk_size bytes at a
 * time (csv_increase_buffer), an arithmetic growth whose copies are
 * quadratic in a field of megabytes (glibc's mremap of big blocks hides it;
 * ASan's realloc, which always copies, does not). Its realloc function
 * (csv_set_realloc_func) keeps the capacity in a header and doubles it, so
 * a request within the capacity is free and the copies are geometric; and
 * an allocation that fails is out of memory, as everywhere (die_oom). */
#define CSVBUF_HDR 16 /* (keeps the buffer 16-byte aligned) */
static void *csvbuf_realloc(void *p, size_t n)
{
    unsigned char *h = p ? (unsigned char *)p - CSVBUF_HDR : NULL;
    size_t cap = 0;
    if (h) memcpy(&cap, h, sizeof cap);
    if (h && n <= cap) return p;
    size_t want = cap > n / 2 ? cap * 2 : n;
    if (want < n || want > SIZE_MAX - CSVBUF_HDR) want = n; /* (overflow) */
    h = xrealloc(h, want + CSVBUF_HDR);
    memcpy(h, &want, sizeof want);
    return h + CSVBUF_HDR;
}

static void csvbuf_free(void *p)
{
    if (p) free((unsigned char *)p - CSVBUF_HDR);
}

void csv_setup_parser(struct csv_parser *p, unsigned char delim)
{
    if (csv_init(p, 0) != 0) die_oom();
    csv_set_delim(p, delim);
    csv_set_realloc_func(p, csvbuf_realloc);
    csv_set_free_func(p, csvbuf_free);
    csv_set_blk_size(p, (size_t)4 << 10); /* (the step libcsv asks for; the capacity doubles) */
}


/* The offset just past the terminator that ends the line at off: an LF, a
 * CRLF or a lone CR; *term says which ('\n' for LF and CRLF, '\r' for a
 * lone CR, 0 at the end of the file without one: then the limit). */
uint64_t csv_find_eol(Reader *rd, uint64_t off, int *term)
{
    *term = 0;
    size_t scanned = 0, want = 1;
    for (;;) {
        size_t avail;
        const char *w = rd_window(rd, off, want, &avail);
        if (avail <= scanned) return rd->limit;
        for (size_t i = scanned; i < avail; i++) {
            if (w[i] == '\n') {
                *term = '\n';
                return off + i + 1;
            }
            if (w[i] == '\r') {
                if (i + 1 >= avail && off + avail < rd->limit) {
                    w = rd_window(rd, off, avail + 1, &avail);
                }
                if (i + 1 < avail && w[i + 1] == '\n') {
                    *term = '\n';
                    return off + i + 2;
                }
                *term = '\r';
                return off + i + 1;
            }
        }
        scanned = avail;
        if (off + avail >= rd->limit) return rd->limit;
        want = avail * 2;
    }
}


/* A comment line — '#' as its first byte — at off: the offset just past
 * its terminator (*lf: one ended it), or 0 when the line is no comment. */
uint64_t csv_comment_end(Reader *rd, uint64_t off, int *lf)
{
    size_t avail;
    const char *w = rd_window(rd, off, 1, &avail);
    if (!avail || w[0] != '#') return 0;
    return csv_find_eol(rd, off, lf);
}

/* Feed the record(s) starting at rs, line by line, until libcsv is between
 * records at the end of a line. Returns the offset after the last line fed;
 * updates *line. */
static uint64_t slow_records(Reader *rd, struct csv_parser *p, Slow *sl, uint64_t rs, uint64_t *line)
{
    uint64_t off = rs;
    uint64_t start_line = *line;
    sl->rec_line = *line;
    sl->nf = 0;
    sl->flen = 0;
    {
        int lf;
        uint64_t ce = csv_comment_end(rd, off, &lf);
        if (ce) {
            sl->b->ncomment++;
            if (new_line(sl->cf, lf)) (*line)++;
            return ce;
        }
    }
    {
        /* A record of only spaces and tabs (not the delimiter) is blank:
         * libcsv skips it silently; count it and step over its terminator
         * exactly as the byte scanner does, so that both engines agree. */
        size_t avail;
        const char *w = rd_window(rd, off, 1, &avail);
        size_t i = 0;
        for (;;) {
            if (i >= avail) {
                if (off + avail >= rd->limit) break;
                w = rd_window(rd, off, avail * 2 + 64, &avail);
                continue;
            }
            char c = w[i];
            if ((c == ' ' || c == '\t') && (unsigned char)c != sl->cf->delim) i++;
            else break;
        }
        bool at_end = off + i >= rd->limit;
        if (at_end || w[i] == '\n' || w[i] == '\r') {
            if (i > 0) sl->b->nblank++;
            if (at_end) return rd->limit;
            uint64_t t = off + i;
            if (w[i] == '\n') {
                (*line)++;
                return t + 1;
            }
            w = rd_window(rd, t, 2, &avail);
            if (avail >= 2 && w[1] == '\n') {
                (*line)++;
                return t + 2;
            }
            if (sl->cf->cr_lines) (*line)++;
            return t + 1; /* a lone CR */
        }
    }
    for (;;) {
        /* feed up to the next terminator (LF, CRLF or a lone CR), so that
         * libcsv ends at most one record per feed and a blank record after
         * a lone CR is counted above, as the byte scanner counts it */
        int term;
        uint64_t end = csv_find_eol(rd, off, &term);
        sl->cur_line = *line;
        sl->on_last_line = false; /* records libcsv ends here are terminated */
        uint64_t o = off;
        while (o < end) {
            size_t avail;
            size_t want = end - o > (64u << 20) ? (64u << 20) : (size_t)(end - o);
            const char *w = rd_window(rd, o, want, &avail);
            if (avail == 0) break;
            if (avail > end - o) avail = (size_t)(end - o);
            if (csv_parse(p, w, avail, csv_slow_cb1, csv_slow_cb2, sl) != avail) die_oom();
            o += avail;
        }
        off = end;
        if (new_line(sl->cf, term)) (*line)++;
        if (parser_between_records(p)) return off;
        if (off >= rd->limit) break;
    }
    if (!parser_in_quoted_field(p)) {
        /* the last record has no terminator: let libcsv submit it */
        sl->on_last_line = true;
        csv_fini(p, csv_slow_cb1, csv_slow_cb2, sl);
        return rd->limit;
    }
    /* end of file inside a quoted field */
    csv_free(p);
    csv_setup_parser(p, sl->cf->delim);
    int term;
    uint64_t eol = csv_find_eol(rd, rs, &term);
    if (!term) {
        /* the record began on the last, unterminated line: a file being written */
        sl->b->tail_incomplete = true;
        return rd->limit;
    }
    batch_reject(sl->b, start_line, "unterminated quoted field (no closing quote before end of file)");
    *line = start_line + 1;
    return eol; /* (parsing resumes on the next line, whatever ends it) */
}

/* ---- chunk parse ------------------------------------------------------- */

static inline bool is_blank(unsigned char c, unsigned char delim)
{
    return (c == ' ' || c == '\t') && c != delim;
}

/* Bit masks over 16 bytes at p: delimiters, record terminators or quotes,
 * bytes >= 0x80. p must have 16 readable bytes (the reader's slack). */
typedef struct {
    uint32_t d, t, h, b; /* delimiter, terminator/quote, high bit, blank (space or tab, not the delimiter) */
} Masks;

#if defined(__SSE2__)
#include <emmintrin.h>
static inline void masks16(const char *p, __m128i vd, __m128i vb1, __m128i vb2, Masks *m)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    m->d = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, vd));
    __m128i t = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\r'))),
                             _mm_cmpeq_epi8(v, _mm_set1_epi8('"')));
    m->t = (uint32_t)_mm_movemask_epi8(t);
    m->h = (uint32_t)_mm_movemask_epi8(v);
    m->b = (uint32_t)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, vb1), _mm_cmpeq_epi8(v, vb2)));
}
/* (the blanks compared: space and tab, but not the delimiter) */
#define MASK_SETUP(delim)                                                                                               \
    __m128i vd_ = _mm_set1_epi8((char)(delim));                                                                         \
    __m128i vb1_ = _mm_set1_epi8((delim) == ' ' ? '\t' : ' '), vb2_ = _mm_set1_epi8((delim) == '\t' ? ' ' : '\t')
#define MASKS(p, m) masks16((p), vd_, vb1_, vb2_, (m))
#else
static inline void masks16s(const char *p, unsigned char delim, Masks *m)
{
    m->d = m->t = m->h = m->b = 0;
    for (int i = 0; i < 16; i++) {
        unsigned char c = (unsigned char)p[i];
        if (c == delim) m->d |= 1u << i;
        if (c == '\n' || c == '\r' || c == '"') m->t |= 1u << i;
        if (c >= 0x80) m->h |= 1u << i;
        if ((c == ' ' || c == '\t') && c != delim) m->b |= 1u << i;
    }
}
#define MASK_SETUP(delim) const unsigned char vd_ = (delim)
#define MASKS(p, m) masks16s((p), vd_, (m))
#endif

enum { SCAN_END, SCAN_QUOTE, SCAN_MORE };

/* Split the record at rs (no quotes expected) into fields up to its
 * terminator; stops at a quote or at lim. */
static inline int scan_record(const char *rs, const char *lim, unsigned char delim, const char **fp, size_t *fl,
                              size_t maxf, size_t *nf_out, bool *high, bool *blank, const char **term)
{
    MASK_SETUP(delim);
    const char *p = rs, *fs = rs;
    size_t nf = 0;
    uint32_t bl = 0, hm = 0;
    while (p < lim) {
        Masks m;
        MASKS(p, &m);
        size_t valid = (size_t)(lim - p);
        if (valid < 16) {
            uint32_t k = (1u << valid) - 1;
            m.d &= k;
            m.t &= k;
            m.h &= k;
        }
        uint32_t d = m.d;
        /* the fields ended by the delimiters of d, a block's */
#define SPLIT(d)                                                                                                        \
    do {                                                                                                                \
        if (LIKELY(nf <= maxf)) {                                                                                       \
            /* (fp and fl have SCAN_SLACK entries past maxf: a block's 16                                              \
             * fields at most are written without a check each) */                                                     \
            while (d) {                                                                                                 \
                const char *e = p + __builtin_ctz(d);                                                                   \
                fp[nf] = fs;                                                                                            \
                fl[nf] = (size_t)(e - fs);                                                                              \
                nf++;                                                                                                   \
                fs = e + 1;                                                                                             \
                d &= d - 1;                                                                                             \
            }                                                                                                           \
        } else if (d) {                                                                                                 \
            nf += (size_t)__builtin_popcount(d); /* (too many fields: only counted) */                                 \
            fs = p + (31 - __builtin_clz(d)) + 1;                                                                       \
        }                                                                                                               \
    } while (0)
        if (LIKELY(!m.t)) {
            /* no terminator nor quote: the whole block is the record's */
            hm |= m.h;
            bl |= m.b; /* (a tab or space delimiter is not among them) */
            SPLIT(d);
            p += 16;
            continue;
        }
        uint32_t stop = (uint32_t)__builtin_ctz(m.t);
        uint32_t below = (1u << stop) - 1;
        d &= below;
        hm |= m.h & below;
        bl |= m.b & below;
        SPLIT(d);
#undef SPLIT
        if (p[stop] == '"') return SCAN_QUOTE;
        if (nf < maxf) {
            fp[nf] = fs;
            fl[nf] = (size_t)(p + stop - fs);
        }
        nf++;
        *nf_out = nf;
        *high = hm != 0;
        *blank = bl != 0;
        *term = p + stop;
        return SCAN_END;
    }
    /* no terminator before lim: the caller decides (more data, or the
     * unterminated last line of the file) */
    if (nf < maxf) {
        fp[nf] = fs;
        fl[nf] = (size_t)(lim - fs);
    }
    nf++;
    *nf_out = nf;
    *high = hm != 0;
    *blank = bl != 0;
    *term = lim;
    return SCAN_MORE;
}

void csv_parse_chunk(const CsvFile *cf, Batch *b, uint64_t start, uint64_t end)
{
    Reader rd;
    rd_init(&rd, cf->fd, cf->mem, cf->size);
    const unsigned char delim = cf->delim;
    const int ncols = cf->ncols;
    const size_t maxf = (size_t)ncols + 1;

    uint32_t *xid = xcalloc((size_t)ncols + 1, sizeof(uint32_t));
    for (int i = 0; i < ncols; i++)
        if (cf->target[i] < 0) xid[i] = batch_extra_id(b, cf->colnames[i], strlen(cf->colnames[i]));

    Rec rec, srec;
    memset(&rec, 0, sizeof rec);
    memset(&srec, 0, sizeof srec);
    struct csv_parser p;
    csv_setup_parser(&p, delim);
    Slow sl;
    memset(&sl, 0, sizeof sl);
    sl.b = b;
    sl.cf = cf;
    sl.xid = xid;
    sl.rec = &srec;

    const char **fp = xmalloc((EMPTY_COL(maxf) + 1) * sizeof(char *));
    size_t *fl = xmalloc((EMPTY_COL(maxf) + 1) * sizeof(size_t));
    fp[EMPTY_COL(maxf)] = "";
    fl[EMPTY_COL(maxf)] = 0;
    CsvView view, sview;
    for (int f = 0; f < F__N; f++) view.col_of[f] = (int)EMPTY_COL(maxf);
    for (int k = 0; k < cf->ncanon; k++) view.col_of[cf->canon_field[k]] = cf->canon_col[k];
    sview = view;
    csv_view_bind(&view, fp, fl);
    rec.csv = &view;
    sl.view = &sview; /* the slow path points it at its own arrays per record */
    srec.csv = &sview;
    const bool force_slow = cf->engine == CSV_ENGINE_LIBCSV;

    uint64_t pos = start, line = 1;
    b->chunk_start = start;
    batch_presize(b, &rd, start, end);
    size_t want = 1;
    while (pos < end && pos < rd.limit) {
        size_t avail;
        const char *w = rd_window(&rd, pos, want, &avail);
        if (avail == 0) break; /* read error */
        want = 1;
        const char *lim = w + avail;
        bool at_eof = pos + avail >= rd.limit;
        const char *rs = w;
        /* (records start before the chunk's end and the window's) */
        const char *rs_lim = end - pos < avail ? w + (end - pos) : lim;
        for (;;) {
            uint64_t rs_off = pos + (uint64_t)(rs - w);
            if (rs >= rs_lim) {
                pos = rs_off;
                break;
            }
            if (force_slow) {
                pos = slow_records(&rd, &p, &sl, rs_off, &line);
                break;
            }
            if (*rs == '#') {
                /* a comment line: skipped, counted (window moves: re-enter) */
                int lf;
                pos = csv_comment_end(&rd, rs_off, &lf);
                b->ncomment++;
                if (new_line(cf, lf)) line++;
                break;
            }
            size_t nf;
            bool high, blank;
            const char *term;
            int r = scan_record(rs, lim, delim, fp, fl, maxf, &nf, &high, &blank, &term);
            if (r == SCAN_QUOTE) {
                pos = slow_records(&rd, &p, &sl, rs_off, &line);
                break;
            }
            bool last = false;
            if (r == SCAN_MORE) {
                if (!at_eof) {
                    /* the record continues past the window: widen it */
                    pos = rs_off;
                    want = (size_t)(lim - rs) * 2 + 4096;
                    break;
                }
                last = true; /* the file's last line has no newline */
            }
            if (UNLIKELY(blank)) {
                size_t keep = nf < maxf ? nf : maxf;
                for (size_t i = 0; i < keep; i++) {
                    const char *a = fp[i], *z = fp[i] + fl[i];
                    while (a < z && is_blank((unsigned char)*a, delim)) a++;
                    while (z > a && is_blank((unsigned char)z[-1], delim)) z--;
                    fp[i] = a;
                    fl[i] = (size_t)(z - a);
                }
            }
            if (nf == 1 && fl[0] == 0) {
                if (term > rs) b->nblank++; /* spaces only; an empty line is not counted */
            } else {
                commit_fields(b, cf, xid, &rec, fp, fl, nf, line, last, high, true);
            }
            if (last) {
                pos = rd.limit;
                break;
            }
            if (*term == '\n') {
                line++;
                rs = term + 1;
            } else if (term + 1 < lim && term[1] == '\n') { /* CRLF */
                line++;
                rs = term + 2;
            } else {
                if (cf->cr_lines) line++;
                rs = term + 1; /* a lone CR ends a record (a line in a CR file) */
            }
        }
    }
    b->chunk_stop = pos;
    b->nlf = line - 1;
    csv_free(&p);
    csv_slow_free(&sl);
    free(fp);
    free(fl);
    free(xid);
    VEC_FREE(rec.x);
    VEC_FREE(srec.x);
    rd_finish(&rd, b);
}
