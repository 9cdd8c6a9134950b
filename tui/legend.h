/*
 * legend.h — the full legend (key K): what every glyph and colour of the
 * views means, scrollable; see legend.c.
 */
#ifndef TNAV_LEGEND_H
#define TNAV_LEGEND_H

#include "view/canvas.h"

struct App;

/* draw it over the views in c, from line A->legend_off */
void legend_draw(struct App *A, Canvas *c);
/* how many lines it has (for scrolling and the tests) */
int legend_lines(struct App *A, const Canvas *c);

#endif
