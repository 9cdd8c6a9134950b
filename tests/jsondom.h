/*
 * jsondom.h — a small JSON DOM for tests: parse a text into a tree, look up
 * a path in it, compare values, print them.
 *
 * Owns: its nodes (a parsed tree and every value a query returns are
 * separately allocated and freed with jd_free).
 * Invariants: the parser is strict RFC 8259 (one value, optional white space
 * around it, strings must be valid UTF-8 and escapes well formed, \u
 * surrogates must pair), so a test that parses tnav's output also checks
 * that it is valid JSON. Numbers keep their text; an integer that fits in
 * int64 is also kept exactly (nanosecond times do not fit in a double).
 *
 * Query expressions (jd_query):
 *   .                      the whole document
 *   .a.b   .a["x y"]       object members (a bare name is any run of
 *   ."x.y"                 characters other than . [ ] ( ) and space)
 *   .a[2]  .a[-1]          array elements (negative: from the end)
 *   .a[k=v]  .a[k=v,j=w]   the first array element (an object) whose member
 *                          k equals v (v is a JSON literal, or else a bare
 *                          string: [name=args.x] and [name="args.x"] agree)
 *   len(P)                 number of elements / members / bytes of a string
 *   has(P)                 true when P resolves, else false
 *   type(P)                "null" "boolean" "number" "string" "array" "object"
 */
#ifndef TESTS_JSONDOM_H
#define TESTS_JSONDOM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { JD_NULL, JD_FALSE, JD_TRUE, JD_NUMBER, JD_STRING, JD_ARRAY, JD_OBJECT } jd_type;

typedef struct jd_node jd_node;
struct jd_node {
    jd_type type;
    /* JD_NUMBER: text is the number's text; is_int when it is an integer in
     * int64 range (then ival is exact); num is its double value.
     * JD_STRING: text/len are the decoded bytes (NUL-terminated too). */
    char *text;
    size_t len;
    bool is_int;
    int64_t ival;
    double num;
    /* JD_ARRAY, JD_OBJECT: n children; keys/keylens for objects */
    size_t n;
    jd_node **kids;
    char **keys;
    size_t *keylens;
};

/* Parse exactly one JSON value from s[0..n). Returns NULL and a message
 * (with the byte offset) in err on failure. */
jd_node *jd_parse(const char *s, size_t n, char *err, size_t errsz);
void jd_free(jd_node *v);
jd_node *jd_clone(const jd_node *v);

/* Resolve a path (see above) without copying; NULL when it does not
 * resolve (err says which step failed) or is malformed. */
const jd_node *jd_path(const jd_node *root, const char *path, char *err, size_t errsz);
/* Evaluate a query expression (a path or len/has/type of a path); returns
 * a new node, or NULL with a message. */
jd_node *jd_query(const jd_node *root, const char *expr, char *err, size_t errsz);

/* Member of an object by key, or NULL. */
const jd_node *jd_get(const jd_node *obj, const char *key);

/* Deep equality: numbers by value (exactly for integers), objects
 * regardless of member order, arrays in order. */
bool jd_equal(const jd_node *a, const jd_node *b);
/* Order of two numbers: -1, 0, 1 in *res; false when either is not a
 * number. */
bool jd_num_cmp(const jd_node *a, const jd_node *b, int *res);

const char *jd_type_name(jd_type t);
/* Compact JSON text of a value (allocated); longer than max bytes is cut
 * and ends in "..." (max 0 = no limit). */
char *jd_dump(const jd_node *v, size_t max);

#endif
