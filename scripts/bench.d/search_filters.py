#!/usr/bin/env python3
"""Filtered listing and search (genres, runtime, a span of years, votes, rating) on a 1M-movie
catalogue with IMDb's details, served from memory (`serve --catalog`), SQLite and PostgreSQL:
200 (filter, sort, words or none) draws nobody tuned on, each asked once per backend (a first
page of 20), beside the same draw without its filter as the baseline, interleaved: p50/p99/max
per backend, filtered and not, and their ratio.

The catalogue is `marquee generate-catalog`'s, given details by this script: 1 to 3 of IMDb's
genres drawn with IMDb's own skew (Drama and Comedy common, Film-Noir rare), a runtime from 45 to
240 minutes (unknown for one movie in twenty), votes on a long tail (unknown for one in ten). The
draws are made at run time with a seed printed with the results (SEARCH_FILTERS_SEED=N draws them
again). The goal: p99 under 20 ms on every backend.

Usage: search_filters.py MARQUEE RESULTS_DIR. SEARCH_FILTERS_MOVIES sets the catalogue size
(default 1,000,000). Writes search-filters.md with the CPU model."""
import json
import re
import os
import random
import time
import urllib.parse

import benchkit
from pgcluster import Cluster
from search_sorts import start_backends

SORTS = ["relevance", "grossing", "rating", "released", "title"]
P99_GOAL_MS = 20
GENRES = [("Drama", 30), ("Comedy", 20), ("Action", 10), ("Romance", 8), ("Thriller", 8), ("Crime", 7), ("Horror", 6),
          ("Adventure", 5), ("Documentary", 5), ("Sci-Fi", 3), ("Family", 3), ("Fantasy", 3), ("Mystery", 3), ("Biography", 2),
          ("History", 2), ("Animation", 2), ("Music", 2), ("War", 1), ("Western", 1), ("Musical", 1), ("Sport", 1), ("Film-Noir", 0.3)]


def add_details(path, seed):
    """Gives every movie of the catalogue at `path` IMDb's details; returns the movies."""
    rng = random.Random(seed)
    names, weights = [g for g, _ in GENRES], [w for _, w in GENRES]
    movies = json.load(open(path))
    for movie in movies:
        movie["imdbId"] = f"tt{movie['id']:08d}"
        if rng.random() > 0.05:
            movie["runtimeMinutes"] = 45 + int(rng.random() ** 2 * 195)
        if rng.random() > 0.1:
            movie["votes"] = int(10 ** (rng.random() * 6.3))
        genres = []
        for _ in range(rng.choice([1, 2, 2, 3])):
            genre = rng.choices(names, weights)[0]
            if genre not in genres:
                genres.append(genre)
        movie["genres"] = sorted(genres, key=names.index)
    with open(path, "w") as written:
        json.dump(movies, written, separators=(",", ":"))
    return movies


def draw(movies, seed):
    """200 (filtered, unfiltered) query strings: one to three filters, a sort and order, words for two in five."""
    rng = random.Random(seed)
    years = sorted({m["year"] for m in movies})
    draws = []
    for number in range(200):
        sort = SORTS[number % len(SORTS)]
        base = {}
        if sort == "relevance" or rng.random() < 0.4:
            movie = rng.choice(movies)
            pool = benchkit.search_words(movie["name"]) + [w for actor in movie["cast"] for w in benchkit.search_words(actor["name"])]
            chosen = rng.sample(pool, min(len(pool), rng.choice([1, 1, 2, 3])))
            if rng.random() < 0.5:
                chosen[-1] = chosen[-1][:rng.randint(1, max(1, len(chosen[-1])))]
            base["query"] = " ".join(chosen)
        base["sort"] = sort
        order = rng.choice(["", "asc", "desc"])
        if order:
            base["order"] = order
        filters = {}
        for kind in rng.sample(["genre", "runtime", "year", "minVotes", "minRating"], rng.choice([1, 1, 2, 3])):
            if kind == "genre":
                filters["genre"] = ",".join(rng.sample([g for g, _ in GENRES], rng.choice([1, 1, 2])))
            elif kind == "runtime":
                low = rng.randrange(45, 200)
                filters["runtime"] = f"{low}-{low + rng.choice([10, 30, 60, 120])}" if rng.random() < 0.8 else f"{low}-"
            elif kind == "year":
                low = rng.choice(years)
                filters["year"] = f"{low}-{low + rng.choice([1, 5, 10, 30])}"
            elif kind == "minVotes":
                filters["minVotes"] = str(int(10 ** (rng.random() * 6)))
            else:
                filters["minRating"] = str(rng.randrange(10, 99))
        quote = urllib.parse.quote
        draws.append((urllib.parse.urlencode({**base, **filters}, quote_via=quote), urllib.parse.urlencode(base, quote_via=quote)))
    return draws


