/*
 * out.h — output helpers shared by the headless commands: JSON string
 * escaping, byte-size and count formatting, files written whole or not at
 * all.
 * Owns: nothing. Invariants: JSON output is valid UTF-8 JSON for any input
 * string the store can hold (control characters and invalid bytes escaped);
 * a regular file written through atomic_open/atomic_commit appears at its
 * path complete (flushed, synced, renamed over the old one) or not at all.
 */
#ifndef TNAV_OUT_H
#define TNAV_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

void json_str(FILE *f, const char *s, size_t n);
static inline void json_cstr(FILE *f, const char *s) { json_str(f, s, strlen(s)); }
/* A CSV field: quoted when it holds a separator, a quote, a line break, or
 * leading / trailing white space, is empty (to tell it from absent), or
 * starts with '#' (first on a line, it would read as a comment). */
void csv_field(FILE *f, const char *s, size_t n);
/* "4 KiB", "1.5 MiB", "12 B" */
char *format_bytes(char *buf, size_t sz, int64_t b);
/* Columns a UTF-8 text takes in a plain-text table (a code point each). */
int text_cols(const char *s);
/* s left-aligned in a column of w (padded; a longer text cut, ending
 * with "…"), for the aligned text tables of the commands. */
void fput_col(FILE *f, const char *s, int w);

/* A file written whole or not at all: atomic_open creates a temp file
 * beside path (NULL with errno on failure); atomic_commit flushes, syncs,
 * closes and renames it over path, or, when ok is false or any of that
 * fails, removes it (false with errno). A path that exists and is not a
 * regular file (a device, a pipe) is written in place; a symbolic link's
 * target is replaced, not the link. A new file gets mode 0666 (0600 when
 * private_file) less the umask; a replaced one keeps its mode. */
typedef struct {
    FILE *f;
    char *tmp, *path;
} AtomicFile;
bool atomic_open(AtomicFile *af, const char *path, bool private_file);
bool atomic_commit(AtomicFile *af, bool ok);

#endif
