/*
 * popup.c — a scrolling box centred over the views (the help and the full
 * legend); see popup.h.
 *
 * Owns: only the geometry and the title of such a box (its lines are its
 * caller's). Invariants: the box fits the canvas with a cell to spare on
 * each side; the offset it is given back never scrolls past the last line.
 */
#include "popup.h"

#include <stdio.h>

int popup_width(const Canvas *c, int wmax)
{
    int w = c->w - 2 < wmax ? c->w - 2 : wmax;
    return w < 20 || c->h - 2 < 4 ? 0 : w;
}

void popup_place(const Canvas *c, int w, int nlines, int *off, Popup *p)
{
    p->w = w;
    p->h = c->h - 2;
    p->rows = p->h - 2;
    if (nlines < p->rows) {
        p->rows = nlines;
        p->h = nlines + 2;
    }
    p->maxoff = nlines - p->rows;
    if (*off > p->maxoff) *off = p->maxoff;
    if (*off < 0) *off = 0;
    p->x = (c->w - p->w) / 2;
    p->y = (c->h - p->h) / 2;
}

void popup_frame(Canvas *c, const Popup *p, int off, int nlines, const char *name, const char *close,
                 const char *fit_note)
{
    char title[200];
    if (p->maxoff > 0)
        snprintf(title, sizeof title, " %s, lines %d-%d of %d: j k PgDn PgUp scroll; %s close ", name, off + 1,
                 off + p->rows, nlines, close);
    else
        snprintf(title, sizeof title, " %s: %s close%s%s ", name, close, fit_note ? " " : "", fit_note ? fit_note : "");
    canvas_box(c, p->x, p->y, p->w, p->h, title);
}
