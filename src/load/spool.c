/*
 * spool.c — inputs the loader cannot read at random offsets: standard input
 * ("-"), pipes, FIFOs and devices, and gzip or zstd compressed files
 * (detected by their magic bytes, never by the name). Each is copied —
 * decompressed on the way — once, as it streams in, into an anonymous temp
 * file under $TMPDIR (or /tmp); the loader then reads that file like any
 * other trace file (parallel chunks at offsets).
 *
 * Owns: the temp file it returns (an O_TMPFILE, or a mkstemp file unlinked
 * at once: it has no name, so it disappears with its descriptor whatever
 * ends the process) and its two I/O buffers.
 * Invariants: the input is only read; memory is bounded (two 1 MiB buffers
 * plus the decompressor's state) whatever the size of the input; every
 * concatenated gzip member and zstd frame is decompressed, as gzip -d and
 * zstd -d do; compressed data that is truncated, corrupt or followed by
 * other bytes is an error naming the input, the byte offset and the reason,
 * never a silently shorter trace; a cancel (LoadProgress.cancel) stops the
 * copy within one buffer.
 */
#include "load_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "base/util.h"

#define SPOOL_BUF (1u << 20)

int spool_magic(const unsigned char *p, size_t n)
{
    if (n >= 2 && p[0] == 0x1f && p[1] == 0x8b) return SPOOL_GZIP;
    if (n >= 4 && p[0] == 0x28 && p[1] == 0xb5 && p[2] == 0x2f && p[3] == 0xfd) return SPOOL_ZSTD;
    return SPOOL_NONE;
}

const char *spool_name(int comp)
{
    return comp == SPOOL_GZIP ? "gzip" : comp == SPOOL_ZSTD ? "zstd" : "plain";
}

/* a new anonymous file under $TMPDIR or /tmp; -1 with *err */
static int tmp_open(char **err)
{
    const char *d = getenv("TMPDIR");
    if (!d || !*d) d = "/tmp";
    int fd = -1;
#ifdef O_TMPFILE
    fd = open(d, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
#endif
    if (fd < 0) {
        char *name = xasprintf("%s/tnav-spool-XXXXXX", d);
        fd = mkstemp(name);
        if (fd >= 0) unlink(name);
        free(name);
    }
    if (fd < 0) *err = xasprintf("cannot create a temp file in %s: %s (set TMPDIR to a writable directory)", d, strerror(errno));
    return fd;
}

typedef struct {
    int in, out;
    const char *path;
    const unsigned char *head; /* bytes already read from in (a pipe's first bytes) */
    size_t nhead;
    uint64_t consumed; /* input bytes read so far */
    uint64_t written;
    LoadProgress *pg;
    uint64_t done_base;
    char *err;
    bool cancel;
} Spool;

/* next input bytes into buf; 0 at the end; -1 on an error (sp->err set) */
static ssize_t sp_read(Spool *sp, unsigned char *buf, size_t cap)
{
    if (sp->pg && atomic_load_explicit(&sp->pg->cancel, memory_order_relaxed)) {
        sp->cancel = true;
        return -1;
    }
    if (sp->nhead) {
        size_t n = sp->nhead < cap ? sp->nhead : cap;
        memcpy(buf, sp->head, n);
        sp->head += n;
        sp->nhead -= n;
        sp->consumed += n;
        return (ssize_t)n;
    }
    for (;;) {
        ssize_t k = read(sp->in, buf, cap);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) {
            sp->err = xasprintf("cannot read %s: %s", sp->path, strerror(errno));
            return -1;
        }
        sp->consumed += (uint64_t)k;
        if (sp->pg) atomic_store(&sp->pg->done, sp->done_base + sp->consumed);
        return k;
    }
}

static bool sp_write(Spool *sp, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        ssize_t k = write(sp->out, c, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) {
            const char *d = getenv("TMPDIR");
            sp->err = xasprintf("cannot write the copy of %s to a temp file in %s: %s (set TMPDIR to a roomier "
                                "place)",
                                sp->path, d && *d ? d : "/tmp", k < 0 ? strerror(errno) : "short write");
            return false;
        }
        c += k;
        n -= (size_t)k;
        sp->written += (uint64_t)k;
    }
    return true;
}

static bool copy_plain(Spool *sp, unsigned char *in)
{
    for (;;) {
        ssize_t k = sp_read(sp, in, SPOOL_BUF);
        if (k < 0) return false;
        if (k == 0) return true;
        if (!sp_write(sp, in, (size_t)k)) return false;
    }
}

