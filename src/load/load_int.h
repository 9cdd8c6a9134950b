/*
 * load_int.h — internals shared by the loader and its per-format chunk
 * parsers (load_csv.c, load_ndjson.c). Not used outside src/load/.
 *
 * Invariants: a Reader never reads past the limit fixed when the file was
 * opened; a window returned by rd_window stays valid until the next call on
 * the same Reader; chunk parsers process exactly the records that start in
 * [start, end) and set chunk_stop to the end of the last record they read.
 */
#ifndef TNAV_LOAD_INT_H
#define TNAV_LOAD_INT_H

#include <csv.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "store/batch.h"
#include "load.h"

typedef struct {
    int fd;
    const char *mem; /* not NULL: the input is this buffer (LoadOpts.mem), not fd */
    uint64_t limit; /* bytes readable: the file size when it was opened */
    char *buf;
    size_t cap;
    uint64_t base; /* file offset of buf[0] */
    size_t len;    /* valid bytes in buf */
    bool io_error;
    int err;      /* the errno of a read error */
    bool shrank;  /* the file ended before the size it had when it was opened */
} Reader;

/* bytes readable past the end of a window (zeroed), for 16-byte scanners */
#define RD_SLACK LOAD_MEM_SLACK

/* Read fd, or mem when it is not NULL (then windows point into mem, which
 * is followed by LOAD_MEM_SLACK zero bytes, and nothing is copied). */
void rd_init(Reader *r, int fd, const char *mem, uint64_t limit);
void rd_free(Reader *r);
/* a chunk parser's end: what went wrong reading (a read error, a file that
 * shrank) into the batch, then rd_free */
void rd_finish(Reader *r, Batch *b);
/* Make [off, off+min) available (or as much as exists before the limit);
 * returns a pointer to offset off and sets *avail to the bytes available
 * from there (>= min unless the limit is reached). */
const char *rd_window(Reader *r, uint64_t off, size_t min, size_t *avail);
/* Find the next LF at or after off; returns its offset, or the limit when
 * there is none. */
uint64_t rd_find_lf(Reader *r, uint64_t off);

/* Reserve a batch's rows for the chunk [start, end), estimating the record
 * length from the lines in the first window. */
void batch_presize(Batch *b, Reader *rd, uint64_t start, uint64_t end);

/* How a column or key maps onto the model. */
int resolve_column(const LoadOpts *o, const char *name, size_t n, int *prio);
/* The other canonical fields --map takes from the same column or key as
 * `first` (--map ts=time --map end=time): a mask of fields. */
uint32_t map_also(const LoadOpts *o, const char *name, size_t n, int first);
/* For a message about a missing column or key: "its columns are 'a', 'b'
 * (and N more); did you mean 'Ts'?" (the name nearest to one of `wants`, a
 * NULL-terminated list, by case-insensitive edit distance, when one is
 * within about a third of its length). A new string. */
char *columns_hint(char *const *names, int n, const char *const *wants, const char *what);
/* names that suggest ts and loc, for columns_hint (NULL-terminated) */
extern const char *const TS_ALIASES[], *const LOC_ALIASES[];

typedef struct {
    const char *path;
    int fd;
    const char *mem; /* LoadOpts.mem, or NULL: read fd */
    uint64_t size;
    uint64_t data_start; /* first byte after the BOM and header */
    uint64_t header_lines;
    uint64_t comments; /* '#' lines before the header (or the first record) */
    unsigned char delim;
    bool cr_lines; /* its lines end with lone CRs (no LF in the first 64 KiB) */
    int ncols;
    char **colnames;
    int *target; /* per column: canonical field, or -1 = extra */
    int engine;
    /* the same mapping as lists, for the per-record loop */
    int ncanon, nextra;
    int canon_field[F__N], canon_col[F__N];
    int *extra_col;
} CsvFile;

/* Parse the header of a CSV file; returns NULL or an error message
 * (allocated). */
char *csv_read_header(CsvFile *cf, const LoadOpts *o, uint64_t bom);
void csv_file_free(CsvFile *cf);
void csv_parse_chunk(const CsvFile *cf, Batch *b, uint64_t start, uint64_t end);

typedef struct {
    const char *path;
    int fd;
    const char *mem; /* LoadOpts.mem, or NULL: read fd */
    uint64_t size;
    const LoadOpts *opts;
    bool cr_lines; /* lines end with lone CRs (no LF in the first 64 KiB, a CR) */
} NdFile;

void ndjson_parse_chunk(const NdFile *nf, Batch *b, uint64_t start, uint64_t end);

/* The JSON object parser, for the Chrome reader. In ND_MODE_CHROME the
 * keys are Chrome's (ts, dur, pid -> loc, tid -> act, name, id; the CK_*
 * keys apart; the rest, args.* flattened, extra fields) and --map does not
 * apply. */
