#!/usr/bin/env python3
"""The server beyond one process: catalog import, the PostgreSQL-backed server, two instances.

Usage: database.py MARQUEE RESULTS_DIR [WRK_SECONDS]

Starts a throwaway PostgreSQL cluster (pgcluster.py), and:

- imports synthetic catalogs of 100k and 1M movies into PostgreSQL and into a SQLite file with
  `marquee catalog import`, and the 100k file a second time (a no-op): movies per second;
- serves /api/movies/topGrossing/2016 of the reference catalog from the in-memory server, the
  PostgreSQL-backed server and nginx (the same bytes as a static file), with wrk, in interleaved
  rounds (best of three each);
- puts one, then two PostgreSQL-backed instances behind nginx (deploy/nginx.conf's upstream),
  interleaved, best of two.

Writes RESULTS_DIR/database.md (a Markdown section) and prints it; appends wrk's output to
wrk-db-*.txt.
"""
import os
import time

import benchkit
from pgcluster import Cluster

PATH = "/api/movies/topGrossing/2016"


def best_of(rounds, sites, results, seconds, prefix):
    """wrk on each site in turn, `rounds` times: the best round of each, (requests/s, p99 µs, errors)."""
    best = {label: (0, 0, 0) for label in sites}
    for _ in range(rounds):
        for label, site in sites.items():
            run = benchkit.wrk("-t2", "-c64", f"-d{seconds}s", "--latency", site.url(PATH))
            with open(os.path.join(results, f"wrk-{prefix}{label}.txt"), "a") as handle:
                handle.write(run.text)
            if run.requests_per_second > best[label][0]:
                best[label] = (run.requests_per_second, run.p99_us, run.errors)
    return best


def imports(marquee, cluster, work):
    """(backend, movies, what, seconds) of each import."""
    catalogs = {count: benchkit.generate_catalog(marquee, os.path.join(work, f"catalog-{count}.json"), count, seed=7)
                for count in (100_000, 1_000_000)}
    timed = []
    for count, path in catalogs.items():
        for kind in ("PostgreSQL", "SQLite"):
            database = cluster.database(f"import_{count}") if kind == "PostgreSQL" else os.path.join(work, f"import-{count}.sqlite")
            timed.append((kind, count, "first import", benchkit.import_catalog(marquee, path, database)))
            if count == 100_000:
                timed.append((kind, count, "again (no change)", benchkit.import_catalog(marquee, path, database)))
    return timed


def main():
    marquee, results, rest = benchkit.command_line("database.py MARQUEE RESULTS_DIR [WRK_SECONDS]")
    seconds = int(rest[0]) if rest else 8
    stack = []
    with benchkit.scratch_folder("marquee-bench-db-") as work:
        cluster = Cluster(work)
        try:
            imported = imports(marquee, cluster, work)
            memory = benchkit.Server(marquee, "--public", "--log-level", "warning")
            stack.append(memory)
            body = benchkit.wait_for(memory.url(PATH))
            served = os.path.join(work, "www")
            os.makedirs(os.path.dirname(served + PATH), exist_ok=True)
            with open(served + PATH, "wb") as handle:
                handle.write(body)
            database = cluster.database("serving")
            benchkit.import_catalog(marquee, benchkit.REFERENCE_CATALOG, database)
            postgres = benchkit.Server(marquee, "--public", "--log-level", "warning", "--database", database)
            stack.append(postgres)
            static = benchkit.Nginx.static(os.path.join(work, "static"), served, PATH)
            stack.append(static)
            for site in (postgres, static):
                if benchkit.wait_for(site.url(PATH)) != body:
                    raise SystemExit("bench: the servers do not answer the same bytes")
            best = best_of(3, {"nginx": static, "memory": memory, "postgres": postgres}, results, seconds, "db-")

            second = benchkit.Server(marquee, "--public", "--log-level", "warning", "--database", database)
            stack.append(second)
            one = benchkit.Nginx.proxy(os.path.join(work, "one"), [postgres.port], PATH)
            stack.append(one)
            two = benchkit.Nginx.proxy(os.path.join(work, "two"), [postgres.port, second.port], PATH)
            stack.append(two)
            balanced = best_of(2, {"one": one, "two": two}, results, seconds, "db-balanced-")
        finally:
            for process in stack:
                process.stop()
            cluster.stop()

    lines = [
        "## The server on a database",
        "",
        f"Measured with `scripts/bench.d/database.py` on {time.strftime('%Y-%m-%d')}; CPU: {benchkit.cpu_model('unknown CPU')}, {os.cpu_count()} cores.",
        "PostgreSQL runs with Debian's defaults (fsync on) in a throwaway cluster on the same cores; wrk",
        f"(`-t2 -c64 -d{seconds}s`) shares them too. Rounds are interleaved; each figure is the best round.",
        "",
        "| import (`marquee catalog import`, batches of 1000, one transaction) | movies | time | movies/s |",
        "|---|---|---|---|",
    ]
    for kind, count, what, elapsed in imported:
        lines.append(f"| {kind}, {what} | {count:,} | {elapsed:.1f} s | {count / elapsed:,.0f} |")
    lines += [
        "",
        f"| `GET {PATH}` | requests/s | p99 | ratio to nginx | ratio to in-memory | goal |",
        "|---|---|---|---|---|---|",
    ]
    for label, name in (("nginx", "nginx, the same bytes as a static file"), ("memory", "`marquee serve` (in memory)"),
                        ("postgres", "`marquee serve --database postgres://…`")):
        rate, p99, errors = best[label]
        goal = ""
        if label == "memory":
            met = rate >= 0.8 * best["nginx"][0]
            goal = f"≥ 0.8× nginx: {'met' if met else '**missed**'}"
            benchkit.record_goal(results, f"server in memory, GET {PATH}: req/s against nginx", "≥ 0.8×", f"{rate:,.0f} req/s", met,
                                 f"{rate / best['nginx'][0]:.2f}×")
        if label == "postgres":
            met = rate >= 0.5 * best["memory"][0]
            goal = f"≥ 0.5× in-memory: {'met' if met else '**missed**'}"
            benchkit.record_goal(results, f"server on PostgreSQL, GET {PATH}: req/s against in memory", "≥ 0.5×", f"{rate:,.0f} req/s", met,
                                 f"{rate / best['memory'][0]:.2f}×")
        lines.append(f"| {name} | {rate:,.0f} | {p99:,.0f} µs | {rate / best['nginx'][0]:.2f}× | "
                     f"{rate / best['memory'][0]:.2f}× | {goal} |" + (f" ({errors} errors)" if errors else ""))
    lines += [
        "",
        "| behind nginx (deploy/nginx.conf's upstream) | requests/s | p99 |",
        "|---|---|---|",
        f"| one PostgreSQL-backed instance | {balanced['one'][0]:,.0f} | {balanced['one'][1]:,.0f} µs |",
        f"| two instances on one database | {balanced['two'][0]:,.0f} | {balanced['two'][1]:,.0f} µs "
        f"({balanced['two'][0] / balanced['one'][0]:.2f}× one) |",
        "",
    ]
    text = "\n".join(lines)
    benchkit.write_result(results, "database.md", text)
    print(text)


if __name__ == "__main__":
    main()
