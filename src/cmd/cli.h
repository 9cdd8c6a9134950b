/*
 * cli.h — command-line handling shared by the headless commands.
 *
 * Owns: the parsing of the options every command accepts (loading options,
 * --json, --help) and the usage text.
 * Invariants: a usage error prints one line naming the problem and a hint to
 * stderr and makes the command exit 2; options may appear before or after
 * the trace files; "--" ends the options.
 */
#ifndef TNAV_CLI_H
#define TNAV_CLI_H

#include <stdbool.h>
#include <stdint.h>

#include "load/load.h"
#include "store/store.h"

/* the most extra options (or flags) a command may accept */
#define CLI_MAX_EXTRA 32

typedef struct {
    LoadOpts load;
    bool json;
    bool help;
    const char *filter; /* -f / --filter EXPR, or NULL */
    char **files;
    int nfiles;
    char **owned; /* paths cli_parse made (a directory's files), freed by cli_free */
    int nowned;
    uint64_t max_memory; /* --max-memory in bytes (0: no cap); applied by cli_parse */
    /* options a command accepts beyond the common ones, as name=value */
    const char *const *extra_opts; /* NULL-terminated list of accepted "--name" with an argument */
    const char *extra_vals[CLI_MAX_EXTRA];
    const char *const *extra_flags; /* NULL-terminated list of accepted flags without an argument */
    bool extra_flag_set[CLI_MAX_EXTRA];
} CliArgs;

/* Parse argv[first..argc). Returns 0, or 2 after printing a usage error. */
int cli_parse(const char *cmd, int argc, char **argv, int first, CliArgs *a);
void cli_free(CliArgs *a);
const char *cli_extra(const CliArgs *a, const char *name);
bool cli_flag(const CliArgs *a, const char *name);

/* A loaded trace with the command's filter applied. */
typedef struct {
    struct Store *s;
    LoadReport rep;
    struct Filter *f;       /* NULL without a filter */
    uint64_t *sel;          /* selection bitmap; NULL without a filter */
    uint64_t *stage_counts; /* events left after each stage */
    uint64_t nsel;          /* selected events (all without a filter) */
} Session;

/* Check the filter's syntax, load the traces, compile and run the filter.
 * Returns 0, or the exit status after the messages (2 for a filter error,
 * with a caret under the culprit). */
int session_open(const char *cmd, CliArgs *a, Session *ss);
void session_close(Session *ss);

/* A load's progress as one line, the same in the interface and on stderr:
 * "37%  260 of 702 MB  480 MB/s" while parsing (percent of the bytes the
 * parser threads are past, truncated, 100 only when all are; the rate since
 * the start), "100%  702 MB  indexing" while the store is built. */
int load_progress_percent(uint64_t done, uint64_t total);
void load_progress_text(uint64_t done, uint64_t total, int phase, double elapsed_s, char *buf, size_t sz);
/* The common start of a command: parse, --help, require files; -1 to go
 * on, else the exit status (a is then freed). */
int cli_begin(const char *cmd, int argc, char **argv, int first, CliArgs *a);
int cli_usage_error(const char *cmd, const char *fmt, const char *arg);

/* A time option: RFC 3339, or a duration (10ms, 1.5s) from origin;
 * false when it is neither or overflows. */
bool cli_time_arg(const char *v, int64_t origin, int64_t *out);
/* The window of --from/--to (an analysis's extra options), by default the
 * whole trace [t_min, t_max + 1); 0, or the exit status of a usage error
 * (said on stderr). */
/* --top N (0: all) into *top when given; 0, or 2 after a usage error */
int cli_top(const char *cmd, const CliArgs *a, int *top);
int cli_window(const char *cmd, const CliArgs *a, const Store *s, int64_t *t0, int64_t *t1);
/* ... of these --from and --to (NULL: not given); an empty window is a
 * usage error naming the cause: --from past the trace's end, --to at or
 * before its start, or --to not after --from */
int cli_window_of(const char *cmd, const char *from, const char *to, const Store *s, int64_t *t0, int64_t *t1);

void usage(FILE *f);

int cmd_stats(int argc, char **argv, int first);
int cmd_waits(int argc, char **argv, int first);
int cmd_syncs(int argc, char **argv, int first);
int cmd_critpath(int argc, char **argv, int first);
int cmd_check(int argc, char **argv, int first);
int cmd_filter(int argc, char **argv, int first);
int cmd_render(int argc, char **argv, int first);
int cmd_convert(int argc, char **argv, int first);

#endif
