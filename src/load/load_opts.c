/*
 * load_opts.c — the loader's options and how column and key names map onto
 * the model: --map, --pair, canonical names and aliases, and the hint that
 * names the nearest column when one is missing.
 *
 * Owns: LoadOpts' defaults and parsing helpers, resolve_column (a name to a
 * canonical field, with its precedence), columns_hint, the names of the
 * formats. Invariants: nothing here reads a file; a hint lists at most a
 * few names and never allocates per column.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
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

/* ---- options ----------------------------------------------------------- */

void load_opts_default(LoadOpts *o)
{
    memset(o, 0, sizeof *o);
    o->max_report = 20;
    o->report = stderr;
}

const char *load_opts_add_pair(LoadOpts *o, const char *spec)
{
    const char *eq = strchr(spec, '=');
    if (!eq || eq == spec || !eq[1] || strchr(spec, ';') || strstr(eq + 1, ",,") || eq[strlen(eq) - 1] == ',' ||
        strchr(eq + 1, '='))
        return "--pair must be BEGIN=END or BEGIN=END1,END2,... (kinds: --pair run=pass,fail,skip)";
    /* (joined with ';'; the caller frees pair_words when done) */
    char *all = o->pair_words ? xasprintf("%s;%s", o->pair_words, spec) : xstrdup(spec);
    free((char *)o->pair_words);
    o->pair_words = all;
    return NULL;
}

const char *load_opts_add_map(LoadOpts *o, const char *spec)
{
    const char *eq = strchr(spec, '=');
    if (!eq || eq == spec || !eq[1]) return "expected --map canonical=column";
    char f[32];
    size_t n = (size_t)(eq - spec);
    if (n >= sizeof f) return "unknown canonical field in --map";
    memcpy(f, spec, n);
    f[n] = 0;
    int fid = field_by_name(f);
    if (fid < 0) return "unknown canonical field in --map (one of ts dur end loc act kind name peer bytes id tag group parent file line value)";
    o->map[fid] = eq + 1;
    return NULL;
}

uint32_t map_also(const LoadOpts *o, const char *name, size_t n, int first)
{
    uint32_t m = 0;
    for (int f = 0; f < F__N; f++)
        if (f != first && o->map[f] && strlen(o->map[f]) == n && !memcmp(o->map[f], name, n)) m |= 1u << f;
    return m;
}

int resolve_column(const LoadOpts *o, const char *name, size_t n, int *prio)
{
    for (int f = 0; f < F__N; f++)
        if (o->map[f] && strlen(o->map[f]) == n && !memcmp(o->map[f], name, n)) {
            *prio = -1;
            return f;
        }
    int f = field_for_column(name, n, prio);
    if (f >= 0 && o->map[f]) return -1; /* --map names another column for this field */
    return f;
}

/* case-insensitive Levenshtein distance, capped at cap + 1 */
static int edit_distance(const char *a, const char *b, int cap)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64) return cap + 1;
    int row[65];
    for (size_t j = 0; j <= lb; j++) row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int diag = row[0], best = (int)i;
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int up = row[j];
            int sub = diag + (tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]));
            int v = up + 1 < row[j - 1] + 1 ? up + 1 : row[j - 1] + 1;
            row[j] = sub < v ? sub : v;
            diag = up;
            if (row[j] < best) best = row[j];
        }
        if (best > cap) return cap + 1;
    }
    return row[lb];
}

/* append to a fixed buffer, cutting at its end */
typedef struct {
    char buf[700];
    size_t len;
} Hint;

PRINTF_LIKE(2, 3) static void hint_add(Hint *h, const char *fmt, ...)
{
    if (h->len >= sizeof h->buf - 1) return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(h->buf + h->len, sizeof h->buf - h->len, fmt, ap);
    va_end(ap);
    if (k > 0) h->len += (size_t)k < sizeof h->buf - h->len ? (size_t)k : sizeof h->buf - h->len - 1;
}

const char *const TS_ALIASES[] = {"ts", "start", "time", "timestamp", NULL};
const char *const LOC_ALIASES[] = {"loc", "rank", "pe", "proc", "place", "cell", "pid", NULL};

char *columns_hint(char *const *names, int n, const char *const *wants, const char *what)
{
    Hint hb = {{0}, 0}, *b = &hb;
    hint_add(b, "its %s are ", what);
    int shown = 0;
    for (int i = 0; i < n && b->len < 400; i++, shown++) {
        /* a long name is cut: the list stays readable */
        int l = (int)strlen(names[i]), k = l > 40 ? 40 : l;
        while (k > 0 && k < l && ((unsigned char)names[i][k] & 0xC0) == 0x80) k--; /* a whole character */
        hint_add(b, "%s'%.*s%s'", i ? ", " : "", k, names[i], k < l ? "…" : "");
    }
    if (!n) hint_add(b, "none");
    if (shown < n) hint_add(b, " (and %d more)", n - shown);
    /* the nearest name, if it is near: within a third of the length */
    int best = 1 << 20, bi = -1;
    for (int w = 0; wants[w]; w++) {
        int cap = (int)strlen(wants[w]) / 3 + 1;
        for (int i = 0; i < n; i++) {
            int d = edit_distance(wants[w], names[i], cap);
            /* one name the start of the other: "Time" for "time_ns" */
            size_t lw = strlen(wants[w]), ln = strlen(names[i]);
            if (d > 1 && lw >= 2 && ln >= 2 && !strncasecmp(wants[w], names[i], lw < ln ? lw : ln)) d = 1;
            if (d <= cap && d < best) {
                best = d;
                bi = i;
            }
        }
    }
    if (bi >= 0) hint_add(b, "; did you mean '%.*s'?", 80, names[bi]);
    return xstrdup(b->buf);
}

const char *load_formats(void)
{
    return otf2_built_in() ? "csv, ndjson, chrome, paraver, otf2"
                           : "csv, ndjson, chrome, paraver (otf2 not built in: install libopen-trace-format2-dev and make)";
}

const char *format_name(int fmt)
{
    switch (fmt) {
    case FMT_CSV: return "csv";
    case FMT_NDJSON: return "ndjson";
    case FMT_CHROME: return "chrome";
    case FMT_PARAVER: return "paraver";
    case FMT_OTF2: return "otf2";
    default: return "empty";
    }
}

