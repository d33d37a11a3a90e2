#!/usr/bin/env python3
"""The router path: what a request costs when Hummingbird's router answers it, not the event loop.

Every kept catalogue answer is given on the event loop; the router still answers a cache miss, a
path that is not a catalogue answer, every request of a server started with
--route-every-request, and the watchlist and token routes. This measures, on a 1,000-movie
generated catalogue with wrk (-t2 -c64 -d10s), each server's CPU time (user + system) per request
and its requests per second, for:

  routed id      100 movies by id, public, --route-every-request (the cache answers in the router)
  routed token   the same on a server that needs a token, wrk sending one
  routed 404     paths that are no route (/api/nothing/N): the router's own 404, made JSON
  misses         ids never asked before (a 404 each, computed and kept: every request a miss;
                 each server is new, so its cache starts empty)
  event loop     100 movies by id answered on the event loop (the path the router is compared to),
                 and the same on a server that needs a token

Usage: router_path.py MARQUEE RESULTS_DIR [BASELINE_MARQUEE]. With a baseline (a build of an
earlier commit that has --route-every-request), the two binaries run in interleaved rounds, three
of each (ROUTER_BENCH_ROUNDS sets how many), and each row gives both and their ratio; without, the
current binary alone. Writes router-path.md with the CPU model."""
import json
import os

import benchkit
import signin

# Each wrk thread, and each run (by the second it starts), asks ids of its own.
MISSES_SCRIPT = """local threads = 0
function setup(thread)
  thread:set("base", 10000000 + threads * 1000000000 + (os.time() % 100) * 5000000)
  threads = threads + 1
end
local n = 0
request = function()
  n = n + 1
  return wrk.format("GET", "/api/movies/" .. (base + n))
end
"""

LABELS = {
    "routed id": "a movie by id through the router (public)",
    "routed token": "a movie by id through the router, with a token",
    "routed 404": "a path that is no route (the router's 404)",
    "misses": "a cache miss (an id never asked: computed, kept)",
    "event loop": "a movie by id from the event loop (for comparison)",
    "event loop token": "the same with a token, from the event loop",
}


class Cases:
    """Each case: its serve arguments, and how to make its wrk script once the server runs."""

    def __init__(self, work, id_paths):
        self.work, self.id_paths = work, id_paths
        self.no_route = [f"/api/nothing/{n}" for n in range(100)]
        self.serve_arguments = {
            "routed id": ["--public", "--route-every-request"],
            "routed token": ["--route-every-request"],
            "routed 404": ["--public"],
            "misses": ["--public"],
            "event loop": ["--public"],
            "event loop token": [],
        }

    def script(self, name, tag, port):
        if name in ("routed id", "event loop"):
            return benchkit.rotating_script(self.lua("ids"), self.id_paths)
        if name == "routed token":
            return benchkit.rotating_script(self.lua(f"token-{tag}"), self.id_paths, f"Bearer {signin.app_token(port)}")
        if name == "event loop token":
            return benchkit.rotating_script(self.lua(f"event-token-{tag}"), self.id_paths, f"Bearer {signin.app_token(port)}")
        if name == "routed 404":
            return benchkit.rotating_script(self.lua("noroute"), self.no_route)
        with open(self.lua("misses"), "w") as script:
            script.write(MISSES_SCRIPT)
        return self.lua("misses")

    def lua(self, name):
        return os.path.join(self.work, f"{name}.lua")


def measure(binary, catalog, cases, name, tag):
    """A fresh server: a 3 s wrk warm-up, then a 10 s round; requests/s and CPU µs per request."""
    with benchkit.Server(binary, "--catalog", catalog, "--log-level", "warning", *cases.serve_arguments[name]) as server:
        script = cases.script(name, tag, server.port)
        benchkit.wrk_with_cpu([server.pid], "-t2", "-c64", "-d3s", "-s", script, server.url("/"))
        run, cpu = benchkit.wrk_with_cpu([server.pid], "-t2", "-c64", "-d10s", "-s", script, server.url("/"))
        return run.requests_per_second, cpu


def main():
    marquee, results, rest = benchkit.command_line("router_path.py MARQUEE RESULTS_DIR [BASELINE_MARQUEE]")
    baseline = rest[0] if rest else None
    rounds = int(os.environ.get("ROUTER_BENCH_ROUNDS", "3"))
    cpu = benchkit.cpu_model()
    binaries = [("after", marquee)] + ([("before", baseline)] if baseline else [])
    with benchkit.scratch_folder("marquee-router-bench-") as work:
        catalog = benchkit.generate_catalog(marquee, os.path.join(work, "catalog.json"), 1000, seed=11)
        ids = [movie["id"] for movie in json.load(open(catalog))][:100]
        cases = Cases(work, [f"/api/movies/{i}" for i in ids])
        figures = {(tag, name): [] for tag, _ in binaries for name in LABELS}
        for round_number in range(rounds):
            for name in LABELS:
                for tag, binary in benchkit.alternating(binaries, round_number):
                    figures[(tag, name)].append(measure(binary, catalog, cases, name, tag))

    def median_of(tag, name, index):
        return benchkit.percentile([r[index] for r in figures[(tag, name)]], 0.5)

    rows = []
    for name, label in LABELS.items():
        after_rps, after_cpu = median_of("after", name, 0), median_of("after", name, 1)
        if baseline:
            before_rps, before_cpu = median_of("before", name, 0), median_of("before", name, 1)
            rows.append(f"| {label} | {before_cpu:.1f} | {after_cpu:.1f} | {after_cpu / before_cpu:.2f}× | {before_rps:,.0f} | {after_rps:,.0f} |")
        else:
            rows.append(f"| {label} | {after_cpu:.1f} | {after_rps:,.0f} |")
    if baseline:
        header = "| request | CPU µs/request before | after | ratio | req/s before | after |\n|---|---:|---:|---:|---:|---:|\n"
    else:
        header = "| request | CPU µs/request | req/s |\n|---|---:|---:|\n"
    text = f"""## The router path (`scripts/bench.d/router_path.py`)

Measured on {cpu}, release build. wrk `-t2 -c64 -d10s` after a 3 s warm-up, a 1,000-movie generated
catalogue, a fresh server for each measurement; {rounds} interleaved rounds{" of the two builds" if baseline else ""}, medians;
CPU is the server's user + system time per request answered.

{header}""" + "\n".join(rows) + "\n"
    benchkit.write_result(results, "router-path.md", text)
    print(text)


if __name__ == "__main__":
    main()
