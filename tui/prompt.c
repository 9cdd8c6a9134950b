/*
 * prompt.c — the line editor of the filter prompt; see prompt.h.
 */
#include "prompt.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "keys.h"
#include "base/out.h"
#include "base/util.h"

void prompt_init(Prompt *p)
{
    memset(p, 0, sizeof *p);
    p->cap = 64;
    p->buf = xcalloc(p->cap, 1);
}

void prompt_free(Prompt *p)
{
    free(p->buf);
    for (int i = 0; i < p->nhist; i++) free(p->hist[i]);
    free(p->hist);
    free(p->saved);
    memset(p, 0, sizeof *p);
}

static void reserve(Prompt *p, size_t n)
{
    if (n + 1 <= p->cap) return;
    while (p->cap < n + 1) p->cap *= 2;
    p->buf = xrealloc(p->buf, p->cap);
}

void prompt_set(Prompt *p, const char *text)
{
    size_t n = strlen(text);
    reserve(p, n);
    memcpy(p->buf, text, n + 1);
    p->len = p->cur = n;
}

void prompt_clear(Prompt *p)
{
    prompt_set(p, "");
    p->hpos = p->nhist;
    free(p->saved);
    p->saved = NULL;
}

static size_t prev_char(const Prompt *p, size_t i)
{
    if (i == 0) return 0;
    i--;
    while (i > 0 && ((unsigned char)p->buf[i] & 0xC0) == 0x80) i--;
    return i;
}

static size_t next_char(const Prompt *p, size_t i)
{
    if (i >= p->len) return p->len;
    i++;
    while (i < p->len && ((unsigned char)p->buf[i] & 0xC0) == 0x80) i++;
    return i;
}

static void delete_range(Prompt *p, size_t a, size_t b)
{
    memmove(p->buf + a, p->buf + b, p->len - b + 1);
    p->len -= b - a;
    if (p->cur > b) p->cur -= b - a;
    else if (p->cur > a) p->cur = a;
}

static void insert(Prompt *p, const char *s, size_t n)
{
    reserve(p, p->len + n);
    memmove(p->buf + p->cur + n, p->buf + p->cur, p->len - p->cur + 1);
    memcpy(p->buf + p->cur, s, n);
    p->len += n;
    p->cur += n;
}

static bool is_word(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.'; }

static void history_walk(Prompt *p, int dir)
{
    int np = p->hpos + dir;
    if (np < 0 || np > p->nhist) return;
    if (p->hpos == p->nhist) {
        free(p->saved);
        p->saved = xstrdup(p->buf);
    }
    p->hpos = np;
    prompt_set(p, np == p->nhist ? (p->saved ? p->saved : "") : p->hist[np]);
}

size_t prompt_complete_with(Prompt *p, size_t a, const char *const *cand, int k, bool space)
{
    if (k <= 0 || a > p->cur) return 0;
    size_t n = p->cur - a;
    size_t common = strlen(cand[0]);
    for (int i = 1; i < k; i++) {
        size_t j = 0;
        while (j < common && cand[i][j] == cand[0][j]) j++;
        common = j;
    }
    if (common < n || memcmp(cand[0], p->buf + a, n) != 0) return 0;
    size_t before = p->len;
    if (common > n) insert(p, cand[0] + n, common - n);
    /* one candidate, complete: what follows it */
    if (k == 1 && space && common && cand[0][common - 1] != '/' && cand[0][common - 1] != '(' &&
        (p->cur == p->len || p->buf[p->cur] != ' '))
        insert(p, " ", 1);
    return p->len - before;
}

/* Tab: complete the identifier before the cursor; with several candidates,
 * their longest common prefix */
static bool complete(Prompt *p, CompleteFn fn, void *ctx)
{
    if (!fn) return false;
    size_t a = p->cur;
    while (a > 0 && is_word(p->buf[a - 1])) a--;
    char prefix[128];
    size_t n = p->cur - a;
    if (n >= sizeof prefix) return false;
    memcpy(prefix, p->buf + a, n);
    prefix[n] = 0;
    const char *cand[64];
    int k = fn(ctx, prefix, cand, 64);
    return prompt_complete_with(p, a, cand, k, false) > 0;
}

size_t prompt_word_start(const Prompt *p)
{
    size_t a = p->cur;
    while (a > 0 && is_word(p->buf[a - 1])) a--;
    return a;
}

bool prompt_key(Prompt *p, int key, CompleteFn complete_fn, void *ctx)
{
    size_t before_len = p->len, before_cur = p->cur;
    switch (key) {
    case TK_LEFT: p->cur = prev_char(p, p->cur); break;
    case TK_RIGHT: p->cur = next_char(p, p->cur); break;
    case TK_HOME:
    case CTRL('a'): p->cur = 0; break;
    case TK_END:
    case CTRL('e'): p->cur = p->len; break;
    case TK_BS:
    case CTRL('h'):
        if (p->cur) delete_range(p, prev_char(p, p->cur), p->cur);
        break;
    case TK_DEL:
    case CTRL('d'):
        if (p->cur < p->len) delete_range(p, p->cur, next_char(p, p->cur));
        break;
    case CTRL('u'): delete_range(p, 0, p->cur); break;
    case CTRL('k'): delete_range(p, p->cur, p->len); break;
    case CTRL('w'): {
        /* the word before the cursor, and the blanks after it */
        size_t a = p->cur;
        while (a > 0 && p->buf[a - 1] == ' ') a--;
        if (a > 0 && is_word(p->buf[a - 1])) {
            while (a > 0 && is_word(p->buf[a - 1])) a--;
        } else if (a > 0) {
            a = prev_char(p, a);
        }
        delete_range(p, a, p->cur);
        break;
    }
    case TK_UP: history_walk(p, -1); return true;
    case TK_DOWN: history_walk(p, +1); return true;
    case TK_TAB: return complete(p, complete_fn, ctx);
    default:
        if (key >= 0x20 && key < TK_SPECIAL && key != 0x7f && !(key >= 0xD800 && key <= 0xDFFF)) {
            char b[4];
            size_t n = utf8_put(b, (uint32_t)key);
            insert(p, b, n);
        } else {
            return false;
        }
    }
    return p->len != before_len || p->cur != before_cur || key == CTRL('u') || key == CTRL('w');
}

void prompt_history_add(Prompt *p, const char *line)
{
    if (!line[0] || (p->nhist && !strcmp(p->hist[p->nhist - 1], line))) {
        p->hpos = p->nhist;
        return;
    }
    if (p->nhist == p->caphist) {
        p->caphist = p->caphist ? p->caphist * 2 : 32;
        p->hist = xrealloc(p->hist, (size_t)p->caphist * sizeof(char *));
    }
    p->hist[p->nhist++] = xstrdup(line);
    p->hpos = p->nhist;
}

bool prompt_history_load(Prompt *p, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return false;
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, f)) > 0) {
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = 0;
        if (n > 0 && utf8_invalid_at((const unsigned char *)line, (size_t)n) == (size_t)n) prompt_history_add(p, line);
    }
    free(line);
    fclose(f);
    p->nsynced = p->nhist;
    return true;
}

