/*
 * canvas.c — the cell canvas; see canvas.h.
 *
 * Display widths come from a small table of our own (combining marks are
 * 0, East Asian wide and fullwidth ranges and emoji are 2, everything else
 * 1), so the output does not depend on the locale of the machine.
 */
#include "canvas.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

Canvas *canvas_new(int w, int h, bool ascii, bool color)
{
    Canvas *c = xcalloc(1, sizeof *c);
    c->w = w > 0 ? w : 1;
    c->h = h > 0 ? h : 1;
    c->ascii = ascii;
    c->color = color;
    c->cells = xmalloc((size_t)c->w * (size_t)c->h * sizeof(Cell));
    canvas_clear(c);
    return c;
}

void canvas_free(Canvas *c)
{
    if (!c) return;
    free(c->cells);
    free(c);
}

void canvas_clear(Canvas *c)
{
    for (size_t i = 0; i < (size_t)c->w * (size_t)c->h; i++) c->cells[i] = (Cell){' ', ROLE_DEFAULT, ROLE_DEFAULT, 0};
}

uint32_t glyph_ascii(uint32_t ch)
{
    if (ch < 0x80) return ch;
    switch (ch) {
    case 0x2500: case 0x2501: case 0x254C: case 0x2504: return '-'; /* ─ ━ ╌ ┄ */
    case 0x2502: case 0x2503: case 0x2506: return '|';             /* │ ┃ ┆ */
    case 0x250C: case 0x2510: case 0x2514: case 0x2518: case 0x251C: case 0x2524:
    case 0x252C: case 0x2534: case 0x253C: return '+';             /* corners, tees, cross */
    case 0x2591: return '.';                                        /* ░ */
    case 0x2592: return ':';                                        /* ▒ */
    case 0x2593: return '+';                                        /* ▓ */
    case 0x2588: return '#';                                        /* █ */
    case 0x258F: case 0x258E: case 0x258D: case 0x258C: case 0x258B: case 0x258A: case 0x2589: return '=';
    case 0x2581: case 0x2582: case 0x2583: return '_';
    case 0x2584: case 0x2585: case 0x2586: case 0x2587: return '=';
    case 0x25B8: case 0x25B6: return '>';                           /* ▸ ▶ spawn */
    case 0x25CF: return 'o';                                        /* ● end */
    case 0x2022: return '*';                                        /* • mark */
    case 0x25BC: return 'v';                                        /* ▼ */
    case 0x25B2: return '^';                                        /* ▲ */
    case 0x21C7: return '{';                                        /* ⇇ */
    case 0x2190: return '<';                                        /* ← */
    case 0x21C9: return '}';                                        /* ⇉ */
    case 0x2192: return ')';                                        /* → */
    case 0x2026: return '~';                                        /* … */
    case 0x00B7: case 0x2219: return '.';                           /* · */
    case 0x2013: case 0x2014: return '-';                           /* – — */
    case 0x00D7: return 'x';
    default: break;
    }
    if (ch >= 0x2800 && ch <= 0x28FF) { /* braille: by the number of dots */
        int dots = __builtin_popcount(ch - 0x2800);
        return dots == 0 ? ' ' : dots <= 2 ? '.' : dots <= 4 ? ':' : '#';
    }
    return '?';
}

/* display width of a code point: 0, 1 or 2 */
static int cp_width(uint32_t cp)
{
    if (cp == 0) return 0;
    /* combining marks */
    if ((cp >= 0x0300 && cp <= 0x036F) || (cp >= 0x1AB0 && cp <= 0x1AFF) || (cp >= 0x1DC0 && cp <= 0x1DFF) ||
        (cp >= 0x20D0 && cp <= 0x20FF) || (cp >= 0xFE20 && cp <= 0xFE2F) || cp == 0x200B || cp == 0x200C ||
        cp == 0x200D || (cp >= 0xFE00 && cp <= 0xFE0F))
        return 0;
    /* wide: Hangul Jamo, CJK, Hangul syllables, compatibility, fullwidth forms, emoji */
    if ((cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0x303E) || (cp >= 0x3041 && cp <= 0x33FF) ||
        (cp >= 0x3400 && cp <= 0x4DBF) || (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xA000 && cp <= 0xA4CF) ||
        (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFE30 && cp <= 0xFE4F) ||
        (cp >= 0xFF00 && cp <= 0xFF60) || (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x1F300 && cp <= 0x1F64F) ||
        (cp >= 0x1F900 && cp <= 0x1F9FF) || (cp >= 0x20000 && cp <= 0x3FFFD))
        return 2;
    return 1;
}

