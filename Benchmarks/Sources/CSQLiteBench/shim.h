#ifndef CSQLITEBENCH_SHIM_H
#define CSQLITEBENCH_SHIM_H

// The raw C contender and the fixture builder talk to the same system
// libsqlite3 that GRDB and SQLiteStore link.
#include <sqlite3.h>

#endif
