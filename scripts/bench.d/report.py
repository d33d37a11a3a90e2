#!/usr/bin/env python3
"""Turns the raw benchmark results into docs/benchmarks.md: first one table of the goals, each with
today's figure, its ratio to the baseline where there is one, whether it is met and the command
that measured it (package-benchmark's and the server's rows computed here, the other benchmarks'
read from goals.jsonl, the fault campaign's from chaos.txt); then, under History, this run's full
table (each Marquee figure beside its baseline), what each line measures and each benchmark's own
section, followed by the history the output file already held (or, for a new file, findings.md).

Usage: report.py RESULTS_DIR OUTPUT_MARKDOWN
"""
import datetime
import glob
import json
import os
import re
import subprocess
import sys

import benchkit

results_dir, output = sys.argv[1], sys.argv[2]
today = datetime.date.today().isoformat()
PACKAGE_BENCHMARK = "`scripts/bench`"
HISTORY = "# History"


def jmh_results():
    """name -> {'throughput', 'p50_us', 'p99_us', 'mallocs'} from package-benchmark's JMH export."""
    found = {}
    for path in glob.glob(os.path.join(results_dir, "**", "*.jmh.json"), recursive=True):
        with open(path) as handle:
            for element in json.load(handle):
                name = element["benchmark"].split(".", 3)[-1].replace("_", " ")
                wall = element["secondaryMetrics"].get("Time (wall clock)", {})
                mallocs = element["secondaryMetrics"].get("Malloc (total)", {})
                found[name] = {
                    "throughput": element["primaryMetric"]["score"],
                    "p50_us": wall.get("scorePercentiles", {}).get("50.0"),
                    "p99_us": wall.get("scorePercentiles", {}).get("99.0"),
                    "mallocs": mallocs.get("scorePercentiles", {}).get("50.0"),
                }
    return found


def find(results, fragment):
    matches = [value for name, value in results.items() if fragment in name]
    if not matches:
        raise SystemExit(f"report: no benchmark result matches '{fragment}' (have: {sorted(results)})")
    return matches[0]


def wrk(path):
    with open(path) as handle:
        run = benchkit.WrkRun(handle.read())
    return run.requests_per_second, run.p99_us


def ratio(numerator, denominator):
    return numerator / denominator if denominator else float("nan")


def machine():
    cores = os.cpu_count()
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    model = benchkit.cpu_model("")
    swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    return f"{cores} cores ({model}), {memory:.0f} GiB memory, {swift}"


def verdict(met):
    return "met" if met else "**missed**"


results = jmh_results()
rows = []
goals = []


def row(what, baseline, marquee, ratio_text, goal, met, command=PACKAGE_BENCHMARK):
    """A row of this run's full table; one of the goals' table too when it has a goal."""
    rows.append(f"| {what} | {baseline} | {marquee} | {ratio_text} | {goal} | {verdict(met)} |")
    if goal and goal != "(no goal)":
        goals.append({"what": what, "goal": goal, "figure": marquee, "ratio": ratio_text, "met": met, "command": command})


for concurrency in (1, 64):
    raw = find(results, f"raw AsyncHTTPClient topGrossing c{concurrency}")
    ours = find(results, f"Marquee topGrossing c{concurrency}")
    raw_rps, our_rps = raw["throughput"] * concurrency, ours["throughput"] * concurrency
    r = ratio(our_rps, raw_rps)
    row(f"client topGrossing, concurrency {concurrency}: requests/s", f"{raw_rps:,.0f}", f"{our_rps:,.0f}", f"{r:.2f}×", "≥ 0.9×", r >= 0.9)
    unit = "request" if concurrency == 1 else "batch of 64"
    rows.append(
        f"| client concurrency {concurrency}: p50 / p99 per {unit} | {raw['p50_us']:,.0f} / {raw['p99_us']:,.0f} µs "
        f"| {ours['p50_us']:,.0f} / {ours['p99_us']:,.0f} µs | {ratio(ours['p99_us'], raw['p99_us']):.2f}× (p99) | | |"
    )