enum { ND_MODE_NDJSON, ND_MODE_CHROME, ND_MODE_CHROME_TNAV /* a file tnav convert wrote */ };
enum { CK_PH, CK_CAT, CK_S, CK_BP, CK_ID2L, CK_ID2G, CK_SCOPE, CK_TDUR, CK_BIND, CK_FIN, CK_FOUT, CK_ARGNAME, CK_NONAME, CK_SORTIDX, CK__N };
typedef struct Nd Nd;
Nd *nd_new(Batch *b, const LoadOpts *o, int mode);
void nd_free(Nd *nd);
/* Parse the object [s, e) (s at '{') into the record; line0 is where
 * columns in messages count from. False: nd_error says why. */
bool nd_object(Nd *nd, const char *s, const char *e, const char *line0);
/* Parse the object at s (s at '{') whose end is not known: at most
 * ND_PREFIX_MAX bytes of [s, lim) are looked at. True: the object was
 * read into the record and *end is the byte after its '}'. False: it is
 * malformed, or ends past what was looked at; the caller finds its end
 * and calls nd_object, which reads it as if this call had not been made
 * (what a failed call did is what nd_object does again on the same
 * bytes: the object's keys learnt, nothing committed). */
#define ND_PREFIX_MAX 65536
bool nd_object_prefix(Nd *nd, const char *s, const char *lim, const char **end);
Rec *nd_rec(Nd *nd);
const char *nd_error(const Nd *nd);
bool nd_key(const Nd *nd, int ck, Val *v);
char *nd_scratch(Nd *nd, size_t n);

/* ---- load_chrome.c: the Chrome Trace Event format ---------------------- */
typedef struct {
    const char *path;
    int fd;
    const char *mem;
    uint64_t size;
    const LoadOpts *opts;
    uint64_t data_start; /* the first byte inside the events array */
    bool tnav;           /* otherData.producer is "tnav" (tnav convert wrote it) */
    int64_t origin;      /* otherData.tnav_origin_ns: added to every time */
    bool cr_lines;       /* lines end with lone CRs: line numbers count CRs */
    bool has_bot;        /* a top-level beginningOfTime before the events */
    int64_t bot_ns;      /* (clang -ftime-trace: µs since the epoch) in ns */
} ChFile;
/* Find the events array (the file itself, or the traceEvents value of the
 * object); NULL or an error message (allocated). */
char *chrome_read_header(ChFile *cf, uint64_t bom);
/* the offset of an event's '{' at or after off that follows "}," (a
 * likely boundary between events), or the limit */
uint64_t chrome_next_seam(Reader *rd, uint64_t off);
void chrome_parse_chunk(const ChFile *cf, Batch *b, uint64_t start, uint64_t end);

/* ---- load_prv.c: Paraver (.prv with its .pcf and .row) ---------------- */
typedef struct {
    int64_t id;
    char *name;
    size_t len;
    int64_t type; /* (values: the event type they belong to) */
} PrvName;
typedef VEC(PrvName) PrvNames;
typedef struct {
    const char *path;
    int fd;
    const char *mem;
    uint64_t size;
    bool quiet;
    uint64_t data_start; /* after the header line */
    int unit_exp;        /* the header's time unit */
    int nappl;
    int64_t ntasks;
    int64_t *tasks_before;   /* per application: tasks of the ones before it */
    int64_t *threads_before; /* per task (all applications): threads before it */
    PrvNames states, types, values, task_names, thread_names;
} PrvFile;
/* Parse the header line from the first n bytes; NULL or an error message. */
char *prv_read_header(PrvFile *pf, const char *head, size_t n, uint64_t bom);
/* Read the .pcf and .row beside path (a warning on report when there is no .pcf). */
void prv_read_names(PrvFile *pf, const char *path, FILE *report);
void prv_file_free(PrvFile *pf);
void prv_parse_chunk(const PrvFile *pf, Batch *b, uint64_t start, uint64_t end);

/* ---- load_otf2.c: OTF2 archives (when built with the OTF2 library) ----- */
bool otf2_built_in(void);
/* Read the archive whose anchor file is path into b; NULL or an error
 * message (allocated). */
char *otf2_parse_archive(const char *path, Batch *b);

/* ---- pair.c: passes over one file's batches before the store ---------- */
void pair_file(Batch **bs, size_t nb, int nthreads);
typedef struct {
    uint32_t row;
    uint64_t val;
} RowVal;
typedef VEC(RowVal) RowVals;
/* add (row, value) pairs to a field of b, sorting them first */
void pair_merge_adds(Batch *b, uint32_t field, RowVal *v, size_t n, uint8_t type);
/* ---- flowbind.c: the slices flow ends bind to (Chrome) ----------------- */
/* A flow end (the candidate ci of batch) whose bound slice's name goes to
 * the field from_slice (to = 0) or to_slice (to = 1) of dst_row of
 * dst_batch. */
