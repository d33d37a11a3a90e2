#!/usr/bin/env python3
"""The server on a mix of catalogue answers, against nginx serving the same bytes from files:
`marquee serve --public --catalog` (a 1,000-movie generated catalogue) and nginx, with wrk
(-t2 -c64 -d10s) rotating through the paths; three interleaved rounds of each mix, best of each,
with each server's CPU time per request. Mixes: "ids" (100 movies by id and 20 ids that do not
exist), "all" (those, the two top lists of 2016 and 2017). Search and paging pages (nginx has no
search) are measured for Marquee alone. Last, a run over 1M distinct ids (404s) with the cache
capped at 16 MiB, the server's RSS read before and after.

Tracing ([operate]): the same server with tracing off (no OTEL_* environment), on (the environment
names a stand-in OTLP collector in this script) with wrk sending no `traceparent` (the event loop
answers as untraced), on with a `traceparent` on every request (each routed and traced: the
callers' flags trusted, no per-address bound), and on with a sampled `traceparent` on every request
that the server does not trace (a public instance's untrusted flags, OTEL_TRACES_SAMPLER ratio 0:
the event loop answers as untraced, "within noise of no traceparent", compared on that one server
with the same requests without the header, interleaved), on the ids and the search pages, three
interleaved rounds. SERVER_MIX_BASELINE=/path/to/marquee adds that
build with tracing off, interleaved too: "off stays within noise of the build before tracing".

Usage: server_mix.py MARQUEE RESULTS_DIR. Writes server-mix.md with the CPU model."""
import http.server
import json
import os
import re
import threading
import urllib.error
import urllib.request

import benchkit

FLOOD_SCRIPT = """
local n = 0
request = function()
  n = n + 1
  return wrk.format("GET", "/api/movies/" .. (10000000 + n * 2 + math.random(0, 1)))
end
"""


def fetch(url):
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def rotating_round(url, script, pids):
    """Requests/s and CPU µs per request of one wrk round."""
    run, cpu = benchkit.wrk_with_cpu(pids, "-t2", "-c64", "-d10s", "-s", script, url)
    return run.requests_per_second, cpu


def mirror(server, paths, www, missing_id):
    """The server's 200 answers as files under `www`, and its 404 body as notfound.json."""
    for path in paths:
        status, body = fetch(server.url(path))
        if status == 200:
            os.makedirs(os.path.dirname(www + path), exist_ok=True)
            with open(www + path, "wb") as file:
                file.write(body)
    with open(os.path.join(www, "notfound.json"), "wb") as file:
        file.write(fetch(server.url(f"/api/movies/{missing_id}"))[1])


def flood(marquee, work, catalog, id_paths):
    """1M distinct ids on a server whose cache is capped at 16 MiB: RSS before and after (KiB),
    requests, the cache's bytes and evictions."""
    script = os.path.join(work, "flood.lua")
    with open(script, "w") as file:
        file.write(FLOOD_SCRIPT)
    with benchkit.Server(marquee, "--public", "--catalog", catalog, "--cache-size", "16", "--log-level", "warning") as capped:
        for path in id_paths:
            fetch(capped.url(path))
        rss_before = benchkit.rss_kib(capped.pid)
        requests = benchkit.wrk("-t2", "-c64", "-d30s", "-s", script, capped.url("/")).requests
        rss_after = benchkit.rss_kib(capped.pid)
        metrics = fetch(capped.url("/metrics"))[1].decode()
    cache_bytes = float(re.search(r"^marquee_response_cache_bytes (\S+)", metrics, re.M).group(1))
    evictions = float(re.search(r"^marquee_response_cache_evictions_total (\S+)", metrics, re.M).group(1))
    return rss_before, rss_after, requests, cache_bytes, evictions


TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
UNSAMPLED = "on, traceparent not sampled (…-01, flags untrusted, ratio 0)"
# The same server as UNSAMPLED, the same requests without the header: the pair the goal compares,
# so that the difference between two processes is not taken for the header's cost.
UNSAMPLED_NONE = "the same server, no traceparent"


