/*
 * session.c — the saved sessions; see session.h.
 */
#include "session.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "prompt.h"
#include "base/out.h"
#include "base/util.h"

#define HEADER "tnav-sessions 1"

/* ---- the file ------------------------------------------------------------------------------ */

void sessfile_free(SessFile *F)
{
    for (int i = 0; i < F->n; i++) {
        free(F->e[i].paths);
        free(F->e[i].stamp);
        free(F->e[i].body);
    }
    free(F->e);
    memset(F, 0, sizeof *F);
}

static SessEntry *add_entry(SessFile *F)
{
    if (F->n == F->cap) {
        F->cap = F->cap ? F->cap * 2 : 16;
        F->e = xrealloc(F->e, (size_t)F->cap * sizeof *F->e);
    }
    SessEntry *e = &F->e[F->n++];
    memset(e, 0, sizeof *e);
    return e;
}

static void append(char **buf, size_t *len, const char *s)
{
    size_t l = strlen(s);
    *buf = xrealloc(*buf, *len + l + 2);
    memcpy(*buf + *len, s, l);
    (*buf)[*len + l] = '\n';
    *len += l + 1;
    (*buf)[*len] = 0;
}

bool sessfile_read(const char *path, SessFile *F, char *note, size_t nsz)
{
    memset(F, 0, sizeof *F);
    if (note && nsz) note[0] = 0;
    FILE *f = fopen(path, "r");
    if (!f) {
        if (errno == ENOENT) return true;
        if (note) snprintf(note, nsz, "cannot read %s: %s", path, strerror(errno));
        return false;
    }
    char *line = NULL;
    size_t cap = 0, blen = 0;
    ssize_t n;
    int ln = 0;
    bool ok = true;
    SessEntry cur;
    bool in = false;
    memset(&cur, 0, sizeof cur);
    while ((n = getline(&line, &cap, f)) > 0) {
        ln++;
        if (line[n - 1] == '\n') line[--n] = 0;
        if ((size_t)n != strlen(line) || utf8_invalid_at((const unsigned char *)line, (size_t)n) != (size_t)n) {
            ok = false;
            break;
        }
        if (ln == 1) {
            if (strcmp(line, HEADER) != 0) {
                ok = false;
                break;
            }
            continue;
        }
        if (!in) {
            if (!line[0]) continue;
            if (strncmp(line, "trace\t", 6) != 0 || !line[6]) {
                ok = false;
                break;
            }
            memset(&cur, 0, sizeof cur);
            cur.paths = xstrdup(line + 6);
            blen = 0;
            in = true;
        } else if (!strcmp(line, "end")) {
            if (!cur.stamp) {
                ok = false;
                break;
            }
            if (!cur.body) cur.body = xstrdup("");
            *add_entry(F) = cur;
            memset(&cur, 0, sizeof cur);
            in = false;
        } else if (!strncmp(line, "stamp ", 6) && !cur.stamp) {
            cur.stamp = xstrdup(line + 6);
        } else if (!strncmp(line, "saved ", 6)) {
            char *e;
            cur.saved = strtoll(line + 6, &e, 10);
            if (*e) {
                ok = false;
                break;
            }
        } else {
            append(&cur.body, &blen, line);
        }
    }
    if (ok && ln == 0) ok = false; /* (an empty file is not one tnav wrote) */
    if (ok && in) ok = false;      /* (cut short) */
    free(cur.paths);
    free(cur.stamp);
    free(cur.body);
    free(line);
    fclose(f);
    if (!ok && note) snprintf(note, nsz, "%s is corrupt (line %d)", path, ln);
    return ok;
}

