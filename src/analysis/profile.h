/*
 * profile.h — the profile by name: calls, inclusive and self (exclusive)
 * time, mean, min, max, standard deviation and share (`tnav stats`;
 * doc/ANALYSES.md).
 *
 * Owns: the per-name table over the intervals of a store (every kind but
 * msg records), for the selected events. Self time is an interval's
 * duration minus that of the intervals directly inside it on the same
 * activity (children, selected or not); since intervals of one activity
 * nest (overlap that does not nest goes to lanes when loading), the self
 * times of an activity add up to the time it is covered by intervals.
 * Invariants: Σ self over the names = the selected intervals' self times;
 * share = self / Σ self; rows sorted by the chosen column, largest first
 * (names: alphabetical), ties by name.
 */
#ifndef TNAV_PROFILE_H
#define TNAV_PROFILE_H

#include <stdint.h>
#include <stdio.h>

#include "store/store.h"

typedef struct {
    uint32_t name;   /* string id, or NONE32 (unnamed intervals, by kind: kind) */
    uint16_t kind;   /* for unnamed ones */
    uint64_t calls;
    int64_t incl, self, min, max;
    double sumsq;    /* of durations, for the standard deviation */
} ProfRow;

typedef enum { PS_SELF, PS_INCL, PS_CALLS, PS_MEAN, PS_MIN, PS_MAX, PS_STDDEV, PS_NAME } ProfSort;

typedef struct {
    ProfRow *rows;
    uint32_t n;
    int64_t total_self;
} Profile;

/* Over the intervals sel selects (NULL: all) that overlap the window
 * [t0, t1), their times clipped to it. */
void profile_compute(const Store *s, const uint64_t *sel, int64_t t0, int64_t t1, Profile *p);
/* The time of the intervals directly inside each event within [t0, t1)
 * (n + 1 entries, a new array), and an interval's self time in the window
 * from it; the profile from it (the same window). */
int64_t *profile_children(const Store *s, int64_t t0, int64_t t1);
int64_t profile_self(const Store *s, const int64_t *child, uint32_t e, int64_t t0, int64_t t1);
void profile_compute_with(const Store *s, const uint64_t *sel, const int64_t *child, int64_t t0, int64_t t1,
                          Profile *p);
void profile_sort(const Store *s, Profile *p, ProfSort by);
/* the population standard deviation of a row's durations, to the ns */
int64_t profile_stddev(const ProfRow *r);
/* false for an unknown column name (self, share, total, incl, calls, mean,
 * min, max, stddev, name) */
bool profile_sort_by_name(const char *col, ProfSort *out);
void profile_free(Profile *p);
/* the row's name as shown: its name, or "(KIND)" */
const char *profile_row_name(const Store *s, const ProfRow *r, char *buf, size_t sz);
void profile_print_json(FILE *f, const Store *s, const Profile *p);
void profile_print_text(FILE *f, const Store *s, const Profile *p, int top);

#endif
