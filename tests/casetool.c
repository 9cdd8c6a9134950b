/*
 * casetool.c — runs declarative test cases against the tnav binary, in the
 * style of jq's test files. Standalone: it does not use src/.
 *
 *   casetool TNAV_BINARY FILE.cases...
 *
 * Build: cc -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Itests \
 *           -o build/rel/casetool tests/casetool.c tests/jsondom.c
 *
 * A case file holds cases; each starts with a line "### name":
 *
 *   # a comment (only outside input blocks; blank lines there are ignored)
 *   ### name of the case
 *   args: stats --json {in}       the command line after the binary: tokens
 *                                 split on spaces; 'single quotes' or
 *                                 "double quotes" group
 *                                 (and are removed; '' is an empty token).
 *                                 {in} = the first input file's path,
 *                                 {in:NAME} = a named input's path,
 *                                 {dir} = the case's temp dir (the paths
 *                                 are absolute; tnav runs in {dir})
 *   env: NAME=VALUE               optional, repeatable (placeholders too)
 *   input a.csv:                  literal lines follow, each written with a
 *   ts,loc                        trailing \n, up to the next line that
 *   1,0                           starts with ###, args:, env:, input,
 *                                 expect or compare- (blank lines and #
 *                                 lines inside are content)
 *   input b.csv (escaped):        exactly one following line with C escapes
 *   ts,loc\n1,0\r\n\xEF\xBB\xBF   \n \r \t \\ \" \0 \xNN; no implicit
 *                                 trailing newline (empty line = empty file)
 *   input c.csv (escaped x1000):  the same, the line repeated 1000 times;
 *   \n                            an input named again is appended to, so
 *   input c.csv (escaped):        this c.csv is 1000 blank lines and then
 *   ts,loc\n1,0\n                 a record
 *   expect-exit: 0                the exit status (0 when not given; death
 *                                 by a signal or the timeout always fails)
 *   expect: .events = 1           a JSON path on stdout (which must be one
 *                                 JSON value) compared with a JSON literal:
 *                                 = and != for any value (deep equality;
 *                                 object member order does not matter),
 *                                 < <= > >= for numbers. The left side is
 *                                 a path or len(PATH), has(PATH), type(PATH);
 *                                 see tests/jsondom.h for paths, e.g.
 *                                 .per_loc[2].busy_ns  .kinds.state
 *                                 .fields[name=args.k].type  len(.per_loc)
 *   expect-stdout-has: text       substring of stdout
 *   expect-stdout-lacks: text
 *   expect-stderr-has: text
 *   expect-stderr-lacks: text
 *   expect-stdout-line: text      some line of stdout is exactly text
 *   expect-stderr-line: text
 *   expect-stdout-count: N text   exactly N lines of stdout contain text
 *   expect-stderr-count: N text
 *   expect-stdout-empty
 *   expect-stderr-empty
 *   expect-stdout-lines: N        number of lines (a last line without \n
 *   expect-stderr-lines: N        counts too)
 *   expect-file-unchanged: a.csv  the input file's bytes are identical
 *                                 after the run
 *   compare-args: ARGS            run again with these args (repeatable);
 *                                 exit status, stdout and stderr must equal
 *                                 the first run's...
 *   compare-paths: P1 P2 ...      ...or, when given, the exit status and
 *                                 these JSON paths of stdout
 * A text expectation (has, lacks, line, file-unchanged) written as
 * "expect-stderr-has (escaped): a\nb" takes C escapes as in inputs, e.g.
 * to require two lines in a given order.
 * Placeholders are expanded in args, env, compare-args and in every
 * expected text or literal.
 *
 * Each case runs in a fresh temp dir (mkdtemp) with TZ=UTC, LC_ALL=C.UTF-8,
 * stdin from /dev/null, TNAV_THREADS/TNAV_CHUNK_BYTES/TNAV_TIMING unset
 * unless the case sets them, and a 10 s timeout (then the process is killed
 * and the case fails). The output is TAP-like: "ok - name" or "not ok -
 * name" followed by "    # " lines with the reasons (expected and actual, an
 * excerpt of stdout and stderr), and at the end exactly one line
 * "cases: P passed, F failed". A case file with a syntax error is a failed
 * case named FILE:LINE. The exit status is 1 when a case failed, 2 on a
 * usage error, else 0.
 *
 * Environment: CASETOOL_ONLY=TEXT runs only the cases whose name contains
 * TEXT; CASETOOL_KEEP=1 keeps the temp dirs (and prints where they are).
 *
 *   casetool --jq FILE EXPR
 *
 * prints the value of a query expression (as in expect:) on the JSON
 * document in FILE, as compact JSON, for shell scripts (tests/run.sh); exit
 * 1 when it does not resolve, 2 when FILE is not JSON.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "jsondom.h"
#include "strbuf.h"
#include "base/util.h"

#define TIMEOUT_SEC 10

/* ---- small helpers ------------------------------------------------------ */

/* xmalloc, xrealloc, xstrndup, xstrdup: util.h */

static bool starts(const char *s, const char *prefix) { return !strncmp(s, prefix, strlen(prefix)); }

static const char *skip_sp(const char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    return s;
}

static char *trim_dup(const char *s)
{
    s = skip_sp(s);
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) n--;
    return xstrndup(s, n);
}

static bool read_file(const char *path, char **data, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    Str s = {0};
    char buf[65536];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0) s_put(&s, buf, got);
    bool ok = !ferror(f);
    fclose(f);
    if (!s.b) s_put(&s, "", 0);
    *data = s.b;
    *len = s.n;
    return ok;
}

static bool write_file(const char *path, const char *data, size_t len)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return false;
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, data + off, len - off);
        if (w < 0) {
            if (errno == EINTR) continue;
            close(fd);
            return false;
        }
        off += (size_t)w;
    }
    return close(fd) == 0;
}

static void rm_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0) return;
    if (!S_ISDIR(st.st_mode)) {
        unlink(path);
        return;
    }
    DIR *d = opendir(path);
    if (d) {
        struct dirent *de;
        while ((de = readdir(d)) != NULL) {
            if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
            char sub[PATH_MAX];
            snprintf(sub, sizeof sub, "%s/%s", path, de->d_name);
            rm_tree(sub);
        }
        closedir(d);
    }
    rmdir(path);
}

/* ---- case model --------------------------------------------------------- */

