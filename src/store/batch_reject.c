/*
 * batch_reject.c — a batch's rejected records: each counted under its
 * problem (the reason without its particulars), the first few of each
 * problem kept with their line and full reason, and the batch's first
 * rejections by (line, reason) kept for the report.
 * Owns: Batch.probs and Batch.rej (freed by batch_free). Invariants: at most
 * BATCH_PROBLEMS problems, the last one "other problems" for the rest;
 * PROBLEM_FIRST first rejections per problem; unless keep_all_rejects, at
 * most max_rejects_kept kept, and they are the smallest by (line, reason)
 * whatever order the passes reject them in; a rejection is formatted only
 * when it is kept.
 */
#include "batch.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* (the key is cut at ": ", " (", " at " or a printf directive) */
size_t problem_len(const char *r)
{
    size_t i = 0;
    for (; r[i]; i++)
        if ((r[i] == ':' && r[i + 1] == ' ') || (r[i] == ' ' && r[i + 1] == '(') || r[i] == '%' ||
            (r[i] == ' ' && r[i + 1] == 'a' && r[i + 2] == 't' && r[i + 3] == ' '))
            break;
    while (i && r[i - 1] == ' ') i--;
    return i;
}

bool batch_reject_shown(const Batch *b, const char *problem)
{
    if (b->keep_all_rejects || b->rej.len < b->max_rejects_kept) return true;
    for (int i = 0; i < b->nprobs; i++)
        if (!strcmp(b->probs[i].key, problem)) return b->probs[i].nfirst < PROBLEM_FIRST;
    return b->nprobs < BATCH_PROBLEMS || b->probs[BATCH_PROBLEMS - 1].nfirst < PROBLEM_FIRST;
}

void batch_reject(Batch *b, uint64_t line, const char *fmt, ...)
{
    b->nrej++;
    /* the problem, from the format (or the message of a "%s") without
     * formatting anything: most rejections are only counted */
    const char *key = fmt;
    if (!strcmp(fmt, "%s")) {
        va_list aq;
        va_start(aq, fmt);
        key = va_arg(aq, const char *);
        va_end(aq);
    }
    /* its particulars out: up to ": ", " (" or " at " */
    size_t klen = problem_len(key);
    char kb[96];
    size_t kn = klen < sizeof kb - 1 ? klen : sizeof kb - 1;
    memcpy(kb, key, kn);
    kb[kn] = 0;
    if (!b->probs) b->probs = xcalloc(BATCH_PROBLEMS, sizeof(Problem));
    Problem *P = NULL;
    for (int i = 0; i < b->nprobs && !P; i++)
        if (!strcmp(b->probs[i].key, kb)) P = &b->probs[i];
    if (!P) {
        if (b->nprobs < BATCH_PROBLEMS) {
            P = &b->probs[b->nprobs++];
            P->key = b->nprobs == BATCH_PROBLEMS ? xstrdup("other problems") : xstrdup(kb);
        } else {
            P = &b->probs[BATCH_PROBLEMS - 1];
        }
    }
    P->count++;
    bool first = P->nfirst < PROBLEM_FIRST;
    bool keep = b->keep_all_rejects || b->rej.len < b->max_rejects_kept;
    size_t evict = SIZE_MAX;
    char buf[512];
    bool formatted = false;
    if (!keep && b->rej.len) {
        /* the kept ones are the batch's first by (line, reason): one added
         * later (by a pass after parsing) that comes before the last kept
         * one takes its place */
        size_t hi = 0;
        for (size_t i = 1; i < b->rej.len; i++)
            if (b->rej.v[i].line > b->rej.v[hi].line ||
                (b->rej.v[i].line == b->rej.v[hi].line && strcmp(b->rej.v[i].reason, b->rej.v[hi].reason) > 0))
                hi = i;
        if (line <= b->rej.v[hi].line) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(buf, sizeof buf, fmt, ap);
            va_end(ap);
            formatted = true;
            if (line < b->rej.v[hi].line || strcmp(buf, b->rej.v[hi].reason) < 0) {
                evict = hi;
                keep = true;
            }
        }
    }
    if (!first && !keep) return;
    if (!formatted) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(buf, sizeof buf, fmt, ap);
        va_end(ap);
    }
    if (first) {
        P->first[P->nfirst].line = line;
        P->first[P->nfirst].reason = xstrdup(buf);
        P->nfirst++;
    }
    if (keep && evict != SIZE_MAX) {
        free(b->rej.v[evict].reason);
        b->rej.v[evict].line = line;
        b->rej.v[evict].reason = xstrdup(buf);
    } else if (keep) {
        BatchReject r = {line, xstrdup(buf)};
        VEC_PUSH(b->rej, r);
    }
}
