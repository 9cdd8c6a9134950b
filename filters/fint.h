/*
 * fint.h — internals of the filter language shared by the checker, the
 * compiler, the VM and the disassembler. Not used outside filters/.
 *
 * Invariants: a Program only refers to registers below its nv/nm and to
 * tables and scopes of its Filter; every instruction carries the source
 * span it was compiled from; string ids below dictn are the store's,
 * those at or above it are the filter's own (literals, kind names, results
 * of lower/upper) and never equal a store string; a Table's result is valid
 * once built, and tables that depend on a scope are rebuilt on every run.
 */
#ifndef TNAV_FINT_H
#define TNAV_FINT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "ast.h"
#include "filter.h"
#include "rx.h"
#include "store/store.h"
#include "base/strtab.h"

#define BLK 1024 /* rows per block */

enum {
#define OP(name, mn, operands, doc) OPC_##name,
#include "ops.def"
#undef OP
    OPC__N
};

/* static types of expressions and registers */
enum { FT_NULL = 0, FT_INT = 1, FT_FLT = 2, FT_STR = 3, FT_DYN = 4, FT_BOOL, FT_REGEX, FT_LIST, FT_RANGE };

/* fields */
enum { FK_TS, FK_END, FK_DUR, FK_LOC, FK_ACT, FK_KIND, FK_NAME, FK_PEER, FK_COL, FK_NULL };

/* key domains: a boolean or value that depends on one of these only is
 * computed once per key value (a table) */
typedef enum { KEY_NONE, KEY_LOC, KEY_PEER, KEY_ACT, KEY_KIND, KEY_SID, KEY_CONST } KeyKind;

/* functions */
enum {
    FN_LEN, FN_LOWER, FN_UPPER, FN_STARTS, FN_ENDS, FN_CONTAINS, FN_ABS, FN_MIN, FN_MAX, FN_HAS, FN_FIELD,
    FN_ACT_ANY, FN_ACT_ALL, FN_LOC_ANY, FN_LOC_ALL, FN_GROUP_ANY, FN_MSG_ANY, FN__N
};

/* comparison and arithmetic operators in Instr.cmp: the token kinds */

typedef struct {
    uint8_t op;
    uint8_t cmp;  /* comparison / arithmetic token, or a flag */
    uint8_t ta;   /* type of the result / constant */
    uint8_t tb;   /* type of operand b (c's type in tc) */
    uint8_t tc;
    int32_t a, b, c;
    int64_t k;    /* constant (int, sid, or the bits of a double) */
    int32_t start, end;
    int32_t target; /* jumps */
} Instr;

typedef struct Program {
    Instr *code;
    int ncode, capcode;
    int nv, nm;
    int ret_v;      /* value programs (tables of values, constants): the result register, else -1 */
    uint8_t *vtype; /* per value register: FT_INT, FT_FLT, FT_STR, FT_DYN */
    KeyKind domain; /* KEY_NONE for event programs */
    int domain_col;
    bool domain_label; /* KEY_SID of a label column */
} Program;

/* CMPK sources that read a column directly (fused with its load) */
enum { SRC_REG = 0, SRC_TS = 1, SRC_DUR = 2, SRC_END = 3, SRC_DUR_NOFLAG = 4 };

typedef struct {
    KeyKind key;
    int col;        /* KEY_SID: the column, or -1 for name */
    bool label;     /* KEY_SID of a label column (parent): integers compare as numbers */
    bool value;     /* a value table (LOOKUPV) rather than a boolean one */
    uint8_t vtype;  /* value tables: FT_* */
    int scope_dep;  /* -1, or a scope it reads: rebuilt on every run */
    Program *prog;
    int start, end;
    /* results: per key index, plus one entry for an absent key */
    size_t size;
    uint8_t *bits;  /* boolean tables: one byte (0/1) per entry */
    int64_t *vals;  /* value tables */
    uint8_t *vt;    /* value tables: type per entry (0 = absent) */
    uint8_t *done;  /* KEY_SID over a big dictionary: computed lazily */
    bool built;
    int8_t uniform;  /* boolean tables built whole: 0 or 1 when every entry is that, else -1 */
    uint64_t epoch; /* scope_dep tables: the stage run they were built for */
} Table;

enum { SC_ACT_ANY, SC_ACT_ALL, SC_LOC_ANY, SC_LOC_ALL, SC_GROUP_ANY, SC_MSG_ANY };

typedef struct {
    int kind;
    Program *inner;
    uint8_t *table;   /* act/loc scopes: per activity / location */
    uint64_t *evbits; /* group/msg scopes: per event */
    int start, end;
} Scope;

