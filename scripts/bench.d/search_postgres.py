#!/usr/bin/env python3
"""Search on a 1M-movie PostgreSQL catalogue: `marquee serve --database postgres://…` asked the 30
fixed queries of search.py, in rounds interleaved with the same search written by hand as one
statement (every match ranked, then the page) and run with psycopg on the same database; and page
1,000 of a listing against page 1.

Usage: search_postgres.py MARQUEE RESULTS_DIR. A throwaway cluster (pgcluster.py) is made and the
catalogue imported; SEARCH_BENCH_POSTGRES=URL measures an imported database instead. psycopg is
installed from PyPI into .build/bench-venv. The CPU model is written with the results
(search-postgres.txt)."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
VENV = os.path.join(os.path.dirname(os.path.dirname(HERE)), ".build", "bench-venv")


def run_in_venv_with_psycopg():
    python = os.path.join(VENV, "bin", "python")
    if not os.path.exists(python):
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
    if subprocess.run([python, "-c", "import psycopg"], capture_output=True).returncode != 0:
        subprocess.run([os.path.join(VENV, "bin", "pip"), "install", "-q", "psycopg[binary]"], check=True)
    if sys.prefix != VENV:
        os.execv(python, [python] + sys.argv)


run_in_venv_with_psycopg()

import time  # noqa: E402
import urllib.parse  # noqa: E402

import psycopg  # noqa: E402

import benchkit  # noqa: E402
from pgcluster import Cluster  # noqa: E402


class OneStatement:
    """The search as one statement, with psycopg: every match ranked, then the page, and its casts."""

    def __init__(self, database):
        self.raw = psycopg.connect(database.replace("postgres://", "postgresql://"), autocommit=True)

    def seconds(self, query, limit):
        words = benchkit.search_words(query)
        needles, start, whole = benchkit.title_needles(words)
        relevance = " + ".join("(CASE WHEN position(%s in movie.title_words) > 0 THEN 1 ELSE 0 END)" for _ in needles)
        relevance += (f" + (CASE WHEN substr(movie.title_words, 1, {len(start)}) = %s THEN 1 ELSE 0 END)"
                      f" + (CASE WHEN substr(movie.title_words, 1, {len(whole)}) = %s THEN 1 ELSE 0 END)"
                      " + (CASE WHEN movie.title_words = %s THEN 1 ELSE 0 END)")
        tsquery = " & ".join(f"'{w}'" + (":*" if i == len(words) - 1 else "") for i, w in enumerate(words))
        begun = time.perf_counter()
        rows = self.raw.execute(f"SELECT movie.id, movie.name, movie.year, movie.release_date, movie.grossing, movie.rating, ({relevance}) AS relevance "
                                f"FROM movie WHERE movie.all_tsv @@ to_tsquery('simple', %s) "
                                f"ORDER BY relevance DESC, movie.grossing DESC, movie.id DESC LIMIT {limit + 1}", needles + [start, whole, whole, tsquery]).fetchall()
        ids = [r[0] for r in rows]
        if ids:
            self.raw.execute("SELECT movie_cast.movie_id, actor.name FROM movie_cast JOIN actor ON actor.id = movie_cast.actor_id "
                             "WHERE movie_cast.movie_id = ANY(%s) ORDER BY movie_cast.movie_id, movie_cast.position", [ids]).fetchall()
        return time.perf_counter() - begun


def main():
    marquee, results, _ = benchkit.command_line("search_postgres.py MARQUEE RESULTS_DIR")
    cpu = benchkit.cpu_model()
    cluster = None
    with benchkit.scratch_folder("marquee-search-pg-bench-") as work:
        try:
            database = os.environ.get("SEARCH_BENCH_POSTGRES")
            import_seconds = float("nan")
            if not database:
                cluster = Cluster(work)
                database = cluster.database("movies")
                catalog = benchkit.generate_catalog(marquee, os.path.join(work, "catalog.json"), 1_000_000, seed=7)
                import_seconds = benchkit.import_catalog(marquee, catalog, database)
            # A first start migrates the database.
            with benchkit.indexed_search_server(marquee, database, os.path.join(work, "server.log"), 120, "search-postgres") as server:
                client = benchkit.TimedClient(server.port)
                by_hand = OneStatement(database)
                for query in benchkit.SEARCH_QUERIES:  # warm both
                    client.get("/api/movies?limit=10&query=" + urllib.parse.quote(query))
                    by_hand.seconds(query, 10)
                # Rounds are interleaved (the server's 30 queries, then the 30 by hand), not single queries: a
                # statement by hand reads every match (100-200 ms of pages), which the server's next request
                # would otherwise find evicted each time.
                served, one_statement, slowest = [], [], {}
                for round_number in range(10):
                    limit = 20 + round_number  # another limit each round: never an answer the server kept
                    for query in benchkit.SEARCH_QUERIES:
                        took = client.get(f"/api/movies?limit={limit}&query=" + urllib.parse.quote(query))[0]
                        served.append(took)
                        slowest[query] = max(slowest.get(query, 0), took)
                    for query in benchkit.SEARCH_QUERIES:
                        one_statement.append(by_hand.seconds(query, limit))
                first, thousandth = benchkit.listing_pages(client)
        finally:
            if cluster:
                cluster.stop()

    lines = [
        f"cpu {cpu}",
        f"postgres-import-1M-seconds {import_seconds:.1f}",
    ] + benchkit.search_figures(results, "PostgreSQL", "postgres-", served, one_statement, slowest, first, thousandth)
    benchkit.write_result(results, "search-postgres.txt", "\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
