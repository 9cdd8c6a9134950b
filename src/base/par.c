/*
 * par.c — fork-join over pthreads; see par.h.
 */
#include "par.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "util.h"

typedef struct {
    par_fn fn;
    void *ctx;
    int worker, n;
} ParArg;

static void *par_tramp(void *p)
{
    ParArg *a = p;
    a->fn(a->ctx, a->worker, a->n);
    return NULL;
}

static bool g_serial;

void par_set_serial(void) { g_serial = true; }

void par_run(int nworkers, par_fn fn, void *ctx)
{
    if (nworkers < 1) nworkers = 1;
    if (nworkers == 1) {
        fn(ctx, 0, 1);
        return;
    }
    if (g_serial) {
        for (int i = 0; i < nworkers; i++) fn(ctx, i, nworkers);
        return;
    }
    pthread_t *th = xcalloc((size_t)nworkers, sizeof(pthread_t));
    ParArg *args = xcalloc((size_t)nworkers, sizeof(ParArg));
    int started = 1;
    for (int i = 1; i < nworkers; i++) {
        args[i] = (ParArg){fn, ctx, i, nworkers};
        if (pthread_create(&th[i], NULL, par_tramp, &args[i]) != 0) break;
        started++;
    }
    /* workers that could not be started are run here, in order */
    fn(ctx, 0, nworkers);
    for (int i = started; i < nworkers; i++) fn(ctx, i, nworkers);
    for (int i = 1; i < started; i++) pthread_join(th[i], NULL);
    free(th);
    free(args);
}