class StandInCollector(http.server.ThreadingHTTPServer):
    """An OTLP/HTTP receiver that takes every export and answers it, counting the bytes."""

    def __init__(self):
        self.received = 0
        collector = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                collector.received += len(self.rfile.read(int(self.headers.get("Content-Length", 0))))
                self.send_response(200)
                self.send_header("Content-Type", "application/x-protobuf")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *_):
                pass

        super().__init__((benchkit.LOOPBACK, 0), Handler)
        threading.Thread(target=self.serve_forever, daemon=True).start()


def tracing_rounds(marquee, baseline, work, catalog, id_paths, search_paths):
    """req/s and CPU µs per request by (variant, mix): tracing off, on without traceparent, on with
    one on every request, and the baseline build (off) when given; best of three interleaved rounds."""
    collector = StandInCollector()
    traced_env = dict(os.environ, OTEL_EXPORTER_OTLP_ENDPOINT=f"http://{benchkit.LOOPBACK}:{collector.server_address[1]}")
    untraced_env = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
    unsampled_env = dict(traced_env, OTEL_TRACES_SAMPLER="parentbased_traceidratio", OTEL_TRACES_SAMPLER_ARG="0")
    every = ("--trust-trace-flags", "--traces-per-minute", "1000000")
    variants = {"off": (marquee, untraced_env, None, ()), "on, no traceparent": (marquee, traced_env, None, ()),
                "on, traceparent on every request": (marquee, traced_env, TRACEPARENT, every),
                UNSAMPLED: (marquee, unsampled_env, TRACEPARENT, ())}
    variants[UNSAMPLED_NONE] = (marquee, unsampled_env, None, ())
    if baseline:
        variants["off, the build before tracing"] = (baseline, untraced_env, None, ())
    mixes = {"ids": id_paths, "search pages": search_paths}
    servers = {name: benchkit.Server(binary, "--public", "--catalog", catalog, "--log-level", "warning", *extra, env=env)
               for name, (binary, env, _, extra) in variants.items() if name != UNSAMPLED_NONE}
    servers[UNSAMPLED_NONE] = servers[UNSAMPLED]
    figures = {(name, mix): [] for name in variants for mix in mixes}
    try:
        scripts = {(name, mix): benchkit.rotating_script(os.path.join(work, f"tracing-{index}-{mix.replace(' ', '-')}.lua"),
                                                         search_pages(servers[name], paths) if mix == "search pages" else paths,
                                                         header=variants[name][2])
                   for index, name in enumerate(variants) for mix, paths in mixes.items()}
        for round_number in range(4):
            for name in benchkit.alternating(variants, round_number):
                for mix in mixes:
                    run = rotating_round(servers[name].url("/"), scripts[(name, mix)], [servers[name].pid])
                    if round_number > 0:  # the first round warms every server and its cache
                        figures[(name, mix)].append(run)
    finally:
        for name, server in servers.items():
            if name != UNSAMPLED_NONE:
                server.stop()
        collector.shutdown()
    return {key: best(runs) for key, runs in figures.items()}, collector.received


def search_pages(server, paths):
    """`paths` and the second page by rating with the cursor `server` gave for the first (a cursor
    is bound to the catalogue of the server that made it: another's is a 400, which measures the
    error path); stops the run if `server` answers one of them with anything but a 200."""
    status, body = fetch(server.url("/api/movies?sort=rating&limit=20"))
    if status != 200:
        raise SystemExit(f"the first page by rating answered {status}")
    pages = paths + [f"/api/movies?sort=rating&limit=20&cursor={json.loads(body)['next']}"]
    for path in pages:
        status = fetch(server.url(path))[0]
        if status != 200:
            raise SystemExit(f"{path} answered {status}, not 200")
    return pages


def best(runs):
    return max(r[0] for r in runs), min(r[1] for r in runs)