static bool copy_gzip(Spool *sp, unsigned char *in, unsigned char *out)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, 15 + 16) != Z_OK) {
        sp->err = xasprintf("%s: cannot start the gzip decompressor", sp->path);
        return false;
    }
    bool ok = false, ended = false; /* ended: the last member is complete */
    bool more_out = false;          /* the last inflate filled the output: it may hold more */
    for (;;) {
        if (z.avail_in == 0 && !more_out) {
            ssize_t k = sp_read(sp, in, SPOOL_BUF);
            if (k < 0) goto done;
            if (k == 0) break;
            z.next_in = in;
            z.avail_in = (uInt)k;
        }
        if (ended) {
            /* another member follows (gzip -d reads them all) */
            if (spool_magic(z.next_in, z.avail_in) != SPOOL_GZIP && !(z.avail_in == 1 && z.next_in[0] == 0x1f)) {
                sp->err = xasprintf("%s: %u bytes after the end of the gzip data at byte %llu are not gzip data", sp->path,
                                    z.avail_in, (unsigned long long)(sp->consumed - z.avail_in));
                goto done;
            }
            inflateReset(&z);
            ended = false;
        }
        z.next_out = out;
        z.avail_out = SPOOL_BUF;
        int r = inflate(&z, Z_NO_FLUSH);
        more_out = z.avail_out == 0;
        if (!sp_write(sp, out, SPOOL_BUF - z.avail_out)) goto done;
        if (r == Z_STREAM_END) {
            ended = true;
        } else if (r != Z_OK && r != Z_BUF_ERROR) {
            sp->err = xasprintf("%s: corrupt gzip data near byte %llu: %s", sp->path,
                                (unsigned long long)(sp->consumed - z.avail_in), z.msg ? z.msg : zError(r));
            goto done;
        }
    }
    if (!ended) {
        sp->err = xasprintf("%s: the gzip data is truncated (it ends at byte %llu in the middle of a stream, after %llu "
                            "bytes of output)",
                            sp->path, (unsigned long long)sp->consumed, (unsigned long long)sp->written);
        goto done;
    }
    ok = true;
done:
    inflateEnd(&z);
    return ok;
}

static bool copy_zstd(Spool *sp, unsigned char *in, unsigned char *out)
{
    ZSTD_DCtx *dc = ZSTD_createDCtx();
    if (!dc) {
        sp->err = xasprintf("%s: cannot start the zstd decompressor", sp->path);
        return false;
    }
    /* accept the large windows of zstd --long (up to 2 GiB) */
    ZSTD_DCtx_setParameter(dc, ZSTD_d_windowLogMax, 31);
    bool ok = false;
    size_t last = 0; /* 0: no frame is partly decoded */
    ZSTD_inBuffer ib = {in, 0, 0};
    for (;;) {
        if (ib.pos == ib.size) {
            ssize_t k = sp_read(sp, in, SPOOL_BUF);
            if (k < 0) goto done;
            if (k == 0) break;
            ib.size = (size_t)k;
            ib.pos = 0;
        }
        ZSTD_outBuffer ob = {out, SPOOL_BUF, 0};
        last = ZSTD_decompressStream(dc, &ob, &ib);
        if (ZSTD_isError(last)) {
            sp->err = xasprintf("%s: corrupt zstd data near byte %llu: %s", sp->path,
                                (unsigned long long)(sp->consumed - (ib.size - ib.pos)), ZSTD_getErrorName(last));
            goto done;
        }
        if (!sp_write(sp, out, ob.pos)) goto done;
        /* a full output buffer may hold more: flush before reading on */
        while (ob.pos == ob.size) {
            ob.pos = 0;
            last = ZSTD_decompressStream(dc, &ob, &ib);
            if (ZSTD_isError(last)) {
                sp->err = xasprintf("%s: corrupt zstd data near byte %llu: %s", sp->path,
                                    (unsigned long long)(sp->consumed - (ib.size - ib.pos)), ZSTD_getErrorName(last));
                goto done;
            }
            if (!sp_write(sp, out, ob.pos)) goto done;
        }
    }
    if (last != 0) {
        sp->err = xasprintf("%s: the zstd data is truncated (it ends at byte %llu in the middle of a frame, after %llu "
                            "bytes of output)",
                            sp->path, (unsigned long long)sp->consumed, (unsigned long long)sp->written);
        goto done;
    }
    ok = true;
done:
    ZSTD_freeDCtx(dc);
    return ok;
}

int spool_copy(int in_fd, const char *path, const unsigned char *head, size_t nhead, int comp, LoadProgress *pg,
               uint64_t done_base, uint64_t *size, char **err)
{
    *err = NULL;
    int out = tmp_open(err);
    if (out < 0) return -1;
    Spool sp = {in_fd, out, path, head, nhead, 0, 0, pg, done_base, NULL, false};
    unsigned char *in = xmalloc(SPOOL_BUF);
    unsigned char *ob = comp != SPOOL_NONE ? xmalloc(SPOOL_BUF) : NULL;
    bool ok = comp == SPOOL_GZIP ? copy_gzip(&sp, in, ob) : comp == SPOOL_ZSTD ? copy_zstd(&sp, in, ob) : copy_plain(&sp, in);
    free(in);
    free(ob);
    if (!ok) {
        close(out);
        if (sp.cancel) {
            free(sp.err);
            return -2;
        }
        *err = sp.err;
        return -1;
    }
    *size = sp.written;
    return out;
}
