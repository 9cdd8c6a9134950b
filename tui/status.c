/*
 * status.c — the interface's status line: the view (and the density's
 * metric), the window, the events visible, the zoom, a marked range's
 * efficiency, the filter, the highlight, the help hint.
 *
 * Owns: the order and the priority of those parts.
 * Invariants: the line fits the width it is given: the least important
 * parts go first, the filter and the highlight never (their expressions
 * are elided in the middle); no curses here.
 */
#include "app.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "analyses.h"
#include "base/timeparse.h"

/* ---- status ------------------------------------------------------------------------------------- */

void app_status(const App *A, char *buf, size_t sz) { app_status_fit(A, buf, sz, 1 << 20); }

/* the status line's parts, in the order shown, each with how much it
 * matters when the line is too narrow (the least is dropped first; the
 * filter and the highlight are never dropped, their text is elided in its
 * middle instead) */
enum { SP_VIEW, SP_RANGE, SP_COUNT, SP_ZOOM, SP_EFF, SP_FILTER, SP_HL, SP_HELP, SP__N };
static const int SP_PRIO[SP__N] = {7, 8, 5, 2, 9, 10, 10, 1};

void app_status_fit(const App *A, char *buf, size_t sz, int width)
{
    char a[48], b[48], zs[32];
    /* as precise as a cell */
    int64_t res = (A->t1 - A->t0) / app_ncells(A);
    format_dur_res(a, sizeof a, A->t0 - A->s->t_min, res);
    format_dur_res(b, sizeof b, A->t1 - A->s->t_min, res);
    uint64_t vis = summary_events_visible(A->S, A->t0, A->t1);
    double z = app_zoom_factor(A);
    if (z < 10) snprintf(zs, sizeof zs, "x%.2f", z);
    else if (z < 1e4) snprintf(zs, sizeof zs, "x%.0f", z);
    else snprintf(zs, sizeof zs, "x%.3g", z);
    const char *sep = A->ascii ? " | " : " \xe2\x94\x82 ", *dash = A->ascii ? " - " : " \xe2\x80\x93 ";
    char part[SP__N][1024];
    for (int k = 0; k < SP__N; k++) part[k][0] = 0;
    if (A->view == V_DENSITY || A->view == V_SPLIT)
        snprintf(part[SP_VIEW], sizeof part[0], "%s%s%s (%s)", VIEW_TITLES[A->view], sep, METRIC_NAMES[A->metric.m],
                 REDUCER_NAMES[A->reducer]);
    else if (A->view == V_COMM)
        snprintf(part[SP_VIEW], sizeof part[0], "%s%s%s", VIEW_TITLES[A->view], sep, METRIC_NAMES[A->comm_metric]);
    else
        snprintf(part[SP_VIEW], sizeof part[0], "%s", VIEW_TITLES[A->view]);
    snprintf(part[SP_RANGE], sizeof part[0], "%s%s%s", a, dash, b);
    snprintf(part[SP_COUNT], sizeof part[0], "%" PRIu64 " of %zu events", vis, A->s->n);
    snprintf(part[SP_ZOOM], sizeof part[0], "%s", zs);
    analyses_status(A, part[SP_EFF], sizeof part[0]);
    snprintf(part[SP_FILTER], sizeof part[0], "%s%s", A->filter_text ? "filter: " : "no filter",
             A->filter_text ? A->filter_text : "");
    if (A->hl_text) snprintf(part[SP_HL], sizeof part[0], "highlight: %s", A->hl_text);
    snprintf(part[SP_HELP], sizeof part[0], "? help");
    for (int k = 0; k < SP__N; k++) /* (one line) */
        for (char *p = part[k]; *p; p++)
            if (*p == '\n' || *p == '\t') *p = ' ';
    bool on[SP__N];
    int used = 1, sepw = text_width(sep);
    for (int k = 0; k < SP__N; k++) {
        on[k] = part[k][0] != 0;
        if (on[k]) used += text_width(part[k]) + sepw;
    }
    used -= sepw;
    /* too wide: drop the least important parts (help, zoom, count); then,
     * unless the filter and the highlight keep 32 columns each, the view,
     * the range (the axis shows the times) and a marked range's efficiency; then
     * elide the filter's and the highlight's expressions in their middles
     * to share what is left */
    for (int stage = 0; stage < 2 && used > width; stage++) {
        int limit = stage == 0 ? 6 : 10;
        if (stage == 1) {
            int ew = 0, fw = text_width(part[SP_FILTER]), hw = on[SP_HL] ? text_width(part[SP_HL]) : 0;
            ew = (fw < 32 ? fw : 32) + (hw < 32 ? hw : 32);
            if (used - fw - hw + ew <= width) break;
        }
        while (used > width) {
            int drop = -1;
            for (int k = 0; k < SP__N; k++)
                if (on[k] && SP_PRIO[k] < limit && (drop < 0 || SP_PRIO[k] < SP_PRIO[drop])) drop = k;
            if (drop < 0) break;
            on[drop] = false;
            used -= text_width(part[drop]) + sepw;
        }
    }
    if (used > width) {
        int fw = text_width(part[SP_FILTER]), hw = on[SP_HL] ? text_width(part[SP_HL]) : 0;
        int avail = width - (used - fw - hw);
        /* the shorter keeps up to half, the longer the rest; 12 columns at least */
        int fk = fw, hk = hw;
        if (on[SP_HL]) {
            int half = avail / 2;
            if (hw <= fw) hk = hw < half ? hw : half, fk = avail - hk;
            else fk = fw < half ? fw : half, hk = avail - fk;
        } else {
            fk = avail;
        }
        int keep[2] = {fk < 12 ? 12 : fk, hk < 12 ? 12 : hk};
        const int kk[2] = {SP_FILTER, SP_HL};
        for (int i = 0; i < 2; i++) {
            int k = kk[i], w = text_width(part[k]);
            if (!on[k] || keep[i] >= w) continue;
            /* (the expression is elided, its label kept) */
            const char *colon = strstr(part[k], ": ");
            size_t lab = colon ? (size_t)(colon - part[k]) + 2 : 0;
            char el[1024];
            elide_middle(part[k] + lab, keep[i] - (int)lab, el, sizeof el);
            part[k][lab] = 0;
            snprintf(part[k] + lab, sizeof part[k] - lab, "%s", el);
        }
    }
    size_t n = 0;
    bool first = true;
    buf[0] = 0;
    for (int k = 0; k < SP__N && n < sz; k++) {
        if (!on[k]) continue;
        n += (size_t)snprintf(buf + n, sz - n, "%s%s", first ? " " : sep, part[k]);
        first = false;
    }
}

