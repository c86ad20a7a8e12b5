// SQLite's pre-update hook, which the system library has (Debian builds it with
// SQLITE_ENABLE_PREUPDATE_HOOK) but whose declarations <sqlite3.h> shows only when that macro is
// defined, and GRDB's module does not define it. Declared here alone, with the connection and
// values as opaque pointers, so that nothing of <sqlite3.h> is declared twice.
#ifndef CSQLITEPREUPDATE_SHIM_H
#define CSQLITEPREUPDATE_SHIM_H

struct sqlite3;
struct sqlite3_value;

void *sqlite3_preupdate_hook(
    struct sqlite3 *db,
    void (*xPreUpdate)(void *pCtx, struct sqlite3 *db, int op, char const *zDb, char const *zName,
                       long long iKey1, long long iKey2),
    void *pCtx);
int sqlite3_preupdate_old(struct sqlite3 *db, int column, struct sqlite3_value **value);
int sqlite3_preupdate_new(struct sqlite3 *db, int column, struct sqlite3_value **value);

#endif