def main():
    marquee, results, _ = benchkit.command_line("server_mix.py MARQUEE RESULTS_DIR")
    cpu = benchkit.cpu_model()
    with benchkit.scratch_folder("marquee-mix-bench-") as work:
        catalog = benchkit.generate_catalog(marquee, os.path.join(work, "catalog.json"), 1000, seed=11)
        movies = json.load(open(catalog))
        ids = [movie["id"] for movie in movies][:100]
        years = sorted({movie["year"] for movie in movies})[:2]
        missing = [9_000_000 + n for n in range(20)]
        with benchkit.Server(marquee, "--public", "--catalog", catalog, "--log-level", "warning") as server:
            id_paths = [f"/api/movies/{i}" for i in ids] + [f"/api/movies/{i}" for i in missing]
            list_paths = [f"/api/movies/{l}/{y}" for l in ("topGrossing", "topRated") for y in years]
            search_paths = [f"/api/movies?query={w}" for w in ("the", "lost", "golden", "ava", "harbor", "river", "empire", "garden")]
            search_paths += [f"/api/movies?year={years[0]}&sort=rating&limit=20", "/api/movies?sort=title&limit=50"]

            www = os.path.join(work, "www")
            mirror(server, id_paths + list_paths, www, missing[0])
            nginx = benchkit.Nginx.static(os.path.join(work, "nginx"), www, f"/api/movies/{ids[0]}", not_found="/notfound.json")
            try:
                mixes = {"ids": benchkit.rotating_script(os.path.join(work, "ids.lua"), id_paths),
                         "all": benchkit.rotating_script(os.path.join(work, "all.lua"), id_paths + list_paths * 10)}
                for script in mixes.values():  # warm both: every answer kept
                    rotating_round(server.url("/"), script, [server.pid])
                    rotating_round(nginx.url("/"), script, nginx.pids())
                figures = {name: {"nginx": [], "marquee": []} for name in mixes}
                for _ in range(3):
                    for name, script in mixes.items():
                        figures[name]["nginx"].append(rotating_round(nginx.url("/"), script, nginx.pids()))
                        figures[name]["marquee"].append(rotating_round(server.url("/"), script, [server.pid]))
                search_script = benchkit.rotating_script(os.path.join(work, "search.lua"), search_pages(server, search_paths))
                search = [rotating_round(server.url("/"), search_script, [server.pid]) for _ in range(2)]
                rss_before, rss_after, flood_requests, cache_bytes, evictions = flood(marquee, work, catalog, id_paths)
                tracing, exported = tracing_rounds(marquee, os.environ.get("SERVER_MIX_BASELINE"), work, catalog, id_paths, search_paths)
            finally:
                nginx.stop()

    rows = []
    for name, label in (("ids", "100 movies by id and 20 missing ids (404)"), ("all", "the mix: ids, 404s and four top lists")):
        n_rps, n_cpu = best(figures[name]["nginx"])
        m_rps, m_cpu = best(figures[name]["marquee"])
        rows.append(f"| {label}: req/s | {n_rps:,.0f} | {m_rps:,.0f} | {m_rps / n_rps:.2f}× | ≥ 0.8× | {'met' if m_rps / n_rps >= 0.8 else 'missed'} |")
        rows.append(f"| {label}: CPU µs per request | {n_cpu:.1f} | {m_cpu:.1f} | {m_cpu / n_cpu:.2f}× | ≤ 1.3× | {'met' if m_cpu / n_cpu <= 1.3 else 'missed'} |")
        benchkit.record_goal(results, f"server, {label}: req/s against nginx", "≥ 0.8×", f"{m_rps:,.0f} req/s", m_rps / n_rps >= 0.8, f"{m_rps / n_rps:.2f}×")
        benchkit.record_goal(results, f"server, {label}: CPU per request against nginx", "≤ 1.3×", f"{m_cpu:.1f} µs", m_cpu / n_cpu <= 1.3, f"{m_cpu / n_cpu:.2f}×")
    s_rps, s_cpu = best(search)
    rows.append(f"| search and paging pages (Marquee only): req/s, CPU µs per request | – | {s_rps:,.0f}, {s_cpu:.1f} µs | – | – | |")
    rows.append(f"| 1M-distinct-ids flood, cache capped at 16 MiB: RSS before → after | – | {rss_before / 1024:.0f} → {rss_after / 1024:.0f} MiB ({flood_requests:,} requests, {evictions:,.0f} evictions, {cache_bytes / 1048576:.1f} MiB kept) | – | within the cap | {'met' if cache_bytes <= 16 * 1048576 else 'missed'} |")
    benchkit.record_goal(results, "server, 1M-distinct-ids flood: the response cache within its 16 MiB cap", "within the cap",
                         f"{cache_bytes / 1048576:.1f} MiB kept (RSS {rss_before / 1024:.0f} → {rss_after / 1024:.0f} MiB)", cache_bytes <= 16 * 1048576)
    tracing_rows = []
    for mix in ("ids", "search pages"):
        off_rps, off_cpu = tracing[("off", mix)]
        for (name, other), (rps, cpu_us) in tracing.items():
            if other == mix:
                tracing_rows.append(f"| {mix} | {name} | {rps:,.0f} | {cpu_us:.1f} | {rps / off_rps:.2f}× | {cpu_us / off_cpu:.2f}× |")
        on_rps, on_cpu = tracing[("on, traceparent on every request", mix)]
        benchkit.record_goal(results, f"server, {mix}: the cost of tracing every request (CPU a request, on against off)", "say what it costs",
                             f"{on_cpu:.1f} µs against {off_cpu:.1f} µs", None, f"{on_cpu / off_cpu:.2f}×")
        none_rps, none_cpu = tracing[(UNSAMPLED_NONE, mix)]
        unsampled_rps, unsampled_cpu = tracing[(UNSAMPLED, mix)]
        benchkit.record_goal(results, f"server, {mix}: a traceparent not sampled against none, on one server (CPU a request, tracing on)", "within noise",
                             f"{unsampled_cpu:.1f} µs against {none_cpu:.1f} µs", None, f"{unsampled_cpu / none_cpu:.2f}×")
        if ("off, the build before tracing", mix) in tracing:
            base_rps, base_cpu = tracing[("off, the build before tracing", mix)]
            benchkit.record_goal(results, f"server, {mix}: tracing off against the build before tracing (CPU a request)", "within noise",
                                 f"{off_cpu:.1f} µs against {base_cpu:.1f} µs", None, f"{off_cpu / base_cpu:.2f}×")
    text = f"""## The server on a mix of answers (`scripts/bench.d/server_mix.py`)

Measured on {cpu}, release build. wrk `-t2 -c64 -d10s` rotating through the paths, against
`marquee serve --public --catalog` (1,000 generated movies) and nginx (2 workers, no access log)
serving the same bytes from files (its 404 is a file of the same body); three interleaved rounds
after a warm-up, best of each; CPU is each server's user + system time per request answered.

| what | nginx | Marquee | ratio | goal | |
|---|---|---|---|---|---|
""" + "\n".join(rows) + f"""

Tracing: the same server and catalogue, tracing off, on (OTLP to a stand-in collector in the
script) with wrk sending no `traceparent`, on with one on every request (routed and traced, the
flags trusted), and on with a sampled one on every request the server does not trace (untrusted
flags, ratio 0), against the same requests without it on that same server;
best of three interleaved rounds after a warm-up; ratios against off. The collector received
{exported:,} bytes of spans.

| mix | tracing | req/s | CPU µs per request | req/s against off | CPU against off |
|---|---|---:|---:|---:|---:|
""" + "\n".join(tracing_rows) + "\n"
    benchkit.write_result(results, "server-mix.md", text)
    print(text)


if __name__ == "__main__":
    main()
