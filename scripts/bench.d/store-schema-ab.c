// The movie store's bulk write with SQLite alone, schema v3 against v4, interleaved in one run:
// v3 names the API by its text in every movie and cast row and their keys; v4 by an integer
// (the `api` table); "v4 + cache" adds the writer's 32 MiB page cache (MovieStore.writerCacheKiB).
// Each round writes 100,000 movies with casts of 2 to 6 (60,000 actor names) in one transaction,
// with the statements MovieWriting runs, and the three variants take turns, so that a noisy
// stretch of a shared host hits all three. Prints each round, the medians, the ratios to v3 and
// the file size per movie once checkpointed.
//
//   cc -O2 -o /tmp/store-schema-ab scripts/bench.d/store-schema-ab.c -lsqlite3 && /tmp/store-schema-ab 5
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { MOVIES = 100000, NAMES = 60000, VARIANTS = 3, MAX_ROUNDS = 15 };
static const char *variantNames[VARIANTS] = {"v3", "v4", "v4 + cache"};
static const char *api = "http://bench.invalid/api/";
static char names[NAMES][40];

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void run(sqlite3 *db, const char *sql) {
    char *error = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &error) != SQLITE_OK) { fprintf(stderr, "%s\n%s\n", sql, error); exit(1); }
}

static sqlite3_stmt *prepare(sqlite3 *db, const char *sql) {
    sqlite3_stmt *statement;
    if (sqlite3_prepare_v2(db, sql, -1, &statement, NULL) != SQLITE_OK) { fprintf(stderr, "%s\n%s\n", sql, sqlite3_errmsg(db)); exit(1); }
    return statement;
}

static void step(sqlite3_stmt *statement) {
    int result = sqlite3_step(statement);
    if (result != SQLITE_DONE && result != SQLITE_ROW) { fprintf(stderr, "%s\n", sqlite3_errmsg(sqlite3_db_handle(statement))); exit(1); }
    sqlite3_reset(statement);
}

static void bindAPI(sqlite3_stmt *statement, int integerKey) {
    if (integerKey) sqlite3_bind_int(statement, 1, 1); else sqlite3_bind_text(statement, 1, api, -1, SQLITE_STATIC);
}

static const char *v3Schema =
    "CREATE TABLE actor(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE);"
    "CREATE TABLE movie(api TEXT NOT NULL, id INTEGER NOT NULL, name TEXT NOT NULL, year INTEGER NOT NULL, releaseDate TEXT NOT NULL,"
    " grossing INTEGER NOT NULL, rating DOUBLE NOT NULL, fetchedAt DOUBLE NOT NULL, entityTag TEXT, maxAge DOUBLE, PRIMARY KEY(api, id));"
    "CREATE INDEX movie_on_api_year ON movie(api, year);"
    "CREATE TABLE castMember(api TEXT NOT NULL, movieId INTEGER NOT NULL, position INTEGER NOT NULL,"
    " actorId INTEGER NOT NULL REFERENCES actor(id) ON DELETE RESTRICT, PRIMARY KEY(api, movieId, position),"
    " FOREIGN KEY(api, movieId) REFERENCES movie(api, id) ON DELETE CASCADE);"
    "CREATE INDEX castMember_on_actorId ON castMember(actorId);";

static const char *v4Schema =
    "CREATE TABLE api(id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE);"
    "CREATE TABLE actor(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE);"
    "CREATE TABLE movie(apiId INTEGER NOT NULL REFERENCES api(id), id INTEGER NOT NULL, name TEXT NOT NULL, year INTEGER NOT NULL,"
    " releaseDate TEXT NOT NULL, grossing INTEGER NOT NULL, rating DOUBLE NOT NULL, fetchedAt DOUBLE NOT NULL, entityTag TEXT,"
    " maxAge DOUBLE, PRIMARY KEY(apiId, id));"
    "CREATE INDEX movie_on_apiId_year ON movie(apiId, year);"
    "CREATE TABLE castMember(apiId INTEGER NOT NULL, movieId INTEGER NOT NULL, position INTEGER NOT NULL,"
    " actorId INTEGER NOT NULL REFERENCES actor(id) ON DELETE RESTRICT, PRIMARY KEY(apiId, movieId, position),"
    " FOREIGN KEY(apiId, movieId) REFERENCES movie(apiId, id) ON DELETE CASCADE);"
    "CREATE INDEX castMember_on_actorId ON castMember(actorId);"
    "INSERT INTO api(key) VALUES('http://bench.invalid/api/');";

