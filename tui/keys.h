/*
 * keys.h — key codes of the interactive interface, independent of curses:
 * printable characters are their code points, control keys 1..31, and the
 * special keys below. The curses layer (screen.c) translates its keys into
 * these, so everything above it can be driven and tested without a terminal.
 */
#ifndef TNAV_KEYS_H
#define TNAV_KEYS_H

#define CTRL(c) ((c) & 0x1f)

enum {
    TK_ENTER = '\r',
    TK_TAB = '\t',
    TK_ESC = 0x1b,
    TK_SPECIAL = 0x110000, /* above every code point */
    TK_UP,
    TK_DOWN,
    TK_LEFT,
    TK_RIGHT,
    TK_PGUP,
    TK_PGDN,
    TK_HOME,
    TK_END,
    TK_BS,
    TK_DEL,
    TK_BTAB,   /* shift-tab */
    TK_RESIZE,
    TK_F1, /* ... TK_F1 + 11: F12 */
    TK__END = TK_F1 + 12
};

/* the name of a key for the help: "a", "Ctrl-A", "Left", "PgUp", ... */
const char *tkey_name(int key, char *buf, int sz);

#endif
