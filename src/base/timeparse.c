/*
 * timeparse.c — exact time/number parsing and time formatting; see
 * timeparse.h for the invariants (integer arithmetic, no silent overflow).
 */
#include "timeparse.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"


int unit_exp_from_name(const char *name)
{
    if (!strcmp(name, "ns")) return 0;
    if (!strcmp(name, "us")) return 3;
    if (!strcmp(name, "ms")) return 6;
    if (!strcmp(name, "s")) return 9;
    return -1;
}

const char *unit_name_from_exp(int e)
{
    switch (e) {
    case 0: return "ns";
    case 3: return "us";
    case 6: return "ms";
    case 9: return "s";
    default: return "?";
    }
}

static inline bool isdig(char c) { return c >= '0' && c <= '9'; }

/* 8 ASCII digits at p (little-endian word) -> their value; false if any
 * byte is not a digit. */
static inline bool parse8(const char *p, uint64_t *out)
{
    uint64_t v;
    memcpy(&v, p, 8);
    if (((v & 0xF0F0F0F0F0F0F0F0ULL) != 0x3030303030303030ULL) ||
        (((v + 0x0606060606060606ULL) & 0xF0F0F0F0F0F0F0F0ULL) != 0x3030303030303030ULL))
        return false;
    v &= 0x0F0F0F0F0F0F0F0FULL;
    v = (v * 2561) >> 8;
    v = ((v & 0x00FF00FF00FF00FFULL) * 6553601) >> 16;
    v = ((v & 0x0000FFFF0000FFFFULL) * 42949672960001ULL) >> 32;
    *out = v;
    return true;
}

/* up to 18 decimal digits, nothing else */
static inline bool digits_fast(const char *s, size_t n, int64_t *out)
{
    if (n == 0 || n > 18) return false;
    uint64_t v = 0;
    size_t i = 0, head = n & 7;
    for (; i < head; i++) {
        unsigned c = (unsigned)(s[i] - '0');
        if (c > 9) return false;
        v = v * 10 + c;
    }
    for (; i < n; i += 8) {
        uint64_t chunk;
        if (!parse8(s + i, &chunk)) return false;
        v = v * 100000000ULL + chunk;
    }
    *out = (int64_t)v;
    return true;
}

int parse_decimal_scaled(const char *s, size_t n, int unit_exp, int64_t *out)
{
    /* exact: up to 36 significant digits are kept in a 128-bit integer */
    typedef unsigned __int128 u128;
    const u128 LIMIT = (u128)1000000000000000000ULL * 1000000000000000000ULL; /* 1e36 */
    size_t i = 0;
    bool neg = false;
    if (i < n && (s[i] == '-' || s[i] == '+')) {
        neg = s[i] == '-';
        i++;
    }
    u128 m = 0;
    int scale = 0; /* value = m * 10^scale */
    size_t ndig = 0;
    while (i < n && isdig(s[i])) {
        if (m < LIMIT) m = m * 10 + (unsigned)(s[i] - '0');
        else scale++; /* digits past 36 significant ones are dropped */
        i++;
        ndig++;
    }
    if (i < n && s[i] == '.') {
        i++;
        while (i < n && isdig(s[i])) {
            if (m < LIMIT) {
                m = m * 10 + (unsigned)(s[i] - '0');
                scale--;
            }
            i++;
            ndig++;
        }
    }
    if (ndig == 0) return TP_NOTNUM;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        bool eneg = false;
        if (i < n && (s[i] == '-' || s[i] == '+')) {
            eneg = s[i] == '-';
            i++;
        }
        if (i >= n || !isdig(s[i])) return TP_NOTNUM;
        int e = 0;
        while (i < n && isdig(s[i])) {
            if (e < 100000) e = e * 10 + (s[i] - '0');
            i++;
        }
        scale += eneg ? -e : e;
    }
    if (i != n) return TP_NOTNUM;
    int k = scale + unit_exp;
    u128 v;
    if (m == 0) {
        v = 0;
    } else if (k >= 0) {
        if (k > 19) return TP_RANGE;
        v = m;
        for (int j = 0; j < k; j++) {
            v *= 10;
            if (v > (u128)INT64_MAX + 1) return TP_RANGE;
        }
    } else if (k < -38) {
        v = 0; /* far below 1 ns */
    } else {
        u128 p = 1;
        for (int j = 0; j < -k; j++) p *= 10;
        v = m / p;
        if ((m % p) * 2 >= p) v++; /* half away from zero */
    }
    if (v > (u128)INT64_MAX + (neg ? 1 : 0)) return TP_RANGE;
    *out = neg ? (int64_t)(0 - (uint64_t)v) : (int64_t)v;
    return TP_OK;
}

