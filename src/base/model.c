/*
 * model.c — name tables of the trace model; see model.h.
 */
#include "model.h"

#include <string.h>
#include <strings.h>

const char *const FIELD_NAMES[F__N] = {
    "ts", "dur", "end", "loc", "act", "kind", "name", "peer",
    "bytes", "id", "tag", "group", "parent", "file", "line", "value",
};

const char *const KIND_NAMES[K_USER] = {
    "state", "send", "recv", "msg", "spawn", "end",
    "move", "sync", "atomic", "counter", "mark",
};

/* alias -> canonical; earlier entries win when a file has several aliases
 * of one field */
const char *const ALIASES[][2] = {
    {"rank", "loc"},      {"pe", "loc"},         {"proc", "loc"},   {"place", "loc"},
    {"cell", "loc"},      {"pid", "loc"},        {"thread", "act"}, {"tid", "act"},
    {"activity", "act"},  {"type", "kind"},      {"start", "ts"},   {"time", "ts"},
    {"timestamp", "ts"},  {"size", "bytes"},     {"dst", "peer"},   {"target", "peer"},
    {"duration", "dur"},  {NULL, NULL},
};

int field_by_name(const char *name)
{
    for (int f = 0; f < F__N; f++)
        if (!strcmp(name, FIELD_NAMES[f])) return f;
    return -1;
}

int field_for_column(const char *name, size_t n, int *prio)
{
    for (int f = 0; f < F__N; f++) {
        if (strlen(FIELD_NAMES[f]) == n && !strncasecmp(name, FIELD_NAMES[f], n)) {
            *prio = 0;
            return f;
        }
    }
    for (int i = 0; ALIASES[i][0]; i++) {
        if (strlen(ALIASES[i][0]) == n && !strncasecmp(name, ALIASES[i][0], n)) {
            *prio = 1 + i;
            return field_by_name(ALIASES[i][1]);
        }
    }
    return -1;
}

int kind_from_string(const char *s, size_t n)
{
    /* exact lower-case names first: the common case, without a libc call */
    switch (n ? s[0] : 0) {
    case 's':
        if (n == 5 && !memcmp(s, "state", 5)) return K_STATE;
        if (n == 4 && !memcmp(s, "send", 4)) return K_SEND;
        if (n == 4 && !memcmp(s, "sync", 4)) return K_SYNC;
        if (n == 5 && !memcmp(s, "spawn", 5)) return K_SPAWN;
        break;
    case 'r':
        if (n == 4 && !memcmp(s, "recv", 4)) return K_RECV;
        break;
    case 'm':
        if (n == 4 && !memcmp(s, "mark", 4)) return K_MARK;
        if (n == 3 && !memcmp(s, "msg", 3)) return K_MSG;
        if (n == 4 && !memcmp(s, "move", 4)) return K_MOVE;
        break;
    case 'c':
        if (n == 7 && !memcmp(s, "counter", 7)) return K_COUNTER;
        break;
    case 'a':
        if (n == 6 && !memcmp(s, "atomic", 6)) return K_ATOMIC;
        break;
    case 'e':
        if (n == 3 && !memcmp(s, "end", 3)) return K_END;
        break;
    }
    switch (n) {
    case 3:
        if (!strncasecmp(s, "msg", 3)) return K_MSG;
        if (!strncasecmp(s, "end", 3)) return K_END;
        break;
    case 4:
        if (!strncasecmp(s, "send", 4)) return K_SEND;
        if (!strncasecmp(s, "recv", 4)) return K_RECV;
        if (!strncasecmp(s, "move", 4)) return K_MOVE;
        if (!strncasecmp(s, "sync", 4)) return K_SYNC;
        if (!strncasecmp(s, "mark", 4)) return K_MARK;
        break;
    case 5:
        if (!strncasecmp(s, "state", 5)) return K_STATE;
        if (!strncasecmp(s, "spawn", 5)) return K_SPAWN;
        break;
    case 6:
        if (!strncasecmp(s, "atomic", 6)) return K_ATOMIC;
        break;
    case 7:
        if (!strncasecmp(s, "counter", 7)) return K_COUNTER;
        break;
    }
    return -1;
}
