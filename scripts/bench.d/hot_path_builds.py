#!/usr/bin/env python3
"""Several release builds of `marquee` on the hot path, interleaved with nginx: each build runs
`serve --public --catalog` (the 1,000-movie catalogue of server_mix.py) and answers the ids mix
(100 movies by id and 20 missing) and the search and paging pages; nginx serves the ids' bytes.
Every round runs each side once, in alternating order, after a warm-up round; each run is wrk
`-t2 -c64` for SECONDS. Printed: each side's median requests/s and CPU µs a request, and the
per-round ratios of CPU a request between every two sides (median and geometric mean), which a
noisy machine disturbs less than the medians (both sides of a ratio ran within the same round).

For bisecting and for "measured interleaved against the commit before": build each commit with
`swift build -c release --product marquee` and copy `.build/release/marquee` aside first.

Usage: hot_path_builds.py RESULTS_DIR ROUNDS SECONDS NAME=MARQUEE [NAME=MARQUEE ...]
Writes hot-path-builds.md with the CPU model."""
import json
import math
import os
import statistics
import sys

import benchkit
import server_mix


def per_round_ratios(numerators, denominators):
    ratios = [a[1] / b[1] for a, b in zip(numerators, denominators)]
    return statistics.median(ratios), math.exp(sum(map(math.log, ratios)) / len(ratios))


def main():
    if len(sys.argv) < 5:
        raise SystemExit("usage: hot_path_builds.py RESULTS_DIR ROUNDS SECONDS NAME=MARQUEE [NAME=MARQUEE ...]")
    results, rounds, seconds = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    builds = dict(argument.split("=", 1) for argument in sys.argv[4:])
    os.makedirs(results, exist_ok=True)
    cpu = benchkit.cpu_model()

    def run(url, script, pids):
        wrk, cpu_us = benchkit.wrk_with_cpu(pids, "-t2", "-c64", f"-d{seconds}s", "-s", script, url)
        return wrk.requests_per_second, cpu_us

    with benchkit.scratch_folder("marquee-hot-path-") as work:
        catalog = benchkit.generate_catalog(next(iter(builds.values())), os.path.join(work, "catalog.json"), 1000, seed=11)
        movies = json.load(open(catalog))
        years = sorted({movie["year"] for movie in movies})[:2]
        id_paths = [f"/api/movies/{movie['id']}" for movie in movies[:100]] + [f"/api/movies/{9_000_000 + n}" for n in range(20)]
        search_paths = [f"/api/movies?query={word}" for word in ("the", "lost", "golden", "ava", "harbor", "river", "empire", "garden")]
        search_paths += [f"/api/movies?year={years[0]}&sort=rating&limit=20", "/api/movies?sort=title&limit=50"]
        servers = {}
        nginx = None
        try:
            for name, binary in builds.items():
                servers[name] = benchkit.Server(binary, "--public", "--catalog", catalog, "--log-level", "warning")
            first = next(iter(servers.values()))
            www = os.path.join(work, "www")
            server_mix.mirror(first, id_paths, www, 9_000_000)
            nginx = benchkit.Nginx.static(os.path.join(work, "nginx"), www, id_paths[0], not_found="/notfound.json")
            ids = benchkit.rotating_script(os.path.join(work, "ids.lua"), id_paths)
            runs = {("ids", "nginx"): lambda: run(nginx.url("/"), ids, nginx.pids())}
            for index, (name, server) in enumerate(servers.items()):
                search = benchkit.rotating_script(os.path.join(work, f"search-{index}.lua"), server_mix.search_pages(server, search_paths))
                runs[("ids", name)] = lambda server=server: run(server.url("/"), ids, [server.pid])
                runs[("search pages", name)] = lambda server=server, search=search: run(server.url("/"), search, [server.pid])
            figures = {key: [] for key in runs}
            for round_number in range(rounds + 1):
                for key in benchkit.alternating(runs, round_number):
                    figure = runs[key]()
                    if round_number > 0:
                        figures[key].append(figure)
                print(f"round {round_number} of {rounds} done", file=sys.stderr, flush=True)
        finally:
            if nginx:
                nginx.stop()
            for server in servers.values():
                server.stop()

    sides = ["nginx", *builds]
    medians = ["| mix | side | req/s | CPU µs a request |", "|---|---|---:|---:|"]
    ratios = ["| mix | CPU a request of | against | median of rounds | geometric mean |", "|---|---|---|---:|---:|"]
    for mix in ("ids", "search pages"):
        present = [side for side in sides if (mix, side) in figures]
        for side in present:
            runs_of_side = figures[(mix, side)]
            medians.append(f"| {mix} | {side} | {statistics.median(r[0] for r in runs_of_side):,.0f} | {statistics.median(r[1] for r in runs_of_side):.2f} |")
        for later, side in enumerate(present):
            for other in present[:later]:
                median, geometric = per_round_ratios(figures[(mix, side)], figures[(mix, other)])
                ratios.append(f"| {mix} | {side} | {other} | {median:.2f}× | {geometric:.2f}× |")
    text = f"""## The hot path, builds interleaved (`scripts/bench.d/hot_path_builds.py`)

Measured on {cpu}: {rounds} rounds after a warm-up, wrk `-t2 -c64 -d{seconds}s` a run, the sides in
alternating order each round. Builds: {", ".join(f"`{name}`" for name in builds)}.

""" + "\n".join(medians) + "\n\nPer-round ratios (both sides of each ratio ran in the same round):\n\n" + "\n".join(ratios) + "\n"
    benchkit.write_result(results, "hot-path-builds.md", text)
    print(text)


if __name__ == "__main__":
    main()
