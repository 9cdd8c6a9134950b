/*
 * store_build_int.h — what the files of the store's build share (not used
 * outside src/store/): the build's state (Build) and the steps that live in
 * their own files.
 *
 * Owns: nothing at run time; the declarations of the build's steps:
 * store_build.c (driver: dictionaries, prefix+number ids, locations,
 * placement, time order, then the rest), store_cols.c (typed columns),
 * store_acts.c (pairs, activities, moves, spawns, act_ev, depths),
 * store_msgs.c (messages, sync groups).
 * Invariants: a step reads only what the steps before it wrote (the order
 * is store_build's); Build lives for one store_build call.
 */
#ifndef TNAV_STORE_BUILD_INT_H
#define TNAV_STORE_BUILD_INT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "keymap.h"
#include "store.h"
#include "base/pages.h"
#include "base/par.h"

/* One field buffer of one batch, a job of the columns' build (n: its
 * values; first: its column is sorted after its jobs, see store_cols.c) */
typedef struct {
    size_t b, f, n;
    bool first;
} FieldJob;

typedef struct {
    uint8_t type;
    bool sparse;
    bool bysort;     /* sparse with few values: written per batch, then sorted */
    size_t m;
    size_t wsz;      /* bytes per value */
    uint64_t *bits;  /* presence (sparse: temporary, for ranks) */
    uint32_t *rank;  /* sparse: set bits before each word */
    atomic_uint pending; /* bysort: the group's jobs of pass 1 not yet done (the last one sorts) */
} ColBuild;

typedef struct {
    Batch **bs;
    size_t nb;
    size_t n;
    Store *s;
    int threads;
    uint32_t **nremap, **sremap, **lremap; /* per batch: names, values, labels -> store string id */
    uint32_t **xremap, **premap, **ploc;
    uint16_t **kremap;
    uint32_t *loc_of_sid;
    KeyMap pairs;
    uint32_t *gp_loc, *gp_act, *uf;
    uint32_t gp_cap; /* entries allocated in gp_loc, gp_act, uf */
    uint32_t **start; /* per batch, per location: event number of its first row */
    uint32_t **dest;  /* per batch: row -> event number (in the batch's akey array) */
    size_t *dest_bytes; /* per batch: the size of that array */
    struct {
        void *p;
        size_t bytes;
    } *warm; /* 2 x nb: the batches' arrays no longer read, pages touched (take_warm) */
    void *act_mem, *depth_mem; /* warm memory for s->act and s->depth (else NULL) */
    bool move;       /* pages can be moved (pages_can_move): the placement uses pool */
    bool defer_tail; /* steps 8 and 9 left for store_finish_tail */
    PagePool pool;   /* arrays no longer read, for the build's next arrays (store_build.c) */
    atomic_size_t ncomm; /* communication events (counted by the placement) */
    uint32_t *pair;   /* event -> global pair (later: root pair) */
    StrTab xnames;
    JobQueue q;
    int **colof; /* per batch: field code -> column, or -1 */
    size_t **coloff; /* per batch: field code -> first slot of its values in a bysort column */
    int fields_pass;
    FieldJob *fjobs; /* the columns' group's jobs for fields_worker (store_cols.c) */
    int place_pass; /* PLACE_DEST, then one column at a time */
    int col_lo, col_hi; /* the columns being built (a group: see build_columns) */
    int *colof_n;
    ColBuild *cb;
    uint32_t *newpos; /* for moved positions: where the event went */
    uint32_t *pair_first; /* per pair (those of the placement): its first event in time order, or NONE32 */
    uint32_t npair_first;
    uint64_t *moved;  /* bitmap of the positions whose event moved */
    atomic_bool resorted;
    uint64_t *xfull; /* every prefix+number id's value, sorted (s->xids before those in strs left) */
    uint32_t *xsid;  /* per value in xfull: its string id (NULL: SID_XID + its index) */
    size_t nxfull;
    /* activities */
    struct {
        uint32_t loc, act; /* location index, act label string id */
        int64_t order;
    } *act_orders; /* explicit places (Chrome's thread_sort_index), in input order */
    size_t nact_orders;
    uint32_t *act_tmp_cnt; /* per worker x activity counts */
    size_t nw_cnt;
    atomic_uint max_depth;
} Build;

/* store_place.c: 4. placement, one pass (Build.place_pass) at a time:
 * every row's event number and pair, then one column at a time */
enum { PLACE_DEST, PLACE_DUR, PLACE_NAME, PLACE_KIND, PLACE_TS };
void place_worker(void *ctx, int w, int nw);
/* store_place.c: 5. time order inside each location (newpos, moved), and
 * the batches' rows' event numbers updated for the events that moved */
void locsort_worker(void *ctx, int w, int nw);
void redest_worker(void *ctx, int w, int nw);
/* store_place.c: warm memory (Build.warm): the smallest warm block of at
 * least bytes (else fresh, xmalloc_big; freed with free()); one handed
 * back; keep the k largest of at least bytes, the others given back */
void *take_warm(Build *B, size_t bytes);
void give_warm(Build *B, void *p, size_t bytes);
void warm_keep(Build *B, int k, size_t bytes);
/* store_build.c: an LSD radix sort of 64-bit keys (ascending) */
void sort_u64(uint64_t *v, size_t m);
/* the same, by bits lo..63 only, stable (keys equal there keep their order) */
void sort_u64_from(uint64_t *v, size_t m, int lo);
/* sort_u64_from with buf (m values, or NULL: one of its own) for its
 * scratch array */
void sort_u64_buf(uint64_t *v, size_t m, int lo, uint64_t *buf);
/* store_acts.c: (location, act label) pairs and their union-find */
uint32_t gp_get(Build *B, uint32_t loc, uint32_t act, bool create);
uint32_t uf_find(uint32_t *uf, uint32_t x);
void uf_union(uint32_t *uf, uint32_t a, uint32_t b);
/* store_acts.c: activities, moves, spawns, parents, act_ev and depths;
 * with groups, the sync groups (build_groups) too, alongside the depths */
void build_activities(Build *B, bool groups);
/* store_cols.c: the field buffers scattered into typed columns */
void build_columns(Build *B);
/* store_msgs.c: messages (by id, then first-in first-out), sync groups */
void build_messages(Store *s, int threads); /* (threads > 1: its key sort, pairing and table on two) */
void build_groups(Store *s, int threads); /* (threads > 1: the groups' sorts and summaries on two) */

#endif
