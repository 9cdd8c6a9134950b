/*
 * csv_header.c — a CSV file's header: the delimiter (sniffed from the
 * first line that is not blank), the comment and blank lines before it,
 * the column names (the header row read by libcsv, or --columns), and
 * their meaning: each canonical field's column (the strongest claim wins;
 * --map), the extra columns (a taken name gets a #N suffix).
 * Invariants: data_start is the offset of the first record after the
 * header; header_lines the line ends before it; every column is either a
 * canonical field's (target) or an extra (extra_col), and ts and loc (or
 * --lanes) have one, else the file is refused with the reason.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv_int.h"

static unsigned char sniff_delim(const char *s, size_t n)
{
    size_t comma = 0, semi = 0, tab = 0;
    bool q = false;
    for (size_t i = 0; i < n && s[i] != '\n'; i++) {
        char c = s[i];
        if (c == '"') q = !q;
        else if (!q && c == ',') comma++;
        else if (!q && c == ';') semi++;
        else if (!q && c == '\t') tab++;
    }
    if (semi > comma && semi >= tab) return ';';
    if (tab > comma && tab > semi) return '\t';
    return ',';
}

static char *resolve_header(CsvFile *cf, const LoadOpts *o, const char *what);

char *csv_read_header(CsvFile *cf, const LoadOpts *o, uint64_t bom)
{
    Reader rd;
    rd_init(&rd, cf->fd, cf->mem, cf->size);
    size_t avail;
    const char *w;
    /* the delimiter is sniffed from the first line that is not blank */
    uint64_t first = bom;
    for (;;) {
        w = rd_window(&rd, first, 1 << 16, &avail);
        if (avail == 0) break;
        size_t i = 0;
        while (i < avail && (w[i] == ' ' || w[i] == '\t' || w[i] == '\r' || w[i] == '\n')) i++;
        first += i;
        if (i < avail) break;
    }
    w = rd_window(&rd, first, 1 << 16, &avail);
    cf->delim = sniff_delim(w, avail);
    /* blank lines and '#' comment lines before the header (or, with
     * --columns, before the first record) are skipped; comments counted */
    /* a file with CRs and no LF in its first window ends its lines with CRs
     * (then a lone CR counts as a line; elsewhere it only ends a record) */
    {
        const char *h = rd_window(&rd, bom, 1 << 16, &avail);
        cf->cr_lines = avail && !memchr(h, '\n', avail) && memchr(h, '\r', avail);
    }
    uint64_t off = bom, line = 1;
    for (;;) {
        int lf;
        uint64_t ce = csv_comment_end(&rd, off, &lf);
        if (!ce) {
            w = rd_window(&rd, off, 1, &avail);
            size_t i = 0;
            while (i < avail && (w[i] == ' ' || w[i] == '\t')) i++;
            if (i < avail && (w[i] == '\n' || w[i] == '\r')) ce = csv_find_eol(&rd, off, &lf);
            else break;
        } else {
            cf->comments++;
        }
        off = ce;
        if (new_line(cf, lf)) line++;
    }
    if (cf->comments) {
        w = rd_window(&rd, off, 1 << 16, &avail);
        cf->delim = sniff_delim(w, avail);
    }
    if (o->columns) {
        /* no header row: the names come from --columns */
        rd_free(&rd);
        cf->data_start = off;
        cf->header_lines = line - 1;
        const char *c = o->columns;
        int n = 1;
        for (const char *q = c; *q; q++) n += *q == ',';
        cf->colnames = xcalloc((size_t)n + 1, sizeof(char *));
        cf->target = xcalloc((size_t)n + 1, sizeof(int));
        cf->ncols = n;
        for (int i = 0; i < n; i++) {
            const char *e = strchr(c, ',');
            size_t len = e ? (size_t)(e - c) : strlen(c);
            while (len && (*c == ' ' || *c == '\t')) c++, len--;
            while (len && (c[len - 1] == ' ' || c[len - 1] == '\t')) len--;
            cf->colnames[i] = xstrndup(c, len);
            c = e ? e + 1 : c + len;
        }
        return resolve_header(cf, o, "--columns");
    }
    struct csv_parser p;
    csv_setup_parser(&p, cf->delim);
    Slow sl;
    memset(&sl, 0, sizeof sl);
    sl.header_mode = true;
    /* feed libcsv one terminator-ended piece at a time, so that it stops
     * right after the header (blank lines before it are skipped by libcsv) */
    int last_term = 0;
    size_t want = 1;
    while (off < cf->size && !sl.header_done) {
        w = rd_window(&rd, off, want, &avail);
        if (avail == 0) break;
        size_t t = 0;
        while (t < avail && w[t] != '\n' && w[t] != '\r') t++;
        if ((t == avail || (w[t] == '\r' && t + 1 == avail)) && off + avail < rd.limit) {
            want = avail * 2 + 2; /* a long header line (or a CR|LF cut): widen the window */
            continue;
        }
        /* one terminator — LF, CRLF or a lone CR — is one line */
        size_t piece = t < avail ? t + 1 + (w[t] == '\r' && t + 1 < avail && w[t + 1] == '\n') : avail;
        csv_parse(&p, w, piece, csv_slow_cb1, csv_slow_cb2, &sl);
        last_term = t >= avail ? 0 : w[t] == '\r' && t + 1 < avail && w[t + 1] == '\n' ? '\n' : w[t];
        if (new_line(cf, last_term)) line++;
        off += piece;
        want = 1;
    }
    if (!sl.header_done && parser_in_quoted_field(&p)) {
        csv_free(&p);
        rd_free(&rd);
        csv_slow_free(&sl);
        cf->ncols = 0;
        return xasprintf("%s:1: the CSV header has a quoted field that never closes", cf->path);
    }
    if (!sl.header_done && sl.nf > 0) {
        /* header without a terminator: the whole file is a header */
        csv_fini(&p, csv_slow_cb1, csv_slow_cb2, &sl);
    }
    csv_free(&p);
    rd_free(&rd);
    cf->data_start = off;
    cf->header_lines = line - 1;
    cf->ncols = (int)sl.nf;
    cf->colnames = xcalloc((size_t)cf->ncols + 1, sizeof(char *));
    cf->target = xcalloc((size_t)cf->ncols + 1, sizeof(int));
    char *err = NULL;
    for (int i = 0; i < cf->ncols; i++) {
        cf->colnames[i] = xstrndup(sl.fbuf + sl.foff[i], sl.fl[i]);
        if (utf8_invalid_at((const unsigned char *)cf->colnames[i], sl.fl[i]) != sl.fl[i] && !err)
            err = xasprintf("%s:1: invalid UTF-8 in header column %d", cf->path, i + 1);
    }
    csv_slow_free(&sl);
    if (err) return err;
    if (cf->ncols == 0) return NULL; /* empty file: empty trace */
    return resolve_header(cf, o, "the CSV header");
}

