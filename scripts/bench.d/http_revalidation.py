#!/usr/bin/env python3
"""Revalidation and shared requests, measured on the wire.

Usage: http_revalidation.py MARQUEE RESULTS_DIR [ROUNDS]

`marquee serve --public` runs behind a TCP relay that counts the bytes the server sends.

- Unchanged cacheThenNetwork against a full fetch: each round runs `marquee top-grossing` once
  with an empty store (`networkOnly`: the full body) and once with the list stored
  (`cacheThenNetwork`: a 304), interleaved, and records the bytes the server sent and the wall time.
- The relay also counts the requests of each run: one (the conditional GET). 100 concurrent
  identical calls are measured in process by the Benchmarks package (client/… shared).

Writes RESULTS_DIR/http.md (a Markdown section) and prints it.
"""
import os
import socket
import statistics
import threading

import benchkit

BODY_BYTES = 1919


class Relay:
    """Accepts on a loopback port and joins each connection to the server, counting bytes and requests."""

    def __init__(self, server_port):
        self.server_port = server_port
        self.lock = threading.Lock()
        self.from_server = 0
        self.requests = 0
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(512)
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            client, _ = self.listener.accept()
            upstream = socket.create_connection(("127.0.0.1", self.server_port))
            threading.Thread(target=self.pump, args=(client, upstream, False), daemon=True).start()
            threading.Thread(target=self.pump, args=(upstream, client, True), daemon=True).start()

    def pump(self, source, destination, counts_bytes):
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                with self.lock:
                    if counts_bytes:
                        self.from_server += len(data)
                    else:
                        self.requests += data.count(b"HTTP/1.1\r\n")
                destination.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, destination):
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def counts(self):
        with self.lock:
            return self.from_server, self.requests


def run(marquee, relay, store, policy):
    """One `marquee top-grossing` through the relay: bytes from the server, requests, seconds."""
    before = relay.counts()
    elapsed, _ = benchkit.timed_run(
        [marquee, "top-grossing", "--env", f"http://127.0.0.1:{relay.port}/api/", "--store", store, "--policy", policy],
        check=True, **benchkit.QUIET,
    )
    after = relay.counts()
    return after[0] - before[0], after[1] - before[1], elapsed


def main():
    marquee, results, rest = benchkit.command_line("http_revalidation.py MARQUEE RESULTS_DIR [ROUNDS]")
    rounds = int(rest[0]) if rest else 30
    with benchkit.scratch_folder("marquee-bench-http-") as work:
        with benchkit.Server(marquee, "--public", "--log-level", "notice", log=os.path.join(work, "server.log")) as server:
            relay = Relay(server.port)
            stored = os.path.join(work, "stored.sqlite")
            run(marquee, relay, stored, "networkOnly")
            full, revalidated = [], []
            for index in range(rounds):
                empty = os.path.join(work, f"empty-{index}.sqlite")
                full.append(run(marquee, relay, empty, "networkOnly"))
                revalidated.append(run(marquee, relay, stored, "cacheThenNetwork"))

    full_bytes = statistics.median(b for b, _, _ in full)
    revalidated_bytes = statistics.median(b for b, _, _ in revalidated)
    full_time = statistics.median(t for _, _, t in full) * 1000
    revalidated_time = statistics.median(t for _, _, t in revalidated) * 1000
    requests = max(r for _, r, _ in full + revalidated)
    lines = [
        "## Revalidation on the wire (`scripts/bench.d/http_revalidation.py`)",
        "",
        f"CPU: {benchkit.cpu_model('unknown CPU')}. {rounds} interleaved rounds of `marquee top-grossing` (release) against",
        "`marquee serve --public` behind a relay that counts the bytes the server sent. A full fetch",
        "uses an empty store (`networkOnly`); the unchanged run has the list stored (`cacheThenNetwork`,",
        "answered `304`). Medians; the time is the whole process, start to exit.",
        "",
        "| run | bytes from the server | of which body | wall time |",
        "|---|---:|---:|---:|",
        f"| full fetch (200) | {full_bytes:.0f} | {BODY_BYTES} | {full_time:.1f} ms |",
        f"| unchanged, cacheThenNetwork (304) | {revalidated_bytes:.0f} | 0 | {revalidated_time:.1f} ms |",
        "",
        f"Bytes: {revalidated_bytes / full_bytes:.1%} of the full fetch on the wire, headers included (0% of the body);"
        f" time: {revalidated_time / full_time:.2f}× the full fetch's. Requests per run: at most {requests}.",
        "Goal: under 5% of the bytes, and faster.",
        "",
    ]
    text = "\n".join(lines)
    benchkit.write_result(results, "http.md", text)
    print(text)
    benchkit.record_goal(results, "an unchanged list revalidated (304): bytes on the wire against a full fetch", "under 5%",
                         f"{revalidated_bytes:.0f} bytes", revalidated_bytes / full_bytes < 0.05, f"{revalidated_bytes / full_bytes:.1%}")
    benchkit.record_goal(results, "an unchanged list revalidated (304): `marquee top-grossing` start to exit, against a full fetch", "faster",
                         f"{revalidated_time:.1f} ms", revalidated_time < full_time, f"{revalidated_time / full_time:.2f}×")


if __name__ == "__main__":
    main()
