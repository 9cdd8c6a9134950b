/*
 * main.c — entry point: dispatches to a command.
 * Owns: the dispatch table, and the last word on standard output.
 * Invariant: whatever the command, an output that could not be written
 * whole (a full disk, a closed pipe, an I/O error, at any write, flush or
 * the close) ends with a message on standard error and exit status 2.
 */
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cli.h"
#include "load/load.h"
#include "tui/tui.h"
#include "base/util.h"

/* The command's status, or 2 after a message when its output was not all
 * written. errno is the command's last failure when a write failed
 * earlier (the stream's error flag is set, its buffer may be empty). */
static int finish(int rc)
{
    int e = errno;
    bool bad = ferror(stdout) != 0;
    if (fflush(stdout) != 0) {
        bad = true;
        e = errno;
    }
    if (fclose(stdout) != 0 && !bad) {
        bad = true;
        e = errno;
    }
    if (!bad) return rc;
    if (e == ENOSPC || e == EPIPE || e == EIO || e == EFBIG || e == EDQUOT || e == EBADF)
        fprintf(stderr, "tnav: cannot write the output: %s\n", strerror(e));
    else
        fprintf(stderr, "tnav: cannot write the output (write error)\n");
    return 2;
}

static int run(int argc, char **argv);

int main(int argc, char **argv)
{
    errno = 0;
    int rc = run(argc, argv);
    return finish(rc);
}

static int run(int argc, char **argv)
{
    /* Big arrays (columns, indexes) always get their own mappings, returned
     * to the system when freed: without a fixed threshold glibc raises it
     * after the first large free and the loader's temporary arrays would
     * stay resident as heap fragments. */
    mallopt(M_MMAP_THRESHOLD, 256 * 1024);
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V") || !strcmp(cmd, "version")) {
        printf("tnav %s\n", TNAV_VERSION);
        printf("input formats: %s\n", load_formats());
        return 0;
    }
    if (!strcmp(cmd, "stats")) return cmd_stats(argc, argv, 2);
    if (!strcmp(cmd, "waits")) return cmd_waits(argc, argv, 2);
    if (!strcmp(cmd, "syncs")) return cmd_syncs(argc, argv, 2);
    if (!strcmp(cmd, "critpath")) return cmd_critpath(argc, argv, 2);
    if (!strcmp(cmd, "check")) return cmd_check(argc, argv, 2);
    if (!strcmp(cmd, "filter")) return cmd_filter(argc, argv, 2);
    if (!strcmp(cmd, "render")) return cmd_render(argc, argv, 2);
    if (!strcmp(cmd, "convert")) return cmd_convert(argc, argv, 2);
    if (!strcmp(cmd, "tui")) return tui_main(argc, argv, 2);
    /* tnav [OPTIONS] TRACE...: the full-screen interface on a terminal, the
     * summary otherwise (in a pipe, a script). A trace piped in (tnav - <
     * trace, zcat trace | tnav -) with the screen a terminal opens the
     * interface too, the keys coming from the controlling terminal. */
    const char *term = getenv("TERM");
    bool keys = isatty(STDIN_FILENO);
    for (int i = 1; i < argc && !keys; i++)
        if (!strcmp(argv[i], "-")) keys = access("/dev/tty", R_OK | W_OK) == 0;
    if (keys && isatty(STDOUT_FILENO) && term && *term && strcmp(term, "dumb") != 0)
        return tui_main(argc, argv, 1);
    return cmd_stats(argc, argv, 1);
}
