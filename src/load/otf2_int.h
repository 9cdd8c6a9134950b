/*
 * otf2_int.h — what the two halves of the OTF2 reader share (load_otf2.c:
 * the archive and its events; load_otf2_defs.c: its definitions): the
 * reader's state O, the definitions as tables indexed by the archive's refs,
 * and the lookups the events make in them. Included only when HAVE_OTF2.
 * Invariants: a table indexed by a ref is grown to the ref (GROW), never
 * past REF_MAX; locs is sorted by id (otf2_defs_done) before any event.
 */
#ifndef TNAV_OTF2_INT_H
#define TNAV_OTF2_INT_H

#include <otf2/otf2.h>

#include "load_int.h"

typedef struct {
    uint64_t id;
    uint32_t name;  /* string ref */
    uint32_t group; /* location group ref */
    uint32_t type;
    bool in_coll;   /* a collective began here and has not ended */
    OTF2_TimeStamp coll_t;
    VEC(OTF2_TimeStamp) open; /* the enter times of its open regions */
    VEC(uint32_t) open_reg;   /* and the regions */
} OLoc;

typedef struct {
    uint32_t type, flags;
    uint32_t n;
    uint64_t *members;
} OGroup;

typedef struct {
    uint32_t name, group;
} OComm;

typedef struct {
    uint32_t n;
    uint32_t *members;
} OMetric;

typedef struct {
    Batch *b;
    char **strs;
    size_t nstrs;
    uint32_t *lgroup_name; /* location group ref -> string ref */
    size_t nlgroup;
    VEC(OLoc) locs;
    bool locs_sorted;
    uint32_t *region_name;
    uint8_t *region_mpi; /* its paradigm is MPI (an MPI call) */
    size_t nregion, nregion_mpi;
    OGroup *groups;
    size_t ngroups;
    OComm *comms;
    size_t ncomms;
    OMetric *metrics; /* class or instance ref -> members */
    size_t nmetrics;
    uint32_t *member_name;
    size_t nmember;
    uint64_t res, offset;
    uint64_t ev;  /* rows made, for "line" numbers */
    uint64_t ncb; /* events handled (the library counts every one it read) */
    uint32_t *param_name; /* parameter ref -> string ref */
    size_t nparam;
    /* collective instances: per (location, comm), how many began */
    StrTab collkeys;
    VEC(uint32_t) collcount;
    char buf[8][128];
    char err[512];
    Rec rec;
} O;

#define GROW(arr, n, idx, type, fill)                                                                                  \
    do {                                                                                                               \
        if ((idx) >= (n)) {                                                                                            \
            size_t nn_ = (n) ? (n) : 16;                                                                               \
            while (nn_ <= (idx)) nn_ *= 2;                                                                             \
            arr = xrealloc(arr, nn_ * sizeof(type));                                                                   \
            for (size_t i_ = (n); i_ < nn_; i_++) arr[i_] = fill;                                                      \
            n = nn_;                                                                                                   \
        }                                                                                                              \
    } while (0)

/* refs above this are not kept (a corrupt archive must not make tnav
 * allocate gigabytes); events naming them read as unnamed */
#define REF_MAX (1u << 24)

static inline const char *str(const O *o, uint32_t ref) { return ref < o->nstrs && o->strs[ref] ? o->strs[ref] : NULL; }

/* the definitions' callbacks, all set on dcb (load_otf2_defs.c) */
void otf2_defs_callbacks(OTF2_GlobalDefReaderCallbacks *dcb);
/* after the global definitions: the locations sorted by id */
void otf2_defs_done(O *o);
/* the location of an id (NULL if the archive defines none) */
OLoc *otf2_find_loc(O *o, uint64_t id);
/* the location's labels: its group's name (else "group N"), its own name
 * (else its id), formatted into o->buf[slot] and o->buf[slot + 1] */
void otf2_labels_of(O *o, const OLoc *l, int slot, const char **loc, const char **act);
/* the location of rank r of a communicator */
const OLoc *otf2_rank_loc(O *o, OTF2_CommRef comm, uint32_t r);
/* everything O holds (not O itself) */
void otf2_free(O *o);

#endif
