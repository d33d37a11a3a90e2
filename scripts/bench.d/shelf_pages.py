#!/usr/bin/env python3
"""A page of the diary or of a list on the server, among other people's records: a person with a
diary of 10,000 entries and a list of 10,000 movies, on SQLite and on PostgreSQL. Two databases of
each backend, each with its `marquee serve`: the baseline holds the person's records alone, the
other the same records and 10 million records of 1,000 other people in the same tables (5,000
diary entries and 5,000 list movies each, written by SQL, as many keys as the person's). Pages of
100 and of 1,000 (the default) at keys drawn at random, the same draws on both, one connection,
interleaved rounds; p50 and p99 of each.

Usage: shelf_pages.py MARQUEE RESULTS_DIR [--others N] (N other people; 1,000 unless given).
Writes shelf-pages.md with the CPU model."""
import base64
import http.client
import json
import os
import random
import sqlite3
import subprocess
import time

import benchkit
import pgcluster
import signin
from shelf import post

MOVIES = 2_500
ENTRIES = 10_000
OTHERS_EACH = 5_000
ROUNDS = 8
DRAWS_PER_ROUND = 60
BATCH = 500
LIST = "list-000"


def diary_value(n):
    return {"movieId": n % MOVIES + 1, "watchedOn": f"20{n % 20 + 5:02d}-0{n % 9 + 1}-1{n % 9}", "rewatch": n % 7 == 0, "note": ""}


def item_key(n):
    return f"{LIST}/{n + 1}"


def item_value(n):
    return {"position": f"{n:06d}V", "note": ""}


def fill_person(port, token):
    """The person's diary and list, through the API; their keys."""
    at = "2026-01-01T10:00:00.000Z"
    post(port, token, "lists", "fill-list", [{"id": "l", "key": LIST, "value": {"name": "Everything", "description": ""}, "changedAt": at, "device": "bench"}])
    diary = [{"id": f"d{n}", "key": f"e{n:06d}", "value": diary_value(n), "changedAt": at, "device": "bench"} for n in range(ENTRIES)]
    items = [{"id": f"i{n}", "key": item_key(n), "value": item_value(n), "changedAt": at, "device": "bench"} for n in range(ENTRIES)]
    for kind, changes in (("diary", diary), ("listItems", items)):
        for start in range(0, len(changes), BATCH):
            post(port, token, kind, f"fill-{kind}-{start}", changes[start:start + BATCH])
    return {"diary": sorted(c["key"] for c in diary), "listItems": sorted(c["key"] for c in items)}


def other_rows(others):
    """Every other person's rows, (owner, kind, key, value, changed_at), in primary key order."""
    changed_at = 1_767_261_600_000
    for person in range(others):
        owner = f"account/other-{person:05d}"
        for n in range(OTHERS_EACH):
            yield owner, "diary", f"e{n:06d}", json.dumps(diary_value(n), separators=(",", ":")), changed_at
        for n in sorted(range(OTHERS_EACH), key=item_key):
            yield owner, "listItems", item_key(n), json.dumps(item_value(n), separators=(",", ":")), changed_at


def load_sqlite(path, others):
    """The other people's rows, written into the SQLite file with no server on it."""
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=OFF")
    db.executemany("INSERT INTO shelf_entry (owner, kind, key, value, changed_at, device, removed) VALUES (?, ?, ?, ?, ?, 'elsewhere', 0)",
                   other_rows(others))
    db.commit()
    db.execute("ANALYZE")
    db.close()


def load_postgres(cluster, name, others):
    """The other people's rows, made by PostgreSQL itself (generate_series), then ANALYZE."""
    def run(sql):
        subprocess.run(cluster.psql(name, "-q", "-v", "ON_ERROR_STOP=1", "-c", sql), check=True, stdout=subprocess.DEVNULL)
    value = """'{"movieId":' || (n % 2500 + 1) || ',"watchedOn":"2020-01-11","rewatch":false,"note":""}'"""
    run(f"""INSERT INTO shelf_entry (owner, kind, key, value, changed_at, device, removed)
            SELECT 'account/other-' || lpad(p::text, 5, '0'), 'diary', 'e' || lpad(n::text, 6, '0'), {value}, 1767261600000, 'elsewhere', false
            FROM generate_series(0, {others - 1}) p, generate_series(0, {OTHERS_EACH - 1}) n""")
    run(f"""INSERT INTO shelf_entry (owner, kind, key, value, changed_at, device, removed)
            SELECT 'account/other-' || lpad(p::text, 5, '0'), 'listItems', '{LIST}/' || (n + 1), '{{"position":"' || lpad(n::text, 6, '0') || 'V","note":""}}', 1767261600000, 'elsewhere', false
            FROM generate_series(0, {others - 1}) p, generate_series(0, {OTHERS_EACH - 1}) n""")
    run("VACUUM ANALYZE shelf_entry")


def page_times(port, token, draws):
    """Each draw (kind, after, limit) asked once on one connection; the seconds each took."""
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    times = []
    for kind, after, limit in draws:
        began = time.perf_counter()
        c.request("GET", f"/api/{kind}?limit={limit}&after={after}", headers={"Authorization": "Bearer " + token})
        answer = c.getresponse()
        body = answer.read()
        times.append(time.perf_counter() - began)
        assert answer.status == 200 and body.startswith(b"{"), (answer.status, body[:200])
    return times