enum {
    EX_EXIT,
    EX_JSON,
    EX_STDOUT_HAS,
    EX_STDOUT_LACKS,
    EX_STDERR_HAS,
    EX_STDERR_LACKS,
    EX_STDOUT_LINE,
    EX_STDERR_LINE,
    EX_STDOUT_COUNT,
    EX_STDERR_COUNT,
    EX_STDOUT_EMPTY,
    EX_STDERR_EMPTY,
    EX_STDOUT_LINES,
    EX_STDERR_LINES,
    EX_FILE_UNCHANGED,
    EX_STDOUT_IS,
    EX_STDERR_IS
};

typedef struct {
    int kind;
    int line;
    char *text;  /* the argument (trimmed) */
    long num;    /* EX_EXIT, *_LINES, *_COUNT */
    char *lhs;   /* EX_JSON */
    char op[3];  /* EX_JSON */
    char *rhs;   /* EX_JSON */
} Expect;

typedef struct {
    char *name;
    char *data;
    size_t len;
} Input;

typedef struct {
    char *name;
    const char *file;
    int line;
    char *args;
    char **env;
    size_t nenv;
    Input *in;
    size_t nin;
    Expect *ex;
    size_t nex;
    char **cmp_args;
    size_t ncmp;
    char **cmp_paths;
    size_t ncmp_paths;
    char *syntax; /* a syntax error: "FILE:LINE: message" */
} Case;

#define PUSH(arr, n, x)                                                        \
    do {                                                                       \
        (arr) = xrealloc((arr), ((n) + 1) * sizeof *(arr));                    \
        (arr)[(n)++] = (x);                                                    \
    } while (0)

static void case_free(Case *c)
{
    free(c->name);
    free(c->args);
    for (size_t i = 0; i < c->nenv; i++) free(c->env[i]);
    free(c->env);
    for (size_t i = 0; i < c->nin; i++) {
        free(c->in[i].name);
        free(c->in[i].data);
    }
    free(c->in);
    for (size_t i = 0; i < c->nex; i++) {
        free(c->ex[i].text);
        free(c->ex[i].lhs);
        free(c->ex[i].rhs);
    }
    free(c->ex);
    for (size_t i = 0; i < c->ncmp; i++) free(c->cmp_args[i]);
    free(c->cmp_args);
    for (size_t i = 0; i < c->ncmp_paths; i++) free(c->cmp_paths[i]);
    free(c->cmp_paths);
    free(c->syntax);
    memset(c, 0, sizeof *c);
}

/* ---- parsing case files ------------------------------------------------- */

static bool is_terminator(const char *l)
{
    return starts(l, "###") || starts(l, "args:") || starts(l, "env:") || starts(l, "input") || starts(l, "expect") ||
           starts(l, "compare-");
}

/* C escapes; returns false with a message on a bad escape */
static bool unescape(const char *s, Str *out, char *err, size_t errsz)
{
    for (const char *p = s; *p; p++) {
        if (*p != '\\') {
            s_put(out, p, 1);
            continue;
        }
        p++;
        char c;
        switch (*p) {
        case 'n': c = '\n'; break;
        case 'r': c = '\r'; break;
        case 't': c = '\t'; break;
        case '\\': c = '\\'; break;
        case '"': c = '"'; break;
        case '\'': c = '\''; break;
        case '0': c = 0; break;
        case 'x': {
            int v = 0;
            for (int i = 1; i <= 2; i++) {
                char h = p[i];
                int d = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
                if (d < 0) {
                    snprintf(err, errsz, "bad \\x escape (two hex digits needed)");
                    return false;
                }
                v = v * 16 + d;
            }
            p += 2;
            c = (char)v;
            break;
        }
        case 0: snprintf(err, errsz, "backslash at the end of an escaped line"); return false;
        default: snprintf(err, errsz, "unknown escape \\%c", *p); return false;
        }
        s_put(out, &c, 1);
    }
    return true;
}

/* the left side of an expect: a path or function up to a space at depth 0 */
static const char *scan_lhs(const char *s)
{
    int depth = 0;
    bool inq = false, esc = false;
    const char *p = s;
    for (; *p; p++) {
        if (inq) {
            if (esc) esc = false;
            else if (*p == '\\') esc = true;
            else if (*p == '"') inq = false;
            continue;
        }
        if (*p == '"') inq = true;
        else if (*p == '(' || *p == '[') depth++;
        else if (*p == ')' || *p == ']') depth--;
        else if ((*p == ' ' || *p == '\t') && depth <= 0) break;
    }
    return p;
}

/* replace placeholders with a dummy, to validate literals when parsing */
static char *dummy_expand(const char *s)
{
    Str o = {0};
    for (const char *p = s; *p;) {
        if (*p == '{' && (starts(p, "{in}") || starts(p, "{dir}") || starts(p, "{in:"))) {
            const char *q = strchr(p, '}');
            if (q) {
                s_puts(&o, "X");
                p = q + 1;
                continue;
            }
        }
        s_put(&o, p, 1);
        p++;
    }
    if (!o.b) s_puts(&o, "");
    return o.b;
}

