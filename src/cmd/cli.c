/*
 * cli.c — option parsing, usage, the load's progress on stderr and the
 * session every command opens (trace, filter, selection); see cli.h.
 */
#include "cli.h"

#include <errno.h>
#include <strings.h>
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "filters/filter.h"
#include "store/store.h"
#include "base/timeparse.h"
#include "base/util.h"


bool cli_time_arg(const char *v, int64_t origin, int64_t *out)
{
    /* a time past the store's range (±2^62 ns) is the range's end: a
     * window reaching beyond every event is harmless */
    int64_t t;
    int e = parse_rfc3339(v, strlen(v), &t);
    if (e != TP_OK) {
        e = parse_time_arg(v, 0, &t);
        if (e == TP_RANGE) {
            /* the sign of a number too large for an int64 */
            const char *p = v;
            while (*p == ' ') p++;
            t = *p == '-' ? INT64_MIN : INT64_MAX;
        } else if (e != TP_OK) {
            return false;
        }
        if (t > 0 && origin > INT64_MAX - t) t = INT64_MAX;
        else if (t < 0 && origin < INT64_MIN - t) t = INT64_MIN;
        else t = origin + t;
    }
    *out = t > TIME_LIMIT ? TIME_LIMIT : t <= -TIME_LIMIT ? -TIME_LIMIT + 1 : t;
    return true;
}

int cli_top(const char *cmd, const CliArgs *a, int *top)
{
    const char *v = cli_extra(a, "--top");
    if (!v) return 0;
    int64_t t;
    if (!parse_int_arg(v, 0, 100000000, &t))
        return cli_usage_error(cmd, "--top must be a whole number of rows, 0 (all) to 100000000, not '%s'", v);
    *top = (int)t;
    return 0;
}

int cli_window_of(const char *cmd, const char *from, const char *to, const Store *s, int64_t *t0, int64_t *t1)
{
    *t0 = s->t_min;
    *t1 = s->t_max < INT64_MAX ? s->t_max + 1 : INT64_MAX; /* (instants at the very end are in the window) */
    if (from && !cli_time_arg(from, s->t_min, t0)) return cli_usage_error(cmd, "--from: not a time: '%s'", from);
    if (to && !cli_time_arg(to, s->t_min, t1)) return cli_usage_error(cmd, "--to: not a time: '%s'", to);
    if (*t1 > *t0) return 0;
    /* an empty window: say which end is wrong */
    char msg[300], span[48], q[ARG_QUOTE_BUF];
    format_dur(span, sizeof span, s->t_max > s->t_min ? s->t_max - s->t_min : 0);
    if (from && !to)
        snprintf(msg, sizeof msg, "--from %s is after the end of the trace (its events span %s from its start)",
                 arg_quote(from, q), span);
    else if (to && !from)
        snprintf(msg, sizeof msg, "--to %s is at or before the start of the trace (give a time after it: --to 1s is 1 s "
                 "after the start)", arg_quote(to, q));
    else
        snprintf(msg, sizeof msg, "--to must be after --from");
    return cli_usage_error(cmd, "%s", msg);
}

int cli_window(const char *cmd, const CliArgs *a, const Store *s, int64_t *t0, int64_t *t1)
{
    return cli_window_of(cmd, cli_extra(a, "--from"), cli_extra(a, "--to"), s, t0, t1);
}