def main():
    marquee, results, _ = benchkit.command_line("search_filters.py MARQUEE RESULTS_DIR")
    cpu = benchkit.cpu_model()
    count = int(os.environ.get("SEARCH_FILTERS_MOVIES", "1000000"))
    seed = int(os.environ.get("SEARCH_FILTERS_SEED", str(int(time.time()) % 100000)))
    started = {}
    with benchkit.scratch_folder("marquee-search-filters-") as work:
        catalog = benchkit.generate_catalog(marquee, os.path.join(work, "catalog.json"), count, seed=7)
        movies = add_details(catalog, 7)
        draws = draw(movies, seed)
        del movies
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
            times = {(name, side): [] for name in names for side in ["filtered", "unfiltered"]}
            disagreements, empty = [], 0
            for number, (filtered, unfiltered) in enumerate(draws):
                answers = {}
                sides = [("filtered", filtered), ("unfiltered", unfiltered)]
                for name in names[number % 3:] + names[:number % 3]:
                    for side, query in (sides if number % 2 == 0 else sides[::-1]):
                        elapsed, page = clients[name].get(f"/api/movies?{query}&limit=20")
                        times[(name, side)].append(elapsed * 1000)
                        if side == "filtered":
                            answers[name] = [m["id"] for m in page["movies"]]
                if len({tuple(ids) for ids in answers.values()}) != 1:
                    disagreements.append(filtered)
                empty += not answers[names[0]]
            memory = {name: benchkit.rss_kib(server.pid) / 1024 for name, server in servers.items()}
        finally:
            for server in servers.values():
                server.stop()
            if cluster:
                cluster.stop()
        index_sizes = {}
        for name in ["sqlite", "postgres"]:
            found = re.findall(r"size[=:]\s*\"?(\d+) MB", open(os.path.join(work, f"{name}.log")).read())
            index_sizes[name] = int(found[-1]) if found else None

    p = benchkit.percentile_nearest
    lines = ["## Filtered listing and search, on 1M movies in memory, SQLite and PostgreSQL", "", f"CPU: {cpu}",
             f"catalogue: {count:,} movies with IMDb's details; {len(draws)} draws (seed {seed}), each asked once per backend with its filter and without, interleaved; "
             f"{empty} of them found nothing", ""]
    lines += ["| backend | filtered p50 ms | p99 ms | max ms | unfiltered p50 ms | p99 ms | p99 ratio | slowest filtered draw |", "|---|---:|---:|---:|---:|---:|---:|---|"]
    for name in names:
        f, u = times[(name, "filtered")], times[(name, "unfiltered")]
        slowest = max(range(len(draws)), key=lambda i: f[i])
        lines.append(f"| {name} | {p(f, 0.5):.1f} | {p(f, 0.99):.1f} | {max(f):.1f} | {p(u, 0.5):.1f} | {p(u, 0.99):.1f} | {p(f, 0.99) / p(u, 0.99):.2f}× | `{draws[slowest][0]}` |")
        benchkit.record_goal(results, f"filtered listing and search on {name}, {count:,} movies: p99 of {len(draws)} draws (seed {seed})", f"< {P99_GOAL_MS} ms",
                             f"{p(f, 0.99):.1f} ms", p(f, 0.99) < P99_GOAL_MS, f"{p(f, 0.99) / p(u, 0.99):.2f}× (unfiltered)")
    lines += ["", "start-up and import, seconds: " + ", ".join(f"{k} {v:.0f}" for k, v in started.items())]
    for name, size in index_sizes.items():
        if size is not None:
            benchkit.record_goal(results, f"the search index of {count:,} movies with their details ({name})", "≤ 250 MB", f"{size} MB", size <= 250)
    lines.append("search index, MB: " + ", ".join(f"{k} {v}" for k, v in index_sizes.items()))
    lines.append("RSS after the draws, MB: " + ", ".join(f"{k} {v:.0f}" for k, v in memory.items()))
    lines.append(f"draws whose first page differed between backends: {len(disagreements)}" + (f" (e.g. `{disagreements[0]}`)" if disagreements else ""))
    text = "\n".join(lines)
    print(text)
    benchkit.write_result(results, "search-filters.md", text + "\n")


if __name__ == "__main__":
    main()
