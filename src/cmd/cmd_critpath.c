/*
 * cmd_critpath.c — `tnav critpath`: the critical path of a trace (its
 * segments, its length against the makespan, its time by location and by
 * name), for the events -f selects in the window --from/--to; computed by
 * src/analysis/critpath.c, as the interface's overlay is.
 *
 * Owns: the command's options and output choice. Invariants: exit 0 with
 * the report, 2 on a usage error or unreadable input, as every command.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/critpath.h"
#include "base/util.h"
#include "cli.h"

int cmd_critpath(int argc, char **argv, int first)
{
    CliArgs a;
    memset(&a, 0, sizeof a);
    static const char *const opts[] = {"--from", "--to", "--top", NULL};
    a.extra_opts = opts;
    int r = cli_begin("critpath", argc, argv, first, &a);
    if (r >= 0) return r;
    int top = 20;
    if (cli_top("critpath", &a, &top)) {
        cli_free(&a);
        return 2;
    }
    Session ss;
    r = session_open("critpath", &a, &ss);
    if (r) {
        cli_free(&a);
        return r;
    }
    int64_t t0, t1;
    r = cli_window("critpath", &a, ss.s, &t0, &t1);
    if (r) {
        session_close(&ss);
        cli_free(&a);
        return r;
    }
    CritPath cp;
    oom_phase("computing the critical path");
    double ta = now_sec();
    critpath_compute(ss.s, ss.sel, t0, t1, &cp);
    if (getenv("TNAV_TIMING")) fprintf(stderr, "tnav: timing: analysis %.3f s\n", now_sec() - ta);
    if (a.json) critpath_print_json(stdout, ss.s, &cp);
    else critpath_print_text(stdout, ss.s, &cp, top);
    critpath_free(&cp);
    session_close(&ss);
    cli_free(&a);
    return fflush(stdout) == 0 ? 0 : 2;
}