void usage(FILE *f)
{
    fputs("usage: tnav COMMAND [OPTIONS] TRACE...\n"
          "       tnav [tui] [OPTIONS] TRACE...\n"
          "                              the full-screen interface (the stats summary when not on a\n"
          "                              terminal); --color auto|always|never, --ascii, --view 1..9,\n"
          "                              --no-session (neither restore nor save where you were),\n"
          "                              --bench-keys SCRIPT [--bench-size WxH], --bench-open;\n"
          "                              while loading, Esc cancels (exit 130); keys: ? in it, tnav(1),\n"
          "                              tnav tui --list-actions; : opens its command line\n"
          "\n"
          "commands:\n"
          "  stats [--json] [-f EXPR] [--from T] [--to T] [--top N]\n"
          "        [--sort COLUMN] [--comm-names RE] [--sync-names RE] TRACE...\n"
          "                              summary: events, kinds, per location useful/comm/sync/wait/\n"
          "                              idle time, POP efficiencies, messages, sync groups, profile;\n"
          "                              --sort self|total|calls|mean|min|max|stddev|name (profile)\n"
          "                              or useful|comm|sync|wait|idle|events|sent|received\n"
          "                              (locations); --top N rows; --bench [--runs N]: time the\n"
          "                              load instead (N times in this process, a line each)\n"
          "  waits [--json] [-f EXPR] [--from T] [--to T] [--top N] TRACE...\n"
          "                              wait states (late sender, wait at barrier, ...): who waited,\n"
          "                              whose fault it was, the worst instances (doc/ANALYSES.md)\n"
          "  syncs [--json] [-f EXPR] [--from T] [--to T] [--top N] TRACE...\n"
          "                              every sync instance: participants, arrivals, waits, the\n"
          "                              last to arrive; who is most often last and what it cost\n"
          "  critpath [--json] [-f EXPR] [--from T] [--to T] [--top N] TRACE...\n"
          "                              the critical path to the last event: its segments, its time\n"
          "                              by location and by name (what to speed up first)\n"
          "  filter [--count] [--stages] [-o csv|ndjson] [--fields F,...] EXPR TRACE...\n"
          "                              the events EXPR selects, in time order, in canonical form\n"
          "  filter --disasm EXPR [TRACE...]\n"
          "                              the filter's bytecode, with the source span of each instruction\n"
          "  render [--view V] [OPTIONS] TRACE...\n"
          "                              one frame of a view, as the full-screen interface draws it:\n"
          "                              V = density, gantt, comm, matrix, line, bars or imbalance;\n"
          "                              --rows loc|act [--tree], --metric busy|sync|bytes|events|\n"
          "                              counter|expr:E, --dir send|recv, --reduce sum|mean|max|\n"
          "                              min-nonzero|mode, --from T, --to T, --width W, --height H,\n"
          "                              --format text|ansi|tsv, --color auto|always|never, --ascii,\n"
          "                              --row LABEL (line), --at T (bars), --scale X (doc/VIEWS.md)\n"
          "  convert -o OUT [-F csv|ndjson|chrome] [-f EXPR] [--from T] [--to T] TRACE...\n"
          "                              the events (EXPR selects, meeting the window) written to OUT\n"
          "                              in canonical CSV / NDJSON or as Chrome Trace Event JSON\n"
          "                              (Perfetto); OUT appears complete or not at all\n"
          "  check TRACE...              validate: list every rejected record as file:line: reason,\n"
          "                              print the counts, exit 1 if anything was rejected\n"
          "  help, --help                this text\n"
          "  version, --version          the version\n"
          "\n"
          "loading options (every command):\n"
          "  --time-unit ns|us|ms|s      unit of numeric ts/dur/end (default ns)\n"
          "  --map CANONICAL=COLUMN      take a canonical field from COLUMN (repeatable),\n"
          "                              e.g. --map ts='Timestamp (ns)' --map loc=Process\n"
          "  --columns A,B,C             CSV files have no header row: these name their columns\n"
          "  --pair BEGIN=END[,END...]   pair rows of these kinds into intervals too (by loc, act,\n"
          "                              name; the end's kind kept as outcome): --pair run=pass,fail\n"
          "  --only-kind K[,K...]        load only records of these kinds; the others are skipped\n"
          "                              and counted, not rejected\n"
          "  --not-busy K[,K...]         intervals of these kinds are not busy time (as idle)\n"
          "  --pair-key FIELD            begin and end rows pair by FIELD's value (an id) instead\n"
          "                              of loc, act and name\n"
          "  --ts-end                    ts is the end of a row that has a dur (logs written at the end)\n"
          "  --lanes                     rows without loc (a build log) packed into lanes, as locations\n"
          "  --no-lanes                  intervals that overlap without nesting stay in their activity\n"
          "  --strict                    any rejected record is fatal (exit 1)\n"
          "  --input-format FMT          csv, ndjson, chrome, paraver or otf2: skip format detection\n"
          "                              (also --format, except for render)\n"
          "  --max-memory SIZE           give up (exit 3, 'out of memory while ...') rather than\n"
          "                              use more than SIZE of address space: 512M, 2GiB\n"
          "  --threads N                 parser threads (default: all cores; env TNAV_THREADS)\n"
          "  --csv-engine hybrid|libcsv  hybrid (default): libcsv for records with quotes, a\n"
          "                              byte scanner for the rest; libcsv: libcsv for every record\n"
          "  -q, --quiet                 no warnings\n"
          "  --filter-timeout SECONDS    a filter run that takes longer stops: exit 2 (default 5;\n"
          "                              0 = no limit); in the interface, the previous selection stays\n"
          "  -f, --filter EXPR           compute over the events EXPR selects (see tnav(1), doc/FILTER.md):\n"
          "                              name =~ /^MPI_/ && dur > 10us, act_any(kind == \"move\"), E1 | E2\n"
          "\n"
          "Traces are CSV (with a header row) or NDJSON, one event per record (Enter/Leave-style\n"
          "begin and end rows are paired), Chrome Trace Event JSON, Paraver (.prv) or OTF2\n"
          "(traces.otf2); several files are merged. Canonical fields: ts dur end loc act kind\n"
          "name peer bytes id tag group parent file line value; see tnav(1) and doc/FORMAT.md.\n"
          "Exit status: 0 ok, 1 records rejected (check, --strict) or nothing loaded, 2 usage,\n"
          "filter error or "
          "unreadable input, 3 out of memory.\n",
          f);
}

