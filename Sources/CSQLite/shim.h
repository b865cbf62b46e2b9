#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H

// Debian's and Ubuntu's libsqlite3 are built with the pre-update hook; the
// header declares it only when asked. Store uses it to see the rows that the
// truncate optimization and REPLACE conflict resolution delete silently.
#if defined(__linux__)
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#endif

#include <sqlite3.h>

#endif
