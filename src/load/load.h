/*
 * load.h — loading trace files into a store.
 *
 * Owns: file access (files are only ever opened read-only; standard input
 * "-", pipes and gzip/zstd files are first copied, decompressed, into an
 * anonymous temp file: spool.c), format detection from content, splitting a file into chunks at record boundaries, the pool
 * of parser threads, and the rejection report.
 * Invariants: the result does not depend on the number of threads (chunks
 * are merged in file order and a chunk whose speculative start turns out to
 * be inside a record is parsed again from the true boundary); a file is read
 * up to the size it had when it was opened; every record is either loaded,
 * rejected with file:line and a reason, skipped as blank, or, only for the
 * last line of a file that does not end in a newline, set aside as an
 * incomplete tail (a file still being written).
 */
#ifndef TNAV_LOAD_H
#define TNAV_LOAD_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/model.h"

struct Store;

enum { FMT_AUTO = 0, FMT_CSV = 1, FMT_NDJSON = 2, FMT_CHROME = 3, FMT_PARAVER = 4, FMT_OTF2 = 5 };
enum { CSV_ENGINE_HYBRID = 0, CSV_ENGINE_LIBCSV = 1 };
/* zero bytes an in-memory input (LoadOpts.mem) must have after its end:
 * the byte scanners read (and mask) up to this far past the data */
#define LOAD_MEM_SLACK 64

/* How far a load is, shared with another thread that shows it or cancels
 * it (see LoadOpts.progress). The loader sets total when it starts, adds to
 * done as its parser threads move past their bytes (per read window of 4 MiB
 * or per chunk), and moves phase on; done == total when parsing ends. */
enum { LOAD_PH_OPEN, LOAD_PH_PARSE, LOAD_PH_BUILD, LOAD_PH_DONE };
typedef struct {
    _Atomic uint64_t total;  /* bytes of all the files */
    _Atomic uint64_t done;   /* bytes the parser threads are past */
    atomic_int phase;        /* LOAD_PH_* */
    atomic_bool cancel;      /* set by another thread: every parser thread
                                stops at its next window or chunk, everything
                                is freed and load_traces returns LOAD_CANCELLED
                                (building the store, once begun, is finished
                                first) */
    /* NULL, or called on the loading thread when parsing ends and before
     * the loader prints anything to its report stream (rejections, a file
     * that cannot be opened): a progress line on stderr ends there */
    void (*before_report)(void *ctx);
    void *ctx;
} LoadProgress;

/* load_traces's status when LoadProgress.cancel was set (also tnav's exit
 * status then, as for an interrupted command) */
#define LOAD_CANCELLED 130

typedef struct {
    int unit_exp;                /* --time-unit: 0 ns, 3 us, 6 ms, 9 s */
    const char *map[F__N];       /* --map canonical=column */
    bool strict;                 /* --strict: any rejection is fatal */
    int threads;                 /* 0 = all cores */
    int format;                  /* FMT_* (--format) */
    int csv_engine;              /* CSV_ENGINE_* (--csv-engine) */
    bool keep_all_rejects;       /* keep every rejection (tnav check) */
    int max_report;              /* rejections printed to the report stream */
    FILE *report;                /* where rejections and warnings go (stderr) */
    bool quiet;                  /* no warnings */
    LoadProgress *progress;      /* NULL, or counters to update (and a cancel flag) */
    const char *columns;         /* --columns a,b,c: CSV files have no header row;
                                    these are the names of their columns */
    const char *mem;             /* not NULL: the one input (paths[0] names it in
                                    messages) is these mem_len bytes, which are
                                    followed by LOAD_MEM_SLACK zero bytes, not a
                                    file (the fuzz targets parse from memory) */
    size_t mem_len;
    bool lanes;                  /* --lanes: rows without loc are packed into lanes,
                                    each a location ("lane 0", "lane 1", ...) */
    bool ts_end;                 /* --ts-end: in a row with dur, ts is its end */
    bool no_lanes;               /* --no-lanes: intervals that overlap without nesting
                                    stay in their activity (drawn as if nested) */
    const char *pair_words;      /* --pair BEGIN=END[,END...] (repeatable, joined
                                    with ';'): more begin and end kinds to pair;
                                    the end's kind is kept as the field outcome;
                                    allocated by load_opts_add_pair, freed by its
                                    owner (cli_free) */
    const char *only_kinds;      /* --only-kind K,K,... (repeatable, joined with ','):
                                    records of other kinds (or none) are skipped and
                                    counted, not rejected; allocated, freed by its
                                    owner (cli_free) */
    const char *not_busy;        /* --not-busy K,K,... (repeatable, joined with ','):
                                    intervals of these kinds are not busy (as idle);
                                    allocated, freed by its owner (cli_free) */
    const char *pair_key;        /* --pair-key FIELD: begin and end rows with this
                                    field pair by its value (and --pair rule)
                                    instead of (loc, act, name) */
    bool keep_big_blocks;        /* leave the big blocks freed during the load in the
                                    recycler (xfree_big) for the caller's next big arrays;
                                    the caller calls big_cache_trim() */
    bool defer_tail;             /* leave the store's messages and sync groups for
                                    store_finish_tail (store_build's defer_tail): the
                                    interface's first frame needs neither */
} LoadOpts;

typedef struct {
    char *path;
    int format;
    uint64_t bytes, events, rejected, blank;
    uint64_t comments; /* CSV lines skipped because they begin with '#' */
    bool incomplete_tail;
    uint64_t unpaired_ends; /* --pair ends with no open begin, kept as they are */
    uint64_t skipped;       /* records of kinds --only-kind does not name */
} FileInfo;

typedef struct {
    int file;       /* index into files */
    uint64_t line;
    char *reason;
} Rejection;

/* one problem (a rejection's reason without its particulars, as
 * "ts is not a number or date-time"), its count and its first three
 * rejections in file and line order */
typedef struct {
    char *problem;
    uint64_t count;
    int nfirst;
    Rejection first[3];
} ProblemSummary;

typedef struct {
    FileInfo *files;
    int nfiles;
    ProblemSummary *problems; /* in order of first occurrence */
    int nproblems;
    Rejection *rej;   /* the kept rejections, in file and line order */
    size_t nrej_kept;
    uint64_t rejected; /* total */
    Rejection *loose;  /* the first --pair ends with no open begin (kept rows, not rejections) */
    size_t nloose_kept;
    uint64_t unpaired_ends; /* total */
    double t_parse, t_build; /* seconds */
} LoadReport;

void load_opts_default(LoadOpts *o);
/* Parse "canonical=column"; returns an error message or NULL. */
const char *load_opts_add_map(LoadOpts *o, const char *spec);
/* Add a --pair BEGIN=END[,END...]; returns an error message or NULL. */
const char *load_opts_add_pair(LoadOpts *o, const char *spec);

/* Load files into a new store. Returns 0 on success, 1 when --strict and a
 * record was rejected, 2 when a file cannot be read or has no usable header
 * (the message is printed to o->report), LOAD_CANCELLED when
 * o->progress->cancel was set (nothing printed, nothing left allocated).
 * TNAV_TEST_LOAD_DELAY_MS=N (a test hook) sleeps N ms before each chunk. */
int load_traces(const LoadOpts *o, char *const *paths, int npaths, struct Store **out, LoadReport *rep);
void load_report_free(LoadReport *rep);

const char *format_name(int fmt);
/* the input formats this build reads, for --version */
const char *load_formats(void);

#endif
