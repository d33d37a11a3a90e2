#!/usr/bin/env python3
"""The watchlist: `marquee sync` of 1,000 pending changes to `marquee serve` on loopback (process
start to exit: the signed-in person's token, two batches, the pull), against the same exchange made
by hand with http.client (a refreshed token, the same two batch bodies, the GET), interleaved rounds; and `marquee watch add
--offline` with a warm store against `marquee --help` (hyperfine).

Usage: watchlist.py MARQUEE RESULTS_DIR. Writes watchlist.md with the CPU model, and watch-add.json
(hyperfine's export)."""
import http.client
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import time

import benchkit
import signin

CHANGES = 1000
BATCH = 500


def pending_changes_store(marquee, api, env, template):
    """A store holding 1,000 pending watchlist changes (a quarter of them removals)."""
    subprocess.run([marquee, "watch", "add", "1", "--offline", "--env", api, "--store", template], check=True, env=env, stdout=subprocess.DEVNULL)
    db = sqlite3.connect(template)
    api_id, device = db.execute("SELECT apiId, device FROM watchlistOutbox").fetchone()
    base = db.execute("SELECT changedAt FROM watchlistOutbox").fetchone()[0]
    for index in range(1, CHANGES):
        action = "remove" if index % 4 == 3 else "add"
        db.execute("INSERT INTO watchlistOutbox (apiId, changeId, movieId, action, note, changedAt, device) VALUES (?, ?, ?, ?, ?, ?, ?)",
                   (api_id, f"bench-{index}", index % 10 + 1, action, "" if action == "remove" else f"note {index}", base + index, device))
    db.commit()
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


def fresh_store(template, work, round_name):
    """A copy of the template whose change ids are new; the store and its pending changes."""
    path = os.path.join(work, f"{round_name}.sqlite")
    shutil.copy(template, path)
    db = sqlite3.connect(path)
    db.execute("UPDATE watchlistOutbox SET changeId = changeId || ?", (f"-{round_name}",))
    rows = db.execute("SELECT changeId, movieId, action, note, changedAt, device FROM watchlistOutbox ORDER BY sequence").fetchall()
    db.commit()
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return path, rows


def iso(ms):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ms // 1000)) + f".{ms % 1000:03d}Z"


class ByHand:
    """The sync's exchange made with http.client: a refreshed token, the batches, the GET."""

    def __init__(self, port, refresh_token):
        self.port, self.refresh_token = port, refresh_token

    def sync(self, rows):
        """The seconds the exchange took."""
        begun = time.perf_counter()
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        c.request("POST", "/api/auth/token", "grant_type=refresh_token&refresh_token=" + self.refresh_token + "&client_id=marquee-dev&client_secret=marquee-dev-secret",
                  signin.FORM)
        granted = json.loads(c.getresponse().read())
        token, self.refresh_token = granted["access_token"], granted["refresh_token"]
        for start in range(0, len(rows), BATCH):
            changes = [{"id": r[0], "movieId": r[1], "action": r[2], "changedAt": iso(r[4]), "device": r[5], **({"note": r[3]} if r[2] == "add" else {})}
                       for r in rows[start:start + BATCH]]
            c.request("POST", "/api/watchlist/changes", json.dumps({"changes": changes}),
                      {"Authorization": "Bearer " + token, "Content-Type": "application/json", "Idempotency-Key": f"hand-{rows[start][0]}"})
            answer = c.getresponse()
            answer.read()
            assert answer.status == 200, answer.status
        c.request("GET", "/api/watchlist", headers={"Authorization": "Bearer " + token})
        c.getresponse().read()
        return time.perf_counter() - begun


def main():
    marquee, results, _ = benchkit.command_line("watchlist.py MARQUEE RESULTS_DIR")
    cpu = benchkit.cpu_model()
    with benchkit.scratch_folder("marquee-watchlist-bench-") as work:
        env = benchkit.isolated_environment(work)
        with benchkit.Server(marquee, "--log-level", "warning", "--password-cost", "4") as server:
            # A server's watchlist is a person's: marquee signs in as alice, the hand-made client as bob.
            signin.marquee_login(marquee, server.api, server.port, env, "alice")
            by_hand = ByHand(server.port, signin.device_tokens(server.port, "bob")[1])
            template = os.path.join(work, "template.sqlite")
            pending_changes_store(marquee, server.api, env, template)

            marquee_times, hand_times = [], []
            for round_number in range(6):
                path, rows = fresh_store(template, work, f"m{round_number}")
                hand_rows = [(r[0] + "-hand",) + tuple(r[1:]) for r in rows]
                for side in benchkit.alternating(["marquee", "by hand"], round_number):
                    if side == "marquee":
                        elapsed, out = benchkit.timed_run([marquee, "sync", "--env", server.api, "--store", path], env=env, capture_output=True, text=True)
                        assert out.returncode == 0 and f"sent {CHANGES} changes" in out.stdout, (out.stdout, out.stderr)
                        if round_number > 0:
                            marquee_times.append(elapsed)
                    else:
                        elapsed = by_hand.sync(hand_rows)
                        if round_number > 0:
                            hand_times.append(elapsed)

            warm = os.path.join(work, "warm.sqlite")
            subprocess.run([marquee, "watch", "add", "2", "--offline", "--env", server.api, "--store", warm], check=True, env=env, stdout=subprocess.DEVNULL)
            runs = benchkit.hyperfine(os.path.join(results, "watch-add.json"), {
                "marquee --help": f"{marquee} --help",
                "marquee watch add --offline": f"{marquee} watch add 3 --offline --env {server.api} --store {warm}",
            }, env=env)

    sync_ms, hand_ms = statistics.median(marquee_times) * 1000, statistics.median(hand_times) * 1000
    add_ms, help_ms = runs["marquee watch add --offline"]["median"] * 1000, runs["marquee --help"]["median"] * 1000
    text = f"""## Watchlist

Measured on {cpu}. `marquee sync` of 1,000 pending changes to `marquee serve` (in memory) on
loopback, from process start to exit (a token, two batches of 500, the pull), against the same
exchange made by hand in Python with http.client (a token, the same two batch bodies under new ids,
the GET): five interleaved rounds after one warm-up, medians. `watch add --offline` with a warm
store: hyperfine, 30 runs after 3 warm-ups, against `marquee --help` (starting the process at all).

| what | baseline | Marquee | ratio | goal | |
|---|---|---|---|---|---|
| sync of 1,000 pending changes, median | {hand_ms:.0f} ms (by hand) | {sync_ms:.0f} ms | {sync_ms / hand_ms:.1f}× | < 2 s | {"met" if sync_ms < 2000 else "missed"} |
| `watch add --offline`, warm store, median | {help_ms:.0f} ms (`--help`) | {add_ms:.0f} ms | {add_ms / help_ms:.1f}× | < 60 ms | {"met" if add_ms < 60 else "missed"} |
"""
    benchkit.write_result(results, "watchlist.md", text)
    print(text)
    benchkit.record_goal(results, "`marquee sync` of 1,000 pending changes, median", "< 2 s", f"{sync_ms:.0f} ms", sync_ms < 2000, f"{sync_ms / hand_ms:.1f}× (by hand)")
    benchkit.record_goal(results, "`marquee watch add --offline`, warm store, median", "< 60 ms", f"{add_ms:.0f} ms", add_ms < 60, f"{add_ms / help_ms:.1f}× (`--help`)")


if __name__ == "__main__":
    main()
