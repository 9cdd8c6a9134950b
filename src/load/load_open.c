/*
 * load_open.c — opening one input: read-only, copied first when it cannot
 * be read at offsets (standard input, pipes, compressed data: spool.c),
 * its format told from its first bytes (sniff), its header read by the
 * format's reader, and its chunk boundaries chosen.
 *
 * Owns: FileJob's setup and teardown (open_file, close_file), format
 * detection. Invariants: files are only ever opened O_RDONLY; the format
 * comes from content, never from the name; chunk starts are at record
 * boundaries of the format (after a newline; Chrome: at an event's '{'),
 * the chunk parsers verify them (load.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "load_int.h"
#include "base/util.h"

#define MIN_CHUNK (1u << 20)

/* Whether the JSON object whose '{' is at off has a top-level key
 * "traceEvents": the object form of the Chrome Trace Event format, whose
 * other keys (displayTimeUnit, metadata, stackFrames, ...) may come before
 * it with values of any size, on one line or on many. Streams through the
 * outermost object's keys and skips their values (strings with escapes,
 * nested objects and arrays) in a window of bounded size, never inside a
 * string; stops where that object ends (a later NDJSON line is not it), at
 * a raw line break inside a string (not JSON: a broken first NDJSON record
 * is not followed into the rest of the file) and at the end of the input. */
static bool top_level_trace_events(int fd, const char *mem, uint64_t size, uint64_t off)
{
    static const char KEY[] = "traceEvents";
    Reader rd;
    rd_init(&rd, fd, mem, size);
    int depth = 0;
    bool in_str = false, esc = false, key_seen = false, found = false, done = false;
    size_t klen = 0;   /* bytes of a depth-1 string matched against KEY so far */
    bool kmatch = false;
    for (uint64_t pos = off; !done;) {
        size_t avail;
        const unsigned char *w = (const unsigned char *)rd_window(&rd, pos, 65536, &avail);
        if (avail == 0) break;
        if (avail > 65536) avail = 65536; /* (in memory: the rest of the input) */
        for (size_t i = 0; i < avail && !done; i++) {
            unsigned char c = w[i];
            if (in_str) {
                if (esc) {
                    esc = false;
                    kmatch = false;
                } else if (c == '\\') {
                    esc = true;
                } else if (c == '"') {
                    in_str = false;
                    key_seen = depth == 1 && kmatch && klen == sizeof KEY - 1;
                } else if (c == '\n') {
                    done = true;
                } else if (kmatch) {
                    kmatch = klen < sizeof KEY - 1 && c == (unsigned char)KEY[klen];
                    klen++;
                }
                continue;
            }
            if (c == ' ' || c == '\t' || c == '\r' || c == '\n') continue;
            if (key_seen && c == ':') {
                found = done = true;
                break;
            }
            key_seen = false;
            if (c == '"') {
                in_str = true;
                esc = false;
                kmatch = depth == 1;
                klen = 0;
            } else if (c == '{' || c == '[') {
                depth++;
            } else if (c == '}' || c == ']') {
                if (--depth <= 0) done = true;
            }
        }
        pos += avail;
    }
    rd_free(&rd);
    return found;
}