for concurrency in (1, 64):
    path = os.path.join(results_dir, f"client-interleaved-c{concurrency}.txt")
    if not os.path.exists(path):
        continue
    tokens = open(path).read().split()
    pair = dict(zip(tokens[2::2], tokens[3::2]))
    unit = "request" if concurrency == 1 else "batch of 64"
    speed = float(pair["throughput-ratio"])
    row(f"client, raw and Marquee interleaved in one process, concurrency {concurrency}: p50 per {unit}",
        f"{float(pair['raw-p50-us']):,.0f} µs", f"{float(pair['marquee-p50-us']):,.0f} µs", f"{speed:.2f}× (speed)", "≥ 0.95×", speed >= 0.95)
    tail = float(pair["p99-ratio"])
    row(f"client, interleaved, concurrency {concurrency}: p99 per {unit}",
        f"{float(pair['raw-p99-us']):,.0f} µs", f"{float(pair['marquee-p99-us']):,.0f} µs", f"{tail:.2f}×", "≤ 1.2×", tail <= 1.2)
    if "raw-cpu-us-per-request" in pair:
        raw_cpu, our_cpu = float(pair["raw-cpu-us-per-request"]), float(pair["marquee-cpu-us-per-request"])
        rows.append(
            f"| client, interleaved, concurrency {concurrency}: process CPU per request (server included) "
            f"| {raw_cpu:,.0f} µs | {our_cpu:,.0f} µs | {ratio(our_cpu, raw_cpu):.2f}× | | |"
        )

shared_text = "".join(open(path).read() for path in glob.glob(os.path.join(results_dir, "shared-figures.txt")))
shared_match = re.findall(r"shared-requests-per-100-calls ([\d.]+)", shared_text)
if shared_match:
    per_batch = float(shared_match[-1])
    row("100 identical concurrent calls (2 ms link): requests on the wire", "100 (one each)", f"{per_batch:.2f}", f"{per_batch / 100:.2f}×", "1", per_batch <= 1.0)

bare = find(results, "interceptors/none")
chain = find(results, "interceptors/authentication and retry")
cost = (chain["p50_us"] - bare["p50_us"]) / 1000
row("interceptor chain (auth + retry), per request, p50", f"{bare['p50_us'] / 1000:.2f} µs (none)", f"{chain['p50_us'] / 1000:.2f} µs",
    f"+{cost:.2f} µs", "< 5 µs", cost < 5)
shared_chain = find(results, "interceptors/authentication, retry and shared exchanges")
if shared_chain:
    sharing = (shared_chain["p50_us"] - chain["p50_us"]) / 1000
    rows.append(
        f"| shared exchanges (the lookup, a task per exchange), per request, p50 | {chain['p50_us'] / 1000:.2f} µs (chain) "
        f"| {shared_chain['p50_us'] / 1000:.2f} µs | +{sharing:.2f} µs | | |"
    )

serialization = find(results, "JSONSerialization 10k")
dto = find(results, "Marquee DTOs to Movie 10k")
stderr_text = "".join(open(path).read() for path in glob.glob(os.path.join(results_dir, "*.txt")))
body_match = re.findall(r"decoding-body-bytes (\d+)", stderr_text)
body_bytes = float(body_match[-1]) if body_match else None
if not body_bytes:
    row("decoding 10k movies: p50", f"{serialization['p50_us']:,.0f} µs", f"{dto['p50_us']:,.0f} µs",
        f"{ratio(dto['p50_us'], serialization['p50_us']):.2f}×", "(no goal)", True)
else:
    mbps = lambda result: body_bytes / (result["p50_us"] / 1e6) / 1e6
    row("decoding 10k movies: MB/s (movies/s)", f"{mbps(serialization):,.1f} MB/s ({10_000 / (serialization['p50_us'] / 1e6):,.0f}/s)",
        f"{mbps(dto):,.1f} MB/s ({10_000 / (dto['p50_us'] / 1e6):,.0f}/s)", f"{ratio(mbps(dto), mbps(serialization)):.2f}×", "(no goal)", True)

