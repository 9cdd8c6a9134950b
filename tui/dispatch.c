/*
 * dispatch.c — where a key or a mouse event goes: to the open prompt (and
 * its live compile and count of a filter as it is typed, its Enter), to an
 * overlay (help, legend, bookmarks), or to the action the table of
 * actions.c binds it to; the mouse's clicks, drags and wheel.
 *
 * Owns: nothing past a call.
 * Invariants: app_key and app_mouse return the AF_* flags of what changed,
 * so that the caller recomputes only that; no curses here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions.h"
#include "commands.h"
#include "keys.h"
#include "base/util.h"

/* the prompt's text compiled as the user types: the error, or how many
 * events match (once per frame: keys that come together, a paste, compile
 * once) */
void app_prompt_live(App *A)
{
    if (!A->plive_dirty) return;
    A->plive_dirty = false;
    if (A->pmode != PM_FILTER && A->pmode != PM_HIGHLIGHT) return;
    A->plive_ok = false;
    A->perr_set = false;
    if (!A->prompt.len) return;
    FilterError fe;
    Filter *f = filter_compile(A->s, A->prompt.buf, &fe);
    if (!f) {
        A->perr = fe;
        A->perr_set = true;
        return;
    }
    /* (a count as one types: a slow filter is not counted, never waited for) */
    filter_set_budget(f, 0.25);
    uint64_t c = 0;
    size_t nw = (A->s->n + 63) / 64;
    uint64_t *sel = xcalloc(nw + 1, 8);
    int rc = filter_run(f, sel, NULL);
    if (rc == FILTER_OK) c = bitmap_count(sel, nw);
    else if (rc == FILTER_TIMEOUT) snprintf(A->msg, sizeof A->msg, "(not counted as you type: over 0.25 s; Enter runs it, Esc then cancels)");
    else snprintf(A->msg, sizeof A->msg, "%.200s", filter_run_error(f));
    free(sel);
    filter_free(f);
    A->plive_count = c;
    A->plive_ok = rc == FILTER_OK;
}

static int prompt_enter(App *A)
{
    PromptMode m = A->pmode;
    if (m == PM_COMMAND) {
        char *line = xstrdup(A->cmd.buf);
        int f = cmdline_run(A, line);
        if (!A->cmd_failed) {
            prompt_history_add(&A->cmd, line);
            if (A->cmd_hist_path) prompt_history_save(&A->cmd, A->cmd_hist_path, 500);
        }
        free(line);
        return f;
    }
    const char *text = A->prompt.buf;
    if (m == PM_GOTO) {
        if (!app_goto(A, text)) {
            snprintf(A->msg, sizeof A->msg, "not a time in the trace: %s", text);
            return AF_REDRAW;
        }
        A->pmode = PM_NONE;
        return AF_REAGG;
    }
    bool hl = m == PM_HIGHLIGHT;
    if (!text[0]) {
        /* an empty filter clears it */
        A->pmode = PM_NONE;
        app_clear_filter(A, hl);
        return hl ? AF_REAGG : AF_REFILTER;
    }
    if (!app_apply_filter(A, text, hl)) return AF_REDRAW; /* the error stays under the prompt */
    A->pmode = PM_NONE; /* (the status line shows it) */
    return hl ? AF_REAGG : AF_REFILTER;
}

/* the lines a key scrolls an overlay (the help, the legend) by; 0: not a scrolling key */
static int scroll_delta(int key)
{
    if (key == 'j' || key == TK_DOWN) return 1;
    if (key == 'k' || key == TK_UP) return -1;
    if (key == TK_PGDN || key == ' ') return 10;
    return key == TK_PGUP ? -10 : 0;
}

