/*
 * par.h — a minimal fork-join helper over pthreads.
 *
 * Owns: nothing beyond the threads of one par_run call.
 * Invariants: par_run returns only after every worker has returned; worker 0
 * runs on the calling thread; jobs handed out by par_next_job are each given
 * to exactly one worker. No worker waits for another (so that running them
 * one after the other gives the same result: par_set_serial).
 */
#ifndef TNAV_PAR_H
#define TNAV_PAR_H

#include <stdatomic.h>
#include <stddef.h>

typedef void (*par_fn)(void *ctx, int worker, int nworkers);

void par_run(int nworkers, par_fn fn, void *ctx);
/* From now on, par_run calls its workers one after the other on the calling
 * thread (the same split of the work, no thread started): for the fuzz
 * targets, where a thread per call costs more than a small input's load,
 * and sanitizers other than ThreadSanitizer find nothing in the threads
 * themselves. Call before any par_run, from one thread. */
void par_set_serial(void);

typedef struct {
    atomic_size_t next;
    size_t njobs;
} JobQueue;

static inline void jobq_init(JobQueue *q, size_t njobs)
{
    atomic_store(&q->next, 0);
    q->njobs = njobs;
}
/* Next job number, or (size_t)-1 when none is left. */
static inline size_t jobq_next(JobQueue *q)
{
    size_t j = atomic_fetch_add(&q->next, 1);
    return j < q->njobs ? j : (size_t)-1;
}

#endif
