#!/usr/bin/env python3
"""The shelf on a new device: a person with 10,000 diary entries, 2,000 ratings and 50 lists of
200 movies on `marquee serve` (in memory, 2,500 generated movies); a new device's first
`marquee diary --json` (signed in, nothing stored: every page fetched and stored, then printed),
process start to exit, against the same pages fetched and parsed by hand with http.client,
interleaved rounds; and a later `marquee diary --json --offline` against `marquee --help`
(hyperfine).

Usage: shelf.py MARQUEE RESULTS_DIR. Writes shelf.md with the CPU model, and diary-offline.json
(hyperfine's export)."""
import http.client
import json
import os
import statistics
import time

import benchkit
import signin

MOVIES = 2_500
DIARY, RATINGS, LISTS, LIST_MOVIES = 10_000, 2_000, 50, 200
BATCH = 500


def post(port, token, kind, key, changes):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    c.request("POST", f"/api/{kind}/changes", json.dumps({"changes": changes}),
              {"Authorization": "Bearer " + token, "Content-Type": "application/json", "Idempotency-Key": key})
    answer = c.getresponse()
    body = answer.read()
    assert answer.status == 200, (answer.status, body[:300])


def fill(port, token):
    """The person's shelf, in batches of 500 by the API."""
    at = "2026-01-01T10:00:00.000Z"
    def change(kind, index, key, value):
        return {"id": f"{kind}-{index}", "key": key, "value": value, "changedAt": at, "device": "bench"}
    diary = [change("diary", n, f"e{n:06d}", {"movieId": n % MOVIES + 1, "watchedOn": f"20{n % 20 + 5:02d}-0{n % 9 + 1}-1{n % 9}",
                                                 "rewatch": n % 7 == 0, "note": "" if n % 3 else f"note {n}"}) for n in range(DIARY)]
    ratings = [change("ratings", n, str(n + 1), {"score": n % 10 + 1}) for n in range(RATINGS)]
    lists = [change("lists", n, f"list-{n:03d}", {"name": f"List {n}", "description": ""}) for n in range(LISTS)]
    items = [change("listItems", n * LIST_MOVIES + m, f"list-{n:03d}/{(n * 37 + m) % MOVIES + 1}", {"position": f"{m // 62 + 1}{'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'[m % 62]}V", "note": ""})
             for n in range(LISTS) for m in range(LIST_MOVIES)]
    for kind, changes in (("diary", diary), ("ratings", ratings), ("lists", lists), ("listItems", items)):
        by_list = {}
        for item in changes:
            by_list.setdefault(item["key"].split("/")[0] if kind == "listItems" else "all", []).append(item)
        for group, grouped in by_list.items():
            for start in range(0, len(grouped), BATCH):
                post(port, token, kind, f"fill-{kind}-{group}-{start}", grouped[start:start + BATCH])


def by_hand(port, token):
    """Every page of the diary, fetched and parsed; the seconds it took."""
    began = time.perf_counter()
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    after, entries = None, 0
    while True:
        c.request("GET", "/api/diary?limit=5000" + (f"&after={after}" if after else ""), headers={"Authorization": "Bearer " + token})
        page = json.loads(c.getresponse().read())
        entries += len(page["entries"])
        after = page.get("next")
        if not after:
            break
    assert entries == DIARY, entries
    return time.perf_counter() - began


def main():
    marquee, results, _ = benchkit.command_line("shelf.py MARQUEE RESULTS_DIR")
    cpu = benchkit.cpu_model()
    with benchkit.scratch_folder("marquee-shelf-bench-") as work:
        catalog = benchkit.generate_catalog(marquee, os.path.join(work, "catalog.json"), MOVIES, seed=7)
        with benchkit.Server(marquee, "--catalog", catalog, "--log-level", "warning", "--password-cost", "4") as server:
            token = signin.device_tokens(server.port, "alice")[0]
            fill(server.port, token)
            first_times, hand_times = [], []
            warm_env = None
            for round_number in range(6):
                device = os.path.join(work, f"device-{round_number}")
                os.makedirs(device)
                env = benchkit.isolated_environment(device)
                signin.marquee_login(marquee, server.api, server.port, env, "alice", sign_up=False)
                for side in benchkit.alternating(["marquee", "by hand"], round_number):
                    if side == "marquee":
                        elapsed, out = benchkit.timed_run([marquee, "diary", "--json", "--env", server.api], env=env, capture_output=True, text=True)
                        assert out.returncode == 0 and len(json.loads(out.stdout)["entries"]) == DIARY, out.stderr[-500:]
                        if round_number > 0:
                            first_times.append(elapsed)
                    else:
                        elapsed = by_hand(server.port, token)
                        if round_number > 0:
                            hand_times.append(elapsed)
                warm_env = env
            runs = benchkit.hyperfine(os.path.join(results, "diary-offline.json"), {
                "marquee --help": f"{marquee} --help",
                "marquee diary --offline": f"{marquee} diary --offline --env {server.api}",
                "marquee diary --json --offline": f"{marquee} diary --json --offline --env {server.api}",
            }, env=warm_env)

    first_ms, hand_ms = statistics.median(first_times) * 1000, statistics.median(hand_times) * 1000
    offline_ms, help_ms = runs["marquee diary --offline"]["median"] * 1000, runs["marquee --help"]["median"] * 1000
    json_ms = runs["marquee diary --json --offline"]["median"] * 1000
    text = f"""## The shelf on a new device

Measured on {cpu}. A person with {DIARY:,} diary entries, {RATINGS:,} ratings and {LISTS} lists of
{LIST_MOVIES} movies on `marquee serve` (in memory, {MOVIES:,} generated movies). A new device's
first `marquee diary --json` (signed in, nothing stored: both pages of 5,000 fetched, stored,
printed), process start to exit, against the same two pages fetched and parsed by hand in Python
(http.client, one connection): five interleaved rounds after one warm-up, a new device each round,
medians. A later `marquee diary --offline` (the table; and `--json`) on a device that holds the
diary: hyperfine, against `marquee --help` (starting the process at all).

| what | baseline | Marquee | ratio | goal | |
|---|---|---|---|---|---|
| a new device's first `diary`, {DIARY:,} entries, median | {hand_ms:.0f} ms (by hand) | {first_ms:.0f} ms | {first_ms / hand_ms:.1f}× | < 2 s | {"met" if first_ms < 2000 else "missed"} |
| a later `diary --offline`, median | {help_ms:.0f} ms (`--help`) | {offline_ms:.0f} ms | {offline_ms / help_ms:.1f}× | < 100 ms | {"met" if offline_ms < 100 else "missed"} |
| a later `diary --json --offline`, median | {help_ms:.0f} ms (`--help`) | {json_ms:.0f} ms | {json_ms / help_ms:.1f}× | | |
"""
    benchkit.write_result(results, "shelf.md", text)
    print(text)
    benchkit.record_goal(results, "a new device's first `marquee diary`, 10,000 entries, median", "< 2 s", f"{first_ms:.0f} ms", first_ms < 2000, f"{first_ms / hand_ms:.1f}× (by hand)")
    benchkit.record_goal(results, "a later `marquee diary --offline`, median", "< 100 ms", f"{offline_ms:.0f} ms", offline_ms < 100, f"{offline_ms / help_ms:.1f}× (`--help`)")


if __name__ == "__main__":
    main()
