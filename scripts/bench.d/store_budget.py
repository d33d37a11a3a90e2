#!/usr/bin/env python3
"""The store's budget on a walk of the whole catalogue: `marquee movies --all` over 1M movies with
MARQUEE_STORE_BUDGET=50MB against the same walk with no budget (the goal: at most 1.1x the time, the
file at most 55 MB), then a cached top-10 read (`top-grossing --year Y --offline`) on the store at
its budget against the same read on the unbudgeted store (the goal: the same within noise).

Rounds are interleaved (budget, none, none, budget, ...) so that the machine's noise hits both
alike, after one walk that is not measured (a fresh server's first walk is slower, whichever kind
it is); each walk starts from an empty store. The server is `marquee serve --database` on a SQLite
import of the generated catalogue, on loopback. The CPU model is written with the results.

Usage: store_budget.py MARQUEE RESULTS_DIR. STORE_BUDGET_MOVIES sets the catalogue size (default
1,000,000), STORE_BUDGET_ROUNDS the walks of each kind (default 2), STORE_BUDGET the budget (50MB).
Writes store-budget.md."""
import json
import os
import statistics
import subprocess

import benchkit

KINDS = ["budget", "none"]


def file_bytes(store):
    return sum(os.path.getsize(store + suffix) for suffix in ("", "-wal") if os.path.exists(store + suffix))


def walk(marquee, api, store, environment, what):
    """`marquee movies --limit 100 --all` into `store`: its seconds."""
    elapsed, done = benchkit.timed_run([marquee, "movies", "--limit", "100", "--all", "--env", api, "--store", store],
                                       env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        raise SystemExit(f"store-budget: the {what} walk failed: {done.stderr.strip()}")
    return elapsed


def main():
    marquee, results, _ = benchkit.command_line("store_budget.py MARQUEE RESULTS_DIR")
    cpu = benchkit.cpu_model()
    count = int(os.environ.get("STORE_BUDGET_MOVIES", "1000000"))
    rounds = int(os.environ.get("STORE_BUDGET_ROUNDS", "2"))
    budget = os.environ.get("STORE_BUDGET", "50MB")
    with benchkit.scratch_folder("marquee-store-budget-") as work:
        catalog = benchkit.generate_catalog(marquee, os.path.join(work, "catalog.json"), count, seed=7)
        database = os.path.join(work, "server.sqlite")
        benchkit.import_catalog(marquee, catalog, database)
        years = sorted({m["year"] for m in json.load(open(catalog))})

        def environment(kind):
            return dict(os.environ, XDG_CONFIG_HOME=os.path.join(work, "config"), MARQUEE_STORE_BUDGET=budget if kind == "budget" else "unlimited")

        walks = {kind: [] for kind in KINDS}
        sizes = {kind: [] for kind in KINDS}
        reads = {kind: [] for kind in KINDS}
        stores = {}
        with benchkit.Server(marquee, "--public", "--log-level", "warning", "--database", database, ready_seconds=600) as server:
            # One walk first, not measured: the first walk of a fresh server reads its file from the disk
            # and fills its response cache, and would be slower whichever kind went first.
            walk(marquee, server.api, os.path.join(work, "warm-up.sqlite"), environment("none"), "warm-up")
            os.remove(os.path.join(work, "warm-up.sqlite"))
            for number in range(rounds):
                for kind in benchkit.alternating(KINDS, number):
                    store = os.path.join(work, f"{kind}-{number}.sqlite")
                    elapsed = walk(marquee, server.api, store, environment(kind), kind)
                    walks[kind].append(elapsed)
                    sizes[kind].append(file_bytes(store))
                    stores[kind] = store
                    print(f"walk {number + 1} {kind}: {elapsed:.1f} s, {file_bytes(store) / 1e6:.1f} MB", flush=True)

            # A cached top-10 read on each store, interleaved: the year whose list the walk left whole.
            year = str(years[-1])
            for kind, store in stores.items():
                subprocess.run([marquee, "top-grossing", "--year", year, "--env", server.api, "--store", store], env=environment(kind), check=True, **benchkit.QUIET)
            for number in range(30):
                for kind in benchkit.alternating(KINDS, number):
                    elapsed, _ = benchkit.timed_run([marquee, "top-grossing", "--year", year, "--offline", "--store", stores[kind], "--env", server.api],
                                                    env=environment(kind), check=True, **benchkit.QUIET)
                    reads[kind].append(elapsed * 1000)

    walk_ratio = statistics.median(walks["budget"]) / statistics.median(walks["none"])
    read_ratio = statistics.median(reads["budget"]) / statistics.median(reads["none"])
    largest = max(sizes["budget"])
    lines = ["## The store's budget: a walk of the whole catalogue", "", f"CPU: {cpu}",
             f"catalogue: {count:,} movies; `marquee movies --limit 100 --all` into an empty store, {rounds} walks of each kind, interleaved; budget {budget}", "",
             "| | with the budget | with none | ratio | goal |", "|---|---:|---:|---:|---|",
             f"| walk, median s | {statistics.median(walks['budget']):.1f} | {statistics.median(walks['none']):.1f} | {walk_ratio:.2f}x | at most 1.1x |",
             f"| file after the walk, MB (largest) | {largest / 1e6:.1f} | {max(sizes['none']) / 1e6:.1f} | | at most 55 MB |",
             f"| cached top-10 read (`top-grossing --offline`), median ms of 30 | {statistics.median(reads['budget']):.1f} | {statistics.median(reads['none']):.1f} | {read_ratio:.2f}x | within noise |"]
    text = "\n".join(lines)
    print(text)
    benchkit.write_result(results, "store-budget.md", text + "\n")
    benchkit.record_goal(results, f"`movies --all` over {count:,} movies within a {budget} store budget, against none: walk time", "at most 1.1×",
                         f"{statistics.median(walks['budget']):.1f} s", walk_ratio <= 1.1, f"{walk_ratio:.2f}×")
    benchkit.record_goal(results, f"the store's file after that walk (budget {budget})", "at most 55 MB", f"{largest / 1e6:.1f} MB", largest <= 55e6)
    benchkit.record_goal(results, "cached top-10 read on the store at its budget, against none, median", "within noise",
                         f"{statistics.median(reads['budget']):.1f} ms", None, f"{read_ratio:.2f}×")


if __name__ == "__main__":
    main()
