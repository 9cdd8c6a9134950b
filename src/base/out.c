/*
 * out.c — output helpers; see out.h.
 */
#include "out.h"

#include <string.h>

#include "util.h"

void json_str(FILE *f, const char *s, size_t n)
{
    putc('"', f);
    size_t i = 0;
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            putc('\\', f);
            putc(c, f);
            i++;
        } else if (c < 0x20 || c == 0x7f) {
            switch (c) {
            case '\n': fputs("\\n", f); break;
            case '\r': fputs("\\r", f); break;
            case '\t': fputs("\\t", f); break;
            default: fprintf(f, "\\u%04x", c);
            }
            i++;
        } else if (c < 0x80) {
            putc(c, f);
            i++;
        } else {
            size_t bad = utf8_invalid_at((const unsigned char *)s + i, n - i);
            if (bad == 0) {
                fputs("\\ufffd", f); /* never produced by the loaders, which validate UTF-8 */
                i++;
                continue;
            }
            /* copy the valid run of multi-byte characters */
            size_t run = 1;
            while (i + run < n && ((unsigned char)s[i + run] & 0xC0) == 0x80) run++;
            if (run > bad) run = bad;
            fwrite(s + i, 1, run, f);
            i += run;
        }
    }
    putc('"', f);
}

char *format_bytes(char *buf, size_t sz, int64_t b)
{
    static const char *u[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    if (b < 1024) {
        snprintf(buf, sz, "%lld B", (long long)b);
        return buf;
    }
    double v = (double)b;
    int k = 0;
    while (v >= 1024 && k < 5) {
        v /= 1024;
        k++;
    }
    if (v >= 100) snprintf(buf, sz, "%.0f %s", v, u[k]);
    else if (v >= 10) snprintf(buf, sz, "%.1f %s", v, u[k]);
    else snprintf(buf, sz, "%.2f %s", v, u[k]);
    /* "4.00 KiB" -> "4 KiB" */
    char *dot = strchr(buf, '.');
    if (dot) {
        char *sp = strchr(dot, ' ');
        char *e = sp - 1;
        while (e > dot && *e == '0') e--;
        if (e == dot) e--;
        memmove(e + 1, sp, strlen(sp) + 1);
    }
    return buf;
}