static int uerr(const char *cmd, const char *fmt, const char *arg);

static bool takes_value(const char *const *list, const char *name, int *idx)
{
    for (int i = 0; list && list[i] && i < CLI_MAX_EXTRA; i++)
        if (!strcmp(list[i], name)) {
            *idx = i;
            return true;
        }
    return false;
}

int cli_usage_error(const char *cmd, const char *fmt, const char *arg) { return uerr(cmd, fmt, arg); }

static int uerr(const char *cmd, const char *fmt, const char *arg)
{
    /* (callers free their CliArgs: cli_parse frees what it allocated
     * before returning an error) */
    fprintf(stderr, "tnav %s: ", cmd);
    /* arg is what the user typed (quoted at most ARG_QUOTE_MAX bytes), or
     * with the format "%s" a whole message of ours */
    char q[ARG_QUOTE_BUF];
    fprintf(stderr, fmt, strcmp(fmt, "%s") != 0 ? arg_quote(arg, q) : arg);
    fprintf(stderr, " (see tnav --help)\n");
    return 2;
}

static int cli_parse_inner(const char *cmd, int argc, char **argv, int first, CliArgs *a);

/* a name that says trace: .csv .tsv .ndjson .jsonl .json .log .txt .prv
 * (Paraver; its .pcf and .row are read beside it) .otf2 (an OTF2 archive's
 * anchor file), and those with .gz or .zst after them */
static bool trace_name(const char *n)
{
    size_t l = strlen(n);
    static const char *const Z[] = {".gz", ".zst"};
    for (int z = 0; z < 2; z++) {
        size_t zl = strlen(Z[z]);
        if (l > zl && !strcmp(n + l - zl, Z[z])) l -= zl;
    }
    static const char *const X[] = {".csv", ".tsv", ".ndjson", ".jsonl", ".json", ".log", ".txt", ".prv", ".otf2"};
    for (size_t i = 0; i < sizeof X / sizeof X[0]; i++) {
        size_t xl = strlen(X[i]);
        if (l > xl && !strncasecmp(n + l - xl, X[i], xl)) return true;
    }
    return false;
}

static int str_pcmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* A directory among the traces stands for the trace files in it (by name:
 * trace_name; sorted; hidden files and subdirectories left out): a per-rank
 * file set opens as one trace. 0, or 2 after a message. */
