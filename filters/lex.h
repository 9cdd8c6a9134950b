/*
 * lex.h — the filter language's lexer, internal to filters/: the scanner's
 * state (shared with the parser, parse.c, which adds its depth) and the
 * next token.
 *
 * Owns: nothing; declarations only. Invariants: lex_next replaces tok
 * (its string, if any, is the caller's to take or free); once failed is
 * set, err holds the first error and every later call returns false.
 */
#ifndef TNAV_LEX_H
#define TNAV_LEX_H

#include <stdbool.h>

#include "ast.h"
#include "base/util.h"

typedef struct {
    const char *s;
    int n, pos;
    Token tok;  /* the current token */
    int prev_k; /* kind of the previous token, for '/' */
    int depth;  /* of the parser's parse_expr calls */
    SrcError *err;
    bool failed;
} Lexer;

/* an error at [start, end) of the text (the first one only); false */
bool lex_error(Lexer *p, int start, int end, const char *fmt, ...) PRINTF_LIKE(4, 5);
/* the next token into p->tok; false on an error */
bool lex_next(Lexer *p);

#endif
