#ifndef RIPPLE_CSQLITE_SHIM_H
#define RIPPLE_CSQLITE_SHIM_H

// Declares the pre-update hook API, which Debian's SQLite is compiled with.
#ifndef SQLITE_ENABLE_PREUPDATE_HOOK
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#endif

#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro that casts -1 to a function pointer, which Swift cannot import.
static inline sqlite3_destructor_type ripple_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

#endif
