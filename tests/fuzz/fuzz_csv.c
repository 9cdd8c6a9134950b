/*
 * fuzz_csv.c — libFuzzer target for the CSV loader.
 *
 * Owns: only this harness (nothing in src/). Each input is loaded with
 * load_traces() from memory (LoadOpts.mem: no file, no system call per
 * input) with the format forced to CSV, 1 worker (2 when bit 5 of b0 is
 * set; workers run in turn: par_set_serial) and a /dev/null report stream;
 * for inputs of odd length again with --csv-engine libcsv; with small
 * chunks, also sequentially in one chunk, through a file when bit 4 of b0
 * is set (a memfd, else mkstemp under /tmp unlinked at once; opened as
 * /proc/self/fd/N, so that a crash leaves no file behind), so that the
 * file reader's windows are checked against memory.
 * Options taken from the first input byte b0 (which is also file content):
 *   bit 0      small chunks: TNAV_CHUNK_BYTES = 7 + (b0 >> 1) % 50, so that
 *              chunk seams (and the re-parse of a chunk that began inside a
 *              quoted record) are exercised on small inputs (raised so
 *              that there are at most MAX_CHUNKS chunks);
 *   bit 1      keep_all_rejects (else the default cap on kept rejections);
 *   bits 2..3  --time-unit (ns, us, ms, s);
 *   bit 4      the sequential load of a chunked input reads a file;
 *   bit 5      2 workers (else 1);
 *   bits 6..7  both set (b0 >= 0xC0, e.g. a BOM): --strict (a rejection
 *              makes the load fail).
 * Invariants checked (abort() on a violation, after one line on stderr):
 *  - no crash, hang, leak or sanitizer report (libFuzzer, ASan, UBSan);
 *  - store_check() returns NULL for every store load_traces() builds;
 *  - the hybrid engine (byte scanner + libcsv for quoted records) and
 *    --csv-engine libcsv give the same result: return code, per-file counts
 *    of events, rejections and blank records, the kept rejections (line and
 *    reason) and a digest of the whole store (event columns by content,
 *    locations, activities, messages, sync groups, optional and extra
 *    columns);
 *  - with small chunks, the chunked 2-worker load equals a sequential
 *    1-worker load of one chunk (load.h: the result does not depend on the
 *    number of threads or on where chunks are cut), compared the same way.
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

#define FUZZ_FORMAT FMT_CSV
#define FUZZ_NAME "fuzz_csv"

#include "fuzz_common.h"

/* ---- CSV specific ------------------------------------------------------ */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    harness_init();
    set_input(data, size);
    unsigned b0 = size ? data[0] : 0;
    Run r = {FUZZ_FORMAT, CSV_ENGINE_HYBRID, 2, 0, 0, false, false, false};
    r.threads = 1 + ((b0 >> 5) & 1); /* workers, run in turn (par_set_serial) */
    r.chunk = (b0 & 1) ? chunk_bytes(7 + (int)((b0 >> 1) % 50), size) : 0;
    r.keep_all = (b0 >> 1) & 1;
    r.unit_exp = 3 * (int)((b0 >> 2) & 3);
    r.strict = b0 >= 0xC0;

    Digest fast, slow;
    load_digest(&r, &fast);
    if (size & 1) {
        /* (for inputs of odd length: a second load halves the runs a second) */
        Run rl = r;
        rl.engine = CSV_ENGINE_LIBCSV;
        load_digest(&rl, &slow);
        compare(&fast, &slow, "hybrid vs libcsv");
    }
    if (r.chunk) {
        Digest seq;
        Run rs = r;
        rs.threads = 1;
        rs.chunk = 0;
        rs.file = (b0 >> 4) & 1;
        load_digest(&rs, &seq);
        compare(&seq, &fast, "sequential vs chunked");
    }
    return 0;
}
