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

// Double-quoted string literals make `"nope" = 1` compare the text 'nope' when there is no
// column named nope: Ripple quotes identifiers with double quotes, so it turns them off
// unless the configuration asks for them. (sqlite3_db_config is variadic, which Swift
// cannot call.)
static inline int ripple_set_double_quoted_strings(sqlite3 *db, int on) {
    int rc = sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, on, (int *)0);
    if (rc != SQLITE_OK) return rc;
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DDL, on, (int *)0);
}

// Turns the "reset database" mode on or off: a VACUUM in that mode empties the database
// file (see `DatabaseWriter.erase()`). (sqlite3_db_config is variadic.)
static inline int ripple_set_reset_database(sqlite3 *db, int on) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_RESET_DATABASE, on, (int *)0);
}

// Memory statistics (sqlite3_memory_used, sqlite3_status, the soft and hard heap limits)
// make every allocation of every connection take one process-wide mutex: the writer and
// the readers of a pool contend for it. Must run before SQLite is initialized, else it
// returns SQLITE_MISUSE and changes nothing. (sqlite3_config is variadic, which Swift
// cannot call.)
static inline int ripple_sqlite_config_memstatus(int enabled) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, enabled);
}

#endif