int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t mp = (int64_t)m + (m > 2 ? -3 : 9);
    int64_t doy = (153 * mp + 2) / 5 + (int64_t)d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

static void civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d)
{
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t yy = yoe + era * 400;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    *d = (unsigned)(doy - (153 * mp + 2) / 5 + 1);
    *m = (unsigned)(mp < 10 ? mp + 3 : mp - 9);
    *y = yy + (*m <= 2);
}

static int dig2(const char *s, unsigned *v)
{
    if (!isdig(s[0]) || !isdig(s[1])) return -1;
    *v = (unsigned)((s[0] - '0') * 10 + (s[1] - '0'));
    return 0;
}

int parse_rfc3339(const char *s, size_t n, int64_t *out)
{
    /* YYYY-MM-DD[Tt ]HH:MM:SS[.frac][Z|z|+HH:MM|-HH:MM] */
    if (n < 19) return TP_NOTNUM;
    for (int i = 0; i < 4; i++)
        if (!isdig(s[i])) return TP_NOTNUM;
    int64_t y = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
    unsigned mo, d, h, mi, se;
    if (s[4] != '-' || dig2(s + 5, &mo) || s[7] != '-' || dig2(s + 8, &d)) return TP_NOTNUM;
    if (s[10] != 'T' && s[10] != 't' && s[10] != ' ') return TP_NOTNUM;
    if (dig2(s + 11, &h) || s[13] != ':' || dig2(s + 14, &mi) || s[16] != ':' || dig2(s + 17, &se))
        return TP_NOTNUM;
    static const unsigned mdays[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1]) return TP_RANGE;
    if (mo == 2 && d == 29) {
        bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        if (!leap) return TP_RANGE;
    }
    if (h > 23 || mi > 59 || se > 60) return TP_RANGE;
    size_t i = 19;
    int64_t frac = 0;
    if (i < n && s[i] == '.') {
        i++;
        size_t nd = 0;
        bool roundup = false;
        while (i < n && isdig(s[i])) {
            if (nd < 9) frac = frac * 10 + (s[i] - '0');
            else if (nd == 9 && s[i] >= '5') roundup = true;
            nd++;
            i++;
        }
        if (nd == 0) return TP_NOTNUM;
        for (size_t k = nd; k < 9; k++) frac *= 10;
        if (roundup) frac++;
    }
    int64_t off = 0;
    if (i < n && (s[i] == 'Z' || s[i] == 'z')) {
        i++;
    } else if (i < n && (s[i] == '+' || s[i] == '-')) {
        unsigned oh, om;
        if (i + 6 > n || dig2(s + i + 1, &oh) || s[i + 3] != ':' || dig2(s + i + 4, &om)) return TP_NOTNUM;
        if (oh > 23 || om > 59) return TP_RANGE;
        off = (int64_t)(oh * 3600 + om * 60);
        if (s[i] == '-') off = -off;
        i += 6;
    }
    if (i != n) return TP_NOTNUM;
    int64_t days = days_from_civil(y, mo, d);
    int64_t secs = days * 86400 + (int64_t)(h * 3600 + mi * 60 + se) - off;
    /* int64 ns covers 1677..2262 */
    if (secs > INT64_MAX / 1000000000LL - 1 || secs < INT64_MIN / 1000000000LL + 1) return TP_RANGE;
    *out = secs * 1000000000LL + frac;
    return TP_OK;
}

int parse_dur_value(const char *s, size_t n, int unit_exp, int64_t *out)
{
    if (unit_exp == 0 && digits_fast(s, n, out)) return TP_OK;
    return parse_decimal_scaled(s, n, unit_exp, out);
}

int parse_time_value(const char *s, size_t n, int unit_exp, int64_t *out)
{
    if (n == 0) return TP_NOTNUM;
    /* fast path: plain non-negative integer nanoseconds */
    if (unit_exp == 0 && digits_fast(s, n, out)) return TP_OK;
    int r = parse_decimal_scaled(s, n, unit_exp, out);
    if (r == TP_NOTNUM && n >= 19 && isdig(s[0]) && s[4] == '-') return parse_rfc3339(s, n, out);
    return r;
}

