/*
 * fuzz_csv.c — libFuzzer target for the CSV loader.
 *
 * Owns: only this harness (nothing in src/). Each input is loaded with
 * load_traces() from memory (LoadOpts.mem: no file, no system call per
 * input) with the format forced to CSV, 1 worker (2 when bit 5 of b0 is
 * set; workers run in turn: par_set_serial) and a /dev/null report stream;
 * then, for inputs of odd length or with small chunks, once more: with
 * --csv-engine libcsv (odd length), sequentially in one chunk (small
 * chunks), or both at once (both; libcsv on the same chunks when bit 7 of
 * b0 is set); the sequential load reads a file when bit 4 of b0 is set (a
 * memfd, else mkstemp under /tmp unlinked at once; opened as
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
 *   bit 7      odd length and small chunks: libcsv on the same chunks
 *              (else libcsv in one chunk);
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

    Digest fast, other;
    load_digest(&r, &fast);
    /* One more load, of what must not change the result: for inputs of odd
     * length the engine (libcsv), for chunked ones the chunking (a
     * sequential load of one chunk), for inputs that are both, both at once
     * (a difference is then either's: the reproducer tells which) or, when
     * bit 7 of b0 is set, libcsv on the same chunks. (One load, not two:
     * each load costs as much as the fuzzer's own work per run.) */
    bool odd = size & 1;
    if (odd || r.chunk) {
        Run o = r;
        if (odd) o.engine = CSV_ENGINE_LIBCSV;
        if (r.chunk && !(odd && (b0 & 0x80))) {
            o.threads = 1;
            o.chunk = 0;
            o.file = (b0 >> 4) & 1;
        }
        load_digest(&o, &other);
        compare(&fast, &other, !odd ? "chunked vs sequential" : o.chunk == r.chunk ? "hybrid vs libcsv" : "hybrid chunked vs libcsv sequential");
    }
    return 0;
}
