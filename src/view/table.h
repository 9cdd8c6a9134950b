/*
 * table.h — a sortable table drawn into a cell canvas and saved as CSV:
 * the interface's profile, time, waits, syncs and critical-path tables.
 *
 * Owns: the row order (a permutation of the source's rows), the sort
 * column and direction, the cursor and the first row shown. The cells come
 * from the source's callbacks, row by row, when drawn or written: a table
 * of a million rows costs its order array, not a million strings.
 * Invariants: order is a permutation of 0..nrow-1; a sort is stable (ties
 * keep the source's order), by the column's number (numeric columns) or
 * text; cur < nrow (or 0); the CSV has a header row and every row in the
 * order shown, numbers as plain numbers (nanoseconds, bytes, ratios), and
 * is written whole or not at all (atomic_open).
 */
#ifndef TNAV_TABLE_H
#define TNAV_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "view/canvas.h"

typedef struct {
    const char *title;
    bool num;  /* a number: right-aligned, sorted largest first */
    int width; /* columns on screen (the first text column takes what is left) */
} TableCol;

typedef struct {
    int ncol;
    const TableCol *cols;
    size_t nrow;
    void *ctx;
    /* the text of a cell as shown */
    void (*cell)(void *ctx, size_t row, int col, char *buf, size_t sz);
    /* the number of a numeric cell (sorting, CSV) */
    double (*num)(void *ctx, size_t row, int col);
} TableSrc;

typedef struct {
    TableSrc src;
    size_t *order;
    int sort_col; /* -1: the source's order */
    bool desc;
    int ccol;     /* the column under the cursor (its header reversed): what s sorts by */
    size_t cur, off;
} Table;

void table_init(Table *t, const TableSrc *src);
void table_free(Table *t);
/* sort by col (-1: the source's order); desc: largest (or last) first */
void table_sort(Table *t, int col, bool desc);
/* the next sort column (numbers largest first, text A..Z), back to none */
void table_sort_next(Table *t);
/* the column cursor moves d columns (clamped) */
void table_col_move(Table *t, int d);
/* sort by the column under the cursor (numbers largest first, text A..Z);
 * already sorted by it: the other way */
void table_sort_cursor(Table *t);
/* the source row under the cursor, or (size_t)-1 when empty */
size_t table_current(const Table *t);
void table_move(Table *t, long delta);
/* header, rows from off (scrolled to show cur), cursor row reversed */
void table_draw(Table *t, Canvas *c, int x, int y, int w, int h);
/* false with errno when the file cannot be written */
bool table_write_csv(const Table *t, const char *path);

#endif