int parse_time_arg(const char *s, int default_unit_exp, int64_t *out)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ')) n--;
    size_t k = n;
    while (k > 0 && ((s[k - 1] >= 'a' && s[k - 1] <= 'z') || (s[k - 1] >= 'A' && s[k - 1] <= 'Z'))) k--;
    /* an exponent like 1e3 is part of the number, not a unit */
    if (k > 0 && k < n && (s[k] == 'e' || s[k] == 'E') && n - k == 1) k = n;
    int e = default_unit_exp;
    if (k < n) {
        char u[8];
        size_t ul = n - k;
        if (ul >= sizeof u) return TP_NOTNUM;
        memcpy(u, s + k, ul);
        u[ul] = 0;
        if (!strcmp(u, "m") || !strcmp(u, "min") || !strcmp(u, "h")) {
            int64_t v;
            int r = parse_decimal_scaled(s, k, 9, &v);
            if (r) return r;
            int64_t mul = u[0] == 'h' ? 3600 : 60;
            if (v > INT64_MAX / mul || v < INT64_MIN / mul) return TP_RANGE;
            *out = v * mul;
            return TP_OK;
        }
        e = unit_exp_from_name(u);
        if (e < 0) return TP_NOTNUM;
        while (k > 0 && s[k - 1] == ' ') k--;
    }
    return parse_decimal_scaled(s, k, e, out);
}

int parse_int64(const char *s, size_t n, int64_t *out)
{
    if (digits_fast(s, n, out)) return TP_OK;
    /* up to 18 bytes without a sign that are not all digits (an id such as
     * "53.1"): no number, and none out of range (that takes 19 digits) */
    if (n <= 18 && (n == 0 || (s[0] != '-' && s[0] != '+'))) return TP_NOTNUM;
    size_t i = 0;
    bool neg = false;
    if (i < n && (s[i] == '-' || s[i] == '+')) {
        neg = s[i] == '-';
        i++;
    }
    if (i >= n) return TP_NOTNUM;
    uint64_t v = 0;
    for (; i < n; i++) {
        unsigned c = (unsigned)(s[i] - '0');
        if (c > 9) return TP_NOTNUM;
        if (v > (UINT64_MAX - c) / 10) return TP_RANGE;
        v = v * 10 + c;
    }
    if (neg) {
        if (v > (uint64_t)INT64_MAX + 1) return TP_RANGE;
        *out = (int64_t)(0 - v);
    } else {
        if (v > (uint64_t)INT64_MAX) return TP_RANGE;
        *out = (int64_t)v;
    }
    return TP_OK;
}

int parse_int_exact(const char *s, size_t n, int64_t *out)
{
    int r = parse_int64(s, n, out);
    if (r != TP_NOTNUM) return r;
    size_t i = 0;
    bool neg = false;
    if (i < n && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
    /* the significant digits, with the position of the decimal point */
    size_t d0 = i;
    while (i < n && isdig(s[i])) i++;
    size_t ni = i - d0, f0 = i, nf = 0;
    if (i < n && s[i] == '.') {
        f0 = ++i;
        while (i < n && isdig(s[i])) i++;
        nf = i - f0;
    }
    if (ni + nf == 0) return TP_NOTNUM;
    int64_t ex = 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        bool eneg = false;
        if (i < n && (s[i] == '-' || s[i] == '+')) eneg = s[i++] == '-';
        if (i >= n || !isdig(s[i])) return TP_NOTNUM;
        while (i < n && isdig(s[i])) {
            if (ex < 100000) ex = ex * 10 + (s[i] - '0');
            i++;
        }
        if (eneg) ex = -ex;
    }
    if (i != n) return TP_NOTNUM;
    /* digit k (0-based over integer then fraction digits) has weight
     * 10^(ni - 1 - k + ex): a digit of negative weight must be 0 */
    uint64_t v = 0;
    for (size_t k = 0; k < ni + nf; k++) {
        char c = k < ni ? s[d0 + k] : s[f0 + (k - ni)];
        int64_t w = (int64_t)ni - 1 - (int64_t)k + ex;
        unsigned d = (unsigned)(c - '0');
        if (w < 0) {
            if (d) return TP_NOTNUM;
            continue;
        }
        if (v > (UINT64_MAX - d) / 10) return TP_RANGE;
        v = v * 10 + d;
    }
    /* trailing zeros the exponent adds past the last digit */
    for (int64_t z = ex - (int64_t)nf; z > 0; z--) {
        if (v == 0) break;
        if (v > UINT64_MAX / 10) return TP_RANGE;
        v *= 10;
    }
    if (neg ? v > (uint64_t)INT64_MAX + 1 : v > (uint64_t)INT64_MAX) return TP_RANGE;
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return TP_OK;
}

