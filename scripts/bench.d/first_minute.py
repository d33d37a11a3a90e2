#!/usr/bin/env python3
"""The first minute after a start and after an import ([operate]): searches on a 1M-movie catalogue,
SQLite and PostgreSQL, asked at a steady 40 a second from the moment the server listens (`/health/live`,
before it says it is ready: what a person who reaches a single instance meets), and while an import of
1,000 changed movies runs and for a minute after it ends. When the server says it is ready
(`/health/ready`, which waits for its search index) is recorded beside them. Each (query, sort) pair
is drawn at run time (as in search_sorts.py) and asked once, so no response cache helps.

Baseline, interleaved with the figure it is set against: the same start with the stored index
deleted by hand first, which is how every start went before the index was stored (the database
answered searches until the server had made it). The server's memory after its index is read (RSS)
is recorded too: the goal is 250 MB at 1M movies.

Usage: first_minute.py MARQUEE RESULTS_DIR. FIRST_MINUTE_MOVIES sets the catalogue size (default
1,000,000) and FIRST_MINUTE_SECONDS the window (default 60). The CPU model is written with the
results (first-minute.md)."""
import json
import os
import re
import sqlite3
import subprocess
import threading
import threading
import time

import benchkit
from pgcluster import Cluster
from search_sorts import draw_pairs

RATE = 40
P99_GOAL_MS = 20
RSS_GOAL_MB = 250


class Pairs:
    """Query strings drawn from the catalogue, each handed out once."""

    def __init__(self, movies, seed):
        self.movies, self.seed, self.queue = movies, seed, []

    def next(self):
        if not self.queue:
            self.seed += 1
            self.queue = draw_pairs(self.movies, self.seed)
        return self.queue.pop()


def paced_searches(port, pairs, seconds, until=None):
    """Asks a new pair RATE times a second for `seconds` (or until `until()` is true, then
    `seconds` more): the milliseconds each took, with its time from the start."""
    client = benchkit.TimedClient(port)
    begun = time.monotonic()
    stop_at = begun + seconds if until is None else None
    taken, number = [], 0
    while True:
        now = time.monotonic()
        if stop_at is None and until():
            stop_at = now + seconds
        if stop_at is not None and now >= stop_at:
            return taken
        due = begun + number / RATE
        if due > now:
            time.sleep(due - now)
        elapsed, _ = client.get(f"/api/movies?{pairs.next()}&limit=20")
        taken.append((time.monotonic() - begun, elapsed * 1000))
        number += 1


def time_to_ready(server, begun, into):
    """Polls /health/ready until it answers 200, in a thread; the seconds from `begun` into `into`."""
    def poll():
        while server.process.poll() is None:
            try:
                benchkit.wait_for(server.url("/health/ready"), 0.05)
                into.append(time.monotonic() - begun)
                return
            except SystemExit:
                pass
    thread = threading.Thread(target=poll, daemon=True)
    thread.start()
    return thread


def drop_stored_index(name, database, cluster):
    """Deletes the stored search index, as no start before [operate] had one."""
    if name == "sqlite":
        with sqlite3.connect(database) as connection:
            connection.execute("DELETE FROM search_index_snapshot")
    else:
        subprocess.run(cluster.psql("movies", "-c", "DELETE FROM search_index_snapshot"), check=True, stdout=subprocess.DEVNULL)


def index_line(log):
    """How the server's last index came to be, and how long it took."""
    with open(log) as text:
        lines = [line for line in text if "search index ready" in line]
    if not lines:
        return "not ready"
    took = re.search(r"took=([0-9.]+) s", lines[-1])
    return f"{'read' if 'stored snapshot' in lines[-1] else 'made'} in {float(took.group(1)):.2f} s" if took else "ready"


def summary(values):
    p = benchkit.percentile_nearest
    return p(values, 0.5), p(values, 0.99), max(values)


