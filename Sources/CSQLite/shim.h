#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H

// Debian's and Ubuntu's libsqlite3 are built with the pre-update hook; the
// header declares it only when asked. Store uses it to see the rows that the
// truncate optimization and REPLACE conflict resolution delete silently.
#if defined(__linux__)
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#endif

#include <sqlite3.h>

/// Makes a double-quoted name that matches no column an error instead of a string literal
/// (SQLite's legacy "DQS" behaviour), in queries; schemas keep their old meaning.
/// `sqlite3_db_config` is variadic, which Swift cannot call.
static inline int csqlite_disable_double_quoted_strings(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, 0, (int *)0);
}

#endif
