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

#include "analysis/report.h"
#include "analysis/syncs.h"
#include "cli.h"
#include "base/util.h"

int cmd_syncs(int argc, char **argv, int first)
{
    CliArgs a;
    memset(&a, 0, sizeof a);
    static const char *const opts[] = {"--from", "--to", "--top", NULL};
    a.extra_opts = opts;
    int r = cli_begin("syncs", argc, argv, first, &a);
    if (r >= 0) return r;
    int top = 10;
    if (cli_top("syncs", &a, &top)) {
        cli_free(&a);
        return 2;
    }
    Session ss;
    r = session_open("syncs", &a, &ss);
    if (r) {
        cli_free(&a);
        return r;
    }
    int64_t t0, t1;
    r = cli_window("syncs", &a, ss.s, &t0, &t1);
    if (r) {
        session_close(&ss);
        cli_free(&a);
        return r;
    }
    Syncs y;
    oom_phase("computing the sync instances");
    double ta = now_sec();
    syncs_compute(ss.s, ss.sel, t0, t1, &y);
    if (getenv("TNAV_TIMING")) fprintf(stderr, "tnav: timing: analysis %.3f s\n", now_sec() - ta);
    if (a.json) syncs_print_json(stdout, ss.s, &y);
    else syncs_print_text(stdout, ss.s, &y, top);
    syncs_free(&y);
    session_close(&ss);
    cli_free(&a);
    return fflush(stdout) == 0 ? 0 : 2;
}