/* the next code point of s (advancing it), or '?' for a bad sequence */
static uint32_t next_cp(const char **sp)
{
    const unsigned char *s = (const unsigned char *)*sp;
    size_t l = utf8_seq_len(s, strnlen((const char *)s, 4));
    if (l == 0) {
        *sp += 1;
        return '?';
    }
    uint32_t cp;
    if (l == 1) cp = s[0];
    else if (l == 2) cp = (uint32_t)(s[0] & 0x1F) << 6 | (s[1] & 0x3F);
    else if (l == 3) cp = (uint32_t)(s[0] & 0x0F) << 12 | (uint32_t)(s[1] & 0x3F) << 6 | (s[2] & 0x3F);
    else cp = (uint32_t)(s[0] & 0x07) << 18 | (uint32_t)(s[1] & 0x3F) << 12 | (uint32_t)(s[2] & 0x3F) << 6 | (s[3] & 0x3F);
    *sp += l;
    if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0)) return '?';
    return cp;
}

void canvas_put(Canvas *c, int x, int y, uint32_t ch, uint8_t fg, uint8_t bg, uint8_t attr)
{
    Cell *cell = canvas_at(c, x, y);
    if (!cell) return;
    if (c->ascii) ch = glyph_ascii(ch);
    cell->ch = ch;
    cell->fg = fg;
    cell->bg = bg;
    cell->attr = attr;
}

int text_width(const char *s)
{
    int w = 0;
    while (*s) w += cp_width(next_cp(&s));
    return w;
}

size_t text_wrap(const char *s, int maxw)
{
    const char *p = s, *brk = NULL;
    int used = 0;
    while (*p) {
        const char *q = p;
        int w = cp_width(next_cp(&q));
        if (used + w > maxw && p > s) break;
        used += w;
        p = q;
        if (p[-1] == ' ') brk = p;
    }
    if (*p && brk) return (size_t)(brk - s);
    return (size_t)(p - s);
}

void canvas_box(Canvas *c, int x, int y, int w, int h, const char *title)
{
    for (int j = y; j < y + h; j++) canvas_hline(c, x, x + w, j, ' ', ROLE_DEFAULT, 0, 0);
    for (int i = x; i < x + w; i++) {
        canvas_put(c, i, y, 0x2500, ROLE_AXIS, 0, 0);
        canvas_put(c, i, y + h - 1, 0x2500, ROLE_AXIS, 0, 0);
    }
    for (int j = y; j < y + h; j++) {
        canvas_put(c, x, j, 0x2502, ROLE_AXIS, 0, 0);
        canvas_put(c, x + w - 1, j, 0x2502, ROLE_AXIS, 0, 0);
    }
    canvas_put(c, x, y, 0x250C, ROLE_AXIS, 0, 0);
    canvas_put(c, x + w - 1, y, 0x2510, ROLE_AXIS, 0, 0);
    canvas_put(c, x, y + h - 1, 0x2514, ROLE_AXIS, 0, 0);
    canvas_put(c, x + w - 1, y + h - 1, 0x2518, ROLE_AXIS, 0, 0);
    canvas_text(c, x + 2, y, title, w - 4, ROLE_TITLE, ATTR_BOLD);
}

size_t elide_middle(const char *s, int maxw, char *out, size_t sz)
{
    if (!sz) return 0;
    int w = text_width(s);
    size_t n = strlen(s);
    if (w <= maxw || maxw < 3) {
        size_t k = n < sz - 1 ? n : sz - 1;
        memcpy(out, s, k);
        out[k] = 0;
        return k;
    }
    /* the head takes the first (maxw - 1) / 2 columns, the tail the rest */
    int head = (maxw - 1) / 2, tail = maxw - 1 - head, used = 0;
    const char *p = s;
    while (*p) {
        const char *q = p;
        int cw = cp_width(next_cp(&q));
        if (used + cw > head) break;
        used += cw;
        p = q;
    }
    size_t hb = (size_t)(p - s);
    /* the tail: skip characters from the head's end until what is left fits */
    const char *t = p;
    int rest = w - used;
    while (*t && rest > tail) {
        const char *q = t;
        rest -= cp_width(next_cp(&q));
        t = q;
    }
    size_t tb = n - (size_t)(t - s);
    if (hb + 3 + tb + 1 > sz) {
        size_t k = n < sz - 1 ? n : sz - 1;
        memcpy(out, s, k);
        out[k] = 0;
        return k;
    }
    memcpy(out, s, hb);
    memcpy(out + hb, "\xe2\x80\xa6", 3);
    memcpy(out + hb + 3, t, tb);
    out[hb + 3 + tb] = 0;
    return hb + 3 + tb;
}