static int expand_dirs(const char *cmd, CliArgs *a)
{
    VEC(char *) out = {0};
    for (int i = 0; i < a->nfiles; i++) {
        const char *p = a->files[i];
        struct stat st;
        if (strcmp(p, "-") != 0 && stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
            DIR *d = opendir(p);
            if (!d) {
                fprintf(stderr, "tnav %s: cannot read the directory %s: %s\n", cmd, p, strerror(errno));
                for (size_t k = 0; k < out.len; k++) free(out.v[k]);
                VEC_FREE(out);
                return 2;
            }
            size_t before = out.len;
            struct dirent *de;
            while ((de = readdir(d))) {
                if (de->d_name[0] == '.' || !trace_name(de->d_name)) continue;
                size_t pl = strlen(p);
                char *f = xasprintf("%s%s%s", p, pl && p[pl - 1] == '/' ? "" : "/", de->d_name);
                struct stat fs;
                if (stat(f, &fs) == 0 && S_ISREG(fs.st_mode)) VEC_PUSH(out, f);
                else free(f);
            }
            closedir(d);
            if (out.len == before) {
                fprintf(stderr,
                        "tnav %s: the directory %s holds no trace files (*.csv, *.tsv, *.ndjson, *.jsonl, *.json, *.log, "
                        "*.txt, *.prv, *.otf2, also .gz or .zst)\n",
                        cmd, p);
                for (size_t k = 0; k < out.len; k++) free(out.v[k]);
                VEC_FREE(out);
                return 2;
            }
            qsort(out.v + before, out.len - before, sizeof(char *), str_pcmp);
        } else {
            VEC_PUSH(out, xstrdup(p));
        }
    }
    a->owned = out.v;
    a->nowned = (int)out.len;
    free(a->files);
    a->files = xcalloc(out.len + 1, sizeof(char *));
    for (size_t k = 0; k < out.len; k++) a->files[k] = out.v[k];
    a->nfiles = (int)out.len;
    return 0;
}

int cli_parse(const char *cmd, int argc, char **argv, int first, CliArgs *a)
{
    int r = cli_parse_inner(cmd, argc, argv, first, a);
    if (!r) r = expand_dirs(cmd, a);
    if (!r && a->max_memory && !set_max_memory(a->max_memory)) {
        fprintf(stderr, "tnav %s: --max-memory: %s\n", cmd, strerror(errno));
        r = 2;
    }
    if (r) cli_free(a);
    return r;
}