/* what the first bytes say the file is */
static int sniff(const unsigned char *p, size_t n, uint64_t *bom, size_t *first, char **why_not)
{
    *bom = 0;
    *first = 0;
    *why_not = NULL;
    if (n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) *bom = 3;
    size_t i = (size_t)*bom;
    /* (gzip and zstd are decompressed before this: spool.c) */
    static const struct { const char *magic; size_t n; const char *name, *tool; } COMP[] = {
        {"\x1f\x8b", 2, "gzip", "gzip -dc"}, /* (in memory: LoadOpts.mem) */
        {"\xfd" "7zXZ", 6, "xz", "xz -dc"},
        {"BZh", 3, "bzip2", "bzip2 -dc"},
        {"\x04\x22\x4d\x18", 4, "lz4", "lz4 -dc"},
    };
    for (size_t k = 0; k < sizeof COMP / sizeof COMP[0]; k++)
        if (n >= COMP[k].n && !memcmp(p, COMP[k].magic, COMP[k].n) && (k != 2 || (n >= 4 && p[3] >= '1' && p[3] <= '9'))) {
            *why_not = xasprintf("%s-compressed input is not read directly (gzip and zstd are); pipe it in: %s FILE | "
                                 "tnav -",
                                 COMP[k].name, COMP[k].tool);
            return -1;
        }
    if (n >= 2 && ((p[0] == 0xFF && p[1] == 0xFE) || (p[0] == 0xFE && p[1] == 0xFF))) {
        *why_not = xstrdup("UTF-16 input is not supported; convert it to UTF-8 (iconv -f UTF-16 -t UTF-8)");
        return -1;
    }
    if (n >= 8 + i && !memcmp(p + i, "#Paraver", 8)) return FMT_PARAVER;
    /* an OTF2 anchor file: "OTF2" in its first bytes, and binary */
    if (n >= 8 && memmem(p, n < 16 ? n : 16, "OTF2", 4) && memchr(p, 0, n < 16 ? n : 16)) return FMT_OTF2;
    while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n')) i++;
    if (i >= n) return 0; /* empty or blank: an empty trace */
    *first = i;
    if (p[i] == '[') return FMT_CHROME; /* the array form */
    /* one object per line, unless this is one big JSON document (the
     * caller looks through its keys: top_level_trace_events) */
    if (p[i] == '{') return FMT_NDJSON;
    /* binary: a NUL in the first line, or NULs over a tenth of the bytes
     * (a NUL inside a value, which tnav filter -o csv may write, is data) */
    const unsigned char *nl1 = memchr(p + i, '\n', n - i);
    size_t l1 = nl1 ? (size_t)(nl1 - p) : n, nul = 0;
    bool nul_first = memchr(p + i, 0, l1 - i) != NULL;
    for (const unsigned char *q = p + i, *e = p + n; q < e && (q = memchr(q, 0, (size_t)(e - q))) != NULL; q++) nul++;
    if (nul_first || nul * 10 > n - i) {
        *why_not = xstrdup("binary file (it contains NUL bytes); expected CSV or NDJSON text");
        return -1;
    }
    return FMT_CSV;
}

/* n bytes at off of the input (fd, or mem of size bytes) */
static ssize_t in_pread(int fd, const char *mem, uint64_t size, void *buf, size_t n, uint64_t off)
{
    if (!mem) return pread(fd, buf, n, (off_t)off);
    if (off >= size) return 0;
    if (n > size - off) n = (size_t)(size - off);
    memcpy(buf, mem + off, n);
    return (ssize_t)n;
}

/* Open one input for reading at offsets: a regular file as it is; standard
 * input ("-"), a pipe or a device, and gzip/zstd data, through a temp copy
 * (spool.c). Returns fd (or -1 for o->mem) and sets *size; on an error
 * returns -2 with *err, or -3 when the load was cancelled meanwhile. */
static int open_input(const char *path, const LoadOpts *o, uint64_t done_base, uint64_t *size, char **err,
                      struct timespec *mtime)
{
    if (o->mem) {
        *size = o->mem_len;
        return -1;
    }
    bool std_in = !strcmp(path, "-");
    int fd = std_in ? fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0) : open(path, O_RDONLY | O_CLOEXEC);
    const char *name = std_in ? "standard input" : path;
    if (fd < 0) {
        char q[ARG_QUOTE_BUF];
        *err = xasprintf("tnav: cannot open %s: %s", arg_quote(name, q), strerror(errno));
        return -2;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        *err = xasprintf("tnav: cannot stat %s: %s", name, strerror(errno));
        close(fd);
        return -2;
    }
    if (S_ISDIR(st.st_mode)) {
        *err = xasprintf("tnav: %s is a directory, not a trace file", name);
        close(fd);
        return -2;
    }
    unsigned char head[4096];
    size_t nhead = 0;
    int comp;
    if (S_ISREG(st.st_mode)) {
        ssize_t k = pread(fd, head, 4, 0);
        comp = spool_magic(head, k > 0 ? (size_t)k : 0);
        if (comp == SPOOL_NONE) {
            *size = (uint64_t)st.st_size;
            if (mtime) *mtime = st.st_mtim;
            return fd;
        }
    } else {
        if (isatty(fd)) {
            *err = xasprintf("tnav: %s is a terminal, not a trace: pipe a trace into tnav (tnav stats - < trace.csv) or "
                             "name a file",
                             name);
            close(fd);
            return -2;
        }
        /* the first bytes say whether the stream is compressed */
        while (nhead < 4) {
            ssize_t k = read(fd, head + nhead, sizeof head - nhead);
            if (k < 0 && errno == EINTR) continue;
            if (k < 0) {
                *err = xasprintf("tnav: cannot read %s: %s", name, strerror(errno));
                close(fd);
                return -2;
            }
            if (k == 0) break;
            nhead += (size_t)k;
        }
        comp = spool_magic(head, nhead);
    }
    char *why = NULL;
    int tmp = spool_copy(fd, name, head, nhead, comp, o->progress, done_base, size, &why);
    close(fd);
    if (tmp == -2) return -3;
    if (tmp < 0) {
        *err = xasprintf("tnav: %s", why);
        free(why);
        return -2;
    }
    return tmp;
}