for label in ("10k", "100k", "1M"):
    raw = find(results, f"raw SQLite top-10 read, {label} movies")
    ours = find(results, f"Marquee cached top-10 read, {label} movies")
    row(f"cached top-10 read, {label} movies stored: p50 / p99", f"{raw['p50_us']:,.1f} / {raw['p99_us']:,.1f} µs",
        f"{ours['p50_us']:,.1f} / {ours['p99_us']:,.1f} µs", f"{ratio(ours['p99_us'], raw['p99_us']):.2f}× (p99)",
        "p99 < 1 ms at 1M" if label == "1M" else "", ours["p99_us"] < 1000 if label == "1M" else True)

upserts = [float(value) for value in re.findall(r"store-upsert-seconds ([\d.]+)", stderr_text)]
raw_inserts = [float(value) for value in re.findall(r"store-raw-insert-seconds ([\d.]+)", stderr_text)]
if upserts:
    best = min(upserts)
    floor = min(raw_inserts) if raw_inserts else None
    row(f"bulk upsert of 100k movies with casts, one transaction (best of {len(upserts)})",
        f"{floor:.2f} s (raw inserts)" if floor else "", f"{best:.2f} s", f"{best / floor:.2f}×" if floor else "", "< 2 s", best < 2)
match = re.findall(r"store-size-bytes-per-movie ([\d.]+)", stderr_text)
if match:
    rows.append(f"| store on disk per movie right after that write, write-ahead log included (100k movies, cast of 2 to 6) | | {float(match[-1]):,.0f} bytes | | | |")
match = re.findall(r"store-closed-file-bytes-per-movie ([\d.]+)", stderr_text)
if match:
    rows.append(f"| store file per movie once closed, log folded in (100k movies, cast of 2 to 6) | | {float(match[-1]):,.0f} bytes | | | |")

nginx_runs = [wrk(p) for p in sorted(glob.glob(os.path.join(results_dir, "wrk-nginx-*.txt")))]
marquee_runs = [wrk(p) for p in sorted(glob.glob(os.path.join(results_dir, "wrk-marquee-*.txt")))]
nginx_rps = max(r for r, _ in nginx_runs)
marquee_rps = max(r for r, _ in marquee_runs)
nginx_p99 = min(p for _, p in nginx_runs)
marquee_p99 = min(p for _, p in marquee_runs)
r = ratio(marquee_rps, nginx_rps)
row("server topGrossing/2016, wrk 2 threads × 64 connections: requests/s", f"{nginx_rps:,.0f} (nginx)", f"{marquee_rps:,.0f}", f"{r:.2f}×", "≥ 0.8×", r >= 0.8,
    "`python3 scripts/bench.d/server.py MARQUEE RESULTS`")
rows.append(f"| server p99 latency | {nginx_p99:,.0f} µs (nginx) | {marquee_p99:,.0f} µs | {ratio(marquee_p99, nginx_p99):.2f}× | | |")


def cpu_per_request(name):
    values = []
    for path in sorted(glob.glob(os.path.join(results_dir, f"cpu-{name}-*.txt"))):
        values.append(float(open(path).read().split()[1]))
    return values


nginx_cpu, marquee_cpu = cpu_per_request("nginx"), cpu_per_request("marquee")
if nginx_cpu and marquee_cpu:
    best_nginx, best_marquee = min(nginx_cpu), min(marquee_cpu)
    rows.append(
        f"| server CPU per request (all its processes and threads), least of three rounds | {best_nginx:.1f} µs (nginx) "
        f"| {best_marquee:.1f} µs | {ratio(best_marquee, best_nginx):.2f}× | | |"
    )

cold = {entry["command"]: entry for entry in json.load(open(os.path.join(results_dir, "cold-start.json")))["results"]}
floor = next(v for k, v in cold.items() if "--help" in k)
for name, entry in cold.items():
    if "--help" in name:
        continue
    ms = entry["median"] * 1000
    goal = "< 150 ms" if "offline" in name else "< 150 ms (end to end)"
    row(f"cold start: {name}, median", f"{floor['median'] * 1000:.0f} ms (--help)", f"{ms:.0f} ms",
        f"{ratio(entry['median'], floor['median']):.1f}×", goal, ms < 150, "`python3 scripts/bench.d/cold_start.py MARQUEE RESULTS`")