static int cli_parse_inner(const char *cmd, int argc, char **argv, int first, CliArgs *a)
{
    load_opts_default(&a->load);
    a->files = xcalloc((size_t)argc + 1, sizeof(char *));
    a->nfiles = 0;
    bool opts_done = false;
    for (int i = first; i < argc; i++) {
        char *arg = argv[i];
        if (opts_done || arg[0] != '-' || !strcmp(arg, "-")) {
            a->files[a->nfiles++] = arg;
            continue;
        }
        if (!strcmp(arg, "--")) {
            opts_done = true;
            continue;
        }
        /* --name=value or --name value */
        char name[64];
        const char *val = NULL;
        const char *eq = strchr(arg, '=');
        if (eq && arg[1] == '-') {
            size_t n = (size_t)(eq - arg);
            if (n >= sizeof name) return uerr(cmd, "unknown option %s", arg);
            memcpy(name, arg, n);
            name[n] = 0;
            val = eq + 1;
        } else {
            snprintf(name, sizeof name, "%s", arg);
        }
#define NEEDVAL()                                                            \
    do {                                                                     \
        if (!val) {                                                          \
            if (i + 1 >= argc) return uerr(cmd, "option %s needs a value", name); \
            val = argv[++i];                                                 \
        }                                                                    \
    } while (0)
        int xi;
        if (!strcmp(name, "-h") || !strcmp(name, "--help")) {
            a->help = true;
        } else if (!strcmp(name, "-f") || !strcmp(name, "--filter")) {
            NEEDVAL();
            a->filter = val;
        } else if (!strcmp(name, "--json")) {
            a->json = true;
        } else if (!strcmp(name, "--strict")) {
            a->load.strict = true;
        } else if (!strcmp(name, "-q") || !strcmp(name, "--quiet")) {
            a->load.quiet = true;
        } else if (!strcmp(name, "--time-unit")) {
            NEEDVAL();
            int e = unit_exp_from_name(val);
            if (e < 0) return uerr(cmd, "--time-unit must be ns, us, ms or s, not '%s'", val);
            a->load.unit_exp = e;
        } else if (!strcmp(name, "--map")) {
            NEEDVAL();
            const char *err = load_opts_add_map(&a->load, val);
            if (err) return uerr(cmd, "%s", err);
        } else if (!strcmp(name, "--filter-timeout")) {
            NEEDVAL();
            double t;
            if (!parse_real_arg(val, &t) || !(t >= 0) || t > 1e6)
                return uerr(cmd, "--filter-timeout must be a number of seconds, 0 (no limit) to 1e6, not '%s'", val);
            filter_set_default_budget(t);
        } else if (!strcmp(name, "--lanes")) {
            a->load.lanes = true;
        } else if (!strcmp(name, "--no-lanes")) {
            a->load.no_lanes = true;
        } else if (!strcmp(name, "--ts-end")) {
            a->load.ts_end = true;
        } else if (!strcmp(name, "--only-kind")) {
            NEEDVAL();
            if (!*val || strstr(val, ",,") || val[0] == ',' || val[strlen(val) - 1] == ',')
                return uerr(cmd, "%s", "--only-kind needs kinds: --only-kind SparkListenerTaskEnd,SparkListenerJobEnd");
            char *all = a->load.only_kinds ? xasprintf("%s,%s", a->load.only_kinds, val) : xstrdup(val);
            free((char *)a->load.only_kinds);
            a->load.only_kinds = all;
        } else if (!strcmp(name, "--not-busy")) {
            NEEDVAL();
            if (!*val || strstr(val, ",,") || val[0] == ',' || val[strlen(val) - 1] == ',')
                return uerr(cmd, "%s", "--not-busy needs kinds: --not-busy io_wait,gc");
            char *all = a->load.not_busy ? xasprintf("%s,%s", a->load.not_busy, val) : xstrdup(val);
            free((char *)a->load.not_busy);
            a->load.not_busy = all;
        } else if (!strcmp(name, "--pair-key")) {
            NEEDVAL();
            if (!*val) return uerr(cmd, "%s", "--pair-key needs a field name: --pair-key id");
            a->load.pair_key = val;
        } else if (!strcmp(name, "--pair")) {
            NEEDVAL();
            const char *err = load_opts_add_pair(&a->load, val);
            if (err) return uerr(cmd, "%s", err);
        } else if (!strcmp(name, "--columns")) {
            NEEDVAL();
            if (!*val) return uerr(cmd, "%s", "--columns needs the names of the columns: --columns ts,loc,name");
            a->load.columns = val;
        } else if (!strcmp(name, "--threads")) {
            NEEDVAL();
            int64_t t;
            if (!parse_int_arg(val, 1, 256, &t)) return uerr(cmd, "--threads must be a whole number 1..256, not '%s'", val);
            a->load.threads = (int)t;
        } else if (!strcmp(name, "--input-format") || (!strcmp(name, "--format") && !takes_value(a->extra_opts, name, &xi))) {
            /* (a command with an output --format of its own, like render,
             * takes the input format as --input-format) */
            NEEDVAL();
            if (!strcmp(val, "csv")) a->load.format = FMT_CSV;
            else if (!strcmp(val, "ndjson")) a->load.format = FMT_NDJSON;
            else if (!strcmp(val, "chrome")) a->load.format = FMT_CHROME;
            else if (!strcmp(val, "paraver")) a->load.format = FMT_PARAVER;
            else if (!strcmp(val, "otf2")) a->load.format = FMT_OTF2;
            else if (!strcmp(name, "--format")) return uerr(cmd, "--format must be csv, ndjson, chrome, paraver or otf2, not '%s'", val);
            else return uerr(cmd, "--input-format must be csv, ndjson, chrome, paraver or otf2, not '%s'", val);
        } else if (!strcmp(name, "--max-memory")) {
            NEEDVAL();
            uint64_t b;
            if (!parse_size_arg(val, &b) || b < ((uint64_t)16 << 20))
                return uerr(cmd, "--max-memory must be a size of at least 16MiB (512M, 2GiB, 1.5G), not '%s'", val);
            a->max_memory = b;
        } else if (!strcmp(name, "--csv-engine")) {
            NEEDVAL();
            if (!strcmp(val, "hybrid")) a->load.csv_engine = CSV_ENGINE_HYBRID;
            else if (!strcmp(val, "libcsv")) a->load.csv_engine = CSV_ENGINE_LIBCSV;
            else return uerr(cmd, "--csv-engine must be hybrid or libcsv, not '%s'", val);
        } else if (takes_value(a->extra_opts, name, &xi)) {
            NEEDVAL();
            a->extra_vals[xi] = val;
        } else if (!val && takes_value(a->extra_flags, name, &xi)) {
            a->extra_flag_set[xi] = true;
        } else {
            return uerr(cmd, "unknown option %s", arg);
        }
#undef NEEDVAL
    }
    return 0;
}