static int cmp_saved(const void *a, const void *b)
{
    const SessEntry *x = a, *y = b;
    if (x->saved != y->saved) return x->saved < y->saved ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

bool sessfile_put(const char *path, const char *paths, const char *stamp, const char *body)
{
    size_t pl = strlen(path);
    char *lock = xmalloc(pl + 8);
    snprintf(lock, pl + 8, "%s.lock", path);
    int lfd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    free(lock);
    if (lfd >= 0)
        while (flock(lfd, LOCK_EX) != 0 && errno == EINTR) {}
    /* what the file holds now (a corrupt file: what could be read of it) */
    SessFile F;
    sessfile_read(path, &F, NULL, 0);
    SessEntry *me = NULL;
    for (int i = 0; i < F.n; i++)
        if (!strcmp(F.e[i].paths, paths)) me = &F.e[i];
    if (!me) {
        me = add_entry(&F);
        me->paths = xstrdup(paths);
    }
    free(me->stamp);
    free(me->body);
    me->stamp = xstrdup(stamp);
    me->body = xstrdup(body);
    me->saved = (int64_t)time(NULL);
    /* the newest last (this one among them: equal times keep their order) */
    for (int i = 0; i < F.n; i++) F.e[i].order = i;
    SessEntry mine = *me;
    *me = F.e[F.n - 1];
    F.e[F.n - 1] = mine;
    qsort(F.e, (size_t)F.n - 1, sizeof *F.e, cmp_saved);
    int first = F.n > SESSIONS_KEEP ? F.n - SESSIONS_KEEP : 0;
    AtomicFile af;
    bool ok = atomic_open(&af, path, true);
    if (ok) {
        fprintf(af.f, "%s\n", HEADER);
        for (int i = first; i < F.n; i++) {
            const SessEntry *e = &F.e[i];
            fprintf(af.f, "trace\t%s\nstamp %s\nsaved %" PRId64 "\n%send\n", e->paths, e->stamp, e->saved, e->body);
        }
        ok = atomic_commit(&af, !ferror(af.f));
    }
    int err = errno;
    sessfile_free(&F);
    if (lfd >= 0) close(lfd);
    errno = err;
    return ok;
}

/* ---- the key of a trace ------------------------------------------------------------------------ */

bool session_key(char **files, int nfiles, char **paths, char **stamp)
{
    *paths = *stamp = NULL;
    if (nfiles <= 0) return false;
    char *p = NULL, *s = NULL;
    size_t pl = 0, sl = 0;
    for (int i = 0; i < nfiles; i++) {
        char real[PATH_MAX];
        struct stat st;
        if (!strcmp(files[i], "-") || !realpath(files[i], real) || stat(real, &st) != 0 || !S_ISREG(st.st_mode) ||
            strpbrk(real, "\t\n\r")) {
            free(p);
            free(s);
            return false;
        }
        size_t l = strlen(real);
        p = xrealloc(p, pl + l + 2);
        if (pl) p[pl++] = '\t';
        memcpy(p + pl, real, l + 1);
        pl += l;
        char b[64];
        int bl = snprintf(b, sizeof b, "%s%lld:%lld", i ? " " : "", (long long)st.st_size,
                          (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec);
        s = xrealloc(s, sl + (size_t)bl + 1);
        memcpy(s + sl, b, (size_t)bl + 1);
        sl += (size_t)bl;
    }
    *paths = p;
    *stamp = s;
    return true;
}

/* ---- the state -------------------------------------------------------------------------------- */

char *session_body(const App *A)
{
    char *b = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&b, &len);
    fprintf(f, "view %s\n", VIEW_CMD_NAMES[A->view]);
    fprintf(f, "window %" PRId64 " %" PRId64 "\n", A->t0, A->t1);
    fprintf(f, "cursor %" PRId64 " %d\n", app_cursor_time(A), A->cur_row);
    if (A->filter_text && !strpbrk(A->filter_text, "\n\r")) fprintf(f, "filter %s\n", A->filter_text);
    if (A->hl_text && !strpbrk(A->hl_text, "\n\r")) fprintf(f, "highlight %s\n", A->hl_text);
    for (int k = 0; k < 26; k++)
        if (A->bm_set[k]) fprintf(f, "bookmark %c %" PRId64 "%s%s\n", 'a' + k, A->bm[k], A->bm_name[k][0] ? " " : "", A->bm_name[k]);
    if (A->have_a) fprintf(f, "range a %" PRId64 "\n", A->mark_a);
    if (A->have_b) fprintf(f, "range b %" PRId64 "\n", A->mark_b);
    fclose(f);
    return b;
}

typedef struct {
    int view;
    bool win, cur;
    int64_t t0, t1, tc;
    int row;
    char *filter, *hl;
    bool bm_set[26];
    int64_t bm[26];
    char bm_name[26][40];
    bool have_a, have_b;
    int64_t a, b;
} Saved;

static bool num(const char **p, int64_t *v)
{
    char *e;
    errno = 0;
    long long x = strtoll(*p, &e, 10);
    if (e == *p || errno) return false;
    *v = x;
    *p = e;
    if (**p == ' ') (*p)++;
    return true;
}

bool session_apply(App *A, const char *body, bool keep_view, char *note, size_t nsz)
{
    Saved S;
    memset(&S, 0, sizeof S);
    S.view = -1;
    bool ok = true;
    int ln = 0;
    for (const char *p = body; *p && ok;) {
        const char *nl = strchr(p, '\n');
        size_t l = nl ? (size_t)(nl - p) : strlen(p);
        char line[1024];
        ln++;
        if (l >= sizeof line) {
            ok = false;
            break;
        }
        memcpy(line, p, l);
        line[l] = 0;
        p += l + (nl ? 1 : 0);
        const char *q = strchr(line, ' ');
        if (!q) {
            ok = false;
            break;
        }
        q++;
        int64_t x = 0, y = 0;
        if (!strncmp(line, "view ", 5)) {
            for (int v = 0; v < V__N; v++)
                if (!strcmp(q, VIEW_CMD_NAMES[v])) S.view = v;
            ok = S.view >= 0;
        } else if (!strncmp(line, "window ", 7)) {
            ok = num(&q, &x) && num(&q, &y) && !*q && x < y;
            S.win = ok;
            S.t0 = x, S.t1 = y;
        } else if (!strncmp(line, "cursor ", 7)) {
            ok = num(&q, &x) && num(&q, &y) && !*q && y >= 0 && y < INT_MAX;
            S.cur = ok;
            S.tc = x;
            S.row = (int)y;
        } else if (!strncmp(line, "filter ", 7)) {
            free(S.filter);
            S.filter = xstrdup(q);
        } else if (!strncmp(line, "highlight ", 10)) {
            free(S.hl);
            S.hl = xstrdup(q);
        } else if (!strncmp(line, "bookmark ", 9)) {
            int k = q[0] - 'a';
            ok = k >= 0 && k < 26 && q[1] == ' ';
            if (ok) {
                q += 2;
                ok = num(&q, &x) && strlen(q) < sizeof S.bm_name[0];
                if (ok) {
                    S.bm_set[k] = true;
                    S.bm[k] = x;
                    snprintf(S.bm_name[k], sizeof S.bm_name[k], "%s", q);
                }
            }
        } else if (!strncmp(line, "range ", 6)) {
            ok = (q[0] == 'a' || q[0] == 'b') && q[1] == ' ';
            if (ok) {
                char which = q[0];
                q += 2;
                ok = num(&q, &x) && !*q;
                if (which == 'a') S.have_a = ok, S.a = x;
                else S.have_b = ok, S.b = x;
            }
        }
        /* (a line of another kind, from a later tnav: skipped) */
    }
    if (!ok) {
        snprintf(note, nsz, "the saved session of this trace is corrupt (line %d of its entry): not restored", ln);
        free(S.filter);
        free(S.hl);
        return false;
    }
    /* (a filter, a highlight or a range may read the messages and sync
     * groups, which the load may have left for after the first frame: then
     * they are built first; a view, a window, a cursor and bookmarks need
     * neither, and the first frame's own guard sees to a view that does) */
    if ((S.filter && !A->filter_text) || S.hl || S.have_a || S.have_b) app_finish_tail(A);
    /* the selection first (the rows and the counts depend on it); the
     * command line's filter wins */
    note[0] = 0;
    if (S.filter && !A->filter_text && !app_apply_filter(A, S.filter, false))
        snprintf(note, nsz, "the saved filter no longer compiles: %.120s", A->perr.msg);
    if (S.hl && !app_apply_filter(A, S.hl, true) && !note[0])
        snprintf(note, nsz, "the saved highlight no longer compiles: %.120s", A->perr.msg);
    A->perr_set = false;
    if (S.view >= 0 && !keep_view) app_set_view(A, (ViewId)S.view);
    if (S.win) app_show(A, S.t0, S.t1, S.cur ? S.tc : S.t0);
    if (S.cur) {
        A->cur_row = S.row;
        RowModel *M = app_rows(A);
        if (M) {
            if (M->dirty) app_rows_rebuild(A, M);
            if ((uint32_t)A->cur_row >= M->rs.ng) A->cur_row = M->rs.ng ? (int)M->rs.ng - 1 : 0;
        } else {
            A->cur_row = 0;
        }
    }
    memcpy(A->bm_set, S.bm_set, sizeof S.bm_set);
    memcpy(A->bm, S.bm, sizeof S.bm);
    memcpy(A->bm_name, S.bm_name, sizeof S.bm_name);
    A->have_a = S.have_a;
    A->mark_a = S.a;
    A->have_b = S.have_b;
    A->mark_b = S.b;
    free(S.filter);
    free(S.hl);
    return true;
}

void session_restore(App *A, bool restore, bool keep_view)
{
    A->sess_on = false;
    if (!restore || !A->args) return;
    if (!session_key(A->args->files, A->args->nfiles, &A->sess_paths, &A->sess_stamp)) return;
    A->sess_on = true;
    char *file = state_path("sessions");
    if (!file) return;
    SessFile F;
    char note[300];
    bool ok = sessfile_read(file, &F, note, sizeof note);
    if (!ok) {
        snprintf(A->msg, sizeof A->msg, "session not restored: %.200s", note);
    } else {
        for (int i = 0; i < F.n; i++) {
            if (strcmp(F.e[i].paths, A->sess_paths) != 0) continue;
            if (strcmp(F.e[i].stamp, A->sess_stamp) != 0) {
                snprintf(A->msg, sizeof A->msg, "session not restored: the trace changed since it was saved");
            } else if (session_apply(A, F.e[i].body, keep_view, note, sizeof note)) {
                snprintf(A->msg, sizeof A->msg, "%.200s", note[0] ? note : "session restored (--no-session: start afresh)");
            } else {
                snprintf(A->msg, sizeof A->msg, "%.200s", note);
            }
        }
    }
    sessfile_free(&F);
    free(file);
}

bool session_save(App *A, char **file)
{
    *file = NULL;
    if (!A->sess_on) return true;
    *file = state_path("sessions");
    if (!*file) return true;
    char *body = session_body(A);
    bool ok = sessfile_put(*file, A->sess_paths, A->sess_stamp, body);
    free(body);
    return ok;
}
