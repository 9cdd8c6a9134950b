/*
 * load_otf2_defs.c — an OTF2 archive's global definitions (strings, location
 * groups, locations, regions, groups, communicators, metrics, parameters,
 * the clock) read into the tables of O (otf2_int.h), and the lookups the
 * events make in them: a location by id, its labels, a communicator's rank.
 * Owns: those tables (freed by otf2_free). Invariants: a ref past REF_MAX
 * is ignored (a corrupt archive must not make tnav allocate gigabytes): the
 * events naming it read as unnamed; a definition given twice replaces the
 * first.
 */
#ifdef HAVE_OTF2

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "otf2_int.h"

static OTF2_CallbackCode d_clock(void *ud, uint64_t res, uint64_t off, uint64_t len, uint64_t rt)
{
    (void)len;
    (void)rt;
    O *o = ud;
    o->res = res;
    o->offset = off;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode d_string(void *ud, OTF2_StringRef self, const char *s)
{
    O *o = ud;
    if (self >= REF_MAX) return OTF2_CALLBACK_SUCCESS;
    GROW(o->strs, o->nstrs, (size_t)self, char *, NULL);
    free(o->strs[self]);
    o->strs[self] = xstrdup(s ? s : "");
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode d_lgroup(void *ud, OTF2_LocationGroupRef self, OTF2_StringRef name, OTF2_LocationGroupType t,
                                  OTF2_SystemTreeNodeRef parent, OTF2_LocationGroupRef creator)
{
    (void)t;
    (void)parent;
    (void)creator;
    O *o = ud;
    if (self >= REF_MAX) return OTF2_CALLBACK_SUCCESS;
    GROW(o->lgroup_name, o->nlgroup, (size_t)self, uint32_t, UINT32_MAX);
    o->lgroup_name[self] = name;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode d_location(void *ud, OTF2_LocationRef self, OTF2_StringRef name, OTF2_LocationType t,
                                    uint64_t nev, OTF2_LocationGroupRef group)
{
    (void)nev;
    O *o = ud;
    OLoc l = {self, name, group, t, false, 0, {0}, {0}};
    VEC_PUSH(o->locs, l);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode d_region(void *ud, OTF2_RegionRef self, OTF2_StringRef name, OTF2_StringRef canon,
                                  OTF2_StringRef desc, OTF2_RegionRole role, OTF2_Paradigm par, OTF2_RegionFlag fl,
                                  OTF2_StringRef file, uint32_t l0, uint32_t l1)
{
    (void)canon;
    (void)desc;
    (void)role;
    (void)fl;
    (void)file;
    (void)l0;
    (void)l1;
    O *o = ud;
    if (self >= REF_MAX) return OTF2_CALLBACK_SUCCESS;
    GROW(o->region_name, o->nregion, (size_t)self, uint32_t, UINT32_MAX);
    o->region_name[self] = name;
    GROW(o->region_mpi, o->nregion_mpi, (size_t)self, uint8_t, 0);
    o->region_mpi[self] = par == OTF2_PARADIGM_MPI;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode d_group(void *ud, OTF2_GroupRef self, OTF2_StringRef name, OTF2_GroupType t, OTF2_Paradigm par,
                                 OTF2_GroupFlag fl, uint32_t n, const uint64_t *members)
{
    (void)name;
    (void)par;
    O *o = ud;
    if (self >= REF_MAX) return OTF2_CALLBACK_SUCCESS;
    OGroup z = {0, 0, 0, NULL};
    GROW(o->groups, o->ngroups, (size_t)self, OGroup, z);
    OGroup *g = &o->groups[self];
    free(g->members);
    g->type = t;
    g->flags = fl;
    g->n = n;
    g->members = xmalloc(((size_t)n + 1) * sizeof(uint64_t));
    if (n) memcpy(g->members, members, (size_t)n * sizeof(uint64_t));
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode d_comm(void *ud, OTF2_CommRef self, OTF2_StringRef name, OTF2_GroupRef group, OTF2_CommRef parent,
                                OTF2_CommFlag fl)
{
    (void)parent;
    (void)fl;
    O *o = ud;
    if (self >= REF_MAX) return OTF2_CALLBACK_SUCCESS;
    OComm z = {UINT32_MAX, UINT32_MAX};
    GROW(o->comms, o->ncomms, (size_t)self, OComm, z);
    o->comms[self].name = name;
    o->comms[self].group = group;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode d_member(void *ud, OTF2_MetricMemberRef self, OTF2_StringRef name, OTF2_StringRef desc,
                                  OTF2_MetricType mt, OTF2_MetricMode mm, OTF2_Type vt, OTF2_Base base, int64_t exp,
                                  OTF2_StringRef unit)
{
    (void)desc;
    (void)mt;
    (void)mm;
    (void)vt;
    (void)base;
    (void)exp;
    (void)unit;
    O *o = ud;
    if (self >= REF_MAX) return OTF2_CALLBACK_SUCCESS;
    GROW(o->member_name, o->nmember, (size_t)self, uint32_t, UINT32_MAX);
    o->member_name[self] = name;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode d_mclass(void *ud, OTF2_MetricRef self, uint8_t n, const OTF2_MetricMemberRef *members,
                                  OTF2_MetricOccurrence occ, OTF2_RecorderKind rk)
{
    (void)occ;
    (void)rk;
    O *o = ud;
    if (self >= REF_MAX) return OTF2_CALLBACK_SUCCESS;
    OMetric z = {0, NULL};
    GROW(o->metrics, o->nmetrics, (size_t)self, OMetric, z);
    OMetric *m = &o->metrics[self];
    free(m->members);
    m->n = n;
    m->members = xmalloc(((size_t)n + 1) * sizeof(uint32_t));
    for (uint8_t i = 0; i < n; i++) m->members[i] = members[i];
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode d_minst(void *ud, OTF2_MetricRef self, OTF2_MetricRef cls, OTF2_LocationRef rec,
                                 OTF2_MetricScope sc, uint64_t scope)
{
    (void)rec;
    (void)sc;
    (void)scope;
    O *o = ud;
    if (self >= REF_MAX || cls >= o->nmetrics) return OTF2_CALLBACK_SUCCESS;
    OMetric z = {0, NULL};
    GROW(o->metrics, o->nmetrics, (size_t)self, OMetric, z);
    OMetric *c = &o->metrics[cls], *m = &o->metrics[self];
    free(m->members);
    m->n = c->n;
    m->members = xmalloc(((size_t)c->n + 1) * sizeof(uint32_t));
    if (c->n) memcpy(m->members, c->members, c->n * sizeof(uint32_t));
    return OTF2_CALLBACK_SUCCESS;
}

static int oloc_cmp(const void *a, const void *b)
{
    const OLoc *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

OLoc *otf2_find_loc(O *o, uint64_t id)
{
    OLoc key = {id, 0, 0, 0, false, 0, {0}, {0}};
    return o->locs.len ? bsearch(&key, o->locs.v, o->locs.len, sizeof(OLoc), oloc_cmp) : NULL;
}

/* the location's labels: its group's name (else "group N"), its own name
 * (else its id) */
void otf2_labels_of(O *o, const OLoc *l, int slot, const char **loc, const char **act)
{
    const char *g = l && l->group < o->nlgroup ? str(o, o->lgroup_name[l->group]) : NULL;
    if (!g || !*g) {
        if (l) snprintf(o->buf[slot], sizeof o->buf[slot], "group %u", l ? l->group : 0);
        else snprintf(o->buf[slot], sizeof o->buf[slot], "unknown");
        g = o->buf[slot];
    }
    const char *n = l ? str(o, l->name) : NULL;
    if (!n || !*n) {
        snprintf(o->buf[slot + 1], sizeof o->buf[slot + 1], "%llu", (unsigned long long)(l ? l->id : 0));
        n = o->buf[slot + 1];
    }
    *loc = g;
    *act = n;
}

/* the location of rank r of a communicator */
const OLoc *otf2_rank_loc(O *o, OTF2_CommRef comm, uint32_t r)
{
    if (comm >= o->ncomms) return NULL;
    uint32_t g = o->comms[comm].group;
    if (g >= o->ngroups || !o->groups[g].members) return NULL;
    OGroup *G = &o->groups[g];
    uint64_t idx = r;
    if (G->type == OTF2_GROUP_TYPE_COMM_SELF) return NULL;
    if (G->type == OTF2_GROUP_TYPE_COMM_GROUP && !(G->flags & OTF2_GROUP_FLAG_GLOBAL_MEMBERS)) {
        if (r >= G->n) return NULL;
        idx = G->members[r];
    }
    /* the COMM_LOCATIONS group of the same paradigm: the first one */
    for (size_t k = 0; k < o->ngroups; k++)
        if (o->groups[k].members && o->groups[k].type == OTF2_GROUP_TYPE_COMM_LOCATIONS) {
            if (idx >= o->groups[k].n) return NULL;
            return otf2_find_loc(o, o->groups[k].members[idx]);
        }
    return NULL;
}

static OTF2_CallbackCode d_param(void *ud, OTF2_ParameterRef self, OTF2_StringRef name, OTF2_ParameterType t)
{
    (void)t;
    O *o = ud;
    if (self >= REF_MAX) return OTF2_CALLBACK_SUCCESS;
    GROW(o->param_name, o->nparam, (size_t)self, uint32_t, UINT32_MAX);
    o->param_name[self] = name;
    return OTF2_CALLBACK_SUCCESS;
}

void otf2_free(O *o)
{
    for (size_t i = 0; i < o->nstrs; i++) free(o->strs[i]);
    free(o->strs);
    free(o->lgroup_name);
    for (size_t i = 0; i < o->locs.len; i++) {
        VEC_FREE(o->locs.v[i].open);
        VEC_FREE(o->locs.v[i].open_reg);
    }
    free(o->region_mpi);
    VEC_FREE(o->locs);
    free(o->region_name);
    for (size_t i = 0; i < o->ngroups; i++) free(o->groups[i].members);
    free(o->groups);
    free(o->comms);
    for (size_t i = 0; i < o->nmetrics; i++) free(o->metrics[i].members);
    free(o->metrics);
    free(o->member_name);
    free(o->param_name);
    strtab_free(&o->collkeys);
    VEC_FREE(o->collcount);
}

void otf2_defs_callbacks(OTF2_GlobalDefReaderCallbacks *dcb)
{
    OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(dcb, d_clock);
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(dcb, d_string);
    OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(dcb, d_lgroup);
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(dcb, d_location);
    OTF2_GlobalDefReaderCallbacks_SetRegionCallback(dcb, d_region);
    OTF2_GlobalDefReaderCallbacks_SetGroupCallback(dcb, d_group);
    OTF2_GlobalDefReaderCallbacks_SetCommCallback(dcb, d_comm);
    OTF2_GlobalDefReaderCallbacks_SetMetricMemberCallback(dcb, d_member);
    OTF2_GlobalDefReaderCallbacks_SetMetricClassCallback(dcb, d_mclass);
    OTF2_GlobalDefReaderCallbacks_SetMetricInstanceCallback(dcb, d_minst);
    OTF2_GlobalDefReaderCallbacks_SetParameterCallback(dcb, d_param);
}

void otf2_defs_done(O *o)
{
    if (o->locs.len) qsort(o->locs.v, o->locs.len, sizeof(OLoc), oloc_cmp);
}

#else

typedef int otf2_defs_not_built; /* (ISO C: a translation unit declares something) */

#endif
