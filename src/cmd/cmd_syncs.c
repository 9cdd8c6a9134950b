/*
 * cmd_syncs.c — `tnav syncs`: every sync instance with its participants
 * and its straggler, and who is most often last (src/analysis/syncs.c).
 *
 * Owns: the command's options and output choice. Invariants: exit 0 with
 * the report, 2 on a usage error or unreadable input, as every command.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/syncs.h"
#include "cli.h"
#include "base/util.h"

int cmd_syncs(int argc, char **argv, int first)
{
    CliArgs a;
    memset(&a, 0, sizeof a);
    static const char *const opts[] = {"--top", NULL};
    a.extra_opts = opts;
    int r = cli_begin("syncs", argc, argv, first, &a);
    if (r >= 0) return r;
    const char *top_s = cli_extra(&a, "--top");
    int top = 10;
    if (top_s) {
        char *e;
        long t = strtol(top_s, &e, 10);
        if (e == top_s || *e || t < 0 || t > 1000000) {
            cli_free(&a);
            return cli_usage_error("syncs", "--top must be a number of rows (0 = all), not '%s'", top_s);
        }
        top = (int)t;
    }
    Session ss;
    r = session_open("syncs", &a, &ss);
    if (r) {
        cli_free(&a);
        return r;
    }
    Syncs y;
    oom_phase("computing the sync instances");
    double ta = now_sec();
    syncs_compute(ss.s, ss.sel, &y);
    if (getenv("TNAV_TIMING")) fprintf(stderr, "tnav: timing: analysis %.3f s\n", now_sec() - ta);
    if (a.json) syncs_print_json(stdout, ss.s, &y);
    else syncs_print_text(stdout, ss.s, &y, top);
    syncs_free(&y);
    session_close(&ss);
    cli_free(&a);
    return fflush(stdout) == 0 ? 0 : 2;
}
