/*
 * tui.h — the entry point of the full-screen interface (`tnav TRACE...`,
 * `tnav tui TRACE...`). No curses in this header.
 */
#ifndef TNAV_TUI_H
#define TNAV_TUI_H

/* argv[first..argc): options and traces. Returns the exit status. */
int tui_main(int argc, char **argv, int first);

#endif
