#ifndef DATAMODELGEN_CSQLITE_SHIM_H
#define DATAMODELGEN_CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro cast Swift cannot import; expose it as a function.
static inline sqlite3_destructor_type datamodelgen_sqlite_transient(void) {
    return (sqlite3_destructor_type)-1;
}
#endif
