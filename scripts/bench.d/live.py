#!/usr/bin/env python3
"""The live feed (`GET /api/events`), measured against baselines in the same run:

1. Latency: from a watchlist PUT sent to instance A to the event read by a subscriber of instance
   B on one PostgreSQL database, p50 and p99 (goal: p99 <= 200 ms); the same on one instance,
   beside the PUT's own round trip.
2. 10,000 idle subscribers (application tokens) held by one instance (SQLite): the server's RSS
   growth (goal: <= 100 MB, 10 KB a subscriber), then a catalogue import by another process
   delivered to all of them: p99 from the import's commit (goal: <= 1 s).
3. Requests/s of the movie paths (wrk, movie by id) with those 10,000 streams open, against none,
   interleaved (goal: >= 0.9x).

Usage: live.py MARQUEE RESULTS_DIR. LIVE_SUBSCRIBERS sets the subscriber count (default 10,000),
LIVE_CHANGES the PUTs measured (default 200). The CPU model is written with the results (live.md)."""
import http.client
import json
import os
import resource
import selectors
import socket
import statistics
import time
import uuid

import benchkit
import signin
from pgcluster import Cluster

p = benchkit.percentile_nearest


def allow_open_files(subscribers):
    """This process holds the subscribers' sockets, the server (which inherits the limit) their other
    ends: each needs room for all of them. Without the right to raise the hard limit, it is the cap."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    limit = subscribers + 1000
    if limit > hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))
        except (ValueError, OSError):
            raise SystemExit(f"live: {subscribers:,} subscribers need {limit:,} open files; this machine allows {hard:,} (LIVE_SUBSCRIBERS sets fewer)")
    else:
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, limit), hard))


class Stream:
    """One raw event stream: a socket that sent its GET; `until` reads until a text arrives."""

    def __init__(self, port, token):
        self.socket = socket.create_connection(("127.0.0.1", port))
        self.socket.sendall(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n\r\n".encode())
        self.text = b""

    def until(self, needle, seconds=30):
        self.socket.settimeout(seconds)
        while needle not in self.text:
            chunk = self.socket.recv(65536)
            if not chunk:
                raise SystemExit("live: a stream ended early")
            self.text += chunk
        found = self.text
        self.text = b""
        return found


def put(port, token, movie, note):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    c.request("PUT", f"/api/watchlist/{movie}", json.dumps({"note": note}),
              {"Authorization": f"Bearer {token}", "Content-Type": "application/json", "Idempotency-Key": str(uuid.uuid4())})
    answer = c.getresponse()
    answer.read()
    assert answer.status == 200, answer.status


def latency(changes, write_port, write_token, read_port, read_token):
    """PUT round trips and PUT-to-event times, ms."""
    stream = Stream(read_port, read_token)
    stream.until(b"event: ready")
    round_trips, arrivals = [], []
    for number in range(changes):
        note = f"n{number}-{uuid.uuid4().hex[:6]}"
        begun = time.perf_counter()
        put(write_port, write_token, 1 + number % 20, note)
        round_trips.append((time.perf_counter() - begun) * 1000)
        stream.until(note.encode())
        arrivals.append((time.perf_counter() - begun) * 1000)
    stream.socket.close()
    return round_trips, arrivals


def serve(marquee, database, *extra):
    return benchkit.Server(marquee, "--database", database, "--log-level", "warning", "--password-cost", "4", *extra)


def put_to_event(marquee, work, cluster, catalog, changes, results):
    """Part 1: two instances on PostgreSQL, and one alone; the table's lines."""
    servers = []
    try:
        postgres = cluster.database("live")
        benchkit.import_catalog(marquee, catalog, postgres)
        keys = os.path.join(work, "keys")
        with open(keys, "w") as file:
            file.write("bench " + "k" * 48 + "\n")
        os.chmod(keys, 0o600)
        servers.append(serve(marquee, postgres, "--signing-keys", keys))
        servers.append(serve(marquee, postgres, "--signing-keys", keys))
        a, b = servers
        token, _ = signin.device_tokens(a.port, "alice")
        across_put, across = latency(changes, a.port, token, b.port, token)
        alone_put, alone = latency(changes, a.port, token, a.port, token)
    finally:
        for server in servers:
            server.stop()
    benchkit.record_goal(results, "live feed: a PUT on instance A to the event at a subscriber of B (PostgreSQL), p99", "≤ 200 ms",
                         f"{p(across, 0.99):.1f} ms", p(across, 0.99) <= 200, f"{p(across, 0.99) / p(alone_put + across_put, 0.99):.2f}× (the PUT's round trip)")
    return ["| PUT to event | p50 ms | p99 ms | goal |", "|---|---:|---:|---|",
            f"| instance A to a subscriber of B (PostgreSQL, NOTIFY) | {p(across, 0.5):.1f} | {p(across, 0.99):.1f} | p99 <= 200 ms |",
            f"| one instance to its own subscriber | {p(alone, 0.5):.1f} | {p(alone, 0.99):.1f} | |",
            f"| the PUT's own round trip (baseline) | {p(alone_put + across_put, 0.5):.1f} | {p(alone_put + across_put, 0.99):.1f} | |", ""]