/* The columns' names are known (the header's, or --columns'): map them onto
 * the model. `what` names their source in messages. NULL or an error. */
static char *resolve_header(CsvFile *cf, const LoadOpts *o, const char *what)
{
    /* resolve columns: the strongest claim on each canonical field wins */
    int best[F__N], bestprio[F__N];
    for (int f = 0; f < F__N; f++) best[f] = -1, bestprio[f] = 1 << 30;
    for (int i = 0; i < cf->ncols; i++) {
        int prio;
        int f = resolve_column(o, cf->colnames[i], strlen(cf->colnames[i]), &prio);
        cf->target[i] = -1;
        if (f >= 0 && prio < bestprio[f]) {
            best[f] = i;
            bestprio[f] = prio;
        }
    }
    for (int f = 0; f < F__N; f++)
        if (best[f] >= 0) {
            cf->target[best[f]] = f;
            cf->canon_field[cf->ncanon] = f;
            cf->canon_col[cf->ncanon] = best[f];
            cf->ncanon++;
        }
    /* a column --map names for several fields feeds each of them */
    for (int f = 0; f < F__N; f++)
        if (o->map[f] && best[f] < 0)
            for (int i = 0; i < cf->ncols; i++)
                if (!strcmp(cf->colnames[i], o->map[f])) {
                    best[f] = i;
                    cf->canon_field[cf->ncanon] = f;
                    cf->canon_col[cf->ncanon] = i;
                    cf->ncanon++;
                    break;
                }
    /* a --map that names no column is that mistake, not a missing field */
    for (int f = 0; f < F__N; f++)
        if (o->map[f] && best[f] < 0) {
            char *hint = columns_hint(cf->colnames, cf->ncols, (const char *const[]){o->map[f], NULL}, "columns");
            char *m = xasprintf("%s: --map %s=%s: %s has no column '%s'; %s", cf->path, FIELD_NAMES[f], o->map[f],
                                what, o->map[f], hint);
            free(hint);
            return m;
        }
    if (best[F_TS] < 0 || (best[F_LOC] < 0 && !o->lanes)) {
        bool ts = best[F_TS] < 0;
        /* a column named for this field that --map gave another one */
        int want = ts ? F_TS : F_LOC;
        for (int i = 0; i < cf->ncols; i++) {
            int prio, f0 = field_for_column(cf->colnames[i], strlen(cf->colnames[i]), &prio);
            int t = cf->target[i];
            if (f0 == want && t >= 0 && t != want && o->map[t] && !strcmp(o->map[t], cf->colnames[i]))
                return xasprintf("%s: %s has no column for %s: its column '%s' is taken by --map %s=%s; a column "
                                 "feeds two fields when both are mapped to it (--map %s=%s), or name another with "
                                 "--map %s=COLUMN",
                                 cf->path, what, FIELD_NAMES[want], cf->colnames[i], FIELD_NAMES[t], cf->colnames[i],
                                 FIELD_NAMES[want], cf->colnames[i], FIELD_NAMES[want]);
        }
        char *hint = columns_hint(cf->colnames, cf->ncols, ts ? TS_ALIASES : LOC_ALIASES, "columns");
        char *m = xasprintf("%s: %s has no '%s' column (nor %s); name one with --map %s=COLUMN: %s", cf->path, what,
                            ts ? "ts" : "loc", ts ? "start, time, timestamp" : "rank, pe, proc, place, cell, pid",
                            ts ? "ts" : "loc", hint);
        free(hint);
        return m;
    }
    cf->extra_col = xcalloc((size_t)cf->ncols + 1, sizeof(int));
    for (int i = 0; i < cf->ncols; i++)
        if (cf->target[i] < 0) cf->extra_col[cf->nextra++] = i;
    /* extra columns whose name is taken get a #N suffix */
    for (int i = 0; i < cf->ncols; i++) {
        if (cf->target[i] >= 0) continue;
        int dup = 1;
        bool clash = field_by_name(cf->colnames[i]) >= 0;
        for (int j = 0; j < i; j++)
            if (!strcmp(cf->colnames[j], cf->colnames[i])) clash = true;
        if (clash) {
            char *nn;
            for (;;) {
                dup++;
                nn = xasprintf("%s#%d", cf->colnames[i], dup);
                bool used = false;
                for (int j = 0; j < cf->ncols; j++)
                    if (!strcmp(cf->colnames[j], nn)) used = true;
                if (!used) break;
                free(nn);
            }
            free(cf->colnames[i]);
            cf->colnames[i] = nn;
        }
    }
    return NULL;
}

void csv_file_free(CsvFile *cf)
{
    for (int i = 0; i < cf->ncols; i++) free(cf->colnames[i]);
    free(cf->colnames);
    free(cf->target);
    free(cf->extra_col);
}
