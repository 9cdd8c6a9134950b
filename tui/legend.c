/*
 * legend.c — the full legend (key K): every glyph and colour the views draw,
 * explained, in a box over the views that scrolls like the help.
 *
 * Owns: the legend's lines (built from the summary's ranking of names and
 * the Gantt's glyph table, so it says what the views draw) and its scroll
 * offset's bounds.
 * Invariants: the names are those the Gantt colours (the first ROLE_CAT_N
 * by innermost time get their own colour, 26 their own letter without
 * colours), in that order, with their innermost time; every glyph class of
 * the Gantt is listed whether the window shows it or not; no curses here.
 */
#include "legend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "popup.h"
#include "base/timeparse.h"
#include "base/util.h"

typedef struct {
    uint32_t glyph[3]; /* up to three glyphs before the text (0: none) */
    uint8_t role[3];
    bool heading;
    char text[320];
} LegendLine;

static LegendLine *add(LegendLine **v, int *n, int *cap)
{
    if (*n == *cap) *v = xrealloc(*v, (size_t)(*cap = *cap ? *cap * 2 : 64) * sizeof **v);
    LegendLine *l = &(*v)[(*n)++];
    memset(l, 0, sizeof *l);
    return l;
}

#define LINE(...)                                                                                                      \
    do {                                                                                                               \
        LegendLine *l_ = add(&v, &n, &cap);                                                                            \
        snprintf(l_->text, sizeof l_->text, __VA_ARGS__);                                                              \
        cur = l_;                                                                                                      \
    } while (0)
#define HEAD(...)                                                                                                      \
    do {                                                                                                               \
        LINE(__VA_ARGS__);                                                                                             \
        cur->heading = true;                                                                                           \
    } while (0)
#define GLYPHS(g0, r0, g1, r1, g2, r2)                                                                                 \
    do {                                                                                                               \
        cur->glyph[0] = (g0), cur->role[0] = (r0), cur->glyph[1] = (g1), cur->role[1] = (r1);                          \
        cur->glyph[2] = (g2), cur->role[2] = (r2);                                                                     \
    } while (0)

static int build(App *A, const Canvas *c, LegendLine **out)
{
    LegendLine *v = NULL, *cur = NULL;
    int n = 0, cap = 0;
    const Store *s = A->s;
    char tb[48];
    uint32_t top[26];
    int64_t ns[26];
    int nt = summary_top_names(A->S, top, ns, 26);
    int64_t tot = 0;
    for (int k = 0; k < nt; k++) tot += ns[k];
    HEAD("Names: what runs (the Gantt's cells), by time spent innermost in the selection");
    for (int k = 0; k < nt; k++) {
        format_dur(tb, sizeof tb, ns[k]);
        LINE("%s  (%s, %s%s)", event_name(s, top[k]), kind_name(s, s->kind[top[k]]), tb,
             k < ROLE_CAT_N || !c->color ? "" : "; its colour shared");
        GLYPHS(gantt_interval_glyph(A->S, c, top[k]), gantt_name_role(A->S, top[k]), 0, 0, 0, 0);
    }
    if (!nt) LINE("(no interval in the selection)");
    LINE("other names: %s", c->color && !c->ascii ? "a colour chosen from the name" : "#");
    LINE("%s", "");
    HEAD("Instants (Gantt glyphs over the intervals; o and O: auto, all, off)");
    for (int k = 0; k < GL__N; k++) {
        LINE("%s", GANTT_GLYPH_TEXT[k]);
        GLYPHS(GANTT_GLYPH[k], ROLE_GLYPH, 0, 0, 0, 0);
    }
    LINE("auto: a row that its glyphs would cover (more than 1/%d of its cells) shows none", OVL_DENSE);
    LINE("%s", "");
    HEAD("Messages (Gantt)");
    LINE("one message arriving in the column: from the sender down (or up) to the receiver");
    GLYPHS(0x252C, ROLE_MSG, 0x2502, ROLE_MSG, 0x25BC, ROLE_MSG);
    LINE("the same, upwards");
    GLYPHS(0x2534, ROLE_MSG, 0x2502, ROLE_MSG, 0x25B2, ROLE_MSG);
    LINE("1..9 messages arriving in the cell; + more than 9");
    GLYPHS('3', ROLE_MSG, '+', ROLE_MSG, 0, 0);
    LINE("auto: a row its counts would cover shows none (the legend line says so; zoom in or o)");
    LINE("%s", "");
    HEAD("Density, comm monitor, imbalance");
    LINE("a quarter, a half, three quarters, all of the legend's scale");
    GLYPHS(0x2591, ROLE_RAMP0 + 1, 0x2592, ROLE_RAMP0 + 3, 0x2593, ROLE_RAMP0 + 5);
    LINE("full");
    GLYPHS(0x2588, ROLE_RAMP_LAST, 0, 0, 0, 0);
    LINE("imbalance: the last to arrive at a sync instance");
    GLYPHS('!', ROLE_WARN, 0, 0, 0, 0);
    LINE("%s", "");
    HEAD("Rows");
    LINE("a single row (location or activity): its label, then a solid rule");
    GLYPHS(0x2502, ROLE_AXIS, 0, 0, 0, 0);
    LINE("a group of rows (combined by the reducer, R): dimmed label, dashed rule; 'a..b' consecutive rows, "
         "'a +N' the first and N more (after a sort)");
    GLYPHS(0x2506, ROLE_AXIS, 0, 0, 0, 0);
    LINE("%s", "");
    HEAD("Cursor, marks, highlight");
    LINE("the cursor's column on the time axis (its cell in reverse video)");
    GLYPHS(0x25B2, ROLE_GLYPH, 0, 0, 0, 0);
    LINE("a marked range ([ and ]); a..z the bookmarks in the window");
    GLYPHS(0x2550, ROLE_MSG, 'a', ROLE_GLYPH, 0, 0);
    LINE("highlighted (t): the cell underlined and bold; an empty cell holding a highlighted event");
    GLYPHS(0x2581, ROLE_DEFAULT, 0, 0, 0, 0);
    LINE("the critical path (c): its cells in the warning colour, bold");
    *out = v;
    return n;
}

int legend_lines(App *A, const Canvas *c)
{
    LegendLine *v;
    int n = build(A, c, &v);
    free(v);
    return n;
}

void legend_draw(App *A, Canvas *c)
{
    LegendLine *v;
    int n = build(A, c, &v);
    int w = popup_width(c, 110);
    if (!w) {
        free(v);
        return;
    }
    Popup P;
    popup_place(c, w, n, &A->legend_off, &P);
    popup_frame(c, &P, A->legend_off, n, "legend", "K Esc q", NULL);
    int x = P.x, y = P.y, rows = P.rows;
    for (int r = 0; r < rows; r++) {
        const LegendLine *l = &v[A->legend_off + r];
        int cx = x + 2, cy = y + 1 + r;
        if (l->heading) {
            canvas_text(c, cx, cy, l->text, w - 4, ROLE_TITLE, ATTR_BOLD);
            continue;
        }
        for (int g = 0; g < 3; g++)
            if (l->glyph[g]) canvas_put(c, cx + 2 + g, cy, l->glyph[g], l->role[g], 0, l->role[g] == ROLE_GLYPH ? ATTR_BOLD : 0);
        canvas_text(c, cx + 7, cy, l->text, w - 11, ROLE_DEFAULT, 0);
    }
    free(v);
}
