/*
 * out.c — output helpers; see out.h.
 */
#include "out.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

void json_str(FILE *f, const char *s, size_t n)
{
    putc('"', f);
    size_t i = 0;
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            putc('\\', f);
            putc(c, f);
            i++;
        } else if (c < 0x20 || c == 0x7f) {
            switch (c) {
            case '\n': fputs("\\n", f); break;
            case '\r': fputs("\\r", f); break;
            case '\t': fputs("\\t", f); break;
            default: fprintf(f, "\\u%04x", c);
            }
            i++;
        } else if (c < 0x80) {
            putc(c, f);
            i++;
        } else {
            size_t bad = utf8_invalid_at((const unsigned char *)s + i, n - i);
            if (bad == 0) {
                fputs("\\ufffd", f); /* never produced by the loaders, which validate UTF-8 */
                i++;
                continue;
            }
            /* copy the valid run of multi-byte characters */
            size_t run = 1;
            while (i + run < n && ((unsigned char)s[i + run] & 0xC0) == 0x80) run++;
            if (run > bad) run = bad;
            fwrite(s + i, 1, run, f);
            i += run;
        }
    }
    putc('"', f);
}

char *format_bytes(char *buf, size_t sz, int64_t b)
{
    static const char *u[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    if (b < 1024) {
        snprintf(buf, sz, "%lld B", (long long)b);
        return buf;
    }
    if (b == INT64_MAX) {
        /* (sums stop there rather than wrap: the true value is at least this) */
        snprintf(buf, sz, ">=8 EiB");
        return buf;
    }
    double v = (double)b;
    int k = 0;
    while (v >= 1024 && k < 6) {
        v /= 1024;
        k++;
    }
    if (v >= 100) snprintf(buf, sz, "%.0f %s", v, u[k]);
    else if (v >= 10) snprintf(buf, sz, "%.1f %s", v, u[k]);
    else snprintf(buf, sz, "%.2f %s", v, u[k]);
    /* "4.00 KiB" -> "4 KiB" */
    char *dot = strchr(buf, '.');
    if (dot) {
        char *sp = strchr(dot, ' ');
        char *e = sp - 1;
        while (e > dot && *e == '0') e--;
        if (e == dot) e--;
        memmove(e + 1, sp, strlen(sp) + 1);
    }
    return buf;
}

/* Temp files being written, so that a fatal end (out of memory, or
 * SIGINT/SIGTERM/SIGHUP while a file is half written) leaves no
 * `out.csv.Ab12Cd` behind. Slots are fixed buffers: removing them needs no
 * allocation (unlink is async-signal-safe). */
#define PENDING_MAX 8
static char g_pending[PENDING_MAX][4096];
static atomic_int g_pending_used[PENDING_MAX]; /* 0 free, 1 being filled, 2 a name */

static void pending_unlink_all(void)
{
    for (int i = 0; i < PENDING_MAX; i++)
        if (atomic_load(&g_pending_used[i]) == 2) unlink(g_pending[i]);
}

static void pending_on_signal(int sig)
{
    pending_unlink_all();
    signal(sig, SIG_DFL);
    raise(sig);
}

static int pending_add(const char *tmp)
{
    static atomic_bool hooked;
    if (!atomic_exchange(&hooked, true)) {
        fatal_hook_add(pending_unlink_all);
        /* only where nobody else handles these signals (the interface does) */
        static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
        for (size_t k = 0; k < sizeof sigs / sizeof sigs[0]; k++) {
            struct sigaction old;
            if (sigaction(sigs[k], NULL, &old) == 0 && old.sa_handler == SIG_DFL) {
                struct sigaction sa;
                memset(&sa, 0, sizeof sa);
                sa.sa_handler = pending_on_signal;
                sigemptyset(&sa.sa_mask);
                sigaction(sigs[k], &sa, NULL);
            }
        }
    }
    if (strlen(tmp) >= sizeof g_pending[0]) return -1;
    for (int i = 0; i < PENDING_MAX; i++) {
        int f = 0;
        if (!atomic_compare_exchange_strong(&g_pending_used[i], &f, 1)) continue;
        memcpy(g_pending[i], tmp, strlen(tmp) + 1);
        atomic_store(&g_pending_used[i], 2);
        return i;
    }
    return -1;
}

static void pending_remove(const char *tmp)
{
    for (int i = 0; i < PENDING_MAX; i++)
        if (atomic_load(&g_pending_used[i]) == 2 && !strcmp(g_pending[i], tmp)) {
            atomic_store(&g_pending_used[i], 0);
            return;
        }
}

bool atomic_open(AtomicFile *af, const char *path, bool private_file)
{
    memset(af, 0, sizeof *af);
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        /* a device or a pipe (/dev/stdout, a FIFO): nothing to replace, so
         * written in place (a rename would put a file where it was) */
        af->f = fopen(path, "w");
        return af->f != NULL;
    }
    /* through symbolic links: the file they name is replaced, not a link
     * (also when that file does not exist yet) */
    char *real = NULL;
    for (int hop = 0; hop < 16 && lstat(path, &st) == 0 && S_ISLNK(st.st_mode); hop++) {
        char tgt[4096];
        ssize_t n = readlink(path, tgt, sizeof tgt - 1);
        if (n <= 0) break;
        tgt[n] = 0;
        char *next;
        const char *slash = strrchr(path, '/');
        if (tgt[0] == '/' || !slash) {
            next = xstrdup(tgt);
        } else {
            size_t dl = (size_t)(slash - path) + 1;
            next = xmalloc(dl + (size_t)n + 1);
            memcpy(next, path, dl);
            memcpy(next + dl, tgt, (size_t)n + 1);
        }
        free(real);
        path = real = next;
    }
    /* the file's mode: the one it replaces, else 0666 less the umask */
    mode_t mode;
    if (stat(path, &st) == 0) {
        mode = st.st_mode & 07777;
    } else {
        mode_t um = umask(0);
        umask(um);
        mode = (mode_t)(private_file ? 0600 : 0666) & ~um;
    }
    size_t pl = strlen(path);
    af->tmp = xmalloc(pl + 16);
    snprintf(af->tmp, pl + 16, "%s.XXXXXX", path);
    int fd = mkstemp(af->tmp);
    if (fd < 0) goto fail;
    /* (at once: running out of memory from here on removes it too) */
    pending_add(af->tmp);
    (void)fchmod(fd, mode);
    af->f = fdopen(fd, "w");
    if (!af->f) {
        int e = errno;
        close(fd);
        unlink(af->tmp);
        pending_remove(af->tmp);
        errno = e;
        goto fail;
    }
    af->path = xstrdup(path);
    free(real);
    return true;
fail:
    free(af->tmp);
    af->tmp = NULL;
    free(real);
    return false;
}

