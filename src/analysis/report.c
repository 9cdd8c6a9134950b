/*
 * report.c — see report.h.
 */
#include "report.h"

#include <inttypes.h>
#include <string.h>

#include "base/out.h"
#include "base/util.h"

void report_json_loc(FILE *f, const Store *s, uint32_t loc)
{
    if (loc == NONE32 || loc >= s->nloc) {
        fputs("null", f);
        return;
    }
    const Location *L = &s->locs[loc];
    if (L->is_int) fprintf(f, "%" PRId64, L->ival);
    else json_cstr(f, strtab_str(&s->strs, L->label));
}

uint64_t *report_window_sel(const Store *s, const uint64_t *sel, int64_t t0, int64_t t1)
{
    if (!sel && t0 <= s->t_min && t1 > s->t_max) return NULL;
    size_t nw = (s->n + 63) / 64;
    uint64_t *w = xcalloc(nw + 1, sizeof *w);
    for (size_t e = 0; e < s->n; e++)
        if ((!sel || ((sel[e >> 6] >> (e & 63)) & 1)) && ev_in_window(s, e, t0, t1)) w[e >> 6] |= 1ULL << (e & 63);
    return w;
}

const char *report_group_label(const Store *s, const SyncGroup *G, char *buf, size_t sz)
{
    if (G->type == VT_STR) return store_str(s, G->sid);
    if (G->type == VT_FLT) {
        double d;
        memcpy(&d, &G->ival, 8);
        snprintf(buf, sz, "%.17g", d);
    } else {
        snprintf(buf, sz, "%" PRId64, G->ival);
    }
    return buf;
}
