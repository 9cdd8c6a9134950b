/*
 * cmd_waits.c — `tnav waits`: the wait states of a trace (victims,
 * culprits, worst instances), for the events -f selects in the window
 * --from/--to; computed by src/analysis/waits.c, as the interface will.
 *
 * Owns: the command's options and output choice. Invariants: exit 0 with
 * the report, 2 on a usage error or unreadable input, as every command.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/waits.h"
#include "cli.h"
#include "base/util.h"

int cmd_waits(int argc, char **argv, int first)
{
    CliArgs a;
    memset(&a, 0, sizeof a);
    static const char *const opts[] = {"--from", "--to", "--top", NULL};
    a.extra_opts = opts;
    int r = cli_begin("waits", argc, argv, first, &a);
    if (r >= 0) return r;
    const char *top_s = cli_extra(&a, "--top");
    int top = 10;
    if (top_s) {
        char *e;
        long t = strtol(top_s, &e, 10);
        if (e == top_s || *e || t < 0 || t > 1000000) {
            cli_free(&a);
            return cli_usage_error("waits", "--top must be a number of rows (0 = all), not '%s'", top_s);
        }
        top = (int)t;
    }
    Session ss;
    r = session_open("waits", &a, &ss);
    if (r) {
        cli_free(&a);
        return r;
    }
    const Store *s = ss.s;
    int64_t t0 = s->t_min, t1 = s->t_max + 1;
    const char *from = cli_extra(&a, "--from"), *to = cli_extra(&a, "--to");
    if (from && !cli_time_arg(from, s->t_min, &t0)) r = cli_usage_error("waits", "--from: not a time: '%s'", from);
    else if (to && !cli_time_arg(to, s->t_min, &t1)) r = cli_usage_error("waits", "--to: not a time: '%s'", to);
    else if (t1 <= t0) r = cli_usage_error("waits", "%s", "--to must be after --from");
    if (r) {
        session_close(&ss);
        cli_free(&a);
        return r;
    }
    Waits w;
    oom_phase("computing the wait states");
    double ta = now_sec();
    waits_compute(s, ss.sel, t0, t1, &w);
    if (getenv("TNAV_TIMING")) fprintf(stderr, "tnav: timing: analysis %.3f s\n", now_sec() - ta);
    if (a.json) waits_print_json(stdout, s, &w);
    else waits_print_text(stdout, s, &w, top);
    waits_free(&w);
    session_close(&ss);
    cli_free(&a);
    return fflush(stdout) == 0 ? 0 : 2;
}
