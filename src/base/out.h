/*
 * out.h — output helpers shared by the headless commands: JSON string
 * escaping, byte-size and count formatting.
 * Owns: nothing. Invariant: JSON output is valid UTF-8 JSON for any input
 * string the store can hold (control characters and invalid bytes escaped).
 */
#ifndef TNAV_OUT_H
#define TNAV_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

void json_str(FILE *f, const char *s, size_t n);
static inline void json_cstr(FILE *f, const char *s) { json_str(f, s, strlen(s)); }
/* "4 KiB", "1.5 MiB", "12 B" */
char *format_bytes(char *buf, size_t sz, int64_t b);

#endif