int app_key(App *A, int key)
{
    A->msg[0] = 0;
    if (key == TK_RESIZE) return AF_REAGG;
    if (A->pmode != PM_NONE) {
        if (key == TK_ESC || key == CTRL('g') || key == CTRL('c')) {
            A->pmode = PM_NONE;
            A->perr_set = false;
            return AF_REDRAW;
        }
        if (key == TK_ENTER || key == '\n') return prompt_enter(A);
        if (A->pmode == PM_GOTO && (key == TK_UP || key == TK_DOWN)) return 0; /* (the history is of filters) */
        if (A->pmode == PM_COMMAND) {
            /* (the hint of the last Tab stays until the line changes) */
            if (key == TK_TAB) {
                cmdline_complete(A);
                return AF_REDRAW;
            }
            A->cmd_hint[0] = 0;
            A->perr_set = false;
            prompt_key(&A->cmd, key, NULL, A);
            return AF_REDRAW;
        }
        if (prompt_key(&A->prompt, key, A->pmode == PM_GOTO ? NULL : app_complete, A)) A->plive_dirty = true;
        return AF_REDRAW;
    }
    if (A->show_help) {
        /* scrolling keys move the help; any other closes it (and those
         * that do something else also do it) */
        int d = scroll_delta(key);
        if (d) {
            A->help_off += d;
            if (A->help_off < 0) A->help_off = 0;
            return AF_REDRAW;
        }
        A->show_help = false;
        A->help_focus = -1;
        if (key == '?' || key == TK_ESC || key == 'q') return AF_REDRAW;
    }
    if (A->show_legend) {
        /* as the help: scrolling keys move it, K, Esc and q close it, any
         * other closes it and does what it does */
        int d = scroll_delta(key);
        if (d) {
            A->legend_off += d;
            if (A->legend_off < 0) A->legend_off = 0;
            return AF_REDRAW;
        }
        A->show_legend = false;
        if (key == 'K' || key == TK_ESC || key == 'q') return AF_REDRAW;
    }
    if (A->show_bookmarks) {
        A->show_bookmarks = false;
        if (key >= 'a' && key <= 'z' && A->bm_set[key - 'a']) {
            app_pan_to(A, A->bm[key - 'a']);
            return AF_REAGG;
        }
        /* any other key only closes the list (a letter meant for it must
         * not quit or toggle something) */
        if (key >= 'a' && key <= 'z') snprintf(A->msg, sizeof A->msg, "no bookmark %c", key);
        return AF_REDRAW;
    }
    if (key == TK_ESC) {
        if (A->participants_of != NONE32) {
            A->participants_of = NONE32;
            return AF_REDRAW;
        }
        if (A->have_a || A->have_b) {
            A->have_a = A->have_b = false;
            return AF_REDRAW;
        }
        return 0;
    }
    if (key == CTRL('c')) return AF_QUIT;
    const Action *a = action_for_key(key);
    if (!a) {
        char kn[32];
        snprintf(A->msg, sizeof A->msg, "%s is not bound to anything; ? shows the keys", tkey_name(key, kn, sizeof kn));
        return AF_REDRAW;
    }
    return a->fn(A);
}

int app_mouse(App *A, int x, int y, int what)
{
    int col = x - A->lay_x0, row = y - A->lay_y0;
    bool in_cells = col >= 0 && col < app_ncells(A) && row >= 0 && row < A->lay_nlines && !app_list_view(A) &&
                    A->view != V_MATRIX;
    if (!in_cells) return 0;
    A->cur_col = col;
    RowModel *M = app_rows(A);
    if (M) {
        if (M->dirty) app_rows_rebuild(A, M);
        uint32_t r = A->row_off + (uint32_t)row;
        if (r < M->rs.ng) A->cur_row = (int)r;
    }
    switch (what) {
    case MOUSE_CLICK:
        A->have_a = true;
        A->mark_a = app_cursor_time(A);
        A->have_b = false;
        return AF_REDRAW;
    case MOUSE_DRAG:
    case MOUSE_RELEASE:
        if (A->have_a && app_cursor_time(A) != A->mark_a) {
            A->have_b = true;
            A->mark_b = app_cell_start(A, A->cur_col + 1);
        } else if (what == MOUSE_RELEASE) {
            A->have_a = false; /* a plain click only moves the cursor */
        }
        return AF_REDRAW;
    case MOUSE_WHEEL_UP: app_zoom(A, 0.5); return AF_REAGG;
    case MOUSE_WHEEL_DOWN: app_zoom(A, 2.0); return AF_REAGG;
    default: return 0;
    }
}
