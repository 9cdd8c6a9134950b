/*
 * bench_libcsv.c — how fast libcsv alone tokenises a file: csv_parse with
 * callbacks that only count fields and records, one thread, the file read
 * into memory first. Used by tests/bench.sh for doc/PERFORMANCE.md.
 * Owns nothing; prints one line.
 */
#include <csv.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static size_t nfields, nrecords;
static void on_field(void *s, size_t len, void *data)
{
    (void)s;
    (void)len;
    (void)data;
    nfields++;
}
static void on_record(int c, void *data)
{
    (void)c;
    (void)data;
    nrecords++;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: bench_libcsv FILE.csv\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "cannot read %s\n", argv[1]);
        return 2;
    }
    fclose(f);
    struct csv_parser p;
    csv_init(&p, 0);
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    csv_parse(&p, buf, (size_t)n, on_field, on_record, NULL);
    csv_fini(&p, on_field, on_record, NULL);
    clock_gettime(CLOCK_MONOTONIC, &b);
    double s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9;
    printf("libcsv alone (no-op callbacks, 1 thread): %zu records, %zu fields in %.3f s = %.0f MB/s\n", nrecords,
           nfields, s, (double)n / 1e6 / s);
    csv_free(&p);
    free(buf);
    return 0;
}