static bool parse_expect(Case *c, const char *l, int lineno, char *err, size_t errsz)
{
    static const struct {
        const char *name;
        int kind;
        int arg; /* 0 none, 1 text, 2 number, 3 number + text, 4 json */
    } T[] = {
        {"expect-exit", EX_EXIT, 2},
        {"expect-stdout-has", EX_STDOUT_HAS, 1},
        {"expect-stdout-lacks", EX_STDOUT_LACKS, 1},
        {"expect-stderr-has", EX_STDERR_HAS, 1},
        {"expect-stderr-lacks", EX_STDERR_LACKS, 1},
        {"expect-stdout-line", EX_STDOUT_LINE, 1},
        {"expect-stderr-line", EX_STDERR_LINE, 1},
        {"expect-stdout-count", EX_STDOUT_COUNT, 3},
        {"expect-stderr-count", EX_STDERR_COUNT, 3},
        {"expect-stdout-empty", EX_STDOUT_EMPTY, 0},
        {"expect-stderr-empty", EX_STDERR_EMPTY, 0},
        {"expect-stdout-lines", EX_STDOUT_LINES, 2},
        {"expect-stderr-lines", EX_STDERR_LINES, 2},
        {"expect-file-unchanged", EX_FILE_UNCHANGED, 1},
        {"expect", EX_JSON, 4},
    };
    for (size_t i = 0; i < sizeof T / sizeof T[0]; i++) {
        size_t nl = strlen(T[i].name);
        if (strncmp(l, T[i].name, nl)) continue;
        const char *rest = l + nl;
        bool escaped = false;
        if (T[i].arg == 0) {
            char *t = trim_dup(rest);
            bool ok = !*t || !strcmp(t, ":");
            free(t);
            if (!ok) continue; /* maybe a longer directive name */
        } else {
            if (T[i].arg == 1 && starts(rest, " (escaped):")) {
                escaped = true;
                rest += 10;
            }
            if (*rest != ':') continue;
            rest++;
        }
        Expect e;
        memset(&e, 0, sizeof e);
        e.kind = T[i].kind;
        e.line = lineno;
        if (T[i].arg) e.text = trim_dup(rest);
        if (T[i].arg && !*e.text) {
            snprintf(err, errsz, "%s needs an argument", T[i].name);
            free(e.text);
            return false;
        }
        if (escaped) {
            Str u = {0};
            if (!unescape(e.text, &u, err, errsz)) {
                free(u.b);
                free(e.text);
                return false;
            }
            if (!u.b || memchr(u.b, 0, u.n)) {
                snprintf(err, errsz, "%s: an escaped text must be non-empty and without \\0", T[i].name);
                free(u.b);
                free(e.text);
                return false;
            }
            free(e.text);
            e.text = u.b;
        }
        if (T[i].arg == 2 || T[i].arg == 3) {
            char *end;
            errno = 0;
            e.num = strtol(e.text, &end, 10);
            if (end == e.text || errno || (T[i].arg == 2 && *end) || (T[i].arg == 3 && *end != ' ')) {
                snprintf(err, errsz, "%s: expected %s", T[i].name, T[i].arg == 2 ? "a number" : "a number and a text");
                free(e.text);
                return false;
            }
            if (T[i].arg == 3) {
                char *t = trim_dup(end);
                free(e.text);
                e.text = t;
                if (!*t) {
                    snprintf(err, errsz, "%s: expected a number and a text", T[i].name);
                    free(e.text);
                    return false;
                }
            }
        }
        if (T[i].arg == 4) {
            const char *p = e.text;
            const char *le = scan_lhs(p);
            e.lhs = xstrndup(p, (size_t)(le - p));
            p = skip_sp(le);
            static const char *const ops[] = {"<=", ">=", "!=", "=", "<", ">", NULL};
            int k;
            for (k = 0; ops[k]; k++)
                if (starts(p, ops[k])) break;
            if (!ops[k] || le == e.text) {
                snprintf(err, errsz, "expect: expected PATH OP JSON (OP one of = != < <= > >=)");
                free(e.text);
                free(e.lhs);
                return false;
            }
            snprintf(e.op, sizeof e.op, "%s", ops[k]);
            p = skip_sp(p + strlen(ops[k]));
            e.rhs = trim_dup(p);
            char jerr[256];
            char *d = dummy_expand(e.rhs);
            jd_node *v = jd_parse(d, strlen(d), jerr, sizeof jerr);
            free(d);
            bool okpath = e.lhs[0] == '.' || starts(e.lhs, "len(") || starts(e.lhs, "has(") || starts(e.lhs, "type(");
            if (!v || !okpath) {
                if (!v) snprintf(err, errsz, "expect: the right side is not a JSON literal: %s", jerr);
                else snprintf(err, errsz, "expect: the left side must be a path (.x) or len/has/type(PATH)");
                jd_free(v);
                free(e.text);
                free(e.lhs);
                free(e.rhs);
                return false;
            }
            if (strcmp(e.op, "=") && strcmp(e.op, "!=") && v->type != JD_NUMBER) {
                snprintf(err, errsz, "expect: %s compares numbers only", e.op);
                jd_free(v);
                free(e.text);
                free(e.lhs);
                free(e.rhs);
                return false;
            }
            jd_free(v);
        }
        PUSH(c->ex, c->nex, e);
        return true;
    }
    snprintf(err, errsz, "unknown directive: %.60s", l);
    return false;
}

/* Parse a whole case file into cases (syntax errors become cases marked
 * with the error). */