int open_file(const char *path, FileJob *fj, const LoadOpts *o, int nthreads, uint64_t done_base, char **err)
{
    memset(fj, 0, sizeof *fj);
    uint64_t size;
    struct timespec mt = {-1, -1};
    int fd = open_input(path, o, done_base, &size, err, &mt);
    if (fd < -1) return fd == -3 ? LOAD_CANCELLED : -1;
    fj->watch = mt.tv_sec != -1;
    fj->mtime = mt;
    const char *mem = o->mem;
    if (!mem && !strcmp(path, "-")) path = "standard input";
    fj->size = size;
    unsigned char head[65536];
    ssize_t got = in_pread(fd, mem, size, head, sizeof head, 0);
    if (got < 0) {
        *err = xasprintf("tnav: cannot read %s: %s", path, strerror(errno));
        if (fd >= 0) close(fd);
        return -1;
    }
    uint64_t bom, first_at;
    size_t first;
    char *why;
    int fmt = sniff(head, (size_t)got, &bom, &first, &why);
    first_at = first;
    if (fmt == 0 && (uint64_t)got < size) {
        /* only blanks so far: look further for the first other byte */
        off_t at = (off_t)got;
        for (;;) {
            ssize_t k = in_pread(fd, mem, size, head, sizeof head, (uint64_t)at);
            if (k <= 0) break;
            size_t i = 0;
            while (i < (size_t)k && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n')) i++;
            if (i < (size_t)k) {
                k = in_pread(fd, mem, size, head, sizeof head, (uint64_t)at + i);
                uint64_t bom2;
                size_t f2;
                fmt = k > 0 ? sniff(head, (size_t)k, &bom2, &f2, &why) : 0;
                first_at = (uint64_t)at + i + f2;
                break;
            }
            at += k;
        }
    }
    if (fmt < 0) {
        *err = xasprintf("tnav: %s: %s", path, why);
        free(why);
        if (fd >= 0) close(fd);
        return -1;
    }
    if (fmt == FMT_NDJSON && top_level_trace_events(fd, mem, size, first_at)) fmt = FMT_CHROME;
    if (o->format && fmt != 0) fmt = o->format;
    fj->fmt = fmt;
    /* lines ended by lone CRs (old Mac style): no LF in the first bytes, a CR */
    bool cr_lines = got > 0 && !memchr(head, '\n', (size_t)got) && memchr(head, '\r', (size_t)got);
    uint64_t data_start = bom, header_lines = 0;
    if (fmt == FMT_CSV) {
        fj->csv.path = path;
        fj->csv.fd = fd;
        fj->csv.mem = mem;
        fj->csv.size = size;
        fj->csv.engine = o->csv_engine;
        char *e = csv_read_header(&fj->csv, o, bom);
        if (e) {
            *err = xasprintf("tnav: %s", e);
            free(e);
            csv_file_free(&fj->csv);
            if (fd >= 0) close(fd);
            return -1;
        }
        data_start = fj->csv.data_start;
        header_lines = fj->csv.header_lines;
        if (fj->csv.ncols == 0) {
            csv_file_free(&fj->csv);
            fmt = fj->fmt = 0;
        }
    } else if (fmt == FMT_CHROME) {
        fj->ch.path = path;
        fj->ch.fd = fd;
        fj->ch.mem = mem;
        fj->ch.size = size;
        fj->ch.opts = o;
        fj->ch.cr_lines = cr_lines;
        char *e = chrome_read_header(&fj->ch, bom);
        if (e) {
            *err = xasprintf("tnav: %s: %s", path, e);
            free(e);
            if (fd >= 0) close(fd);
            return -1;
        }
        data_start = fj->ch.data_start;
        /* (the lines before the events array, for line numbers) */
        for (uint64_t at = 0; at < data_start;) {
            unsigned char buf[65536];
            size_t want = data_start - at < sizeof buf ? (size_t)(data_start - at) : sizeof buf;
            ssize_t k = in_pread(fd, mem, size, buf, want, at);
            if (k <= 0) break;
            for (ssize_t i = 0; i < k; i++) fj->head_lines += buf[i] == (cr_lines ? '\r' : '\n');
            at += (uint64_t)k;
        }
    } else if (fmt == FMT_PARAVER) {
        fj->prv.path = path;
        fj->prv.fd = fd;
        fj->prv.mem = mem;
        fj->prv.size = size;
        fj->prv.quiet = o->quiet;
        char *e = prv_read_header(&fj->prv, (const char *)head, (size_t)got, bom);
        if (e) {
            *err = xasprintf("tnav: %s: %s", path, e);
            free(e);
            prv_file_free(&fj->prv);
            if (fd >= 0) close(fd);
            return -1;
        }
        if (!mem) prv_read_names(&fj->prv, path, o->report ? o->report : stderr);
        data_start = fj->prv.data_start;
        fj->head_lines = 1;
    } else if (fmt == FMT_OTF2) {
        if (mem || !strcmp(path, "standard input") || !fj->watch) {
            *err = xasprintf("tnav: %s: an OTF2 archive is read from its directory: give the path of its anchor file "
                             "(traces.otf2), not a copy, a pipe or a compressed file",
                             path);
            if (fd >= 0) close(fd);
            return -1;
        }
        if (!otf2_built_in()) {
            *err = xasprintf("tnav: %s: an OTF2 archive, and this tnav was built without OTF2 (install "
                             "libopen-trace-format2-dev and rebuild: make)",
                             path);
            close(fd);
            return -1;
        }
        fj->otf2_path = path;
        fj->otf2_fd = fd;
        fj->starts = xcalloc(3, sizeof(uint64_t));
        fj->starts[0] = 0;
        fj->starts[1] = size;
        fj->nchunks = 1;
        fj->batches = xcalloc(2, sizeof(Batch *));
        return 0;
    } else if (fmt == FMT_NDJSON) {
        fj->nd.path = path;
        fj->nd.fd = fd;
        fj->nd.mem = mem;
        fj->nd.size = size;
        fj->nd.opts = o;
        fj->nd.cr_lines = cr_lines;
    }
    (void)header_lines;
    if (fmt == 0) {
        if (fd >= 0) close(fd);
        fj->nchunks = 0;
        return 0;
    }
    /* chunk starts: just after a newline near each nominal split.
     * TNAV_CHUNK_BYTES (tests only) makes chunks small so that seams are
     * exercised on small files. */
    uint64_t len = size > data_start ? size - data_start : 0;
    uint64_t min_chunk = MIN_CHUNK;
    const char *cb = getenv("TNAV_CHUNK_BYTES");
    if (cb && atoll(cb) > 0) min_chunk = (uint64_t)atoll(cb);
    int nch = nthreads;
    /* (Chrome: events of very different costs (a file's flows often all
     * at its end) make equal byte ranges unequal work; smaller chunks,
     * taken by the threads as they get free, even it out) */
    if (fmt == FMT_CHROME) nch = nthreads * 4;
    if (cb && atoll(cb) > 0) nch = (int)(len / min_chunk + 1);
    if (nch > 4096) nch = 4096;
    if (len / min_chunk + 1 < (uint64_t)nch) nch = (int)(len / min_chunk + 1);
    if (nch < 1) nch = 1;
    fj->starts = xcalloc((size_t)nch + 2, sizeof(uint64_t));
    fj->starts[0] = data_start;
    int k = 1;
    Reader rd;
    rd_init(&rd, fd, mem, size);
    for (int i = 1; i < nch; i++) {
        uint64_t nominal = data_start + len / (uint64_t)nch * (uint64_t)i;
        if (nominal <= fj->starts[k - 1]) continue;
        uint64_t st2;
        if (fmt == FMT_CHROME) {
            st2 = chrome_next_seam(&rd, nominal);
            if (st2 >= size) break;
        } else {
            uint64_t lf = rd_find_lf(&rd, nominal);
            if (lf >= size) break;
            st2 = lf + 1;
        }
        if (st2 <= fj->starts[k - 1] || st2 >= size) continue;
        fj->starts[k++] = st2;
    }
    rd_free(&rd);
    fj->starts[k] = size;
    fj->nchunks = k;
    fj->batches = xcalloc((size_t)k + 1, sizeof(Batch *));
    return 0;
}

void close_file(FileJob *fj)
{
    if (fj->fmt == FMT_CSV) {
        if (fj->csv.fd >= 0) close(fj->csv.fd);
        csv_file_free(&fj->csv);
    } else if (fj->fmt == FMT_NDJSON) {
        if (fj->nd.fd >= 0) close(fj->nd.fd);
    } else if (fj->fmt == FMT_CHROME) {
        if (fj->ch.fd >= 0) close(fj->ch.fd);
    } else if (fj->fmt == FMT_PARAVER) {
        if (fj->prv.fd >= 0) close(fj->prv.fd);
        prv_file_free(&fj->prv);
    } else if (fj->fmt == FMT_OTF2) {
        if (fj->otf2_fd >= 0) close(fj->otf2_fd);
    }
    free(fj->fatal);
    free(fj->starts);
}
