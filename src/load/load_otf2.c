/*
 * load_otf2.c — OTF2 archives (Score-P and other tools) through the OTF2
 * library (Debian's libopen-trace-format2-dev), when tnav is built with it
 * (HAVE_OTF2, set by the Makefile when pkg-config finds otf2).
 *
 * Owns: opening an archive, reading its events in time order through the
 * library's global event reader (its global definitions are read first by
 * load_otf2_defs.c into the tables of otf2_int.h), and the meaning of each
 * event:
 *   Enter / Leave            a begin and an end of the region, paired per
 *                            location by pair.c into an interval (state);
 *   MpiSend, MpiIsend        a send to the receiver's location (peer), with
 *                            tag and bytes;
 *   MpiRecv, MpiIrecv        a receive from the sender's location, with tag
 *                            and bytes, lasting from the start of the
 *                            innermost open region (MPI_Recv, MPI_Wait)
 *                            until the data is there;
 *   MpiCollectiveBegin/End   one sync interval from the begin to the end,
 *                            named by the operation (MPI_Barrier...), in
 *                            the group COMM#N (the N-th collective this
 *                            location ends on that communicator: the same
 *                            instance on every member), with the fields
 *                            root (its location) and coll_bytes (sent +
 *                            received);
 *   Metric                   a counter per member, named by the member;
 *   Parameter*               an instant named "NAME = VALUE";
 *   ProgramBegin/End, MpiIsendComplete, MpiIrecvRequest, MeasurementOnOff,
 *   ThreadFork/Join, OmpFork/Join, ThreadTeamBegin/End, ThreadCreate/
 *   Begin/Wait/End, unknown records: an instant (mark) named by the event
 *   (the threads' own work is their locations' Enter/Leave regions);
 *   any other kind (RMA, I/O, OpenMP...) is counted and reported as one
 *                            rejection, "N events of kinds tnav does not
 *                            read".
 * A location is a location group (an MPI rank: "MPI Rank 3"), an activity
 * one of its locations (a thread: "Master thread"; an unnamed one by its
 * id). Times are clock ticks from the archive's global offset, in ns.
 * A rejected event's "line" is its number in the archive's time order.
 * Invariants: one archive is one batch, read by one thread; ranks in MPI
 * events are translated to locations through the communicator's group.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_int.h"

#ifndef HAVE_OTF2

bool otf2_built_in(void) { return false; }

char *otf2_parse_archive(const char *path, Batch *b)
{
    (void)path;
    (void)b;
    return xstrdup("an OTF2 archive, and this tnav was built without OTF2 (install libopen-trace-format2-dev and "
                   "rebuild: make)");
}

#else

#include "otf2_int.h"

bool otf2_built_in(void) { return true; }

static void fmt_ns(O *o, int slot, OTF2_TimeStamp t)
{
    /* ticks from the offset to ns, without overflow for any 64-bit tick */
    uint64_t d = t >= o->offset ? t - o->offset : 0;
    uint64_t res = o->res ? o->res : 1000000000ULL;
    unsigned __int128 ns = (unsigned __int128)d * 1000000000ULL / res;
    uint64_t v = ns > (unsigned __int128)INT64_MAX ? (uint64_t)INT64_MAX : (uint64_t)ns;
    snprintf(o->buf[slot], sizeof o->buf[slot], "%llu", (unsigned long long)v);
}

/* start a record at location id, time t (labels in slots 0-1, time in 2) */
static bool begin_rec(O *o, Rec *r, OTF2_LocationRef id, OTF2_TimeStamp t)
{
    rec_reset(r);
    const char *loc, *act;
    otf2_labels_of(o, otf2_find_loc(o, id), 0, &loc, &act);
    rec_set(r, F_LOC, loc, strlen(loc), V_STR);
    rec_set(r, F_ACT, act, strlen(act), V_STR);
    fmt_ns(o, 2, t);
    rec_set(r, F_TS, o->buf[2], strlen(o->buf[2]), V_TEXT);
    return true;
}

static void commit(O *o, Rec *r)
{
    char why[256];
    o->b->cur_line = o->ev;
    if (!batch_commit(o->b, r, why, sizeof why)) {
        o->b->pend_role = PR_NONE;
        o->b->pend_key = NONE32;
        batch_reject(o->b, o->ev, "%s", why);
    }
}