def delivered_to_all(marquee, work, sqlite_file, streams):
    """A catalogue import by another process, read by every stream: ms from the import's exit to each stream's event."""
    selector = selectors.DefaultSelector()
    for stream in streams:
        stream.socket.setblocking(False)
        selector.register(stream.socket, selectors.EVENT_READ, stream)
    other = benchkit.generate_catalog(marquee, os.path.join(work, "other.json"), 2000, seed=8, first_id=2001)
    benchkit.import_catalog(marquee, other, sqlite_file)
    committed = time.perf_counter()
    delivered, waiting = [], set(streams)
    while waiting and time.perf_counter() - committed < 30:
        for key, _ in selector.select(timeout=1):
            stream = key.data
            try:
                stream.text += stream.socket.recv(65536)
            except BlockingIOError:
                continue
            if stream in waiting and b"event: catalog" in stream.text:
                waiting.discard(stream)
                delivered.append((time.perf_counter() - committed) * 1000)
    return selector, delivered


def idle_subscribers(marquee, work, catalog, subscribers, results):
    """Parts 2 and 3: idle subscribers on one SQLite instance; the table's lines."""
    sqlite_file = os.path.join(work, "live.sqlite")
    benchkit.import_catalog(marquee, catalog, sqlite_file)
    with serve(marquee, sqlite_file, "--max-connections", str(subscribers * 3 + 100), "--max-event-streams", str(subscribers * 2 + 20), "--event-streams-per-address", str(subscribers + 10), "--event-streams-per-application", str(subscribers + 10)) as server:
        app_token = signin.app_token(server.port)

        def movie_requests_per_second():
            return benchkit.wrk("-t2", "-c64", "-d5s", server.url("/api/movies/1"), "-H", f"Authorization: Bearer {app_token}").requests_per_second

        without = [movie_requests_per_second()]
        before = benchkit.rss_kib(server.pid)
        streams = [Stream(server.port, app_token) for _ in range(subscribers)]
        for stream in streams:
            stream.until(b"event: ready")
        time.sleep(2)
        after = benchkit.rss_kib(server.pid)
        growth_mb = (after - before) / 1024

        selector, delivered = delivered_to_all(marquee, work, sqlite_file, streams)
        with_streams = []
        for _ in range(2):
            with_streams.append(movie_requests_per_second())
            for key in list(selector.get_map().values()):
                try:
                    key.data.socket.recv(65536)
                except (BlockingIOError, OSError):
                    pass
        for stream in streams:
            stream.socket.close()
        time.sleep(1)
        without.append(movie_requests_per_second())
    ratio = statistics.median(with_streams) / statistics.median(without)
    delivered_p99 = p(delivered, 0.99) if delivered else float("nan")
    benchkit.record_goal(results, f"live feed: RSS growth with {subscribers:,} idle subscribers", "≤ 100 MB",
                         f"{growth_mb:.1f} MB ({(after - before) / subscribers:.1f} KB a subscriber)", growth_mb <= 100)
    benchkit.record_goal(results, f"live feed: a catalogue import delivered to all {subscribers:,} subscribers, p99", "≤ 1,000 ms",
                         f"{delivered_p99:.0f} ms ({len(delivered):,} of {subscribers:,} received it)", delivered_p99 <= 1000 and len(delivered) == subscribers)
    benchkit.record_goal(results, f"live feed: movie by id, requests/s with {subscribers:,} streams open against none", "≥ 0.9×",
                         f"{statistics.median(with_streams):,.0f} req/s", ratio >= 0.9, f"{ratio:.2f}×")
    return [f"{subscribers:,} idle subscribers (application tokens) on one SQLite instance:", "",
            "| | value | goal |", "|---|---:|---|",
            f"| RSS growth | {growth_mb:.1f} MB ({(after - before) / subscribers:.1f} KB a subscriber) | <= 100 MB |",
            f"| a catalogue import delivered to all: p50 / p99 ms (from the importing process's exit; the feed reads the log every 250 ms on SQLite) | {p(delivered, 0.5) if delivered else float('nan'):.0f} / {delivered_p99:.0f} | p99 <= 1,000 ms |",
            f"| subscribers that received it | {len(delivered):,} of {subscribers:,} | all |",
            f"| movie by id, requests/s with the streams open / without (wrk -t2 -c64, rounds interleaved) | {statistics.median(with_streams):,.0f} / {statistics.median(without):,.0f} = {ratio:.2f}x | >= 0.9x |"]


def main():
    marquee, results, _ = benchkit.command_line("live.py MARQUEE RESULTS_DIR")
    subscribers = int(os.environ.get("LIVE_SUBSCRIBERS", "10000"))
    changes = int(os.environ.get("LIVE_CHANGES", "200"))
    allow_open_files(subscribers)
    lines = ["## The live feed", "", f"CPU: {benchkit.cpu_model()}", ""]
    with benchkit.scratch_folder("marquee-live-") as work:
        catalog = benchkit.generate_catalog(marquee, os.path.join(work, "catalog.json"), 2000, seed=7)
        cluster = Cluster(work)
        try:
            lines += put_to_event(marquee, work, cluster, catalog, changes, results)
            lines += idle_subscribers(marquee, work, catalog, subscribers, results)
        finally:
            cluster.stop()
    text = "\n".join(lines)
    print(text)
    benchkit.write_result(results, "live.md", text + "\n")


if __name__ == "__main__":
    main()
