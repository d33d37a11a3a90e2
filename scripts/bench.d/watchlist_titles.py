#!/usr/bin/env python3
"""What naming the movies costs the watchlist's answer: GET /api/watchlist of a person with 500 movies
(each entry with its title and year, the design [converge] chose, one request) on SQLite and on
PostgreSQL with 100,000 movies, against the query that finds those titles run alone on the same
database (its share of the request), in interleaved rounds; and the bytes the titles add to the body.
The other design, the client fetching what it lacks, needs a second request at least as long as the
first: the share below is what one request saves it.

Usage: watchlist_titles.py MARQUEE RESULTS_DIR. Writes watchlist-titles.md with the CPU model."""
import http.client
import json
import os
import re
import sqlite3
import statistics
import subprocess
import time

import benchkit
import signin
from pgcluster import Cluster

MOVIES, LISTED, ASKS, ROUNDS = 100_000, 500, 200, 5
LISTED_IDS = [1 + index * (MOVIES // LISTED) for index in range(LISTED)]


def fill_list(port):
    """Signs alice up and puts the listed movies on her list; her token."""
    token = signin.device_tokens(port, "alice")[0]
    changes = [{"id": f"bench-{movie}", "movieId": movie, "action": "add", "changedAt": "2026-11-27T10:00:00.000Z", "device": "bench", "note": f"pick {movie}"}
               for movie in LISTED_IDS]
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    c.request("POST", "/api/watchlist/changes", json.dumps({"changes": changes}),
              {"Authorization": "Bearer " + token, "Content-Type": "application/json", "Idempotency-Key": "bench-fill"})
    answer = c.getresponse()
    answer.read()
    assert answer.status == 200, answer.status
    return token


def ask_list(port, token):
    """The median ms of ASKS GET /api/watchlist on one connection, and the last body."""
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    times, body = [], b""
    for _ in range(ASKS):
        began = time.perf_counter()
        c.request("GET", "/api/watchlist", headers={"Authorization": "Bearer " + token})
        answer = c.getresponse()
        body = answer.read()
        times.append(time.perf_counter() - began)
        assert answer.status == 200, answer.status
    return statistics.median(times) * 1000, body


def titles_sqlite(path):
    """The titles' query alone with Python's sqlite3 on the server's file: median ms."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    ids = "[" + ",".join(map(str, LISTED_IDS)) + "]"
    times = []
    for _ in range(ASKS):
        began = time.perf_counter()
        rows = db.execute("SELECT id, name, year FROM movie WHERE id IN (SELECT value FROM json_each(?))", (ids,)).fetchall()
        times.append(time.perf_counter() - began)
    db.close()
    assert len(rows) == LISTED, len(rows)
    return statistics.median(times) * 1000


def titles_postgres(cluster, name):
    """The titles' query alone on PostgreSQL: the median of EXPLAIN ANALYZE's execution times, ms."""
    array = "ARRAY[" + ",".join(map(str, LISTED_IDS)) + "]::bigint[]"
    script = "".join(f"EXPLAIN (ANALYZE) SELECT id, name, year FROM movie WHERE id = ANY({array});\n" for _ in range(ASKS))
    out = subprocess.run(cluster.psql(name, "-q", "-X"), input=script, capture_output=True, text=True, check=True).stdout
    times = [float(value) for value in re.findall(r"Execution Time: ([0-9.]+) ms", out)]
    assert len(times) == ASKS, out[-500:]
    return statistics.median(times)


def without_titles(body):
    answer = json.loads(body)
    for entry in answer["entries"]:
        entry.pop("title", None)
        entry.pop("year", None)
    return len(json.dumps(answer, separators=(",", ":")).encode())


def main():
    marquee, results, _ = benchkit.command_line("watchlist_titles.py MARQUEE RESULTS_DIR")
    cpu = benchkit.cpu_model()
    with benchkit.scratch_folder("marquee-titles-bench-") as work:
        cluster = Cluster(work)
        servers = []
        try:
            catalogue = benchkit.generate_catalog(marquee, os.path.join(work, "catalog.json"), MOVIES)
            sqlite_path = os.path.join(work, "server.sqlite")
            backends = {"SQLite": sqlite_path, "PostgreSQL": cluster.database("titles")}
            tokens = {}
            for name, database in backends.items():
                benchkit.import_catalog(marquee, catalogue, database)
                server = benchkit.Server(marquee, "--log-level", "warning", "--password-cost", "4", "--database", database)
                servers.append(server)
                tokens[name] = (server.port, fill_list(server.port))
            requests = {name: [] for name in backends}
            queries = {name: [] for name in backends}
            bodies = {}
            for round_number in range(ROUNDS + 1):
                for name in benchkit.alternating(backends, round_number):
                    port, token = tokens[name]
                    median, bodies[name] = ask_list(port, token)
                    query = titles_sqlite(sqlite_path) if name == "SQLite" else titles_postgres(cluster, "titles")
                    if round_number > 0:
                        requests[name].append(median)
                        queries[name].append(query)
        finally:
            for server in servers:
                server.stop()
            cluster.stop()

    lines = []
    for name in backends:
        request, query = statistics.median(requests[name]), statistics.median(queries[name])
        full, bare = len(bodies[name]), without_titles(bodies[name])
        lines.append(f"| {name} | {request:.2f} | {query:.3f} | {query / request * 100:.1f}% | {full:,} B | {bare:,} B | {full / bare:.2f}× |")
    text = (f"Measured on {cpu}, release build, {MOVIES:,} generated movies; a person's list of {LISTED} movies; "
            f"{ROUNDS} interleaved rounds after one warm-up, each {ASKS} asks of GET /api/watchlist on one connection "
            f"and {ASKS} runs of the titles' query alone (SQLite: Python's sqlite3 on the server's file; PostgreSQL: "
            f"EXPLAIN ANALYZE's execution time); medians of the rounds' medians.\n\n"
            "| database | GET /api/watchlist, ms | titles' query, ms | its share | body with titles | without | ratio |\n|---|---:|---:|---:|---:|---:|---:|\n"
            + "\n".join(lines) + "\n")
    benchkit.write_result(results, "watchlist-titles.md", text)
    print("watchlist titles:\n" + "\n".join(lines) + f"\non {cpu}")


if __name__ == "__main__":
    main()
