#include <sqlite3.h>
static inline sqlite3_destructor_type bench_sqlite_transient(void) { return SQLITE_TRANSIENT; }
// sqlite3_config is variadic, which Swift cannot call.
static inline int bench_sqlite_config_memstatus(int enabled) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, enabled); }