def measure(backend, servers, tokens, keys, rng):
    """Interleaved rounds on the baseline and the loaded server; the times by (side, kind, limit)."""
    found = {}
    for round_number in range(ROUNDS + 1):
        draws = [(kind, rng.choice(keys[kind][:-limit]), limit) for kind in ("diary", "listItems") for limit in (100, 1000) for _ in range(DRAWS_PER_ROUND)]
        rng.shuffle(draws)
        for side in benchkit.alternating(["baseline", "loaded"], round_number):
            times = page_times(servers[side].port, tokens[side], draws)
            if round_number == 0:
                continue
            for (kind, _, limit), seconds in zip(draws, times):
                found.setdefault((side, kind, limit), []).append(seconds)
    return found


def backend_rows(backend, found, others):
    rows, goals = [], []
    for kind, what in (("diary", "the diary"), ("listItems", "a list")):
        for limit in (100, 1000):
            base, loaded = found[("baseline", kind, limit)], found[("loaded", kind, limit)]
            b50, b99 = benchkit.percentile_ms(base, 0.5), benchkit.percentile_ms(base, 0.99)
            l50, l99 = benchkit.percentile_ms(loaded, 0.5), benchkit.percentile_ms(loaded, 0.99)
            met = l99 < 10
            rows.append(f"| {backend} | a page of {what}, {limit:,} | {b50:.1f} / {b99:.1f} ms | {l50:.1f} / {l99:.1f} ms | {l99 / b99:.2f}× | < 10 ms | {'met' if met else 'missed'} |")
            goals.append((f"a page of {what} ({limit:,}) on {backend}, {others * OTHERS_EACH * 2:,} other records, p99", f"{l99:.1f} ms", met, f"{l99 / b99:.2f}× (the person alone)"))
    return rows, goals


def main():
    marquee, results, rest = benchkit.command_line("shelf_pages.py MARQUEE RESULTS_DIR [--others N]")
    others = int(rest[rest.index("--others") + 1]) if "--others" in rest else 1_000
    cpu = benchkit.cpu_model()
    rng = random.Random(11)
    rows, goals, loading = [], [], {}
    with benchkit.scratch_folder("marquee-shelf-pages-") as work:
        catalog = benchkit.generate_catalog(marquee, os.path.join(work, "catalog.json"), MOVIES, seed=7)
        # One key file, so that a token outlives the server that signed it.
        keys_file = os.path.join(work, "signing-keys")
        with open(os.open(keys_file, os.O_WRONLY | os.O_CREAT, 0o600), "w") as written:
            written.write("k1 " + base64.b64encode(os.urandom(32)).decode() + "\n")
        serving = ["--log-level", "warning", "--password-cost", "4", "--signing-keys", keys_file]
        cluster = pgcluster.Cluster(work)
        try:
            for backend in ("SQLite", "PostgreSQL"):
                if backend == "SQLite":
                    databases = {side: os.path.join(work, f"{side}.sqlite") for side in ("baseline", "loaded")}
                else:
                    databases = {side: cluster.database(f"shelf_{side}") for side in ("baseline", "loaded")}
                tokens, keys = {}, None
                for side, database in databases.items():
                    benchkit.import_catalog(marquee, catalog, database)
                    with benchkit.Server(marquee, "--database", database, *serving) as server:
                        tokens[side] = signin.device_tokens(server.port, "alice")[0]
                        keys = fill_person(server.port, tokens[side])
                        if backend == "PostgreSQL" and side == "loaded":
                            began = time.perf_counter()
                            load_postgres(cluster, "shelf_loaded", others)
                            loading[backend] = time.perf_counter() - began
                    if backend == "SQLite" and side == "loaded":
                        began = time.perf_counter()
                        load_sqlite(database, others)
                        loading[backend] = time.perf_counter() - began
                servers = {}
                try:
                    for side, database in databases.items():
                        servers[side] = benchkit.Server(marquee, "--database", database, *serving)
                    found = measure(backend, servers, tokens, keys, rng)
                finally:
                    for server in servers.values():
                        server.stop()
                backend_rows_found, backend_goals = backend_rows(backend, found, others)
                rows += backend_rows_found
                goals += backend_goals
        finally:
            cluster.stop()

    records = others * OTHERS_EACH * 2
    text = f"""## A page of the shelf among other people's records

Measured on {cpu}. A person with a diary of {ENTRIES:,} entries and a list of {ENTRIES:,} movies,
on `marquee serve` with SQLite and with PostgreSQL (default settings). Each backend has two
databases and a server on each: the baseline holds the person's records alone; the other holds
them and {records:,} records of {others:,} other people in the same table ({OTHERS_EACH:,} diary
entries and {OTHERS_EACH:,} list movies each, as many keys as the person's, written by SQL:
{", ".join(f"{b} in {s:.0f} s" for b, s in loading.items())}). `GET /api/diary` and
`GET /api/listItems` pages of 100 and of 1,000 (the default) after a key drawn at random, the same
draws on both servers, one connection, {ROUNDS} interleaved rounds after a warm-up: p50 / p99 of
{ROUNDS * DRAWS_PER_ROUND} requests each, request sent to body read.

| backend | page | the person alone, p50 / p99 | among {records:,} others, p50 / p99 | p99 ratio | goal | |
|---|---|---|---|---|---|---|
{chr(10).join(rows)}
"""
    benchkit.write_result(results, "shelf-pages.md", text)
    print(text)
    for what, figure, met, ratio in goals:
        benchkit.record_goal(results, what, "< 10 ms", figure, met, ratio)


if __name__ == "__main__":
    main()
