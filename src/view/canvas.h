/*
 * canvas.h — the cell canvas every view draws into: a grid of character
 * cells, each a glyph (one Unicode code point), a foreground and a
 * background colour *role*, and attributes. The TUI blits it to ncurses;
 * `tnav render` writes it as text or with ANSI colours.
 *
 * Owns: the cells, the colour roles and their terminal colours, the ASCII
 * fallback of glyphs, and the text / ANSI writers.
 * Invariants: every cell holds a printable code point of display width 1,
 * or CANVAS_CONT in the cell after a double-width one; drawing outside the
 * grid is clipped, never an error; the writers print exactly w columns'
 * worth of glyphs per line (trailing blanks trimmed in text), h lines.
 */
#ifndef TNAV_CANVAS_H
#define TNAV_CANVAS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* colour roles: what a cell is, not which colour it has */
enum {
    ROLE_DEFAULT = 0,
    ROLE_DIM,     /* secondary text */
    ROLE_AXIS,    /* axes, rules, ticks */
    ROLE_LABEL,   /* row labels */
    ROLE_TITLE,
    ROLE_STATUS,  /* the status line */
    ROLE_IDLE,
    ROLE_SYNC,    /* waiting */
    ROLE_MSG,     /* message connectors and counts */
    ROLE_GLYPH,   /* instant-event glyphs */
    ROLE_WARN,
    ROLE_RAMP0,   /* density ramp, low ... */
    ROLE_RAMP_LAST = ROLE_RAMP0 + 7, /* ... high */
    ROLE_CAT0,    /* categorical colours (state names) */
    ROLE_CAT_LAST = ROLE_CAT0 + 11,
    ROLE__N
};
#define ROLE_RAMP_N (ROLE_RAMP_LAST - ROLE_RAMP0 + 1)
#define ROLE_CAT_N (ROLE_CAT_LAST - ROLE_CAT0 + 1)

enum { ATTR_BOLD = 1, ATTR_REVERSE = 2, ATTR_UNDERLINE = 4 };

#define CANVAS_CONT 0xFFFFFFFFu /* the right half of a double-width glyph */

typedef struct {
    uint32_t ch;
    uint8_t fg, bg, attr;
} Cell;

typedef struct {
    int w, h;
    Cell *cells;
    bool ascii; /* glyphs are drawn from ASCII only */
    bool color; /* colours are shown (views may pick glyphs by this) */
} Canvas;

Canvas *canvas_new(int w, int h, bool ascii, bool color);
void canvas_free(Canvas *c);
void canvas_clear(Canvas *c);
static inline Cell *canvas_at(Canvas *c, int x, int y)
{
    return (x >= 0 && y >= 0 && x < c->w && y < c->h) ? &c->cells[(size_t)y * (size_t)c->w + (size_t)x] : NULL;
}
/* One glyph (mapped to ASCII on an ASCII canvas). */
void canvas_put(Canvas *c, int x, int y, uint32_t ch, uint8_t fg, uint8_t bg, uint8_t attr);
/* UTF-8 text from (x, y), at most maxw columns (a longer text ends with an
 * ellipsis); returns the columns used. Invalid or control bytes show as '?'. */
int canvas_text(Canvas *c, int x, int y, const char *s, int maxw, uint8_t fg, uint8_t attr);
/* The same, right-aligned so that it ends at column xend - 1. */
int canvas_text_right(Canvas *c, int xend, int y, const char *s, int maxw, uint8_t fg, uint8_t attr);
/* Columns the text takes (by the same rules as canvas_text). */
int text_width(const char *s);
/* The bytes of s that fill a line of at most maxw columns, broken after a
 * blank when one is in it (at least one character, 0 at the end). */
size_t text_wrap(const char *s, int maxw);
/* s shortened to at most maxw columns by cutting its middle ("KMeans.…reduce"),
 * so that names sharing a prefix stay apart; into out (NUL-terminated);
 * returns its bytes */
size_t elide_middle(const char *s, int maxw, char *out, size_t sz);
/* A box of w x h cells, blank inside, with a title on its top rule. */
void canvas_box(Canvas *c, int x, int y, int w, int h, const char *title);
/* Fill a row span with one glyph. */
void canvas_hline(Canvas *c, int x0, int x1, int y, uint32_t ch, uint8_t fg, uint8_t bg, uint8_t attr);

/* The ASCII stand-in of a glyph. */
uint32_t glyph_ascii(uint32_t ch);

/* Write the canvas: plain text (UTF-8, trailing blanks trimmed), or with
 * ANSI SGR colours and attributes (each line reset at its end). */
void canvas_write_text(const Canvas *c, FILE *f);
void canvas_write_ansi(const Canvas *c, FILE *f);

/* The 256-colour palette index of a role (-1: the terminal's default). */
int role_color256(int role, bool background);

#endif