def chaos_goal():
    """The fault campaign's checker line from chaos.txt, as a goal: no violation."""
    path = os.path.join(results_dir, "chaos.txt")
    if not os.path.exists(path):
        return None
    found = re.search(r"^chaos: ([\d,]+) operations, ([\d,]+) faults.*?: (\d+) lost, (\d+) duplicated, (\d+) leaked, (\d+) out of order, (.*)$",
                      open(path).read(), re.M)
    if not found:
        return None
    violations = sum(int(found.group(n)) for n in (3, 4, 5, 6))
    return {"what": f"fault campaign, ten minutes ({found.group(1)} operations, {found.group(2)} faults): lost, duplicated, leaked or out-of-order changes",
            "goal": "0", "figure": f"{violations}; {found.group(7)}", "ratio": "", "met": violations == 0 and "not converged" not in found.group(7),
            "command": "`python3 scripts/chaos --marquee MARQUEE --seconds 600`"}


def recorded_goals():
    """The goals the benchmarks of scripts/bench.d wrote into goals.jsonl."""
    path = os.path.join(results_dir, benchkit.GOALS_FILE)
    if not os.path.exists(path):
        return []
    with open(path) as handle:
        return [json.loads(line) for line in handle if line.strip()]


def goals_table(entries):
    lines = ["| what | goal | today | ratio to the baseline | | date | command |", "|---|---|---|---|---|---|---|"]
    for entry in entries:
        met = "" if entry["met"] is None else verdict(entry["met"])
        command = entry["command"] if entry["command"].startswith("`") else f"`{entry['command']}`"
        lines.append(f"| {entry['what']} | {entry['goal']} | {entry['figure']} | {entry['ratio']} | {met} | {today} | {command} |")
    return "\n".join(lines) + "\n"


def earlier_history():
    """What the output file held under its History heading, if anything."""
    if not os.path.exists(output):
        return None
    text = open(output).read()
    at = text.find("\n" + HISTORY + "\n")
    return text[at + len(HISTORY) + 2:].lstrip("\n") if at >= 0 else None


SECTIONS = ["http.md", "database.md", "server-mix.md", "router-path.md", "search-sorts.md", "first-minute.md", "watchlist.md", "store-budget.md", "live.md",
            "browse.md", "sign-in-flood.md", "sign-in-attempts.md", "watchlist-titles.md", "account-lookup.md"]
HEADINGS = {
    "sign-in-flood.md": "## Sign-in flood (`scripts/bench.d/sign_in_flood.py`)",
    "sign-in-attempts.md": "## Sign-in attempts counted in the database (`scripts/bench.d/sign_in_attempts.py`)",
    "watchlist-titles.md": "## The watchlist's answer names its movies (`scripts/bench.d/watchlist_titles.py`)",
    "account-lookup.md": "## The credential look-up (`scripts/bench.d/account_lookup.py`)",
}


def sections():
    """Each benchmark's own section, a heading given to those that have none; the search figures as written."""
    text = ""
    for section in SECTIONS:
        path = os.path.join(results_dir, section)
        if os.path.exists(path):
            body = open(path).read()
            text += "\n" + (body if body.startswith("#") else f"{HEADINGS[section]}\n\n{body}")
    searched = [name for name in ("search.txt", "search-postgres.txt") if os.path.exists(os.path.join(results_dir, name))]
    if searched:
        text += "\n## Search, the 30 fixed queries (`scripts/bench.d/search.py`, `search_postgres.py`)\n\n```\n"
        text += "".join(open(os.path.join(results_dir, name)).read() for name in searched) + "```\n"
    return text


history = earlier_history()
if history is None:
    findings = os.path.join(os.path.dirname(os.path.abspath(__file__)), "findings.md")
    history = open(findings).read() if os.path.exists(findings) else ""