bool atomic_commit(AtomicFile *af, bool ok)
{
    if (!af->f) return false;
    if (!af->tmp) {
        /* written in place */
        ok = fflush(af->f) == 0 && ok;
        if (fclose(af->f) != 0) ok = false;
        memset(af, 0, sizeof *af);
        return ok;
    }
    ok = ok && fflush(af->f) == 0 && fsync(fileno(af->f)) == 0;
    if (fclose(af->f) != 0) ok = false;
    if (ok) ok = rename(af->tmp, af->path) == 0;
    if (!ok) {
        int e = errno;
        unlink(af->tmp);
        errno = e;
    }
    pending_remove(af->tmp);
    free(af->tmp);
    free(af->path);
    memset(af, 0, sizeof *af);
    return ok;
}

/* a CSV field: quoted when it holds a separator, a quote, a line break, or
 * leading / trailing white space, is empty (to tell it from absent), or
 * starts with '#' (first on a line, it would read as a comment) */
void csv_field(FILE *f, const char *s, size_t n)
{
    bool q = n == 0 || s[0] == ' ' || s[0] == '\t' || s[0] == '#' || s[n - 1] == ' ' || s[n - 1] == '\t';
    for (size_t i = 0; i < n && !q; i++) q = s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r';
    if (!q) {
        fwrite(s, 1, n, f);
        return;
    }
    putc('"', f);
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"') putc('"', f);
        putc(s[i], f);
    }
    putc('"', f);
}

int text_cols(const char *s)
{
    int n = 0;
    for (; *s; s++) n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

void fput_col(FILE *f, const char *s, int w)
{
    int n = text_cols(s);
    if (n <= w) {
        fputs(s, f);
        for (; n < w; n++) putc(' ', f);
        return;
    }
    /* the first w - 1 code points, then … */
    int k = 0;
    const char *p = s;
    while (*p && k < w - 1) {
        p++;
        while (((unsigned char)*p & 0xC0) == 0x80) p++;
        k++;
    }
    fwrite(s, 1, (size_t)(p - s), f);
    fputs("\xe2\x80\xa6", f);
}