int canvas_text(Canvas *c, int x, int y, const char *s, int maxw, uint8_t fg, uint8_t attr)
{
    if (maxw <= 0) return 0;
    bool cut = text_width(s) > maxw;
    int limit = cut ? maxw - 1 : maxw, used = 0;
    while (*s) {
        uint32_t cp = next_cp(&s);
        int w = cp_width(cp);
        if (w == 0) continue;
        if (c->ascii && cp >= 0x80) cp = glyph_ascii(cp), w = 1;
        if (used + w > limit) break;
        canvas_put(c, x + used, y, cp, fg, ROLE_DEFAULT, attr);
        if (w == 2) canvas_put(c, x + used + 1, y, CANVAS_CONT, fg, ROLE_DEFAULT, attr);
        used += w;
    }
    if (cut) {
        canvas_put(c, x + used, y, 0x2026, fg, ROLE_DEFAULT, attr);
        used++;
    }
    return used;
}

int canvas_text_right(Canvas *c, int xend, int y, const char *s, int maxw, uint8_t fg, uint8_t attr)
{
    int w = text_width(s);
    if (w > maxw) w = maxw;
    return canvas_text(c, xend - w, y, s, maxw, fg, attr);
}

void canvas_hline(Canvas *c, int x0, int x1, int y, uint32_t ch, uint8_t fg, uint8_t bg, uint8_t attr)
{
    for (int x = x0; x < x1; x++) canvas_put(c, x, y, ch, fg, bg, attr);
}

static void put_cp(FILE *f, uint32_t cp)
{
    char b[4];
    size_t n = utf8_put(b, cp);
    fwrite(b, 1, n, f);
}

void canvas_write_text(const Canvas *c, FILE *f)
{
    for (int y = 0; y < c->h; y++) {
        const Cell *row = &c->cells[(size_t)y * (size_t)c->w];
        int end = c->w;
        while (end > 0 && (row[end - 1].ch == ' ' || row[end - 1].ch == CANVAS_CONT)) end--;
        for (int x = 0; x < end; x++)
            if (row[x].ch != CANVAS_CONT) put_cp(f, row[x].ch);
        putc('\n', f);
    }
}

/* 256-colour palette: ramp from dark blue through teal and green to amber;
 * twelve categorical colours that stay apart on dark and light terminals */
static const int RAMP256[ROLE_RAMP_N] = {19, 25, 31, 37, 72, 107, 178, 208};
static const int CAT256[ROLE_CAT_N] = {33, 208, 70, 160, 135, 130, 205, 37, 178, 99, 166, 244};

int role_color256(int role, bool background)
{
    if (role >= ROLE_RAMP0 && role <= ROLE_RAMP_LAST) return RAMP256[role - ROLE_RAMP0];
    if (role >= ROLE_CAT0 && role <= ROLE_CAT_LAST) return CAT256[role - ROLE_CAT0];
    if (background) return -1;
    switch (role) {
    case ROLE_DIM: return 245;
    case ROLE_AXIS: return 244;
    case ROLE_LABEL: return -1;
    case ROLE_TITLE: return 75;
    case ROLE_IDLE: return 238;
    case ROLE_SYNC: return 167;
    case ROLE_MSG: return 226;
    case ROLE_GLYPH: return 231;
    case ROLE_WARN: return 196;
    default: return -1;
    }
}

void canvas_write_ansi(const Canvas *c, FILE *f)
{
    for (int y = 0; y < c->h; y++) {
        const Cell *row = &c->cells[(size_t)y * (size_t)c->w];
        int pfg = -2, pbg = -2, pat = -1;
        for (int x = 0; x < c->w; x++) {
            const Cell *cell = &row[x];
            if (cell->ch == CANVAS_CONT) continue;
            int fg = role_color256(cell->fg, false), bg = cell->bg ? role_color256(cell->bg, true) : -1;
            int at = cell->attr | (cell->fg == ROLE_STATUS ? ATTR_REVERSE : 0);
            if (fg != pfg || bg != pbg || at != pat) {
                fputs("\x1b[0", f);
                if (at & ATTR_BOLD) fputs(";1", f);
                if (at & ATTR_UNDERLINE) fputs(";4", f);
                if (at & ATTR_REVERSE) fputs(";7", f);
                if (fg >= 0) fprintf(f, ";38;5;%d", fg);
                if (bg >= 0) fprintf(f, ";48;5;%d", bg);
                putc('m', f);
                pfg = fg, pbg = bg, pat = at;
            }
            put_cp(f, cell->ch);
        }
        fputs("\x1b[0m\n", f);
    }
}
