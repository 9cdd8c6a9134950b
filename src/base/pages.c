/*
 * pages.c — implementation of pages.h: page moving between big arrays.
 * Owns: the probe of whether mremap can move pages here (once per process)
 * and each pool's runs and blocks (see pages.h for the invariants);
 * pages_fill_from moves a recycler block's pages (util.c).
 */
#include "pages.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util.h"

#ifndef MREMAP_DONTUNMAP
#define MREMAP_DONTUNMAP 4
#endif

#define HUGE ((size_t)2 << 20)

static uintptr_t up(uintptr_t x) { return (x + HUGE - 1) & ~(uintptr_t)(HUGE - 1); }
static uintptr_t down(uintptr_t x) { return x & ~(uintptr_t)(HUGE - 1); }

/* move n bytes (whole pages) from src to dst, leaving src mapped and
 * empty; false when the kernel (or a tool intercepting the call) refuses */
static bool move_pages(char *src, char *dst, size_t n)
{
    void *r = mremap(src, n, n, MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP, dst);
    return r == (void *)dst;
}

/* 0 unknown, 1 yes, 2 no */
static _Atomic int g_can;
/* every pool's lists are changed under this lock (workers give blocks
 * while other threads' xmalloc_big take pages: pages_serve) */
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static PagePool *_Atomic g_served;
static PagePool g_kept; /* pages_keep's, under g_lock */
static atomic_size_t g_moved; /* bytes moved in this process */

bool pages_can_move(void)
{
    int c = atomic_load(&g_can);
    if (c) return c == 1;
    bool ok = false;
    const char *off = getenv("TNAV_NO_PAGE_MOVE");
    long pg = sysconf(_SC_PAGESIZE);
    if (!(off && *off) && pg == 4096) {
        /* a page written at a, moved to b: b reads it, a reads zero */
        char *a = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (a != MAP_FAILED) {
            a[0] = 7;
            a[4095] = 9;
            ok = move_pages(a, a + 4096, 4096) && a[4096] == 7 && a[8191] == 9 && a[0] == 0;
            munmap(a, 8192);
        }
    }
    atomic_store(&g_can, ok ? 1 : 2);
    return ok;
}

void pages_probe_again(void) { atomic_store(&g_can, 0); }

size_t pages_moved_total(void) { return atomic_load(&g_moved); }

void pages_init(PagePool *pp) { memset(pp, 0, sizeof *pp); }

static void give(PagePool *pp, void *blk, size_t n, size_t used);

void pages_give(PagePool *pp, void *blk, size_t n, size_t used)
{
    if (!blk) return;
    pthread_mutex_lock(&g_lock);
    give(pp, blk, n, used);
    pthread_mutex_unlock(&g_lock);
}

static void add_blk(PagePool *pp, void *blk)
{
    if (pp->nblk == pp->capblk) {
        pp->capblk = pp->capblk ? 2 * pp->capblk : 16;
        pp->blk = xrealloc(pp->blk, pp->capblk * sizeof *pp->blk);
    }
    pp->blk[pp->nblk++] = blk;
}

static void add_run(PagePool *pp, char *p, size_t n)
{
    if (pp->nrun == pp->caprun) {
        pp->caprun = pp->caprun ? 2 * pp->caprun : 16;
        pp->run = xrealloc(pp->run, pp->caprun * sizeof *pp->run);
    }
    pp->run[pp->nrun].p = p;
    pp->run[pp->nrun].n = n;
    pp->nrun++;
}

static void give(PagePool *pp, void *blk, size_t n, size_t used)
{
    add_blk(pp, blk);
    if (!pages_can_move()) {
        mem_release(blk, n);
        return;
    }
    if (used > n) used = n;
    uintptr_t b = (uintptr_t)blk, e = b + n;
    uintptr_t a = up(b), z = up(b + used);
    if (z > down(e)) z = down(e);
    if (z <= a) {
        mem_release(blk, n);
        return;
    }
    /* (the pages outside the whole 2 MiB ones kept: given back now) */
    mem_release(blk, a - b);
    mem_release((void *)z, e - z);
    add_run(pp, (char *)a, z - a);
}

static size_t pages_held_nl(const PagePool *pp)
{
    size_t h = 0;
    for (size_t i = 0; i < pp->nrun; i++) h += pp->run[i].n;
    return h;
}

size_t pages_held(const PagePool *pp)
{
    pthread_mutex_lock(&g_lock);
    size_t h = pages_held_nl(pp);
    pthread_mutex_unlock(&g_lock);
    return h;
}

void pages_trim(PagePool *pp, size_t keep)
{
    if (pp->keep) return;
    pthread_mutex_lock(&g_lock);
    size_t h = pages_held_nl(pp);
    /* (the first runs' pages given back first: the last ones are taken first) */
    for (size_t i = 0; i < pp->nrun && h > keep; i++) {
        size_t cut = h - keep < pp->run[i].n ? (h - keep) & ~(HUGE - 1) : pp->run[i].n;
        if (!cut) break;
        mem_release(pp->run[i].p, cut);
        pp->run[i].p += cut;
        pp->run[i].n -= cut;
        h -= cut;
    }
    size_t k = 0;
    for (size_t i = 0; i < pp->nrun; i++)
        if (pp->run[i].n) pp->run[k++] = pp->run[i];
    pp->nrun = k;
    pthread_mutex_unlock(&g_lock);
}

