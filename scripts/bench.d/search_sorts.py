#!/usr/bin/env python3
"""Every sort and order, with and without a year, on a 1M-movie catalogue served from memory
(`serve --catalog`), SQLite and PostgreSQL: at least 150 (query, sort) pairs that nobody tuned on,
each asked once (a first page of 20, so no response cache helps), p50/p99/max per backend and per sort.

The pairs are drawn at run time from the catalogue's own words with a seed printed with the results
(SEARCH_SORTS_SEED=N draws the same pairs again): one to three words, the last often cut to a prefix,
each sort (relevance only with words), each order or the default, a year or none; plus listings
without words. Backends are asked in turn for each pair (memory, SQLite, PostgreSQL, rotating who
goes first), so that noise hits all alike. The goal: p99 under 20 ms on every backend.

Usage: search_sorts.py MARQUEE RESULTS_DIR. SEARCH_SORTS_MOVIES sets the catalogue size (default 1,000,000).
psycopg is not needed: the import is `marquee catalog import`. The CPU model is written with the
results (search-sorts.md)."""
import json
import os
import random
import time
import urllib.parse

import benchkit
from pgcluster import Cluster

SORTS = ["relevance", "grossing", "rating", "released", "title"]
P99_GOAL_MS = 20


def draw_pairs(movies, seed):
    """200 query strings (words, sort, order, year) drawn from the catalogue's own words."""
    rng = random.Random(seed)
    years = sorted({m["year"] for m in movies})
    pairs = []
    for number in range(200):
        sort = SORTS[number % len(SORTS)]
        parameters = {}
        if sort == "relevance" or number % 4 != 3:
            pool = []
            while not pool:
                movie = rng.choice(movies)
                pool = benchkit.search_words(movie["name"]) + [w for actor in movie["cast"] for w in benchkit.search_words(actor["name"])]
            chosen = rng.sample(pool, min(len(pool), rng.choice([1, 1, 2, 2, 3])))
            if rng.random() < 0.5:
                chosen[-1] = chosen[-1][:rng.randint(2, max(2, len(chosen[-1])))]
            if number % 10 == 5 and benchkit.search_words(movie["name"]):
                # As people search: a film's whole title, typed as it is written.
                chosen = [movie["name"]]
            parameters["query"] = " ".join(chosen)
        parameters["sort"] = sort
        order = rng.choice(["", "asc", "desc"])
        if order:
            parameters["order"] = order
        if rng.random() < 0.4:
            parameters["year"] = str(rng.choice(years))
        pairs.append(urllib.parse.urlencode(parameters, quote_via=urllib.parse.quote))
    return pairs


def start_backends(marquee, work, catalog, postgres, sqlite_file, started):
    """The three servers by name, each ready and (on a database) its search index made; their
    start-up seconds into `started`."""
    servers = {}
    try:
        for name, source in [("memory", ["--catalog", catalog]), ("sqlite", ["--database", sqlite_file]), ("postgres", ["--database", postgres])]:
            begun = time.monotonic()
            servers[name] = benchkit.Server(marquee, "--public", "--log-level", "info", *source, ready_seconds=600,
                                            log=os.path.join(work, f"{name}.log"))
            started[f"{name} start"] = time.monotonic() - begun
            if name != "memory":
                # A database's searches are answered by the database until the server's index of it is made.
                servers[name].wait_for_log("search index ready", 600, "search-sorts")
                started[f"{name} index"] = time.monotonic() - begun
    except BaseException:
        for server in servers.values():
            server.stop()
        raise
    return servers


def main():
    marquee, results, _ = benchkit.command_line("search_sorts.py MARQUEE RESULTS_DIR")
    cpu = benchkit.cpu_model()
    count = int(os.environ.get("SEARCH_SORTS_MOVIES", "1000000"))
    seed = int(os.environ.get("SEARCH_SORTS_SEED", str(int(time.time()) % 100000)))
    started = {}
    with benchkit.scratch_folder("marquee-search-sorts-") as work:
        catalog = benchkit.generate_catalog(marquee, os.path.join(work, "catalog.json"), count, seed=7)
        pairs = draw_pairs(json.load(open(catalog)), seed)
        cluster, servers = None, {}
        try:
            sqlite_file = os.path.join(work, "movies.sqlite")
            started["sqlite import"] = benchkit.import_catalog(marquee, catalog, sqlite_file)
            cluster = Cluster(work)
            postgres = cluster.database("movies")
            started["postgres import"] = benchkit.import_catalog(marquee, catalog, postgres)
            servers = start_backends(marquee, work, catalog, postgres, sqlite_file, started)
            clients = {name: benchkit.TimedClient(server.port) for name, server in servers.items()}
            names = list(servers)
            times = {name: [] for name in names}
            by_sort = {(name, sort): [] for name in names for sort in SORTS}
            disagreements = []
            for number, pair in enumerate(pairs):
                path = f"/api/movies?{pair}&limit=20"
                answers = {}
                for name in names[number % 3:] + names[:number % 3]:
                    elapsed, page = clients[name].get(path)
                    answers[name] = [m["id"] for m in page["movies"]]
                    times[name].append(elapsed * 1000)
                    sort = urllib.parse.parse_qs(pair)["sort"][0]
                    by_sort[(name, sort)].append(elapsed * 1000)
                if len({tuple(ids) for ids in answers.values()}) != 1:
                    disagreements.append(pair)
            memory = {name: benchkit.rss_kib(server.pid) / 1024 for name, server in servers.items()}
        finally:
            for server in servers.values():
                server.stop()
            if cluster:
                cluster.stop()

    p = benchkit.percentile_nearest
    lines = ["## Every sort, on 1M movies in memory, SQLite and PostgreSQL", "", f"CPU: {cpu}", f"catalogue: {count:,} movies; {len(pairs)} (query, sort) pairs drawn with seed {seed}, each asked once per backend", ""]
    lines += ["| backend | p50 ms | p99 ms | max ms | slowest pair |", "|---|---:|---:|---:|---|"]
    for name in times:
        slowest = max(range(len(pairs)), key=lambda i: times[name][i])
        lines.append(f"| {name} | {p(times[name], 0.5):.1f} | {p(times[name], 0.99):.1f} | {max(times[name]):.1f} | `{pairs[slowest]}` |")
        benchkit.record_goal(results, f"every sort on {name}, {count:,} movies: p99 of {len(pairs)} drawn pairs (seed {seed})", f"< {P99_GOAL_MS} ms",
                             f"{p(times[name], 0.99):.1f} ms", p(times[name], 0.99) < P99_GOAL_MS)
    lines += ["", "| backend | sort | pairs | p50 ms | p99 ms | max ms |", "|---|---|---:|---:|---:|---:|"]
    for (name, sort), values in by_sort.items():
        if values:
            lines.append(f"| {name} | {sort} | {len(values)} | {p(values, 0.5):.1f} | {p(values, 0.99):.1f} | {max(values):.1f} |")
    lines += ["", "start-up and import, seconds: " + ", ".join(f"{k} {v:.0f}" for k, v in started.items())]
    lines.append("RSS after the pairs, MB: " + ", ".join(f"{k} {v:.0f}" for k, v in memory.items()))
    lines.append(f"pairs whose first page differed between backends: {len(disagreements)}" + (f" (e.g. `{disagreements[0]}`)" if disagreements else ""))
    text = "\n".join(lines)
    print(text)
    benchkit.write_result(results, "search-sorts.md", text + "\n")


if __name__ == "__main__":
    main()
