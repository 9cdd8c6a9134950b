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
    int top = 10;
    if (cli_top("waits", &a, &top)) {
        cli_free(&a);
        return 2;
    }
    Session ss;
    r = session_open("waits", &a, &ss);
    if (r) {
        cli_free(&a);
        return r;
    }
    const Store *s = ss.s;
    int64_t t0, t1;
    r = cli_window("waits", &a, s, &t0, &t1);
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