void cli_free(CliArgs *a)
{
    free(a->files);
    for (int i = 0; i < a->nowned; i++) free(a->owned[i]);
    free(a->owned);
    free((char *)a->load.pair_words); /* (load_opts_add_pair's) */
    a->load.pair_words = NULL;
    free((char *)a->load.only_kinds);
    a->load.only_kinds = NULL;
    free((char *)a->load.not_busy);
    a->load.not_busy = NULL;
    a->files = NULL;
    a->owned = NULL;
    a->nfiles = a->nowned = 0;
}

const char *cli_extra(const CliArgs *a, const char *name)
{
    int i;
    return takes_value(a->extra_opts, name, &i) ? a->extra_vals[i] : NULL;
}

bool cli_flag(const CliArgs *a, const char *name)
{
    int i;
    return takes_value(a->extra_flags, name, &i) && a->extra_flag_set[i];
}

/* tnav stats --bench: load, then report time, throughput and memory as one
 * line of key=value pairs (for make bench; see doc/PERFORMANCE.md) */
/* The start of every command: parse, answer --help, require files.
 * Returns -1 to go on, or the exit status (a is then freed). */
int cli_begin(const char *cmd, int argc, char **argv, int first, CliArgs *a)
{
    int r = cli_parse(cmd, argc, argv, first, a);
    if (r) return r;
    if (a->help) {
        usage(stdout);
        cli_free(a);
        return 0;
    }
    if (a->nfiles == 0) {
        cli_free(a);
        return uerr(cmd, "%s", "no trace file given");
    }
    return -1;
}

/* ---- progress ------------------------------------------------------------ */

int load_progress_percent(uint64_t done, uint64_t total)
{
    if (done >= total) return 100;
    /* (done < total: done * 100 overflows only for totals beyond 1.8e17) */
    uint64_t p = total > UINT64_MAX / 100 ? done / (total / 100) : done * 100 / total;
    return p > 99 ? 99 : (int)p;
}

void load_progress_text(uint64_t done, uint64_t total, int phase, double elapsed_s, char *buf, size_t sz)
{
    /* (in kB below a megabyte, as the tests' small files are) */
    double unit = total < 1000000 ? 1e3 : 1e6;
    const char *u = total < 1000000 ? "kB" : "MB";
    double mb = (double)done / unit, tot = (double)total / unit;
    if (phase >= LOAD_PH_BUILD) {
        snprintf(buf, sz, "100%%  %.0f %s  indexing", tot, u);
        return;
    }
    double rate = elapsed_s > 0 ? mb / elapsed_s : 0;
    snprintf(buf, sz, "%d%%  %.0f of %.0f %s  %.0f %s/s", load_progress_percent(done, total), mb, tot, u, rate, u);
}

/* a progress line on stderr while a headless command loads a big trace on
 * a terminal (never when stderr is not one); it is cleared when parsing
 * ends, before anything else is printed */
typedef struct {
    LoadProgress lp;
    pthread_t th;
    pthread_mutex_t m;
    pthread_cond_t cv;
    bool stop, shown;
    const char *what;
    struct timespec t0;
} ErrProgress;

static double ts_diff(const struct timespec *a, const struct timespec *b)
{
    return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

static void errprog_end_line(void *ctx)
{
    ErrProgress *P = ctx;
    pthread_mutex_lock(&P->m);
    if (P->shown) fputs("\r\x1b[2K", stderr);
    P->shown = false;
    P->stop = true;
    pthread_cond_signal(&P->cv);
    pthread_mutex_unlock(&P->m);
}

static void *errprog_main(void *arg)
{
    ErrProgress *P = arg;
    pthread_mutex_lock(&P->m);
    while (!P->stop) {
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        until.tv_nsec += 250000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&P->cv, &P->m, &until);
        if (P->stop) break;
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        char t[128];
        load_progress_text(atomic_load(&P->lp.done), atomic_load(&P->lp.total), LOAD_PH_PARSE, ts_diff(&P->t0, &now), t,
                           sizeof t);
        fprintf(stderr, "\r\x1b[2Ktnav: loading %s: %s", P->what, t);
        P->shown = true;
    }
    pthread_mutex_unlock(&P->m);
    return NULL;
}