summary = goals + recorded_goals() + [goal for goal in [chaos_goal()] if goal]

os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)
with open(output, "w") as out:
    out.write("""# Benchmarks

Today's figures against their goals: one row a goal, its figure from the newest measurement, the ratio to the
baseline measured in the same run where there is one, the date and the command that measured it.
Every run, with its full tables, what each line measures and what was found, follows under History,
newest first. These are 2-core virtual machines shared with other work: read the ratios, not the
absolute values. Measurements with no goal are in History only.

""")
    out.write(goals_table(summary))
    out.write("""
## Reproduce

```sh
scripts/bench     # installs wrk, nginx and hyperfine if missing, builds in release, writes this file
```

The raw outputs (package-benchmark's JMH JSON and text tables, wrk, hyperfine) are in
`.build/bench-results/` after a run.

""")
    out.write(f"""{HISTORY}

## The full run of `scripts/bench` ({today})

Measured by `scripts/bench` on {today}: {machine()}.
Every Marquee figure stands beside a baseline measured in the same run on the same machine; the
ratio is Marquee ÷ baseline (for throughput, higher is better; for times, lower is better). These
are 2-core virtual machines shared with other work: read the ratios, not the absolute values.

| what | baseline | Marquee | ratio | goal | |
|---|---|---|---|---|---|
""")
    out.write("\n".join(rows) + "\n")
    out.write("""
## What each line measures

- **Client**: `APIMovieService.movies(.topGrossing, year: 2016)` through the whole stack (authentication
  interceptor with a valid credential, retry policy, validation, decoding to `Movie`) against a raw
  AsyncHTTPClient GET plus `JSONDecoder` into the same DTOs, on the same in-process server on loopback.
  At concurrency 64 one iteration is 64 concurrent requests; its latency is the batch's. At
  concurrency 1 Marquee's side is the stack the app builds, shared exchanges included (each call
  still one request); at 64 it is built without them, so that each call is one request as with the
  raw client: it measures the cost of a request, not the saving of sharing one. The interleaved
  rows alternate raw and Marquee batches in one process, the order flipped every round; their CPU
  row is the process's user + system time per request over each side's batches (the in-process
  server's share included, the same on both sides).
- **Shared requests**: 100 concurrent identical calls through the default stack; the requests that
  reach the transport are counted (averaged over every batch the benchmark ran). Each request is
  held 2 ms before it goes to the loopback server, as a real link would hold it: without that, an
  answer can arrive before the last of the 100 calls is even running on 2 cores, and such a call
  is not concurrent with that exchange (2026-11-23 without it: 1.09 requests a batch).
- **Interceptors**: 1,000 requests on `StubTransport`, with and without the authentication and retry
  interceptors; the difference per request is what the chain costs. The shared-exchanges row adds
  `SharedExchangeTransport` to that chain.
- **Decoding**: a 10,000-movie JSON array (synthetic catalog, seed 42) through `ResponseDecoding` into
  the contract's `CatalogMovie` and on to `Movie`, against `JSONSerialization` parsing the same bytes.
- **Store**: `MovieStore.list(.topGrossing(year: 2016))` with 10k, 100k and 1M movies stored (synthetic
  catalog, seed 7), against the same two SQL statements run raw through GRDB on the same file. The bulk
  upsert writes 100,000 movies with their casts in one transaction into an empty store.
- **Server**: `wrk -t2 -c64 -d10s --latency` on `/api/movies/topGrossing/2016` against
  `marquee serve --public --log-level warning` and against nginx (2 workers, no access log) serving the
  same bytes as a static file; three interleaved rounds, best of each. wrk shares the 2 cores with the server.
  The CPU row is each server's user + system time (nginx: master and workers) over a round, per
  request answered: less sensitive than requests/s to what else the machine runs during a round.
- **Cold start**: hyperfine, 30 runs after 3 warm-ups, `marquee top-grossing` with a warm store, from
  process start to exit; `marquee --help` is the floor of starting the process at all.

""")
    out.write(sections())
    if history:
        out.write("\n" + history)