static Case *parse_file(const char *path, size_t *ncases, char **file_err)
{
    char *data;
    size_t len;
    *ncases = 0;
    *file_err = NULL;
    if (!read_file(path, &data, &len)) {
        Str e = {0};
        s_printf(&e, "%s: cannot read: %s", path, strerror(errno));
        *file_err = e.b;
        return NULL;
    }
    /* split into lines (without the \n) */
    char **lines = NULL;
    size_t nl = 0;
    for (size_t i = 0; i < len;) {
        size_t j = i;
        while (j < len && data[j] != '\n') j++;
        PUSH(lines, nl, xstrndup(data + i, j - i));
        i = j + 1;
    }
    free(data);
    Case *cases = NULL;
    size_t nc = 0;
    Case cur;
    memset(&cur, 0, sizeof cur);
    bool have = false;
    char err[512];
    for (size_t i = 0; i < nl; i++) {
        const char *l = lines[i];
        int lineno = (int)i + 1;
        if (starts(l, "###")) {
            if (have) PUSH(cases, nc, cur);
            memset(&cur, 0, sizeof cur);
            have = true;
            cur.file = path;
            cur.line = lineno;
            cur.name = trim_dup(l + 3);
            if (!*cur.name) {
                Str e = {0};
                s_printf(&e, "%s:%d: syntax error: a case needs a name after ###", path, lineno);
                cur.syntax = e.b;
            }
            continue;
        }
        const char *t = skip_sp(l);
        if (!*t || (t[0] == '#' && !starts(t, "###"))) continue; /* blank or comment */
        if (!have) {
            Case bad;
            memset(&bad, 0, sizeof bad);
            bad.file = path;
            bad.line = lineno;
            Str e = {0};
            s_printf(&e, "%s:%d: syntax error: text before the first ### case", path, lineno);
            bad.syntax = e.b;
            bad.name = xstrdup(e.b);
            PUSH(cases, nc, bad);
            /* skip to the next case */
            while (i + 1 < nl && !starts(lines[i + 1], "###")) i++;
            continue;
        }
        if (cur.syntax) continue; /* the rest of a broken case is skipped */
        bool ok = true;
        err[0] = 0;
        if (starts(l, "args:")) {
            if (cur.args) {
                snprintf(err, sizeof err, "a second args: line");
                ok = false;
            } else {
                cur.args = trim_dup(l + 5);
                if (!*cur.args) {
                    snprintf(err, sizeof err, "args: is empty");
                    ok = false;
                }
            }
        } else if (starts(l, "env:")) {
            char *v = trim_dup(l + 4);
            char *eq = strchr(v, '=');
            if (!eq || eq == v) {
                snprintf(err, sizeof err, "env: expected NAME=VALUE");
                free(v);
                ok = false;
            } else {
                PUSH(cur.env, cur.nenv, v);
            }
        } else if (starts(l, "compare-args:")) {
            char *v = trim_dup(l + 13);
            if (!*v) {
                snprintf(err, sizeof err, "compare-args: is empty");
                free(v);
                ok = false;
            } else {
                PUSH(cur.cmp_args, cur.ncmp, v);
            }
        } else if (starts(l, "compare-paths:")) {
            char *v = trim_dup(l + 14);
            char *save = NULL;
            for (char *tok = strtok_r(v, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
                if (tok[0] != '.' && !starts(tok, "len(") && !starts(tok, "has(") && !starts(tok, "type(")) {
                    snprintf(err, sizeof err, "compare-paths: '%s' is not a path", tok);
                    ok = false;
                    break;
                }
                PUSH(cur.cmp_paths, cur.ncmp_paths, xstrdup(tok));
            }
            if (ok && !cur.ncmp_paths) {
                snprintf(err, sizeof err, "compare-paths: is empty");
                ok = false;
            }
            free(v);
        } else if (starts(l, "input")) {
            /* input NAME: | input NAME (escaped): | input NAME (escaped xN): */
            char *v = trim_dup(l + 5);
            size_t vl = strlen(v);
            bool escaped = false;
            long repeat = 1;
            char *from = NULL; /* (from FILE): the content of a file beside the cases file */
            if (vl && v[vl - 1] == ':') v[--vl] = 0;
            else ok = false;
            if (ok && vl && v[vl - 1] == ')') {
                char *open = strrchr(v, '(');
                char *end = NULL;
                if (open && starts(open, "(from ")) {
                    from = xstrdup(open + 6);
                    from[strlen(from) - 1] = 0;
                    if (!*from || strchr(from, '/')) ok = false;
                } else if (open && starts(open, "(escaped)")) {
                    escaped = true;
                } else if (open && starts(open, "(escaped x")) {
                    escaped = true;
                    errno = 0;
                    repeat = strtol(open + 10, &end, 10);
                    if (errno || !end || *end != ')' || repeat < 1 || repeat > 10000000) ok = false;
                } else {
                    ok = false;
                }
                if (open) {
                    *open = 0;
                    vl = strlen(v);
                    while (vl && v[vl - 1] == ' ') v[--vl] = 0;
                }
            }
            if (!ok || l[5] != ' ' || !vl || strchr(v, '/') || !strcmp(v, ".") || !strcmp(v, "..") ||
                strchr(v, ' ')) {
                snprintf(err, sizeof err,
                         "expected 'input NAME:', 'input NAME (escaped):', 'input NAME (escaped xN):' or "
                         "'input NAME (from FILE):' (plain file names)");
                free(v);
                free(from);
                ok = false;
            } else {
                Input *prev = NULL; /* an input named again is appended to */
                for (size_t k = 0; k < cur.nin; k++)
                    if (!strcmp(cur.in[k].name, v)) prev = &cur.in[k];
                Str content = {0};
                if (from) {
                    /* a fixture beside the cases file */
                    char fp[PATH_MAX + 256];
                    const char *slash = strrchr(path, '/');
                    snprintf(fp, sizeof fp, "%.*s%s", slash ? (int)(slash - path + 1) : 0, path, from);
                    char *fd;
                    size_t fl;
                    if (!read_file(fp, &fd, &fl)) {
                        snprintf(err, sizeof err, "input %.100s (from %.100s): cannot read it beside the cases file", v, from);
                        ok = false;
                    } else {
                        s_put(&content, fd, fl);
                        free(fd);
                    }
                } else if (escaped) {
                    if (i + 1 >= nl) {
                        snprintf(err, sizeof err, "input %s (escaped): the escaped line is missing", v);
                        ok = false;
                    } else {
                        i++;
                        Str once = {0};
                        if (!unescape(lines[i], &once, err, sizeof err)) {
                            ok = false;
                            lineno = (int)i + 1;
                        }
                        for (long r = 0; ok && r < repeat; r++) s_put(&content, once.b ? once.b : "", once.n);
                        free(once.b);
                    }
                } else {
                    while (i + 1 < nl && !is_terminator(lines[i + 1])) {
                        i++;
                        s_puts(&content, lines[i]);
                        s_put(&content, "\n", 1);
                    }
                }
                free(from);
                if (!content.b) s_put(&content, "", 0);
                if (ok && prev) {
                    prev->data = xrealloc(prev->data, prev->len + content.n + 1);
                    memcpy(prev->data + prev->len, content.b, content.n + 1);
                    prev->len += content.n;
                    free(content.b);
                    free(v);
                } else if (ok) {
                    Input in = {v, content.b, content.n};
                    PUSH(cur.in, cur.nin, in);
                } else {
                    free(v);
                    free(content.b);
                }
            }
        } else if (!strcmp(l, "expect-stdout:") || !strcmp(l, "expect-stderr:")) {
            /* the exact output: the following lines, as in an input block */
            Expect e;
            memset(&e, 0, sizeof e);
            e.kind = l[10] == 'o' ? EX_STDOUT_IS : EX_STDERR_IS;
            e.line = lineno;
            Str content = {0};
            /* the block ends at the next directive; a trailing run of empty
             * lines and # comments that starts with an empty line separates
             * cases and is not part of it */
            size_t end = i + 1;
            while (end < nl && !is_terminator(lines[end])) end++;
            size_t last = end - 1, r = end;
            while (r > i + 1 && (!lines[r - 1][0] || lines[r - 1][0] == '#')) r--;
            for (size_t k = r; k < end; k++)
                if (!lines[k][0]) {
                    last = k - 1;
                    break;
                }
            while (i < last) {
                i++;
                s_puts(&content, lines[i]);
                s_put(&content, "\n", 1);
            }
            if (!content.b) s_put(&content, "", 0);
            e.text = content.b;
            PUSH(cur.ex, cur.nex, e);
        } else if (starts(l, "expect")) {
            ok = parse_expect(&cur, l, lineno, err, sizeof err);
        } else {
            snprintf(err, sizeof err, "unknown directive: %.60s", l);
            ok = false;
        }
        if (!ok) {
            Str e = {0};
            s_printf(&e, "%s:%d: syntax error: %s", path, lineno, err);
            cur.syntax = e.b;
        }
    }
    if (have) PUSH(cases, nc, cur);
    for (size_t i = 0; i < nl; i++) free(lines[i]);
    free(lines);
    /* cases without args are broken too */
    for (size_t i = 0; i < nc; i++)
        if (!cases[i].syntax && !cases[i].args) {
            Str e = {0};
            s_printf(&e, "%s:%d: syntax error: case '%s' has no args: line", path, cases[i].line, cases[i].name);
            cases[i].syntax = e.b;
        }
    *ncases = nc;
    return cases;
}

/* ---- running ------------------------------------------------------------ */

typedef struct {
    char *out, *err;
    size_t nout, nerr;
    int status;     /* exit status, or -1 */
    int signo;      /* killed by this signal, or 0 */
    bool timed_out;
    char *spawn_err; /* could not run at all */
} RunResult;

static void run_free(RunResult *r)
{
    free(r->out);
    free(r->err);
    free(r->spawn_err);
    memset(r, 0, sizeof *r);
}

static const char *g_binary;   /* absolute path of tnav */
static char g_capdir[PATH_MAX]; /* where stdout/stderr are captured */

/* expand {in}, {in:NAME}, {dir}; returns NULL with a message when a name
 * is unknown */
static char *expand(const Case *c, const char *dir, const char *s, Str *why)
{
    Str o = {0};
    for (const char *p = s; *p;) {
        if (*p == '{') {
            if (starts(p, "{in}")) {
                if (!c->nin) {
                    s_printf(why, "{in} used but the case has no input");
                    free(o.b);
                    return NULL;
                }
                s_printf(&o, "%s/%s", dir, c->in[0].name);
                p += 4;
                continue;
            }
            if (starts(p, "{dir}")) {
                s_puts(&o, dir);
                p += 5;
                continue;
            }
            if (starts(p, "{in:")) {
                const char *q = strchr(p, '}');
                if (q) {
                    size_t nl = (size_t)(q - (p + 4));
                    bool found = false;
                    for (size_t k = 0; k < c->nin; k++)
                        if (strlen(c->in[k].name) == nl && !strncmp(c->in[k].name, p + 4, nl)) found = true;
                    if (!found) {
                        s_printf(why, "{in:%.*s}: no input of that name", (int)nl, p + 4);
                        free(o.b);
                        return NULL;
                    }
                    s_printf(&o, "%s/%.*s", dir, (int)nl, p + 4);
                    p = q + 1;
                    continue;
                }
            }
        }
        s_put(&o, p, 1);
        p++;
    }
    if (!o.b) s_puts(&o, "");
    return o.b;
}

/* split args into tokens: spaces separate, 'single quotes' or "double
 * quotes" group (no escapes inside either) */
static char **tokenize(const char *s, size_t *ntok, Str *why)
{
    char **v = NULL;
    size_t n = 0;
    const char *p = s;
    for (;;) {
        while (*p == ' ' || *p == '\t') p++;
        if (!*p) break;
        Str t = {0};
        s_put(&t, "", 0);
        while (*p && *p != ' ' && *p != '\t') {
            if (*p == '\'' || *p == '"') {
                const char *q = strchr(p + 1, *p);
                if (!q) {
                    s_printf(why, "unbalanced %c in args", *p);
                    free(t.b);
                    for (size_t i = 0; i < n; i++) free(v[i]);
                    free(v);
                    return NULL;
                }
                s_put(&t, p + 1, (size_t)(q - p - 1));
                p = q + 1;
            } else {
                s_put(&t, p, 1);
                p++;
            }
        }
        PUSH(v, n, t.b);
    }
    *ntok = n;
    return v;
}

static int wait_timeout(pid_t pid, int *status, bool *timed_out)
{
    struct timespec t0, now;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    *timed_out = false;
    for (;;) {
        pid_t r = waitpid(pid, status, WNOHANG);
        if (r == pid) return 0;
        if (r < 0 && errno != EINTR) return -1;
        clock_gettime(CLOCK_MONOTONIC, &now);
        double el = (double)(now.tv_sec - t0.tv_sec) + (double)(now.tv_nsec - t0.tv_nsec) * 1e-9;
        if (el > TIMEOUT_SEC) {
            kill(pid, SIGKILL);
            *timed_out = true;
            while (waitpid(pid, status, 0) < 0 && errno == EINTR) {
            }
            return 0;
        }
        struct timespec ts = {0, el < 0.05 ? 500000 : 5000000};
        nanosleep(&ts, NULL);
    }
}

static void run_one(const Case *c, const char *dir, const char *args, RunResult *r)
{
    memset(r, 0, sizeof *r);
    r->status = -1;
    Str why = {0};
    char *ex = expand(c, dir, args, &why);
    size_t ntok = 0;
    char **tok = ex ? tokenize(ex, &ntok, &why) : NULL;
    free(ex);
    if (!tok && why.b) {
        r->spawn_err = why.b;
        return;
    }
    /* env values, expanded */
    char **envv = xmalloc((c->nenv + 1) * sizeof(char *));
    for (size_t i = 0; i < c->nenv; i++) {
        envv[i] = expand(c, dir, c->env[i], &why);
        if (!envv[i]) {
            for (size_t k = 0; k < i; k++) free(envv[k]);
            free(envv);
            for (size_t k = 0; k < ntok; k++) free(tok[k]);
            free(tok);
            r->spawn_err = why.b;
            return;
        }
    }
    char outp[PATH_MAX + 16], errp[PATH_MAX + 16];
    snprintf(outp, sizeof outp, "%s/stdout", g_capdir);
    snprintf(errp, sizeof errp, "%s/stderr", g_capdir);
    char **argv = xmalloc((ntok + 2) * sizeof(char *));
    argv[0] = (char *)g_binary;
    for (size_t i = 0; i < ntok; i++) argv[i + 1] = tok[i];
    argv[ntok + 1] = NULL;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        Str e = {0};
        s_printf(&e, "fork: %s", strerror(errno));
        r->spawn_err = e.b;
    } else if (pid == 0) {
        int in = open("/dev/null", O_RDONLY);
        int o = open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int e = open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (in < 0 || o < 0 || e < 0 || chdir(dir) != 0) _exit(126);
        dup2(in, 0);
        dup2(o, 1);
        dup2(e, 2);
        close(in);
        close(o);
        close(e);
        unsetenv("TNAV_THREADS");
        unsetenv("TNAV_CHUNK_BYTES");
        unsetenv("TNAV_TIMING");
        setenv("TZ", "UTC", 1);
        setenv("LC_ALL", "C.UTF-8", 1);
        for (size_t i = 0; i < c->nenv; i++) {
            char *eq = strchr(envv[i], '=');
            *eq = 0;
            setenv(envv[i], eq + 1, 1);
        }
        execv(g_binary, argv);
        fprintf(stderr, "casetool: cannot run %s: %s\n", g_binary, strerror(errno));
        _exit(127);
    } else {
        int st = 0;
        bool to = false;
        if (wait_timeout(pid, &st, &to) != 0) {
            Str e = {0};
            s_printf(&e, "waitpid: %s", strerror(errno));
            r->spawn_err = e.b;
        } else {
            r->timed_out = to;
            if (WIFEXITED(st)) r->status = WEXITSTATUS(st);
            else if (WIFSIGNALED(st)) r->signo = WTERMSIG(st);
        }
        if (!read_file(outp, &r->out, &r->nout)) r->out = xstrdup(""), r->nout = 0;
        if (!read_file(errp, &r->err, &r->nerr)) r->err = xstrdup(""), r->nerr = 0;
    }
    for (size_t i = 0; i < c->nenv; i++) free(envv[i]);
    free(envv);
    for (size_t i = 0; i < ntok; i++) free(tok[i]);
    free(tok);
    free(argv);
    free(why.b);
}

