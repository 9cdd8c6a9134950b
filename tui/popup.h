/*
 * popup.h — a box centred over the views whose lines scroll: the help (?)
 * and the full legend (K) lay out and title theirs the same way; see
 * popup.c.
 */
#ifndef TNAV_POPUP_H
#define TNAV_POPUP_H

#include "view/canvas.h"

typedef struct {
    int x, y, w, h; /* the box, its frame included */
    int rows;       /* lines inside it */
    int maxoff;     /* the largest scroll offset (0: everything fits) */
} Popup;

/* The width of a box of at most wmax columns on c; 0 when c is too small
 * for any box (then nothing is drawn). */
int popup_width(const Canvas *c, int wmax);
/* A box w wide (from popup_width) for nlines lines: as high as they need,
 * at most the canvas's height less 2; *off is clamped to 0..maxoff. */
void popup_place(const Canvas *c, int w, int nlines, int *off, Popup *p);
/* Its frame, titled " NAME, lines A-B of N: j k PgDn PgUp scroll; CLOSE
 * close " when it scrolls, else " NAME: CLOSE close[ FIT_NOTE] ". */
void popup_frame(Canvas *c, const Popup *p, int off, int nlines, const char *name, const char *close,
                 const char *fit_note);

#endif
