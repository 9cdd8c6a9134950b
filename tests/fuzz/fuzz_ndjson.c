/*
 * fuzz_ndjson.c — libFuzzer target for the NDJSON loader.
 *
 * Owns: only this harness (nothing in src/). Each input is loaded with
 * load_traces() from memory (LoadOpts.mem: no file, no system call per
 * input), with the format forced to NDJSON and a /dev/null report stream,
 * once (A), and for inputs of odd length twice (A and B, compared):
 *   A  1 thread, no chunking: the sequential reference;
 *   B  small chunks (TNAV_CHUNK_BYTES), so that chunk seams are exercised
 *      on small inputs, parsed by 2 workers when bit 5 of b0 is set (else
 *      by 1: chunks are parsed into separate batches either way); when bit
 *      4 of b0 is set, B reads the input through a file (a memfd, else
 *      mkstemp under /tmp unlinked at once; opened as /proc/self/fd/N, so
 *      that a crash leaves no file behind), so that the file reader's
 *      windows are checked against memory.
 * Options taken from the first input byte b0 (which is also file content):
 *   bit 0      B's chunk size: set: 7 + (b0 >> 1) % 50 bytes (many seams);
 *              clear: 64 + 4 * (b0 >> 1) bytes (a few seams); raised so
 *              that there are at most MAX_CHUNKS chunks;
 *   bit 1      keep_all_rejects (else the default cap on kept rejections);
 *   bits 2..3  --time-unit (ns, us, ms, s);
 *   bits 6..7  both set (b0 >= 0xC0, e.g. a BOM): --strict (a rejection
 *              makes the load fail).
 * Invariants checked (abort() on a violation, after one line on stderr):
 *  - no crash, hang, leak or sanitizer report (libFuzzer, ASan, UBSan);
 *  - store_check() returns NULL for every store load_traces() builds;
 *  - A and B give the same result (load.h: the result does not depend on
 *    the number of threads or on where chunks are cut): return code,
 *    per-file counts of events, rejections and blank records, the kept
 *    rejections (line and reason) and a digest of the whole store (event
 *    columns by content, locations, activities, messages, sync groups,
 *    optional and extra columns).
 * FUZZ_IGNORE_BLANK=1 in the environment skips the blank-count comparison
 * (to fuzz past a known difference). Nothing is printed per input.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "load/load.h"
#include "store/store.h"
#include "base/util.h"

#define FUZZ_FORMAT FMT_NDJSON
#define FUZZ_NAME "fuzz_ndjson"

#include "fuzz_common.h"

/* ---- NDJSON specific --------------------------------------------------- */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    harness_init();
    set_input(data, size);
    unsigned b0 = size ? data[0] : 0;
    Run a = {FUZZ_FORMAT, CSV_ENGINE_HYBRID, 1, 0, 0, false, false, false};
    a.keep_all = (b0 >> 1) & 1;
    a.unit_exp = 3 * (int)((b0 >> 2) & 3);
    a.strict = b0 >= 0xC0;
    Run b = a;
    b.threads = 1 + ((b0 >> 5) & 1); /* workers, run in turn (par_set_serial) */
    b.file = (b0 >> 4) & 1;
    b.chunk = chunk_bytes((b0 & 1) ? 7 + (int)((b0 >> 1) % 50) : 64 + 4 * (int)(b0 >> 1), size);

    Digest seq, par;
    load_digest(&a, &seq);
    /* B for inputs of odd length only: a second load halves the runs a
     * second, and coverage comes from runs (every input still gets A's
     * invariants: no crash, no sanitizer report, store_check) */
    if (size & 1) {
        load_digest(&b, &par);
        compare(&seq, &par, "1 worker vs 2 workers + small chunks");
    }
    return 0;
}
