#!/usr/bin/env python3
"""Search on a 1M-movie SQLite catalogue: `marquee serve --database` against the same search written
by hand as one statement (every match ranked by the same relevance, then the page) and run with
Python's sqlite3 on the same file, and page 1,000 of a listing against page 1; and the import of the
catalogue with the search's indexes against without them.

Usage: search.py MARQUEE RESULTS_DIR. SEARCH_BENCH_IMPORT_ROUNDS sets the imports of each kind
(default 1); SEARCH_BENCH_DATABASE=FILE measures the queries alone on a database of an earlier run.
Rounds are interleaved (server, by hand, server, ...) so that noise hits both alike; the CPU model
is written with the results (search.txt)."""
import os
import sqlite3
import statistics
import time
import urllib.parse

import benchkit


def without_search_index(marquee, work, target):
    """A server database whose search index is taken away under the import: the schema made by
    marquee (an empty catalogue imported), then the FTS5 table replaced by a plain table of the
    same columns, which the import's statements fill at the cost of a plain insert, and the
    indexes added for search's orders dropped. The import then runs the same code, minus the index."""
    empty = os.path.join(work, "empty.json")
    with open(empty, "w") as file:
        file.write("[]")
    benchkit.import_catalog(marquee, empty, target)
    db = sqlite3.connect(target)
    db.executescript("""
        DROP TABLE movie_words;
        CREATE TABLE movie_words (rowid INTEGER PRIMARY KEY, title_words TEXT, cast_words TEXT);
        DROP INDEX movie_year_released; DROP INDEX movie_year_title; DROP INDEX movie_grossing;
        DROP INDEX movie_rating; DROP INDEX movie_released; DROP INDEX movie_title; DROP INDEX movie_title_words;
    """)
    db.close()


def timed_imports(marquee, work, database, rounds):
    """The seconds of each import with the search's indexes (the first into `database`) and without."""
    catalog = benchkit.generate_catalog(marquee, os.path.join(work, "catalog.json"), 1_000_000, seed=7)
    with_index, without_index = [], []
    for round_number in range(rounds):
        bare = os.path.join(work, f"bare-{round_number}.sqlite")
        without_search_index(marquee, work, bare)
        without_index.append(benchkit.import_catalog(marquee, catalog, bare))
        os.remove(bare)
        target = database if round_number == 0 else os.path.join(work, f"again-{round_number}.sqlite")
        with_index.append(benchkit.import_catalog(marquee, catalog, target))
        if target != database:
            os.remove(target)
    return with_index, without_index


class OneStatement:
    """The search as one statement on the server's file: every match ranked, then the page, and its casts."""

    def __init__(self, database):
        self.raw = sqlite3.connect(f"file:{database}?mode=ro", uri=True)

    def casts(self, ids):
        if ids:
            self.raw.execute(f"SELECT movie_cast.movie_id, actor.name FROM movie_cast JOIN actor ON actor.id = movie_cast.actor_id "
                             f"WHERE movie_cast.movie_id IN ({','.join('?' * len(ids))}) ORDER BY movie_cast.movie_id, movie_cast.position", ids).fetchall()

    @staticmethod
    def relevance(words):
        """The relevance of SearchSQL written out: a point per word in the title, one for a title
        that begins with the words, one more if they end a word there, one more for a title that is them."""
        needles, start, whole = benchkit.title_needles(words)
        sql = " + ".join("(instr(movie.title_words, ?) > 0)" for _ in needles)
        sql += f" + (substr(movie.title_words, 1, {len(start)}) = ?) + (substr(movie.title_words, 1, {len(whole)}) = ?) + (movie.title_words = ?)"
        return sql, needles + [start, whole, whole]

    def seconds(self, query, limit=20):
        words = benchkit.search_words(query)
        terms = [f'"{w}"' + (" *" if i == len(words) - 1 else "") for i, w in enumerate(words)]
        ranking, values = self.relevance(words)
        begun = time.perf_counter()
        rows = self.raw.execute(f"SELECT movie.*, {ranking} AS relevance FROM movie JOIN movie_words ON movie_words.rowid = movie.id "
                                f"WHERE movie_words MATCH ? ORDER BY relevance DESC, movie.grossing DESC, movie.id DESC LIMIT {limit + 1}",
                                values + [" AND ".join(terms)]).fetchall()
        self.casts([r[0] for r in rows])
        return time.perf_counter() - begun


def main():
    marquee, results, _ = benchkit.command_line("search.py MARQUEE RESULTS_DIR")
    cpu = benchkit.cpu_model()
    with benchkit.scratch_folder("marquee-search-bench-") as work:
        database = os.environ.get("SEARCH_BENCH_DATABASE") or os.path.join(work, "movies.sqlite")
        import_with, import_without = [], []
        if not os.environ.get("SEARCH_BENCH_DATABASE"):
            import_with, import_without = timed_imports(marquee, work, database, int(os.environ.get("SEARCH_BENCH_IMPORT_ROUNDS", "1")))
        import_seconds = statistics.median(import_with) if import_with else float("nan")

        with benchkit.indexed_search_server(marquee, database, os.path.join(work, "server.log"), 900, "search") as server:
            client = benchkit.TimedClient(server.port)
            by_hand = OneStatement(database)
            # The server keeps every answer it gave (the response cache): each round asks another limit,
            # so that every request is searched, as by hand.
            for query in benchkit.SEARCH_QUERIES:  # warm both (SQLite's pages, the FTS index)
                client.get("/api/movies?limit=10&query=" + urllib.parse.quote(query))
                by_hand.seconds(query, 10)
            served, one_statement, slowest = [], [], {}
            for round_number in range(10):
                limit = 20 + round_number
                for query in benchkit.SEARCH_QUERIES:
                    took = client.get(f"/api/movies?limit={limit}&query=" + urllib.parse.quote(query))[0]
                    served.append(took)
                    slowest[query] = max(slowest.get(query, 0), took)
                    one_statement.append(by_hand.seconds(query, limit))
            first, thousandth = benchkit.listing_pages(client)

    lines = [
        f"cpu {cpu}",
        f"import-1M-seconds {import_seconds:.1f}",
        f"import-1M with-index-seconds {' '.join(f'{t:.1f}' for t in import_with)} without-index-seconds {' '.join(f'{t:.1f}' for t in import_without)}"
        + (f" ratio {statistics.median(import_with) / statistics.median(import_without):.2f}" if import_without else ""),
    ] + benchkit.search_figures(results, "SQLite", "", served, one_statement, slowest, first, thousandth)
    benchkit.write_result(results, "search.txt", "\n".join(lines) + "\n")
    print("\n".join(lines))
    if import_without:
        ratio = statistics.median(import_with) / statistics.median(import_without)
        benchkit.record_goal(results, "`catalog import` of 1M movies into SQLite, with the search's indexes against without", "≤ 1.4×",
                             f"{statistics.median(import_with):.1f} s", ratio <= 1.4, f"{ratio:.2f}×")


if __name__ == "__main__":
    main()
