#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H

#include <sqlite3.h>
#include <dlfcn.h>
#include <stddef.h>

/// Makes a double-quoted name that matches no column an error instead of a string literal
/// (SQLite's legacy "DQS" behaviour), in queries; schemas keep their old meaning.
/// `sqlite3_db_config` is variadic, which Swift cannot call.
static inline int csqlite_disable_double_quoted_strings(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, 0, (int *)0);
}

// The pre-update hook exists only in SQLite libraries built with SQLITE_ENABLE_PREUPDATE_HOOK
// (Debian's and Ubuntu's are; Apple's system library is not). Its functions are therefore
// looked up at run time, in the library actually linked, through these types of our own, and
// never named directly: the package links and runs against any SQLite.

/// The pre-update callback: context, connection, operation, database name, table name, old rowid, new rowid.
typedef void (*csqlite_preupdate_callback)(void *, sqlite3 *, int, const char *, const char *,
                                           sqlite3_int64, sqlite3_int64);
/// `sqlite3_preupdate_hook`.
typedef void *(*csqlite_preupdate_hook_function)(sqlite3 *, csqlite_preupdate_callback, void *);
/// `sqlite3_preupdate_depth`.
typedef int (*csqlite_preupdate_depth_function)(sqlite3 *);
/// `sqlite3_preupdate_blobwrite` (SQLite 3.36 and later).
typedef int (*csqlite_preupdate_blobwrite_function)(sqlite3 *);

/// The address of the function `name` in the SQLite library this module links, or NULL when
/// that library lacks it. When the process holds another SQLite whose symbols come first
/// (`sqlite3_libversion` found there is not the one this module calls), nothing is returned:
/// that library's functions would not understand this library's connections.
static inline void *csqlite_linked_function(const char *name) {
#if defined(RTLD_DEFAULT)
    void *scope = RTLD_DEFAULT;
#else
    void *scope = dlopen(NULL, RTLD_LAZY);
    if (scope == NULL) return NULL;
#endif
    void *libversion = dlsym(scope, "sqlite3_libversion");
    void *function = dlsym(scope, name);
#if !defined(RTLD_DEFAULT)
    dlclose(scope);
#endif
    return libversion == (void *)&sqlite3_libversion ? function : NULL;
}

/// A virtual table over values that Swift holds (`Database.withValuesTable`): SQLite's part
/// first, as it requires, then the owner of the values.
typedef struct {
    sqlite3_vtab base;
    const void *values;
} csqlite_values_vtab;

/// A cursor of a `csqlite_values_vtab`: SQLite's part, the owner of the values, the row it is
/// on and how many rows there are.
typedef struct {
    sqlite3_vtab_cursor base;
    const void *values;
    sqlite3_int64 row;
    sqlite3_int64 count;
} csqlite_values_cursor;

#endif