def main():
    marquee, results, _ = benchkit.command_line("first_minute.py MARQUEE RESULTS_DIR")
    cpu = benchkit.cpu_model()
    count = int(os.environ.get("FIRST_MINUTE_MOVIES", "1000000"))
    seconds = float(os.environ.get("FIRST_MINUTE_SECONDS", "60"))
    seed = int(time.time()) % 100000
    rows, memory, notes = [], {}, []
    with benchkit.scratch_folder("marquee-first-minute-") as work:
        catalog = benchkit.generate_catalog(marquee, os.path.join(work, "catalog.json"), count, seed=7)
        movies = json.load(open(catalog))
        changed = [dict(movie, name=movie["name"] + " Redux") for movie in movies[::max(1, count // 1000)][:1000]]
        changed_file = os.path.join(work, "changed.json")
        json.dump(changed, open(changed_file, "w"))
        pairs = Pairs(movies, seed)
        cluster = Cluster(work)
        try:
            databases = {"sqlite": os.path.join(work, "movies.sqlite"), "postgres": cluster.database("movies")}
            for name, database in databases.items():
                imported = benchkit.import_catalog(marquee, catalog, database)
                notes.append(f"{name}: import of {count:,} movies {imported:.0f} s (the index made and stored in it)")
            for round_number in range(2):
                for name, database in databases.items():
                    for stored in benchkit.alternating([True, False], round_number):
                        if not stored:
                            drop_stored_index(name, database, cluster)
                        log = os.path.join(work, f"{name}-{round_number}-{stored}.log")
                        begun = time.monotonic()
                        with benchkit.Server(marquee, "--public", "--log-level", "info", "--database", database, ready_seconds=600, log=log,
                                             wait_path="/health/live") as server:
                            became_ready = []
                            time_to_ready(server, begun, became_ready)
                            taken = paced_searches(server.port, pairs, seconds)
                            ready = became_ready[0] if became_ready else float("nan")
                            what = "start, index stored" if stored else "start, index dropped (before [operate])"
                            rows.append((name, what, round_number, ready, index_line(log), [ms for _, ms in taken], [ms for at, ms in taken if at < 5]))
                            if stored and round_number == 1:
                                memory[name] = benchkit.rss_kib(server.pid) / 1024
                                importer = subprocess.Popen([marquee, "catalog", "import", changed_file, "--database", database],
                                                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                                import_begun = time.monotonic()
                                taken = paced_searches(server.port, pairs, seconds, until=lambda: importer.poll() is not None)
                                if importer.wait() != 0:
                                    raise SystemExit(f"first-minute: the import into {name} failed: {importer.stderr.read().decode()}")
                                import_took = time.monotonic() - import_begun - seconds
                                during = [ms for at, ms in taken if at < import_took]
                                rows.append((name, "during and a minute after an import of 1,000 changed movies", round_number, None,
                                             index_line(log), [ms for _, ms in taken], during))
        finally:
            cluster.stop()

    lines = ["## The first minute after a start and after an import", "", f"CPU: {cpu}",
             f"catalogue: {count:,} movies; searches at {RATE}/s for {seconds:.0f} s from the moment the server listens, each a new drawn pair (seeds from {seed + 1}); ready after: when /health/ready first said 200", ""]
    lines += ["| backend | what | round | ready after s | index | searches | p50 ms | p99 ms | max ms | first 5 s (or during the import): p99 ms |",
              "|---|---|---:|---:|---|---:|---:|---:|---:|---:|"]
    for name, what, round_number, ready, index, values, early in rows:
        p50, p99, top = summary(values)
        early_p99 = f"{summary(early)[1]:.1f}" if early else "–"
        lines.append(f"| {name} | {what} | {round_number} | {'' if ready is None else f'{ready:.2f}'} | {index} | {len(values)} | {p50:.1f} | {p99:.1f} | {top:.1f} | {early_p99} |")
    for name in ["sqlite", "postgres"]:
        for what in ["start, index stored", "during and a minute after an import of 1,000 changed movies"]:
            values = [v for n, w, _, _, _, vs, _ in rows if n == name and w == what for v in vs]
            if values:
                p99 = summary(values)[1]
                baseline = [v for n, w, _, _, _, vs, _ in rows if n == name and w.startswith("start, index dropped") for v in vs]
                ratio = f"{p99 / summary(baseline)[1]:.2f}× (index dropped: p99 {summary(baseline)[1]:.1f} ms)" if what.startswith("start") and baseline else ""
                benchkit.record_goal(results, f"search on {name}, {count:,} movies, the first {seconds:.0f} s after a {what.split(',')[0].split(' of')[0].replace('during and a minute after an ', '')}: p99",
                                     f"< {P99_GOAL_MS} ms", f"{p99:.1f} ms", p99 < P99_GOAL_MS, ratio)
    for name, mb in memory.items():
        benchkit.record_goal(results, f"the server's memory on {name} with its search index of {count:,} movies (RSS)", f"≤ {RSS_GOAL_MB} MB",
                             f"{mb:.0f} MB", mb <= RSS_GOAL_MB)
    lines += ["", "RSS with the index read, MB: " + ", ".join(f"{k} {v:.0f}" for k, v in memory.items())]
    lines += notes
    text = "\n".join(lines)
    print(text)
    benchkit.write_result(results, "first-minute.md", text + "\n")


if __name__ == "__main__":
    main()