/* start one when stderr is a terminal and the files are big (> 50 MB;
 * TNAV_TEST_PROGRESS_MIN_BYTES for the tests); NULL otherwise */
static ErrProgress *errprog_start(CliArgs *a)
{
    if (a->load.progress || !isatty(STDERR_FILENO)) return NULL;
    uint64_t min = 50000000, total = 0;
    const char *m = getenv("TNAV_TEST_PROGRESS_MIN_BYTES");
    if (m) min = strtoull(m, NULL, 10);
    for (int i = 0; i < a->nfiles; i++) {
        struct stat st;
        if (stat(a->files[i], &st) == 0) total += (uint64_t)st.st_size;
    }
    if (total < min) return NULL;
    ErrProgress *P = xcalloc(1, sizeof *P);
    P->lp.before_report = errprog_end_line;
    P->lp.ctx = P;
    P->what = a->files[0];
    pthread_mutex_init(&P->m, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&P->cv, &ca);
    pthread_condattr_destroy(&ca);
    clock_gettime(CLOCK_MONOTONIC, &P->t0);
    if (pthread_create(&P->th, NULL, errprog_main, P) != 0) {
        pthread_cond_destroy(&P->cv);
        pthread_mutex_destroy(&P->m);
        free(P);
        return NULL;
    }
    a->load.progress = &P->lp;
    return P;
}

static void errprog_stop(CliArgs *a, ErrProgress *P)
{
    if (!P) return;
    errprog_end_line(P); /* (a failed load never reached the end of parsing) */
    pthread_join(P->th, NULL);
    pthread_cond_destroy(&P->cv);
    pthread_mutex_destroy(&P->m);
    free(P);
    a->load.progress = NULL;
}

int session_open(const char *cmd, CliArgs *a, Session *ss)
{
    memset(ss, 0, sizeof *ss);
    FilterError fe;
    /* a syntax error is reported before a big trace is loaded */
    if (a->filter && !filter_syntax_ok(a->filter, &fe)) {
        filter_print_error(a->load.report ? a->load.report : stderr, a->filter, &fe);
        return 2;
    }
    ErrProgress *ep = strcmp(cmd, "tui") != 0 ? errprog_start(a) : NULL;
    oom_phase("loading the trace");
    int r = load_traces(&a->load, a->files, a->nfiles, &ss->s, &ss->rep);
    errprog_stop(a, ep);
    if (r) {
        load_report_free(&ss->rep);
        return r;
    }
    ss->nsel = ss->s->n;
    if (!a->filter) return 0;
    /* (a filter may read messages and sync groups: a deferred tail is
     * built first) */
    store_finish_tail(ss->s, a->load.threads);
    ss->f = filter_compile(ss->s, a->filter, &fe);
    if (!ss->f) {
        filter_print_error(a->load.report ? a->load.report : stderr, a->filter, &fe);
        session_close(ss);
        return 2;
    }
    oom_phase("running the filter");
    size_t nw = (ss->s->n + 63) / 64;
    ss->sel = xcalloc(nw + 1, 8);
    ss->stage_counts = xcalloc((size_t)filter_nstages(ss->f) + 1, sizeof(uint64_t));
    if (filter_run(ss->f, ss->sel, ss->stage_counts) != FILTER_OK) {
        /* (a regex that failed, the time budget: no partial answer) */
        fprintf(a->load.report ? a->load.report : stderr, "tnav: %s\n", filter_run_error(ss->f));
        session_close(ss);
        return 2;
    }
    ss->nsel = bitmap_count(ss->sel, nw);
    (void)cmd;
    return 0;
}

void session_close(Session *ss)
{
    filter_free(ss->f);
    free(ss->sel);
    free(ss->stage_counts);
    if (ss->s) store_free(ss->s);
    load_report_free(&ss->rep);
    memset(ss, 0, sizeof *ss);
}