typedef struct {
    uint32_t batch, ci, dst_batch, dst_row;
    uint8_t to;
} FlowEnd;
/* drop: pair.c's rows to drop (NULL: none), whose intervals are paired and
 * closed; called before the batches are compacted. The names go to
 * slice[2 * i] (batch i's from_slice values) and slice[2 * i + 1] (its
 * to_slice), which the caller merges into the batches. */
void bind_flows(Batch **bs, size_t nb, uint8_t *const *drop, const FlowEnd *fe, size_t n, RowVals *slice);
void rename_labels(Batch **bs, size_t nb);
/* every location label (of rows and peers) becomes "PREFIX: label" */
void prefix_locations(Batch **bs, size_t nb, const char *prefix);
/* ---- lanes.c: overlapping intervals (and --lanes rows) into lanes ------ */
/* only_lanes_loc: only the --lanes rows (--no-lanes) */
void lanes_file(Batch **bs, size_t nb, bool only_lanes_loc, int nthreads);

/* ---- spool.c: standard input, pipes and compressed files --------------- */

enum { SPOOL_NONE, SPOOL_GZIP, SPOOL_ZSTD };
/* What the first bytes of an input say it is: SPOOL_GZIP (1f 8b),
 * SPOOL_ZSTD (28 b5 2f fd) or SPOOL_NONE. */
int spool_magic(const unsigned char *p, size_t n);
const char *spool_name(int comp);
/* Copy the input — head[0..nhead) (bytes already read from it), then in_fd
 * read to its end — into a new anonymous temp file, decompressing it when
 * comp says so. Updates pg->done to done_base + input bytes read (pg may be
 * NULL). Returns the temp file's descriptor and sets *size; -1 with *err (a
 * new message naming path and the reason); -2 when pg->cancel was set. */
int spool_copy(int in_fd, const char *path, const unsigned char *head, size_t nhead, int comp, LoadProgress *pg,
               uint64_t done_base, uint64_t *size, char **err);

/* ---- load_open.c: one input, opened and cut into chunks ---------------- */
typedef struct {
    int fmt;
    uint64_t size; /* bytes of the input (of its decompressed copy) */
    bool watch;    /* a regular file read in place: checked for changes after */
    struct timespec mtime; /* its modification time when it was opened */
    CsvFile csv;
    NdFile nd;
    ChFile ch;
    PrvFile prv;
    const char *otf2_path;
    int otf2_fd;
    uint64_t head_lines; /* line ends before the first chunk (header, Chrome's prefix) */
    uint64_t *starts; /* nchunks + 1 */
    char *fatal;      /* a whole-archive reader's error (OTF2) */
    int nchunks;
    Batch **batches;
} FileJob;
/* Open path (or LoadOpts.mem), tell its format, read its header and choose
 * its chunk starts. 0; -1 with *err (a new message); LOAD_CANCELLED. */
int open_file(const char *path, FileJob *fj, const LoadOpts *o, int nthreads, uint64_t done_base, char **err);
void close_file(FileJob *fj);

/* the value of 8 digit bytes (their low nibbles), the first in the low byte */
static inline uint64_t swar8(uint64_t x)
{
    x = (x * 2561) >> 8;
    x = ((x & 0x00FF00FF00FF00FFULL) * 6553601) >> 16;
    return ((x & 0x0000FFFF0000FFFFULL) * 42949672960001ULL) >> 32;
}

/* nonzero bytes where the bytes of v are not ASCII digits */
static inline uint64_t nondigits(uint64_t v)
{
    return ((v & 0xF0F0F0F0F0F0F0F0ULL) ^ 0x3030303030303030ULL) |
           (((v + 0x0606060606060606ULL) & 0xF0F0F0F0F0F0F0F0ULL) ^ 0x3030303030303030ULL);
}

static const uint64_t POW10_8[9] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};

/* A field of n bytes at p that is 1 to 16 decimal digits and nothing else:
 * its value in *val (what digits_fast, and so parse_int64 and the time
 * parsers in ns, make of it). Reads 16 bytes from p: only for fields in a
 * reader's window, which has that slack. */
static inline bool csv_field_int(const char *p, size_t n, int64_t *val)
{
    if (n - 1 >= 16) return false;
    uint64_t a = ld8(p), ma = nondigits(a);
    uint64_t v;
    if (n <= 8) {
        if (ma << (8 * (8 - n))) return false; /* (a non-digit among the n low bytes) */
        v = swar8((a & 0x0F0F0F0F0F0F0F0FULL) << (8 * (8 - n)));
    } else {
        size_t d2 = n - 8;
        uint64_t b = ld8(p + 8), mb = nondigits(b);
        if (ma || (mb << (8 * (8 - d2)))) return false;
        v = swar8(a & 0x0F0F0F0F0F0F0F0FULL) * POW10_8[d2] + swar8((b & 0x0F0F0F0F0F0F0F0FULL) << (8 * (8 - d2)));
    }
    *val = (int64_t)v;
    return true;
}

#endif