/* ---- checking ----------------------------------------------------------- */

static size_t count_lines(const char *s, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] == '\n') k++;
    if (n && s[n - 1] != '\n') k++;
    return k;
}

static bool has_line(const char *s, size_t n, const char *want)
{
    size_t wl = strlen(want);
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && s[j] != '\n') j++;
        if (j - i == wl && !memcmp(s + i, want, wl)) return true;
        i = j + 1;
    }
    return false;
}

static size_t lines_containing(const char *s, size_t n, const char *want)
{
    size_t k = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && s[j] != '\n') j++;
        char *l = xstrndup(s + i, j - i);
        if (strstr(l, want)) k++;
        free(l);
        i = j + 1;
    }
    return k;
}

static bool contains(const char *s, size_t n, const char *want)
{
    return memmem(s, n, want, strlen(want)) != NULL;
}

/* an excerpt of captured output, each line prefixed */
static void excerpt(Str *o, const char *label, const char *s, size_t n)
{
    if (!n) {
        s_printf(o, "    #   %s: (empty)\n", label);
        return;
    }
    size_t lim = n > 1200 ? 1200 : n;
    s_printf(o, "    #   %s (%zu bytes):\n", label, n);
    for (size_t i = 0; i < lim;) {
        size_t j = i;
        while (j < lim && s[j] != '\n') j++;
        s_puts(o, "    #   | ");
        for (size_t k = i; k < j; k++) {
            unsigned char ch = (unsigned char)s[k];
            if (ch < 0x20 && ch != '\t') s_printf(o, "\\x%02x", ch);
            else s_put(o, (const char *)&ch, 1);
        }
        s_puts(o, "\n");
        i = j + 1;
    }
    if (lim < n) s_puts(o, "    #   | ...\n");
}