int parse_double(const char *s, size_t n, double *out)
{
    /* JSON number grammar, plus a leading '+' and a bare leading '.' digit
     * form like ".5" as CSV writers produce */
    int64_t iv;
    if (n <= 15 && digits_fast(s, n, &iv)) {
        *out = (double)iv; /* (< 2^53: exact, what strtod makes of it) */
        return TP_OK;
    }
    size_t i = 0;
    if (i < n && (s[i] == '-' || s[i] == '+')) i++;
    size_t d0 = i;
    while (i < n && isdig(s[i])) i++;
    size_t nd = i - d0;
    if (i < n && s[i] == '.') {
        i++;
        size_t f0 = i;
        while (i < n && isdig(s[i])) i++;
        nd += i - f0;
    }
    if (nd == 0) return TP_NOTNUM;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '-' || s[i] == '+')) i++;
        size_t e0 = i;
        while (i < n && isdig(s[i])) i++;
        if (i == e0) return TP_NOTNUM;
    }
    if (i != n) return TP_NOTNUM;
    char buf[64];
    char *tmp = n < sizeof buf ? buf : xmalloc(n + 1);
    memcpy(tmp, s, n);
    tmp[n] = 0;
    errno = 0;
    double v = strtod(tmp, NULL);
    if (tmp != buf) free(tmp);
    if (!isfinite(v)) return TP_RANGE;
    *out = v;
    return TP_OK;
}

bool canonical_int_label(const char *s, size_t n, char *buf, size_t *outlen, int64_t *val)
{
    /* (any length: "000…04" with 30 zeros is location 4 too) */
    if (n == 0 || n > 4096) return false;
    int64_t v;
    if (parse_int64(s, n, &v) != TP_OK) return false;
    *outlen = fmt_i64(buf, v);
    *val = v;
    return true;
}

static void trim_zeros(char *b)
{
    char *dot = strchr(b, '.');
    if (!dot) return;
    char *e = b + strlen(b) - 1;
    while (e > dot && *e == '0') *e-- = 0;
    if (e == dot) *e = 0;
}

char *format_dur(char *buf, size_t bufsz, int64_t ns)
{
    const char *sign = "";
    uint64_t a;
    if (ns < 0) {
        sign = "-";
        a = (uint64_t)0 - (uint64_t)ns;
    } else {
        a = (uint64_t)ns;
    }
    if (a < 1000) {
        snprintf(buf, bufsz, "%s%llu ns", sign, (unsigned long long)a);
        return buf;
    }
    const char *u;
    double v;
    if (a < 1000000ULL) {
        u = "us";
        v = (double)a / 1e3;
    } else if (a < 1000000000ULL) {
        u = "ms";
        v = (double)a / 1e6;
    } else {
        u = "s";
        v = (double)a / 1e9;
    }
    char num[48];
    if (v >= 100) snprintf(num, sizeof num, "%.1f", v);
    else if (v >= 10) snprintf(num, sizeof num, "%.2f", v);
    else snprintf(num, sizeof num, "%.3f", v);
    trim_zeros(num);
    snprintf(buf, bufsz, "%s%s %s", sign, num, u);
    return buf;
}

char *format_dur_res(char *buf, size_t bufsz, int64_t ns, int64_t res)
{
    uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
    if (a < 1000) return format_dur(buf, bufsz, ns);
    uint64_t unit = a < 1000000ULL ? 1000ULL : a < 1000000000ULL ? 1000000ULL : 1000000000ULL;
    int digits = unit == 1000ULL ? 3 : unit == 1000000ULL ? 6 : 9;
    uint64_t whole = a / unit;
    int dec = whole >= 100 ? 1 : whole >= 10 ? 2 : 3, need = 0;
    for (uint64_t r = unit; res > 0 && r > (uint64_t)res && need < digits; r /= 10) need++;
    if (need <= dec) return format_dur(buf, bufsz, ns);
    uint64_t frac = a % unit;
    for (int k = need; k < digits; k++) frac /= 10; /* (truncated: a start never shows late) */
    char num[48];
    snprintf(num, sizeof num, "%llu.%0*llu", (unsigned long long)whole, need, (unsigned long long)frac);
    trim_zeros(num);
    snprintf(buf, bufsz, "%s%s %s", ns < 0 ? "-" : "", num, unit == 1000ULL ? "us" : unit == 1000000ULL ? "ms" : "s");
    return buf;
}

char *format_rfc3339(char *buf, size_t bufsz, int64_t ns)
{
    int64_t secs = ns / 1000000000LL;
    int64_t frac = ns % 1000000000LL;
    if (frac < 0) {
        frac += 1000000000LL;
        secs--;
    }
    int64_t days = secs / 86400, rem = secs % 86400;
    if (rem < 0) {
        rem += 86400;
        days--;
    }
    int64_t y;
    unsigned m, d;
    civil_from_days(days, &y, &m, &d);
    snprintf(buf, bufsz, "%04lld-%02u-%02uT%02d:%02d:%02d.%09lldZ", (long long)y, m, d, (int)(rem / 3600),
             (int)(rem / 60 % 60), (int)(rem % 60), (long long)frac);
    return buf;
}

char *format_ts(char *buf, size_t bufsz, int64_t ns)
{
    /* values past 1973-03-03 in ns are taken as epoch times */
    if (ns >= 100000000000000000LL) return format_rfc3339(buf, bufsz, ns);
    return format_dur(buf, bufsz, ns);
}
