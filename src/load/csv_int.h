/*
 * csv_int.h — the libcsv-driven reader's state and the line helpers shared
 * by load_csv.c (records: the byte scanner and the libcsv path) and
 * csv_header.c (the header: delimiter, column names, their fields).
 */
#ifndef TNAV_CSV_INT_H
#define TNAV_CSV_INT_H

#include "load_int.h"

/* libcsv's fields of the record being fed (fbuf, foff, fl: nf of them), and
 * where they go (b, rec through view; header_mode: only collected) */
typedef struct {
    Batch *b;
    const CsvFile *cf;
    const uint32_t *xid;
    Rec *rec;
    char *fbuf;
    size_t flen, fcap;
    size_t *foff, *fl;
    size_t nf, fcapn;
    const char **ptrs; /* the record's fields for CsvView: ptrs, lens (EMPTY_COL: empty) */
    size_t *lens;
    size_t ptrcap;
    CsvView *view;
    uint64_t rec_line, cur_line;
    bool on_last_line; /* the line being fed has no LF after it */
    bool header_mode;
    int header_done;
} Slow;

/* libcsv's callbacks: a field ends (collected), a record ends (committed,
 * or in header mode the header is done) */
void csv_slow_cb1(void *s, size_t len, void *data);
void csv_slow_cb2(int c, void *data);
void csv_slow_free(Slow *sl);
/* a libcsv parser for this delimiter, its buffer growing geometrically */
void csv_setup_parser(struct csv_parser *p, unsigned char delim);
/* The offset just past the terminator that ends the line at off: an LF, a
 * CRLF or a lone CR; *term says which ('\n' for LF and CRLF, '\r' for a
 * lone CR, 0 at the end of the file without one: then the limit). */
uint64_t csv_find_eol(Reader *rd, uint64_t off, int *term);
/* A comment line — '#' as its first byte — at off: the offset just past
 * its terminator (*lf: one ended it), or 0 when the line is no comment. */
uint64_t csv_comment_end(Reader *rd, uint64_t off, int *lf);

/* libcsv's documented parser state: 0 (ROW_NOT_BEGUN) between records. */
static inline bool parser_between_records(const struct csv_parser *p) { return p->pstate == 0; }
/* 2 (FIELD_BEGUN) with quoted set: inside a quoted field, no closing quote yet */
static inline bool parser_in_quoted_field(const struct csv_parser *p) { return p->pstate == 2 && p->quoted; }
/* whether a terminator starts a new line: an LF always, a lone CR in a file
 * whose lines end with CRs (CsvFile.cr_lines) */
static inline bool new_line(const CsvFile *cf, int term) { return term == '\n' || (term == '\r' && cf->cr_lines); }

#endif