static jd_node *stdout_json(const RunResult *r, Str *msg)
{
    char jerr[256];
    jd_node *v = jd_parse(r->out, r->nout, jerr, sizeof jerr);
    if (!v) s_printf(msg, "stdout is not one JSON value: %s", jerr);
    return v;
}

static bool check_json(const Expect *e, const jd_node *doc, const char *rhs, Str *msg)
{
    char err[512];
    jd_node *want = jd_parse(rhs, strlen(rhs), err, sizeof err);
    if (!want) {
        s_printf(msg, "the expected value is not JSON: %s", err);
        return false;
    }
    jd_node *got = jd_query(doc, e->lhs, err, sizeof err);
    bool ok = false;
    if (!got) {
        s_printf(msg, "%s %s %s: %s", e->lhs, e->op, rhs, err);
        jd_free(want);
        return false;
    }
    if (!strcmp(e->op, "=")) ok = jd_equal(got, want);
    else if (!strcmp(e->op, "!=")) ok = !jd_equal(got, want);
    else {
        int cmp;
        if (!jd_num_cmp(got, want, &cmp)) {
            char *g = jd_dump(got, 200);
            s_printf(msg, "%s %s %s: the value is not a number: %s", e->lhs, e->op, rhs, g);
            free(g);
            jd_free(got);
            jd_free(want);
            return false;
        }
        if (!strcmp(e->op, "<")) ok = cmp < 0;
        else if (!strcmp(e->op, "<=")) ok = cmp <= 0;
        else if (!strcmp(e->op, ">")) ok = cmp > 0;
        else ok = cmp >= 0;
    }
    if (!ok) {
        char *g = jd_dump(got, 600);
        s_printf(msg, "%s %s %s: actual %s", e->lhs, e->op, rhs, g);
        free(g);
    }
    jd_free(got);
    jd_free(want);
    return ok;
}

static const char *sig_name(int s)
{
    switch (s) {
    case SIGSEGV: return "SIGSEGV";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGKILL: return "SIGKILL";
    default: return "signal";
    }
}

static void describe_exit(Str *o, const RunResult *r)
{
    if (r->timed_out) s_printf(o, "timed out after %d s (killed)", TIMEOUT_SEC);
    else if (r->signo) s_printf(o, "killed by signal %d (%s)", r->signo, sig_name(r->signo));
    else s_printf(o, "exit %d", r->status);
}