/* whether the 2 MiB at p are (nearly) all untouched: a new block's
 * contents are undefined, so moving pages over it is always correct, but a
 * block from the heap may reuse touched memory, which moving would throw
 * away (a page or a few touched, such as the first one an allocator
 * fills, do not matter) */
static bool untouched(char *p)
{
    unsigned char v[HUGE / 4096];
    if (mincore(p, HUGE, v) != 0) return false;
    size_t res = 0;
    for (size_t i = 0; i < sizeof v; i++) res += v[i] & 1;
    return res <= 8;
}

/* the whole 2 MiB pages of p[0..n) never touched, replaced by pages of
 * the pool as far as it has them */
static void fill(PagePool *pp, char *p, size_t n)
{
    if (!pp->nrun || !pages_can_move()) return;
    uintptr_t a = up((uintptr_t)p), z = down((uintptr_t)p + n);
    for (uintptr_t d = a; d < z && pp->nrun;) {
        if (!untouched((char *)d)) {
            d += HUGE;
            continue;
        }
        /* this page and the untouched ones after it, from the last run */
        size_t span = HUGE;
        size_t *rn = &pp->run[pp->nrun - 1].n;
        while (d + span < z && span < *rn && untouched((char *)(d + span))) span += HUGE;
        char *src = pp->run[pp->nrun - 1].p + *rn - span;
        if (!move_pages(src, (char *)d, span)) {
            atomic_store(&g_can, 2); /* (not again: the rest stays fresh) */
            return;
        }
        pp->moved += span;
        atomic_fetch_add(&g_moved, span);
        *rn -= span;
        if (!*rn) pp->nrun--;
        d += span;
    }
}

size_t pages_fill_from(void *p, size_t n, char *src, size_t *srcn)
{
    if (!*srcn || !pages_can_move()) return 0;
    size_t moved = 0;
    uintptr_t a = up((uintptr_t)p), z = down((uintptr_t)p + n);
    for (uintptr_t d = a; d < z && *srcn;) {
        if (!untouched((char *)d)) {
            d += HUGE;
            continue;
        }
        size_t span = HUGE;
        while (d + span < z && span < *srcn && untouched((char *)(d + span))) span += HUGE;
        if (!move_pages(src + *srcn - span, (char *)d, span)) {
            atomic_store(&g_can, 2);
            break;
        }
        moved += span;
        *srcn -= span;
        d += span;
    }
    atomic_fetch_add(&g_moved, moved);
    return moved;
}

void pages_fill(PagePool *pp, void *p, size_t n)
{
    pthread_mutex_lock(&g_lock);
    fill(pp, p, n);
    pthread_mutex_unlock(&g_lock);
}

void *pages_alloc(PagePool *pp, size_t n)
{
    char *p = big_alloc_fresh(n ? n : 1);
    if (!p) die_oom();
    pages_fill(pp, p, n);
    big_cache_donate(p, n);
    return p;
}

void pages_serve(PagePool *pp) { atomic_store(&g_served, pp); }

void pages_fill_served(void *p, size_t n)
{
    if (!atomic_load(&g_served)) return;
    pthread_mutex_lock(&g_lock);
    PagePool *pp = atomic_load(&g_served);
    if (pp) fill(pp, p, n);
    pthread_mutex_unlock(&g_lock);
}

void pages_drop(PagePool *pp)
{
    /* under the lock: another thread's xmalloc_big may be filling from
     * this pool (a served one); once the lock is ours none is, and none
     * starts after */
    pthread_mutex_lock(&g_lock);
    if (atomic_load(&g_served) == pp) atomic_store(&g_served, NULL);
    for (size_t i = 0; i < pp->nrun; i++) mem_release(pp->run[i].p, pp->run[i].n);
    pp->nrun = 0;
    pthread_mutex_unlock(&g_lock);
    for (size_t i = 0; i < pp->nblk; i++) free(pp->blk[i]);
    free(pp->run);
    free(pp->blk);
    memset(pp, 0, sizeof *pp);
}

void pages_keep(PagePool *pp)
{
    pthread_mutex_lock(&g_lock);
    if (atomic_load(&g_served) == pp) atomic_store(&g_served, NULL);
    for (size_t i = 0; i < pp->nrun; i++) add_run(&g_kept, pp->run[i].p, pp->run[i].n);
    for (size_t i = 0; i < pp->nblk; i++) add_blk(&g_kept, pp->blk[i]);
    if (g_kept.nrun) atomic_store(&g_served, &g_kept);
    pthread_mutex_unlock(&g_lock);
    free(pp->run);
    free(pp->blk);
    memset(pp, 0, sizeof *pp);
}

size_t pages_kept(void) { return pages_held(&g_kept); }

void pages_kept_drop(void) { pages_drop(&g_kept); }