typedef struct {
    Program *main;
    int *scopes; /* scopes to compute, inner ones first */
    int nscopes;
    int start, end;
} Stage;

struct Filter {
    const Store *s;
    /* labels as values: per location and per activity (type FT_INT or
     * FT_STR, 0 for an activity without a label) */
    uint8_t *loc_t, *act_t;
    int64_t *loc_v, *act_v;
    char *text;
    Stage *stages;
    int nstages;
    Program *value; /* a value expression (filter_compile_value), else NULL */
    Table **tables;
    int ntables;
    Scope **scopes;
    int nscopes;
    Regex **rx;
    int nrx;
    /* lists of `in` (8 or more literals of one type, FT_INT or FT_STR):
     * sorted, distinct values (integers, or string ids) */
    int64_t **sets;
    uint32_t *setn;
    int nsets;
    StrTab local;     /* the filter's own strings */
    uint32_t dictn;   /* store strings */
    uint32_t *kind_sid; /* kind code -> string id */
    uint32_t nkinds;
    uint64_t *stage_counts;
    uint64_t epoch; /* counts stage runs: scope results change with each */
    /* the run under way: FILTER_OK until a regex fails, the time budget
     * runs out or *cancel is set; then every loop stops at its next check
     * (filter_poll) and the run's result is thrown away */
    int status;
    char errmsg[320];
    double budget;        /* seconds per run, 0 = none */
    double deadline;      /* of the run under way (monotonic seconds), 0 = none */
    const atomic_bool *cancel;
};

/* Whether the run must stop: already stopped, or (checked here) cancelled
 * or past its deadline. Cheap: called per block and every few regex
 * matches. */
bool filter_poll(Filter *F);
/* a regex failed on the string s: the run fails with the first such message */
void filter_fail_regex(Filter *F, int rx, int code, const char *s, size_t n);

/* strings of the unified id space */
const char *fs_str(const Filter *F, uint32_t sid, size_t *len);
uint32_t fs_intern(Filter *F, const char *s, size_t n);
/* the activities' labels as values (act_t, act_v), built on first need */
void filter_act_labels(Filter *F);
/* the id of a string if the store or the filter has it, else NONE32 */
uint32_t fs_find(const Filter *F, const char *s, size_t n);

/* checker: types, resolution, folding; compiler; VM */
bool check_stage(Filter *F, Node **np, SrcError *err);
Program *compile_stage(Filter *F, Node *n, Stage *st, SrcError *err);
Program *compile_value(Filter *F, Node *n, SrcError *err);
bool check_value(Filter *F, Node **np, SrcError *err);
void prog_free(Program *p);
int prog_emit(Program *p, Instr in);

typedef struct {
    Filter *F;
    const Store *s;
    const Program *P;
    size_t base, n;       /* rows [base, base + n) of events or of the domain */
    const uint32_t *idx;  /* domain programs: row i is domain entry idx[i] (NULL: base + i) */
    const uint8_t *live;  /* one byte per row: the rows that count */
    /* registers */
    int64_t (*vi)[BLK];
    uint8_t (*vt)[BLK];   /* per row type of each value register (0 = absent) */
    uint8_t (*m)[BLK];
    int nv, nm;
} Blk;

/* the domain entry of row i of a block (a domain program's rows are
 * entries idx[i]; an event program's row i is event base + i) */
static inline size_t row_dom(const Blk *b, size_t i) { return b->idx ? b->idx[i] : b->base + i; }

/* run program P on one block; the result mask (one byte per row) in out */
void vm_run(Blk *b, uint8_t *out);
void blk_init(Blk *b, Filter *F, const Program *P);
void blk_free(Blk *b);
/* operands (vm_load.c): a column into value register a (label: a parent's
 * label as an integer when it is one), the block's domain key into a, each
 * event's key into a table, the entries of a lazy table those keys need */
void vm_load_col(Blk *b, int a, int col, bool label);
void vm_load_key(Blk *b, int a);
void vm_block_keys(Blk *b, const Table *t, uint32_t *key);
void vm_table_fill(Filter *F, Table *t, const uint32_t *key, size_t n);
/* compute a table (if not yet, or if it depends on a scope) */
void table_build(Filter *F, Table *t);
/* the size of a key domain */
size_t domain_size(const Filter *F, KeyKind k, int col);

extern const char *const OP_MNEMONIC[OPC__N];
extern const char *const OP_OPERANDS[OPC__N];

#endif
