/*
 * table.c — a sortable table; see table.h.
 */
#include "table.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/out.h"
#include "base/util.h"

void table_init(Table *t, const TableSrc *src)
{
    memset(t, 0, sizeof *t);
    t->src = *src;
    t->order = xmalloc((src->nrow + 1) * sizeof *t->order);
    for (size_t i = 0; i < src->nrow; i++) t->order[i] = i;
    t->sort_col = -1;
}

void table_free(Table *t)
{
    free(t->order);
    memset(t, 0, sizeof *t);
}

/* a merge sort (stable) with the table as context */
static int cmp_rows(const Table *t, size_t a, size_t b)
{
    const TableSrc *S = &t->src;
    int c = t->sort_col, r = 0;
    if (S->cols[c].num) {
        double x = S->num(S->ctx, a, c), y = S->num(S->ctx, b, c);
        r = x < y ? -1 : x > y;
    } else {
        char bx[256], by[256];
        S->cell(S->ctx, a, c, bx, sizeof bx);
        S->cell(S->ctx, b, c, by, sizeof by);
        r = strcmp(bx, by);
    }
    return t->desc ? -r : r;
}

void table_sort(Table *t, int col, bool desc)
{
    size_t n = t->src.nrow;
    t->sort_col = col >= 0 && col < t->src.ncol ? col : -1;
    t->desc = desc;
    size_t keep = table_current(t);
    for (size_t i = 0; i < n; i++) t->order[i] = i;
    if (t->sort_col >= 0 && n > 1) {
        size_t *tmp = xmalloc(n * sizeof *tmp), *src = t->order, *dst = tmp;
        for (size_t w = 1; w < n; w *= 2) {
            for (size_t a = 0; a < n; a += 2 * w) {
                size_t mid = a + w < n ? a + w : n, b = a + 2 * w < n ? a + 2 * w : n, i = a, j = mid, o = a;
                while (i < mid && j < b) dst[o++] = cmp_rows(t, src[j], src[i]) < 0 ? src[j++] : src[i++];
                while (i < mid) dst[o++] = src[i++];
                while (j < b) dst[o++] = src[j++];
            }
            size_t *x = src;
            src = dst;
            dst = x;
        }
        if (src != t->order) memcpy(t->order, src, n * sizeof *src);
        free(tmp);
    }
    /* the cursor stays on its row */
    t->cur = 0;
    for (size_t i = 0; keep != (size_t)-1 && i < n; i++)
        if (t->order[i] == keep) t->cur = i;
}

void table_sort_next(Table *t)
{
    int c = t->sort_col + 1;
    if (c >= t->src.ncol) c = -1;
    table_sort(t, c, c >= 0 && t->src.cols[c].num);
}

void table_col_move(Table *t, int d)
{
    int c = t->ccol + d;
    if (c >= t->src.ncol) c = t->src.ncol - 1;
    if (c < 0) c = 0;
    t->ccol = c;
}

void table_sort_cursor(Table *t)
{
    int c = t->ccol < t->src.ncol ? t->ccol : 0;
    if (t->sort_col == c) table_sort(t, c, !t->desc);
    else table_sort(t, c, t->src.cols[c].num);
}

size_t table_current(const Table *t) { return t->cur < t->src.nrow ? t->order[t->cur] : (size_t)-1; }

void table_move(Table *t, long d)
{
    long c = (long)t->cur + d;
    if (c >= (long)t->src.nrow) c = (long)t->src.nrow - 1;
    if (c < 0) c = 0;
    t->cur = (size_t)c;
}

/* the columns' widths for w: the first text column takes the rest */
static void widths(const Table *t, int w, int *cw)
{
    int fixed = 0, flex = -1;
    for (int c = 0; c < t->src.ncol; c++) {
        cw[c] = t->src.cols[c].width;
        if (flex < 0 && !t->src.cols[c].num) flex = c;
        fixed += cw[c] + 1;
    }
    /* (a little more for long names; the rest stays empty so that the
     * numbers sit next to what they are of) */
    if (flex >= 0 && fixed < w) cw[flex] += w - fixed < 24 ? w - fixed : 24;
}

void table_draw(Table *t, Canvas *c, int x, int y, int w, int h)
{
    const TableSrc *S = &t->src;
    int cw[32], n = S->ncol < 32 ? S->ncol : 32;
    widths(t, w, cw);
    /* the header: the sort column marked */
    int cx = x;
    for (int k = 0; k < n && cx < x + w; k++) {
        char hd[80];
        const char *mark = k == t->sort_col ? (t->desc ? (c->ascii ? "v" : "\xe2\x96\xbc") : (c->ascii ? "^" : "\xe2\x96\xb2")) : "";
        snprintf(hd, sizeof hd, "%s%s", S->cols[k].title, mark);
        int mw = cw[k] < x + w - cx ? cw[k] : x + w - cx;
        uint8_t at = ATTR_BOLD | (k == t->ccol ? ATTR_REVERSE : 0); /* (the column cursor) */
        if (S->cols[k].num) canvas_text_right(c, cx + mw, y, hd, mw, ROLE_TITLE, at);
        else canvas_text(c, cx, y, hd, mw, ROLE_TITLE, at);
        cx += cw[k] + 1;
    }
    int rows = h - 1;
    if (rows < 1) return;
    if (t->cur < t->off) t->off = t->cur;
    if (t->cur >= t->off + (size_t)rows) t->off = t->cur - (size_t)rows + 1;
    for (int r = 0; r < rows; r++) {
        size_t i = t->off + (size_t)r;
        if (i >= S->nrow) break;
        size_t row = t->order[i];
        uint8_t attr = i == t->cur ? ATTR_REVERSE : 0;
        if (attr) canvas_hline(c, x, x + w, y + 1 + r, ' ', ROLE_DEFAULT, 0, attr);
        cx = x;
        for (int k = 0; k < n && cx < x + w; k++) {
            char b[256];
            S->cell(S->ctx, row, k, b, sizeof b);
            int mw = cw[k] < x + w - cx ? cw[k] : x + w - cx;
            if (S->cols[k].num) canvas_text_right(c, cx + mw, y + 1 + r, b, mw, ROLE_DEFAULT, attr);
            else canvas_text(c, cx, y + 1 + r, b, mw, ROLE_DEFAULT, attr);
            cx += cw[k] + 1;
        }
    }
}

bool table_write_csv(const Table *t, const char *path)
{
    const TableSrc *S = &t->src;
    AtomicFile af;
    if (!atomic_open(&af, path, false)) return false;
    for (int k = 0; k < S->ncol; k++) {
        if (k) putc(',', af.f);
        csv_field(af.f, S->cols[k].title, strlen(S->cols[k].title));
    }
    putc('\n', af.f);
    for (size_t i = 0; i < S->nrow; i++) {
        size_t row = t->order[i];
        for (int k = 0; k < S->ncol; k++) {
            if (k) putc(',', af.f);
            if (S->cols[k].num) {
                double v = S->num(S->ctx, row, k);
                if (isnan(v)) continue; /* (no value: an empty field) */
                if (v == floor(v) && fabs(v) < 9e15) fprintf(af.f, "%.0f", v);
                else fprintf(af.f, "%.9g", v);
            } else {
                char b[1024];
                S->cell(S->ctx, row, k, b, sizeof b);
                csv_field(af.f, b, strlen(b));
            }
        }
        putc('\n', af.f);
    }
    return atomic_commit(&af, !ferror(af.f));
}
