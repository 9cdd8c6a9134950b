/*
 * ast.h — tokens and syntax trees of the filter language, and the parser.
 *
 * Owns: the token and node types, the lexer and the Pratt parser.
 * Invariants: every token and node carries its source span [start, end) as
 * byte offsets into the filter text; a parse either returns a complete tree
 * of stages or an error with one span; the tree owns its strings; nodes are
 * only freed through ast_free.
 */
#ifndef TNAV_AST_H
#define TNAV_AST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
    T_EOF,
    T_INT,    /* ival (already scaled by a unit suffix) */
    T_FLT,    /* fval (already scaled) */
    T_STR,    /* str, slen (unescaped) */
    T_REGEX,  /* str, slen: the pattern; ival: flags */
    T_IDENT,  /* str */
    T_LPAREN, T_RPAREN, T_LBRACK, T_RBRACK, T_COMMA, T_DOTDOT, T_PIPE,
    T_OR, T_AND, T_NOT,
    T_EQ, T_NE, T_LT, T_LE, T_GT, T_GE, T_MATCH, T_NMATCH, T_IN,
    T_PLUS, T_MINUS, T_STAR, T_SLASH, T_PERCENT,
    T_TRUE, T_FALSE,
    T__N
} TokKind;

typedef struct {
    TokKind k;
    int start, end;
    int64_t ival;
    double fval;
    char *str;
    size_t slen;
    int unit;     /* 0, UNIT_TIME or UNIT_SIZE when the number had a suffix */
    int regex_at; /* byte offset of the pattern's first character */
} Token;

enum { UNIT_TIME = 1, UNIT_SIZE = 2 };

typedef enum {
    N_INT,
    N_FLT,
    N_STR,
    N_REGEX,
    N_BOOL,
    N_FIELD,  /* name in str; resolved by the checker */
    N_CALL,   /* function name in str, arguments in kids */
    N_UNARY,  /* op: T_NOT or T_MINUS */
    N_BINARY, /* op: a token kind; kids[0] op kids[1] */
    N_LIST,   /* [a, b, c] */
    N_RANGE,  /* lo..hi */
    N_NULL,   /* an absent value (from folding) */
} NodeKind;

typedef struct Node {
    NodeKind k;
    int op;
    int start, end;
    struct Node **kids;
    int nkids;
    int64_t ival;
    double fval;
    char *str;
    size_t slen;
    int regex_at;
    /* filled in by the checker */
    int type;  /* FT_* (fint.h) */
    int field; /* N_FIELD: FK_* (fint.h); the column in col */
    int col;
    int func;  /* N_CALL: FN_* */
    int rx;    /* N_REGEX: index of the compiled regex */
    int sid;   /* N_STR: the string's id */
    int key;   /* KeyKind of the one key the value depends on, or KEY_NONE */
    int keycol;
    bool rowdep;   /* depends on per-row data other than one key */
    bool scopedep; /* depends on a scope's result */
    int scope;     /* N_CALL of a scope: its index */
    int height;    /* of the subtree (1 for a leaf) */
} Node;

/* the deepest tree the parser accepts (the passes after it recurse) */
#define AST_MAX_HEIGHT 400

typedef struct {
    Node **stages;
    int nstages;
} Ast;

typedef struct {
    int start, end; /* span of the error */
    char msg[256];
} SrcError;

/* Parse text into stages. Returns false and fills err on a syntax error. */
bool ast_parse(const char *text, Ast *out, SrcError *err);
void ast_free(Ast *a);
void node_free(Node *n);
Node *node_new(NodeKind k, int start, int end);
void node_add(Node *parent, Node *kid);
const char *tok_name(int k);

#endif