/* compare a rerun with the first run */
static void check_compare(const Case *c, const char *cargs, const RunResult *a, const RunResult *b, Str *fails,
                          int *nfail)
{
    Str m = {0};
    bool same_exit = a->status == b->status && a->signo == b->signo && a->timed_out == b->timed_out;
    if (!same_exit) {
        s_printf(&m, "compare-args %s: ", cargs);
        describe_exit(&m, b);
        s_puts(&m, " but the first run: ");
        describe_exit(&m, a);
        s_printf(fails, "    # %s\n", m.b);
        (*nfail)++;
        m.n = 0;
    }
    if (!c->ncmp_paths) {
        if (a->nout != b->nout || memcmp(a->out, b->out, a->nout)) {
            s_printf(fails, "    # compare-args %s: stdout differs from the first run's\n", cargs);
            excerpt(fails, "first stdout", a->out, a->nout);
            excerpt(fails, "this stdout", b->out, b->nout);
            (*nfail)++;
        }
        if (a->nerr != b->nerr || memcmp(a->err, b->err, a->nerr)) {
            s_printf(fails, "    # compare-args %s: stderr differs from the first run's\n", cargs);
            excerpt(fails, "first stderr", a->err, a->nerr);
            excerpt(fails, "this stderr", b->err, b->nerr);
            (*nfail)++;
        }
        free(m.b);
        return;
    }
    Str msg = {0};
    jd_node *ja = stdout_json(a, &msg), *jb = NULL;
    if (ja) jb = stdout_json(b, &msg);
    if (!ja || !jb) {
        s_printf(fails, "    # compare-args %s: %s\n", cargs, msg.b);
        (*nfail)++;
    } else {
        for (size_t i = 0; i < c->ncmp_paths; i++) {
            char e1[256], e2[256];
            jd_node *x = jd_query(ja, c->cmp_paths[i], e1, sizeof e1);
            jd_node *y = jd_query(jb, c->cmp_paths[i], e2, sizeof e2);
            if (!x || !y || !jd_equal(x, y)) {
                char *dx = x ? jd_dump(x, 400) : xstrdup(e1);
                char *dy = y ? jd_dump(y, 400) : xstrdup(e2);
                s_printf(fails, "    # compare-args %s: %s differs: first run %s, this run %s\n", cargs, c->cmp_paths[i],
                         dx, dy);
                free(dx);
                free(dy);
                (*nfail)++;
            }
            jd_free(x);
            jd_free(y);
        }
    }
    jd_free(ja);
    jd_free(jb);
    free(msg.b);
    free(m.b);
}

