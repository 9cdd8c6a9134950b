/*
 * emit_chrome.h — events written as Chrome Trace Event Format JSON (see
 * emit_chrome.c for the mapping).
 * Owns: one output's state. Invariant: chrome_begin, any number of
 * chrome_event and one chrome_flows, then chrome_end write one valid JSON
 * object.
 */
#ifndef TNAV_EMIT_CHROME_H
#define TNAV_EMIT_CHROME_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "emit.h"
#include "store/store.h"

typedef struct {
    const Store *s;
    const uint64_t *sel; /* the events written (NULL: all) */
    Emitter em;          /* every field, as JSON values (the args) */
    int64_t origin;      /* subtracted from every time (0, or t_min for epoch times) */
    bool first;
} ChromeOut;

/* the object's start and the names of the processes and threads that have
 * events in sel */
void chrome_begin(FILE *f, ChromeOut *co, const Store *s, const uint64_t *sel);
void chrome_event(FILE *f, ChromeOut *co, size_t e);
/* a flow per message whose send and receive are both in sel */
void chrome_flows(FILE *f, ChromeOut *co);
void chrome_end(FILE *f, ChromeOut *co);

#endif
