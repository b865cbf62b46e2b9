#ifndef CSQLITEBENCH_SHIM_H
#define CSQLITEBENCH_SHIM_H

// The raw C contender and the fixture builder talk to the same system
// libsqlite3 that GRDB and SQLiteStore link.
#include <sqlite3.h>

// FirstScreen's memory probe reads malloc's statistics (glibc).
#if defined(__linux__)
#include <malloc.h>
#endif

#endif