static bool run_case(const Case *c)
{
    Str fails = {0};
    int nfail = 0;
    char tmpl[PATH_MAX];
    const char *tmpdir = getenv("TMPDIR");
    snprintf(tmpl, sizeof tmpl, "%s/casetool.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    char *dir = mkdtemp(tmpl);
    if (!dir) {
        printf("not ok - %s\n  # mkdtemp: %s\n", c->name, strerror(errno));
        return false;
    }
    for (size_t i = 0; i < c->nin; i++) {
        char p[PATH_MAX + 256];
        snprintf(p, sizeof p, "%s/%s", dir, c->in[i].name);
        if (!write_file(p, c->in[i].data, c->in[i].len)) {
            s_printf(&fails, "    # cannot write input %s: %s\n", p, strerror(errno));
            nfail++;
        }
    }
    RunResult r;
    memset(&r, 0, sizeof r);
    if (!nfail) run_one(c, dir, c->args, &r);
    if (!nfail && r.spawn_err) {
        s_printf(&fails, "    # %s:%d: %s\n", c->file, c->line, r.spawn_err);
        nfail++;
    }
    if (!nfail) {
        /* the exit status: expect-exit, else 0; signals and timeouts fail */
        long want_exit = 0;
        for (size_t i = 0; i < c->nex; i++)
            if (c->ex[i].kind == EX_EXIT) want_exit = c->ex[i].num;
        if (r.timed_out || r.signo || r.status != want_exit) {
            Str m = {0};
            describe_exit(&m, &r);
            s_printf(&fails, "    # expected exit %ld, got %s\n", want_exit, m.b);
            free(m.b);
            nfail++;
        }
        jd_node *doc = NULL;
        bool doc_tried = false;
        for (size_t i = 0; i < c->nex; i++) {
            const Expect *e = &c->ex[i];
            if (e->kind == EX_EXIT) continue;
            Str why = {0};
            char *text = e->text ? expand(c, dir, e->text, &why) : NULL;
            if (e->text && !text) {
                s_printf(&fails, "    # line %d: %s\n", e->line, why.b);
                free(why.b);
                nfail++;
                continue;
            }
            Str m = {0};
            bool ok = true;
            switch (e->kind) {
            case EX_JSON: {
                if (!doc_tried) {
                    doc_tried = true;
                    doc = stdout_json(&r, &m);
                    if (!doc) {
                        ok = false;
                        break;
                    }
                }
                if (!doc) {
                    ok = false;
                    s_printf(&m, "stdout is not JSON");
                    break;
                }
                char *rhs = expand(c, dir, e->rhs, &why);
                if (!rhs) {
                    s_printf(&m, "%s", why.b);
                    ok = false;
                    break;
                }
                ok = check_json(e, doc, rhs, &m);
                free(rhs);
                break;
            }
            case EX_STDOUT_HAS:
                ok = contains(r.out, r.nout, text);
                if (!ok) s_printf(&m, "stdout lacks: %s", text);
                break;
            case EX_STDOUT_LACKS:
                ok = !contains(r.out, r.nout, text);
                if (!ok) s_printf(&m, "stdout has (but should not): %s", text);
                break;
            case EX_STDERR_HAS:
                ok = contains(r.err, r.nerr, text);
                if (!ok) s_printf(&m, "stderr lacks: %s", text);
                break;
            case EX_STDERR_LACKS:
                ok = !contains(r.err, r.nerr, text);
                if (!ok) s_printf(&m, "stderr has (but should not): %s", text);
                break;
            case EX_STDOUT_LINE:
                ok = has_line(r.out, r.nout, text);
                if (!ok) s_printf(&m, "no stdout line is exactly: %s", text);
                break;
            case EX_STDERR_LINE:
                ok = has_line(r.err, r.nerr, text);
                if (!ok) s_printf(&m, "no stderr line is exactly: %s", text);
                break;
            case EX_STDOUT_COUNT:
            case EX_STDERR_COUNT: {
                bool so = e->kind == EX_STDOUT_COUNT;
                size_t k = so ? lines_containing(r.out, r.nout, text) : lines_containing(r.err, r.nerr, text);
                ok = (long)k == e->num;
                if (!ok)
                    s_printf(&m, "expected %ld %s lines containing '%s', got %zu", e->num, so ? "stdout" : "stderr",
                             text, k);
                break;
            }
            case EX_STDOUT_EMPTY:
                ok = r.nout == 0;
                if (!ok) s_printf(&m, "stdout is not empty");
                break;
            case EX_STDERR_EMPTY:
                ok = r.nerr == 0;
                if (!ok) s_printf(&m, "stderr is not empty");
                break;
            case EX_STDOUT_LINES:
            case EX_STDERR_LINES: {
                bool so = e->kind == EX_STDOUT_LINES;
                size_t k = so ? count_lines(r.out, r.nout) : count_lines(r.err, r.nerr);
                ok = (long)k == e->num;
                if (!ok) s_printf(&m, "expected %ld %s lines, got %zu", e->num, so ? "stdout" : "stderr", k);
                break;
            }
            case EX_STDOUT_IS:
            case EX_STDERR_IS: {
                bool so = e->kind == EX_STDOUT_IS;
                const char *got = so ? r.out : r.err;
                size_t ng = so ? r.nout : r.nerr, nt = strlen(text);
                ok = ng == nt && (nt == 0 || memcmp(got, text, nt) == 0);
                if (!ok) {
                    /* the first line that differs, in both */
                    size_t k = 0, line = 1, ls = 0;
                    while (k < ng && k < nt && got[k] == text[k]) {
                        if (got[k] == '\n') line++, ls = k + 1;
                        k++;
                    }
                    const char *x = text + ls, *y = got + ls;
                    int lx = (int)strcspn(x, "\n"), ly = 0;
                    while (ls + (size_t)ly < ng && y[ly] != '\n') ly++;
                    s_printf(&m, "%s differs at line %zu:\n    #   expected: %s%.*s\n    #   actual:   %s%.*s",
                             so ? "stdout" : "stderr", line, ls >= nt ? "(end of output) " : "", lx, x,
                             ls >= ng ? "(end of output) " : "", ly, y);
                }
                break;
            }
            case EX_FILE_UNCHANGED: {
                const Input *in = NULL;
                for (size_t k = 0; k < c->nin; k++)
                    if (!strcmp(c->in[k].name, text)) in = &c->in[k];
                if (!in) {
                    s_printf(&m, "expect-file-unchanged: no input named %s", text);
                    ok = false;
                    break;
                }
                char p[PATH_MAX + 256];
                snprintf(p, sizeof p, "%s/%s", dir, in->name);
                char *now;
                size_t nn;
                struct stat st;
                if (!read_file(p, &now, &nn)) {
                    s_printf(&m, "%s: cannot read it after the run: %s", in->name, strerror(errno));
                    ok = false;
                    break;
                }
                ok = nn == in->len && !memcmp(now, in->data, nn);
                if (!ok) s_printf(&m, "%s changed: %zu bytes before, %zu after", in->name, in->len, nn);
                if (ok && stat(p, &st) == 0 && (st.st_mode & 0777) != 0644) {
                    ok = false;
                    s_printf(&m, "%s: its mode changed to %o", in->name, (unsigned)(st.st_mode & 0777));
                }
                free(now);
                break;
            }
            default: break;
            }
            if (!ok) {
                s_printf(&fails, "    # line %d: %s\n", e->line, m.b ? m.b : "failed");
                nfail++;
            }
            free(m.b);
            free(text);
            free(why.b);
        }
        jd_free(doc);
        for (size_t i = 0; i < c->ncmp; i++) {
            RunResult r2;
            run_one(c, dir, c->cmp_args[i], &r2);
            if (r2.spawn_err) {
                s_printf(&fails, "    # compare-args %s: %s\n", c->cmp_args[i], r2.spawn_err);
                nfail++;
            } else {
                check_compare(c, c->cmp_args[i], &r, &r2, &fails, &nfail);
            }
            run_free(&r2);
        }
        if (nfail) {
            excerpt(&fails, "stdout", r.out, r.nout);
            excerpt(&fails, "stderr", r.err, r.nerr);
        }
    }
    run_free(&r);
    if (getenv("CASETOOL_KEEP")) s_printf(&fails, "    # kept %s\n", dir);
    else rm_tree(dir);
    if (nfail) printf("not ok - %s\n%s", c->name, fails.b);
    else printf("ok - %s\n%s", c->name, fails.b ? fails.b : "");
    free(fails.b);
    return nfail == 0;
}

static int jq_mode(const char *file, const char *expr)
{
    char *data;
    size_t len;
    if (!read_file(file, &data, &len)) {
        fprintf(stderr, "casetool: cannot read %s: %s\n", file, strerror(errno));
        return 2;
    }
    char err[512];
    jd_node *doc = jd_parse(data, len, err, sizeof err);
    free(data);
    if (!doc) {
        fprintf(stderr, "casetool: %s: %s\n", file, err);
        return 2;
    }
    jd_node *v = jd_query(doc, expr, err, sizeof err);
    jd_free(doc);
    if (!v) {
        fprintf(stderr, "casetool: %s\n", err);
        return 1;
    }
    char *t = jd_dump(v, 0);
    printf("%s\n", t);
    free(t);
    jd_free(v);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "--jq")) return jq_mode(argv[2], argv[3]);
    if (argc < 3) {
        fprintf(stderr, "usage: casetool TNAV_BINARY FILE.cases...\n       casetool --jq FILE EXPR\n");
        return 2;
    }
    char bin[PATH_MAX];
    if (!realpath(argv[1], bin) || access(bin, X_OK) != 0) {
        fprintf(stderr, "casetool: %s is not an executable file\n", argv[1]);
        return 2;
    }
    g_binary = bin;
    const char *tmpdir = getenv("TMPDIR");
    snprintf(g_capdir, sizeof g_capdir, "%s/casetool-out.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    if (!mkdtemp(g_capdir)) {
        fprintf(stderr, "casetool: mkdtemp: %s\n", strerror(errno));
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    const char *only = getenv("CASETOOL_ONLY");
    int passed = 0, failed = 0;
    for (int fi = 2; fi < argc; fi++) {
        size_t nc;
        char *ferr;
        Case *cases = parse_file(argv[fi], &nc, &ferr);
        if (ferr) {
            printf("not ok - %s\n", ferr);
            free(ferr);
            failed++;
            continue;
        }
        for (size_t i = 0; i < nc; i++) {
            Case *c = &cases[i];
            if (c->syntax) {
                printf("not ok - %s\n", c->syntax);
                failed++;
            } else if (only && !strstr(c->name, only)) {
                /* skipped */
            } else if (run_case(c)) {
                passed++;
            } else {
                failed++;
            }
            case_free(c);
        }
        free(cases);
    }
    rm_tree(g_capdir);
    printf("cases: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