static void pend_loc(O *o, uint8_t role, const char *tag, OTF2_LocationRef id)
{
    char k[48];
    int n = snprintf(k, sizeof k, "%s%llu", tag, (unsigned long long)id);
    o->b->pend_role = role;
    o->b->pend_key = strtab_intern(&o->b->pkeys, k, (size_t)n);
}

static OTF2_CallbackCode mark(O *o, OTF2_LocationRef id, OTF2_TimeStamp t, const char *name)
{
    o->ev++;
    o->ncb++;
    Rec *r = &o->rec;
    begin_rec(o, r, id, t);
    rec_set(r, F_KIND, "mark", 4, V_STR);
    rec_set(r, F_NAME, name, strlen(name), V_STR);
    commit(o, r);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode e_enter_leave(O *o, OTF2_LocationRef id, OTF2_TimeStamp t, OTF2_RegionRef reg, bool enter)
{
    o->ev++;
    o->ncb++;
    Rec *r = &o->rec;
    begin_rec(o, r, id, t);
    rec_set(r, F_KIND, "state", 5, V_STR);
    const char *nm = reg < o->nregion ? str(o, o->region_name[reg]) : NULL;
    if (!nm) {
        snprintf(o->buf[3], sizeof o->buf[3], "region %u", (unsigned)reg);
        nm = o->buf[3];
    }
    rec_set(r, F_NAME, nm, strlen(nm), V_STR);
    pend_loc(o, enter ? PR_BEGIN : PR_END, "L", id);
    commit(o, r);
    OLoc *l = otf2_find_loc(o, id);
    if (l && enter) {
        VEC_PUSH(l->open, t);
        VEC_PUSH(l->open_reg, reg);
    } else if (l && l->open.len) {
        l->open.len--;
        l->open_reg.len--;
    }
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode e_enter(OTF2_LocationRef id, OTF2_TimeStamp t, void *ud, OTF2_AttributeList *al, OTF2_RegionRef reg)
{
    (void)al;
    return e_enter_leave(ud, id, t, reg, true);
}

static OTF2_CallbackCode e_leave(OTF2_LocationRef id, OTF2_TimeStamp t, void *ud, OTF2_AttributeList *al, OTF2_RegionRef reg)
{
    (void)al;
    return e_enter_leave(ud, id, t, reg, false);
}

static OTF2_CallbackCode p2p(O *o, OTF2_LocationRef id, OTF2_TimeStamp t, bool send, uint32_t other, OTF2_CommRef comm,
                             uint32_t tag, uint64_t len, const char *name)
{
    o->ev++;
    o->ncb++;
    Rec *r = &o->rec;
    /* a receive lasts from the start of the call it completes in (the
     * innermost open region: MPI_Recv, MPI_Wait) until the message is
     * there, so that a late sender shows as the receive's wait */
    const OLoc *me = send ? NULL : otf2_find_loc(o, id);
    uint32_t reg = me && me->open.len ? me->open_reg.v[me->open_reg.len - 1] : UINT32_MAX;
    bool mpi_call = reg < o->nregion_mpi && o->region_mpi[reg];
    if (mpi_call && me->open.v[me->open.len - 1] <= t) {
        begin_rec(o, r, id, me->open.v[me->open.len - 1]);
        fmt_ns(o, 3, t);
        rec_set(r, F_END, o->buf[3], strlen(o->buf[3]), V_TEXT);
    } else {
        begin_rec(o, r, id, t);
    }
    rec_set(r, F_KIND, send ? "send" : "recv", 4, V_STR);
    rec_set(r, F_NAME, name, strlen(name), V_STR);
    const OLoc *pl = otf2_rank_loc(o, comm, other);
    if (pl) {
        const char *ploc, *pact;
        otf2_labels_of(o, pl, 4, &ploc, &pact);
        rec_set(r, F_PEER, ploc, strlen(ploc), V_STR);
    }
    snprintf(o->buf[6], sizeof o->buf[6], "%u", tag);
    rec_set(r, F_TAG, o->buf[6], strlen(o->buf[6]), V_TEXT);
    snprintf(o->buf[7], sizeof o->buf[7], "%llu", (unsigned long long)len);
    rec_set(r, F_BYTES, o->buf[7], strlen(o->buf[7]), V_TEXT);
    commit(o, r);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode e_send(OTF2_LocationRef id, OTF2_TimeStamp t, void *ud, OTF2_AttributeList *al, uint32_t rcv,
                                OTF2_CommRef comm, uint32_t tag, uint64_t len)
{
    (void)al;
    return p2p(ud, id, t, true, rcv, comm, tag, len, "MPI_Send");
}

static OTF2_CallbackCode e_isend(OTF2_LocationRef id, OTF2_TimeStamp t, void *ud, OTF2_AttributeList *al, uint32_t rcv,
                                 OTF2_CommRef comm, uint32_t tag, uint64_t len, uint64_t req)
{
    (void)al;
    (void)req;
    return p2p(ud, id, t, true, rcv, comm, tag, len, "MPI_Isend");
}

static OTF2_CallbackCode e_recv(OTF2_LocationRef id, OTF2_TimeStamp t, void *ud, OTF2_AttributeList *al, uint32_t snd,
                                OTF2_CommRef comm, uint32_t tag, uint64_t len)
{
    (void)al;
    return p2p(ud, id, t, false, snd, comm, tag, len, "MPI_Recv");
}

static OTF2_CallbackCode e_irecv(OTF2_LocationRef id, OTF2_TimeStamp t, void *ud, OTF2_AttributeList *al, uint32_t snd,
                                 OTF2_CommRef comm, uint32_t tag, uint64_t len, uint64_t req)
{
    (void)al;
    (void)req;
    return p2p(ud, id, t, false, snd, comm, tag, len, "MPI_Irecv");
}

static OTF2_CallbackCode e_isend_done(OTF2_LocationRef id, OTF2_TimeStamp t, void *ud, OTF2_AttributeList *al, uint64_t req)
{
    (void)al;
    (void)req;
    return mark(ud, id, t, "MPI_Isend complete");
}

static OTF2_CallbackCode e_irecv_req(OTF2_LocationRef id, OTF2_TimeStamp t, void *ud, OTF2_AttributeList *al, uint64_t req)
{
    (void)al;
    (void)req;
    return mark(ud, id, t, "MPI_Irecv request");
}

static OTF2_CallbackCode e_coll_begin(OTF2_LocationRef id, OTF2_TimeStamp t, void *ud, OTF2_AttributeList *al)
{
    (void)al;
    O *o = ud;
    o->ev++;
    o->ncb++;
    /* the interval is written when it ends (its name, group and root come
     * with the end) */
    OLoc *l = otf2_find_loc(o, id);
    if (l) {
        l->in_coll = true;
        l->coll_t = t;
    }
    return OTF2_CALLBACK_SUCCESS;
}

static const char *coll_name(OTF2_CollectiveOp op)
{
    static const char *const N[] = {"MPI_Barrier", "MPI_Bcast", "MPI_Gather", "MPI_Gatherv", "MPI_Scatter", "MPI_Scatterv",
                                    "MPI_Allgather", "MPI_Allgatherv", "MPI_Alltoall", "MPI_Alltoallv", "MPI_Alltoallw",
                                    "MPI_Allreduce", "MPI_Reduce", "MPI_Reduce_scatter", "MPI_Scan", "MPI_Exscan",
                                    "MPI_Reduce_scatter_block", "create handle", "destroy handle", "allocate",
                                    "deallocate", "create handle and allocate"};
    return op < sizeof N / sizeof N[0] ? N[op] : "collective";
}

static OTF2_CallbackCode e_coll_end(OTF2_LocationRef id, OTF2_TimeStamp t, void *ud, OTF2_AttributeList *al,
                                    OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root, uint64_t sent, uint64_t recvd)
{
    (void)al;
    O *o = ud;
    o->ev++;
    o->ncb++;
    Rec *r = &o->rec;
    OLoc *l = otf2_find_loc(o, id);
    OTF2_TimeStamp t0 = l && l->in_coll && l->coll_t <= t ? l->coll_t : t;
    if (l) l->in_coll = false;
    begin_rec(o, r, id, t0);
    fmt_ns(o, 7, t);
    rec_set(r, F_END, o->buf[7], strlen(o->buf[7]), V_TEXT);
    rec_set(r, F_KIND, "sync", 4, V_STR);
    const char *nm = coll_name(op);
    rec_set(r, F_NAME, nm, strlen(nm), V_STR);
    /* the instance: the k-th collective this location ends on this comm */
    char key[48];
    int kn = snprintf(key, sizeof key, "%llu/%u", (unsigned long long)id, (unsigned)comm);
    uint32_t kid = strtab_intern(&o->collkeys, key, (size_t)kn);
    while (o->collcount.len <= kid) VEC_PUSH(o->collcount, 0);
    uint32_t k = o->collcount.v[kid]++;
    const char *cn = comm < o->ncomms ? str(o, o->comms[comm].name) : NULL;
    if (cn && *cn) snprintf(o->buf[5], sizeof o->buf[5], "%s#%u", cn, k);
    else snprintf(o->buf[5], sizeof o->buf[5], "comm %u#%u", (unsigned)comm, k);
    rec_set(r, F_GROUP, o->buf[5], strlen(o->buf[5]), V_STR);
    if (root != OTF2_UNDEFINED_UINT32) {
        const OLoc *rl = otf2_rank_loc(o, comm, root);
        if (rl) {
            const char *rloc, *ract;
            otf2_labels_of(o, rl, 3, &rloc, &ract);
            rec_add_extra(r, batch_extra_id(o->b, "root", 4), rloc, strlen(rloc), V_STR);
        }
    }
    snprintf(o->buf[6], sizeof o->buf[6], "%llu", (unsigned long long)(sent + recvd));
    rec_add_extra(r, batch_extra_id(o->b, "coll_bytes", 10), o->buf[6], strlen(o->buf[6]), V_TEXT);
    commit(o, r);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode e_metric(OTF2_LocationRef id, OTF2_TimeStamp t, void *ud, OTF2_AttributeList *al,
                                  OTF2_MetricRef metric, uint8_t n, const OTF2_Type *types, const OTF2_MetricValue *vals)
{
    (void)al;
    O *o = ud;
    o->ncb++;
    const OMetric *m = metric < o->nmetrics ? &o->metrics[metric] : NULL;
    for (uint8_t i = 0; i < n; i++) {
        o->ev++;
        Rec *r = &o->rec;
        begin_rec(o, r, id, t);
        rec_set(r, F_KIND, "counter", 7, V_STR);
        const char *nm = m && i < m->n && m->members[i] < o->nmember ? str(o, o->member_name[m->members[i]]) : NULL;
        if (!nm) {
            snprintf(o->buf[3], sizeof o->buf[3], "metric %u.%u", (unsigned)metric, (unsigned)i);
            nm = o->buf[3];
        }
        rec_set(r, F_NAME, nm, strlen(nm), V_STR);
        if (types[i] == OTF2_TYPE_DOUBLE) snprintf(o->buf[4], sizeof o->buf[4], "%.17g", vals[i].floating_point);
        else if (types[i] == OTF2_TYPE_INT64) snprintf(o->buf[4], sizeof o->buf[4], "%lld", (long long)vals[i].signed_int);
        else snprintf(o->buf[4], sizeof o->buf[4], "%llu", (unsigned long long)vals[i].unsigned_int);
        rec_set(r, F_VALUE, o->buf[4], strlen(o->buf[4]), V_TEXT);
        commit(o, r);
    }
    return OTF2_CALLBACK_SUCCESS;
}

/* a parameter: an instant named "NAME = VALUE" */
static OTF2_CallbackCode param(O *o, OTF2_LocationRef id, OTF2_TimeStamp t, OTF2_ParameterRef p, const char *val)
{
    const char *nm = p < o->nparam ? str(o, o->param_name[p]) : NULL;
    char name[256];
    if (nm) snprintf(name, sizeof name, "%s = %s", nm, val);
    else snprintf(name, sizeof name, "parameter %u = %s", (unsigned)p, val);
    return mark(o, id, t, name);
}

static OTF2_CallbackCode e_pstr(OTF2_LocationRef id, OTF2_TimeStamp t, void *ud, OTF2_AttributeList *al, OTF2_ParameterRef p,
                                OTF2_StringRef v)
{
    (void)al;
    O *o = ud;
    const char *s = str(o, v);
    return param(o, id, t, p, s ? s : "?");
}

static OTF2_CallbackCode e_pint(OTF2_LocationRef id, OTF2_TimeStamp t, void *ud, OTF2_AttributeList *al, OTF2_ParameterRef p,
                                int64_t v)
{
    (void)al;
    char b[32];
    snprintf(b, sizeof b, "%lld", (long long)v);
    return param(ud, id, t, p, b);
}

static OTF2_CallbackCode e_puint(OTF2_LocationRef id, OTF2_TimeStamp t, void *ud, OTF2_AttributeList *al,
                                 OTF2_ParameterRef p, uint64_t v)
{
    (void)al;
    char b[32];
    snprintf(b, sizeof b, "%llu", (unsigned long long)v);
    return param(ud, id, t, p, b);
}

static OTF2_CallbackCode e_pbegin(OTF2_LocationRef id, OTF2_TimeStamp t, void *ud, OTF2_AttributeList *al,
                                  OTF2_StringRef name, uint32_t n, const OTF2_StringRef *args)
{
    (void)al;
    (void)name;
    (void)n;
    (void)args;
    return mark(ud, id, t, "program begin");
}

static OTF2_CallbackCode e_pend(OTF2_LocationRef id, OTF2_TimeStamp t, void *ud, OTF2_AttributeList *al, int64_t st)
{
    (void)al;
    (void)st;
    return mark(ud, id, t, "program end");
}

static OTF2_CallbackCode e_onoff(OTF2_LocationRef id, OTF2_TimeStamp t, void *ud, OTF2_AttributeList *al,
                                 OTF2_MeasurementMode mode)
{
    (void)al;
    return mark(ud, id, t, mode == OTF2_MEASUREMENT_ON ? "measurement on" : "measurement off");
}

static OTF2_CallbackCode e_fork(OTF2_LocationRef id, OTF2_TimeStamp t, void *ud, OTF2_AttributeList *al, OTF2_Paradigm p,
                                uint32_t n)
{
    (void)al;
    (void)p;
    (void)n;
    return mark(ud, id, t, "thread fork");
}

static OTF2_CallbackCode e_join(OTF2_LocationRef id, OTF2_TimeStamp t, void *ud, OTF2_AttributeList *al, OTF2_Paradigm p)
{
    (void)al;
    (void)p;
    return mark(ud, id, t, "thread join");
}

/* threads: fork/join, teams, pthread-style create/begin/wait/end: instants */
static OTF2_CallbackCode e_ompfork(OTF2_LocationRef id, OTF2_TimeStamp t, void *ud, OTF2_AttributeList *al, uint32_t n)
{
    (void)al;
    (void)n;
    return mark(ud, id, t, "omp fork");
}
static OTF2_CallbackCode e_ompjoin(OTF2_LocationRef id, OTF2_TimeStamp t, void *ud, OTF2_AttributeList *al)
{
    (void)al;
    return mark(ud, id, t, "omp join");
}
static OTF2_CallbackCode e_teambegin(OTF2_LocationRef id, OTF2_TimeStamp t, void *ud, OTF2_AttributeList *al, OTF2_CommRef c)
{
    (void)al;
    (void)c;
    return mark(ud, id, t, "thread team begin");
}
static OTF2_CallbackCode e_teamend(OTF2_LocationRef id, OTF2_TimeStamp t, void *ud, OTF2_AttributeList *al, OTF2_CommRef c)
{
    (void)al;
    (void)c;
    return mark(ud, id, t, "thread team end");
}
#define THREAD_EV(fn, what)                                                                                           \
    static OTF2_CallbackCode fn(OTF2_LocationRef id, OTF2_TimeStamp t, void *ud, OTF2_AttributeList *al, OTF2_CommRef c, \
                                uint64_t seq)                                                                          \
    {                                                                                                                  \
        (void)al;                                                                                                      \
        (void)c;                                                                                                       \
        (void)seq;                                                                                                     \
        return mark(ud, id, t, what);                                                                                  \
    }
THREAD_EV(e_tcreate, "thread create")
THREAD_EV(e_tbegin, "thread begin")
THREAD_EV(e_twait, "thread wait")
THREAD_EV(e_tend, "thread end")

static OTF2_CallbackCode e_unknown(OTF2_LocationRef id, OTF2_TimeStamp t, void *ud, OTF2_AttributeList *al)
{
    (void)al;
    return mark(ud, id, t, "other OTF2 event");
}

/* errors: the library's message into o->err (first one), never to stderr */
static _Thread_local O *tl_o;
static OTF2_ErrorCode on_error(void *ud, const char *file, uint64_t line, const char *fn, OTF2_ErrorCode code,
                               const char *fmt, va_list va)
{
    (void)ud;
    (void)file;
    (void)line;
    (void)fn;
    if (tl_o && !tl_o->err[0]) {
        char m[256] = "";
        if (fmt) vsnprintf(m, sizeof m, fmt, va);
        snprintf(tl_o->err, sizeof tl_o->err, "%s%s%s", OTF2_Error_GetDescription(code), m[0] ? ": " : "", m);
    }
    return code;
}

char *otf2_parse_archive(const char *path, Batch *b)
{
    O o;
    memset(&o, 0, sizeof o);
    o.b = b;
    strtab_init(&o.collkeys);
    b->unit_exp = 0;
    tl_o = &o;
    OTF2_Error_RegisterCallback(on_error, NULL);
    char *err = NULL;
    OTF2_Reader *rd = OTF2_Reader_Open(path);
    if (!rd) {
        err = xasprintf("cannot open the OTF2 archive%s%s", o.err[0] ? ": " : "", o.err);
        goto out;
    }
    OTF2_Reader_SetSerialCollectiveCallbacks(rd);
    OTF2_GlobalDefReader *gdr = OTF2_Reader_GetGlobalDefReader(rd);
    if (!gdr) {
        err = xasprintf("cannot read the OTF2 archive's definitions%s%s", o.err[0] ? ": " : "", o.err);
        goto close;
    }
    OTF2_GlobalDefReaderCallbacks *dcb = OTF2_GlobalDefReaderCallbacks_New();
    otf2_defs_callbacks(dcb);
    OTF2_Reader_RegisterGlobalDefCallbacks(rd, gdr, dcb, &o);
    OTF2_GlobalDefReaderCallbacks_Delete(dcb);
    uint64_t ndefs = 0;
    if (OTF2_Reader_ReadAllGlobalDefinitions(rd, gdr, &ndefs) != OTF2_SUCCESS) {
        err = xasprintf("cannot read the OTF2 archive's definitions%s%s", o.err[0] ? ": " : "", o.err);
        goto close;
    }
    otf2_defs_done(&o);
    for (size_t i = 0; i < o.locs.len; i++) OTF2_Reader_SelectLocation(rd, o.locs.v[i].id);
    bool defs = OTF2_Reader_OpenDefFiles(rd) == OTF2_SUCCESS;
    if (OTF2_Reader_OpenEvtFiles(rd) != OTF2_SUCCESS) {
        err = xasprintf("cannot open the OTF2 archive's event files%s%s", o.err[0] ? ": " : "", o.err);
        goto close;
    }
    for (size_t i = 0; i < o.locs.len; i++) {
        if (defs) {
            /* (local definitions hold the mapping tables of a location) */
            OTF2_DefReader *dr = OTF2_Reader_GetDefReader(rd, o.locs.v[i].id);
            if (dr) {
                uint64_t k = 0;
                OTF2_Reader_ReadAllLocalDefinitions(rd, dr, &k);
                OTF2_Reader_CloseDefReader(rd, dr);
            }
        }
        OTF2_Reader_GetEvtReader(rd, o.locs.v[i].id);
    }
    if (defs) OTF2_Reader_CloseDefFiles(rd);
    o.err[0] = 0; /* (a location without local definitions is normal) */
    OTF2_GlobalEvtReader *ger = OTF2_Reader_GetGlobalEvtReader(rd);
    if (!ger) {
        err = xasprintf("cannot read the OTF2 archive's events%s%s", o.err[0] ? ": " : "", o.err);
        goto close;
    }
    OTF2_GlobalEvtReaderCallbacks *ecb = OTF2_GlobalEvtReaderCallbacks_New();
    OTF2_GlobalEvtReaderCallbacks_SetEnterCallback(ecb, e_enter);
    OTF2_GlobalEvtReaderCallbacks_SetLeaveCallback(ecb, e_leave);
    OTF2_GlobalEvtReaderCallbacks_SetMpiSendCallback(ecb, e_send);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCallback(ecb, e_isend);
    OTF2_GlobalEvtReaderCallbacks_SetMpiRecvCallback(ecb, e_recv);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvCallback(ecb, e_irecv);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCompleteCallback(ecb, e_isend_done);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvRequestCallback(ecb, e_irecv_req);
    OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveBeginCallback(ecb, e_coll_begin);
    OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveEndCallback(ecb, e_coll_end);
    OTF2_GlobalEvtReaderCallbacks_SetMetricCallback(ecb, e_metric);
    OTF2_GlobalEvtReaderCallbacks_SetProgramBeginCallback(ecb, e_pbegin);
    OTF2_GlobalEvtReaderCallbacks_SetProgramEndCallback(ecb, e_pend);
    OTF2_GlobalEvtReaderCallbacks_SetMeasurementOnOffCallback(ecb, e_onoff);
    OTF2_GlobalEvtReaderCallbacks_SetThreadForkCallback(ecb, e_fork);
    OTF2_GlobalEvtReaderCallbacks_SetThreadJoinCallback(ecb, e_join);
    OTF2_GlobalEvtReaderCallbacks_SetUnknownCallback(ecb, e_unknown);
    OTF2_GlobalEvtReaderCallbacks_SetOmpForkCallback(ecb, e_ompfork);
    OTF2_GlobalEvtReaderCallbacks_SetOmpJoinCallback(ecb, e_ompjoin);
    OTF2_GlobalEvtReaderCallbacks_SetThreadTeamBeginCallback(ecb, e_teambegin);
    OTF2_GlobalEvtReaderCallbacks_SetThreadTeamEndCallback(ecb, e_teamend);
    OTF2_GlobalEvtReaderCallbacks_SetThreadCreateCallback(ecb, e_tcreate);
    OTF2_GlobalEvtReaderCallbacks_SetThreadBeginCallback(ecb, e_tbegin);
    OTF2_GlobalEvtReaderCallbacks_SetThreadWaitCallback(ecb, e_twait);
    OTF2_GlobalEvtReaderCallbacks_SetThreadEndCallback(ecb, e_tend);
    OTF2_GlobalEvtReaderCallbacks_SetParameterStringCallback(ecb, e_pstr);
    OTF2_GlobalEvtReaderCallbacks_SetParameterIntCallback(ecb, e_pint);
    OTF2_GlobalEvtReaderCallbacks_SetParameterUnsignedIntCallback(ecb, e_puint);
    OTF2_Reader_RegisterGlobalEvtCallbacks(rd, ger, ecb, &o);
    OTF2_GlobalEvtReaderCallbacks_Delete(ecb);
    uint64_t nev = 0;
    OTF2_ErrorCode rc = OTF2_Reader_ReadAllGlobalEvents(rd, ger, &nev);
    if (rc != OTF2_SUCCESS) {
        /* a cut-off or damaged event file: what came before it loads, and
         * the rest is reported (counted as one rejected record) */
        if (nev > 0)
            batch_reject(b, o.ev + 1, "the archive's events end early (%s): the %llu events before were loaded",
                         o.err[0] ? o.err : OTF2_Error_GetDescription(rc), (unsigned long long)nev);
        else
            err = xasprintf("reading the OTF2 archive's events failed: %s", o.err[0] ? o.err : OTF2_Error_GetDescription(rc));
    }
    if (nev > o.ncb)
        /* (RMA, I/O, OpenMP, CUDA... events: not lost without a word) */
        batch_reject(b, o.ev + 1,
                     "%llu events of kinds tnav does not read (RMA, I/O, OpenMP, thread, calling context...) were left out",
                     (unsigned long long)(nev - o.ncb));
    OTF2_Reader_CloseGlobalEvtReader(rd, ger);
    OTF2_Reader_CloseEvtFiles(rd);
close:
    OTF2_Reader_Close(rd);
out:
    VEC_FREE(o.rec.x);
    otf2_free(&o);
    tl_o = NULL;
    return err;
}

#endif