/// Writes the movies into a new file; returns the seconds of the transaction and sets the size.
static double writeMovies(int variant, const char *path, double *bytesPerMovie) {
    char other[512];
    unlink(path);
    snprintf(other, sizeof other, "%s-wal", path); unlink(other);
    snprintf(other, sizeof other, "%s-shm", path); unlink(other);
    sqlite3 *db;
    if (sqlite3_open(path, &db) != SQLITE_OK) { fprintf(stderr, "cannot open %s\n", path); exit(1); }
    run(db, "PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON");
    if (variant == 2) run(db, "PRAGMA cache_size = -32768");
    int integerKey = variant > 0;
    run(db, integerKey ? v4Schema : v3Schema);
    const char *column = integerKey ? "apiId" : "api";
    char sql[700];
    snprintf(sql, sizeof sql,
             "INSERT INTO movie(%s, id, name, year, releaseDate, grossing, rating, fetchedAt, entityTag, maxAge) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
             " ON CONFLICT(%s, id) DO UPDATE SET name = excluded.name, year = excluded.year, releaseDate = excluded.releaseDate,"
             " grossing = excluded.grossing, rating = excluded.rating, fetchedAt = excluded.fetchedAt, entityTag = excluded.entityTag,"
             " maxAge = excluded.maxAge", column, column);
    sqlite3_stmt *upsertMovie = prepare(db, sql);
    snprintf(sql, sizeof sql, "DELETE FROM castMember WHERE %s = ? AND movieId = ?", column);
    sqlite3_stmt *deleteCast = prepare(db, sql);
    snprintf(sql, sizeof sql, "INSERT INTO castMember(%s, movieId, position, actorId) VALUES(?, ?, ?, ?)", column);
    sqlite3_stmt *insertCast = prepare(db, sql);
    sqlite3_stmt *actorID = prepare(db, "INSERT INTO actor(name) VALUES(?) ON CONFLICT(name) DO UPDATE SET name = excluded.name RETURNING id");
    static long long actorIDs[NAMES];
    memset(actorIDs, 0, sizeof actorIDs);
    srand(7);
    char title[64];
    double started = now();
    run(db, "BEGIN");
    for (int id = 1; id <= MOVIES; id++) {
        snprintf(title, sizeof title, "Movie %d of a synthetic catalog", id);
        bindAPI(upsertMovie, integerKey);
        sqlite3_bind_int(upsertMovie, 2, id);
        sqlite3_bind_text(upsertMovie, 3, title, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int(upsertMovie, 4, 1950 + rand() % 75);
        sqlite3_bind_text(upsertMovie, 5, "2016-01-01", -1, SQLITE_STATIC);
        sqlite3_bind_int64(upsertMovie, 6, rand());
        sqlite3_bind_double(upsertMovie, 7, rand() / (double)RAND_MAX * 10);
        sqlite3_bind_double(upsertMovie, 8, 1.7e9);
        sqlite3_bind_null(upsertMovie, 9);
        sqlite3_bind_null(upsertMovie, 10);
        step(upsertMovie);
        bindAPI(deleteCast, integerKey);
        sqlite3_bind_int(deleteCast, 2, id);
        step(deleteCast);
        int castSize = 2 + rand() % 5;
        for (int position = 0; position < castSize; position++) {
            int name = rand() % NAMES;
            if (actorIDs[name] == 0) {
                sqlite3_bind_text(actorID, 1, names[name], -1, SQLITE_STATIC);
                if (sqlite3_step(actorID) != SQLITE_ROW) { fprintf(stderr, "no actor id\n"); exit(1); }
                actorIDs[name] = sqlite3_column_int64(actorID, 0);
                sqlite3_reset(actorID);
            }
            bindAPI(insertCast, integerKey);
            sqlite3_bind_int(insertCast, 2, id);
            sqlite3_bind_int(insertCast, 3, position);
            sqlite3_bind_int64(insertCast, 4, actorIDs[name]);
            step(insertCast);
        }
    }
    run(db, "COMMIT");
    double seconds = now() - started;
    run(db, "PRAGMA wal_checkpoint(TRUNCATE)");
    sqlite3_finalize(upsertMovie); sqlite3_finalize(deleteCast); sqlite3_finalize(insertCast); sqlite3_finalize(actorID);
    sqlite3_close(db);
    FILE *file = fopen(path, "rb");
    fseek(file, 0, SEEK_END);
    *bytesPerMovie = (double)ftell(file) / MOVIES;
    fclose(file);
    unlink(path);
    return seconds;
}

static int ascending(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 5;
    if (rounds < 1 || rounds > MAX_ROUNDS) { fprintf(stderr, "rounds: 1 to %d\n", MAX_ROUNDS); return 2; }
    const char *first[] = {"Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou", "Max", "Ned", "Oz", "Pam"};
    srand(42);
    for (int i = 0; i < NAMES; i++) snprintf(names[i], sizeof names[i], "%s%d %sson%d", first[rand() % 16], i % 997, first[rand() % 16], i % 1013);
    char path[256];
    snprintf(path, sizeof path, "/tmp/store-schema-ab-%d.sqlite", (int)getpid());
    double seconds[VARIANTS][MAX_ROUNDS], size[VARIANTS] = {0};
    for (int round = 0; round < rounds; round++) {
        for (int turn = 0; turn < VARIANTS; turn++) {
            int variant = (turn + round) % VARIANTS;
            seconds[variant][round] = writeMovies(variant, path, &size[variant]);
            printf("round %d  %-10s  %.2f s\n", round + 1, variantNames[variant], seconds[variant][round]);
        }
    }
    double median[VARIANTS];
    for (int variant = 0; variant < VARIANTS; variant++) {
        qsort(seconds[variant], rounds, sizeof(double), ascending);
        median[variant] = seconds[variant][rounds / 2];
    }
    printf("SQLite %s, %d rounds, medians:\n", sqlite3_libversion(), rounds);
    for (int variant = 0; variant < VARIANTS; variant++) {
        printf("  %-10s  %.2f s  (%.2fx the time of v3)  %.0f bytes a movie\n", variantNames[variant], median[variant], median[variant] / median[0], size[variant]);
    }
    return 0;
}
