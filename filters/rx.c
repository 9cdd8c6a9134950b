/*
 * rx.c — PCRE2 wrapper; see rx.h.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "rx.h"

#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/util.h"

struct Regex {
    pcre2_code *code;
    pcre2_match_data *md;
    pcre2_match_context *mc;
    pcre2_jit_stack *js;
    bool jit;
    char *pattern;
    size_t plen;
    int flags;
};

Regex *rx_compile(const char *pattern, size_t n, int flags, char *err, size_t errsz, size_t *erroff)
{
    uint32_t opts = PCRE2_UTF;
    if (flags & RX_I) opts |= PCRE2_CASELESS;
    if (flags & RX_X) opts |= PCRE2_EXTENDED;
    if (flags & RX_S) opts |= PCRE2_DOTALL;
    if (flags & RX_M) opts |= PCRE2_MULTILINE;
    int code;
    PCRE2_SIZE off;
    pcre2_code *re = pcre2_compile((PCRE2_SPTR)pattern, n, opts, &code, &off, NULL);
    if (!re) {
        PCRE2_UCHAR msg[256];
        pcre2_get_error_message(code, msg, sizeof msg);
        snprintf(err, errsz, "%s", (const char *)msg);
        *erroff = off;
        return NULL;
    }
    Regex *rx = xcalloc(1, sizeof *rx);
    rx->code = re;
    rx->pattern = xstrndup(pattern, n);
    rx->plen = n;
    rx->flags = flags;
    /* TNAV_NO_JIT=1: the interpreter only (where JIT memory is refused, and
     * for the tests of the interpreter's limits) */
    const char *nj = getenv("TNAV_NO_JIT");
    rx->jit = !(nj && nj[0] == '1') && pcre2_jit_compile(re, PCRE2_JIT_COMPLETE) == 0;
    rx->md = pcre2_match_data_create_from_pattern(re, NULL);
    rx->mc = pcre2_match_context_create(NULL);
    if (!rx->md || !rx->mc) die_oom();
    pcre2_set_match_limit(rx->mc, RX_MATCH_LIMIT);
    pcre2_set_depth_limit(rx->mc, RX_DEPTH_LIMIT);
    if (rx->jit) {
        /* (PCRE2's default JIT stack is 32 KiB on the machine stack) */
        rx->js = pcre2_jit_stack_create(32 << 10, RX_JIT_STACK, NULL);
        if (!rx->js) die_oom();
        pcre2_jit_stack_assign(rx->mc, NULL, rx->js);
    }
    return rx;
}

int rx_match(Regex *rx, const char *s, size_t n)
{
    int r;
    /* subjects are valid UTF-8 (checked by the loaders) */
    if (rx->jit) r = pcre2_jit_match(rx->code, (PCRE2_SPTR)s, n, 0, 0, rx->md, rx->mc);
    else r = pcre2_match(rx->code, (PCRE2_SPTR)s, n, 0, PCRE2_NO_UTF_CHECK, rx->md, rx->mc);
    if (r >= 0) return 1;
    if (r == PCRE2_ERROR_NOMATCH) return 0;
    return r < 0 ? r : -1;
}

void rx_error(int code, char *buf, size_t sz)
{
    PCRE2_UCHAR msg[256];
    if (pcre2_get_error_message(code, msg, sizeof msg) < 0) snprintf(buf, sz, "PCRE2 error %d", code);
    else snprintf(buf, sz, "%s", (const char *)msg);
}

void rx_fail_message(const Regex *rx, int code, const char *s, size_t n, char *buf, size_t sz)
{
    char why[256];
    rx_error(code, why, sizeof why);
    /* the subject: its first 40 bytes (whole characters), then "…" */
    size_t k = n < 40 ? n : 40;
    while (k < n && k > 0 && ((unsigned char)s[k] & 0xC0) == 0x80) k--;
    size_t pl = rx->plen < 80 ? rx->plen : 80;
    while (pl < rx->plen && pl > 0 && ((unsigned char)rx->pattern[pl] & 0xC0) == 0x80) pl--;
    snprintf(buf, sz, "regex /%.*s%s/ failed on '%.*s%s': %s", (int)pl, rx->pattern, pl < rx->plen ? "…" : "", (int)k, s,
             k < n ? "…" : "", why);
}

bool rx_jit(const Regex *rx) { return rx->jit; }

const char *rx_pattern(const Regex *rx, size_t *n, int *flags)
{
    *n = rx->plen;
    *flags = rx->flags;
    return rx->pattern;
}

void rx_free(Regex *rx)
{
    if (!rx) return;
    pcre2_match_data_free(rx->md);
    pcre2_match_context_free(rx->mc);
    pcre2_jit_stack_free(rx->js);
    pcre2_code_free(rx->code);
    free(rx->pattern);
    free(rx);
}
