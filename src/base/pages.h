/*
 * pages.h — moving touched pages from big arrays no longer read into new
 * big arrays, instead of giving them back and touching fresh ones.
 *
 * On this kind of VM a fresh page costs a kernel clear and a host fault
 * (more than writing it several times over). A big array that will not be
 * read again is given to a PagePool; a new big array of the same build then
 * takes its 2 MiB pages by moving them (mremap: no copy, no zeroing), so the
 * memory a build touches stays close to its peak instead of its peak plus
 * everything released on the way.
 *
 * Owns: a pool's list of runs (the whole 2 MiB pages of the arrays given,
 * not yet moved) and the blocks given to it, which it frees. Invariants:
 * every address stays valid: a page moved away leaves its place mapped and
 * empty (it reads as zero), a page moved in replaces one never touched; a
 * block given to a pool is neither read nor written nor freed by its
 * former owner; the contents of an array taking pages are undefined (it is
 * written whole); when moving is not possible (an old kernel, valgrind,
 * TNAV_NO_PAGE_MOVE set) pages_can_move() is false and nothing moves: the
 * pool then gives back each array as it gets it (mem_release).
 */
#ifndef TNAV_PAGES_H
#define TNAV_PAGES_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    struct {
        char *p;
        size_t n; /* a multiple of 2 MiB, p 2 MiB-aligned */
    } *run;
    size_t nrun, caprun;
    void **blk; /* the blocks given, freed by pages_drop */
    size_t nblk, capblk;
    size_t moved; /* bytes moved out so far (for the timing notes) */
    bool keep;    /* pages_trim gives nothing back (see pages_keep) */
} PagePool;

/* whether pages can be moved in this process (probed once; false with
 * TNAV_NO_PAGE_MOVE in the environment) */
bool pages_can_move(void);
/* (for tests: the next pages_can_move probes again, reading
 * TNAV_NO_PAGE_MOVE again) */
void pages_probe_again(void);
/* the bytes moved in this process so far */
size_t pages_moved_total(void);
void pages_init(PagePool *pp);
/* Give blk (from xmalloc_big, n bytes of which the first used were
 * written) to the pool, which frees it with pages_drop: its whole 2 MiB
 * pages up to used (rounded up to a whole page) are kept to be moved, the
 * rest of its pages given back now. Without page moving, all of them are
 * given back now. */
void pages_give(PagePool *pp, void *blk, size_t n, size_t used);
/* The whole 2 MiB pages of p[0..n) that were never touched (up to a few
 * 4 KiB pages of each) replaced by pages of the pool, its last ones first,
 * as far as it has them: p's contents become undefined there. */
void pages_fill(PagePool *pp, void *p, size_t n);
/* As pages_fill, from the touched pages src[0..*srcn) of a block no one
 * uses (src 2 MiB-aligned, *srcn a multiple of 2 MiB), its last ones
 * first: *srcn lowered by what moved (the bytes returned). For the
 * recycler's cached blocks (base/util.c), whose pages a new block takes
 * before touching fresh ones. */
size_t pages_fill_from(void *p, size_t n, char *src, size_t *srcn);
/* A new big array of n bytes (freed with free()) whose whole 2 MiB pages
 * are, as far as the pool has them, pages moved from it (pages_fill); its
 * contents are undefined. */
void *pages_alloc(PagePool *pp, size_t n);
/* Until pages_serve(NULL), every block xmalloc_big takes fresh from the
 * system (on any thread; not one from its recycler) takes its whole 2 MiB
 * pages from pp as far as it has them (pages_fill_served): for the
 * transient arrays of a build's later steps. A pool being served may be
 * given blocks from any thread. */
void pages_serve(PagePool *pp);
void pages_fill_served(void *p, size_t n);
/* the bytes of whole pages the pool holds */
size_t pages_held(const PagePool *pp);
/* Give back pages of the pool until it holds at most keep bytes (rounded
 * up to a whole 2 MiB page); nothing when the pool's keep is set. */
void pages_trim(PagePool *pp, size_t keep);
/* Give back the pages left in the pool and free its blocks (no longer
 * served). */
void pages_drop(PagePool *pp);
/* Instead of pages_drop: the pages left in the pool (and its blocks) go to
 * the process's kept pool, which is then served (as by pages_serve) until
 * pages_kept_drop: the next big arrays of the process, on any thread, take
 * them instead of fresh pages. pp is left empty. */
void pages_keep(PagePool *pp);
/* the bytes of whole pages the kept pool holds */
size_t pages_kept(void);
/* Give back what is left of the kept pool (as pages_drop; big_cache_trim
 * calls it). */
void pages_kept_drop(void);

#endif