bool prompt_history_save(Prompt *p, const char *path, int keep)
{
    /* one session at a time (the lock is held only while merging and
     * writing; it is released when the descriptor is closed) */
    size_t pl = strlen(path);
    char *lock = xmalloc(pl + 8);
    snprintf(lock, pl + 8, "%s.lock", path);
    int lfd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    free(lock);
    if (lfd >= 0) {
        while (flock(lfd, LOCK_EX) != 0 && errno == EINTR) {}
    }
    /* what the file holds now, and this session's new entries after it */
    Prompt disk;
    memset(&disk, 0, sizeof disk);
    if (!prompt_history_load(&disk, path) && errno != ENOENT) {
        /* unreadable: this session's whole history, as before */
        for (int i = 0; i < p->nsynced; i++) prompt_history_add(&disk, p->hist[i]);
    }
    int base = disk.nhist;
    for (int i = p->nsynced; i < p->nhist; i++) prompt_history_add(&disk, p->hist[i]);
    AtomicFile af;
    bool ok = atomic_open(&af, path, true);
    int first = disk.nhist > keep ? disk.nhist - keep : 0;
    if (ok) {
        for (int i = first; i < disk.nhist; i++)
            if (!strchr(disk.hist[i], '\n')) fprintf(af.f, "%s\n", disk.hist[i]);
        ok = atomic_commit(&af, true);
    }
    int e = errno;
    if (lfd >= 0) close(lfd);
    /* the prompt walks the merged history from now on */
    for (int i = 0; i < p->nhist; i++) free(p->hist[i]);
    free(p->hist);
    p->hist = disk.hist;
    p->nhist = disk.nhist;
    p->caphist = disk.caphist;
    p->hpos = p->nhist;
    p->nsynced = ok ? p->nhist : base;
    free(disk.buf);
    free(disk.saved);
    errno = e;
    return ok;
}

static bool mkdirs(char *path)
{
    /* each component, ignoring those that exist */
    for (char *q = path + 1; *q; q++) {
        if (*q != '/') continue;
        *q = 0;
        if (mkdir(path, 0700) != 0 && errno != EEXIST) {
            *q = '/';
            return false;
        }
        *q = '/';
    }
    return mkdir(path, 0700) == 0 || errno == EEXIST;
}

char *state_path(const char *name)
{
    const char *st = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
    char dir[4096];
    if (st && st[0] == '/') snprintf(dir, sizeof dir, "%s/tnav", st);
    else if (home && home[0]) snprintf(dir, sizeof dir, "%s/.local/state/tnav", home);
    else return NULL;
    if (!mkdirs(dir)) return NULL;
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = xmalloc(n);
    snprintf(p, n, "%s/%s", dir, name);
    return p;
}

char *history_path(void) { return state_path("history"); }
