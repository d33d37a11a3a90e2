#!/usr/bin/env python3
"""What counting sign-in attempts in the database costs a sign-in: the median time of a wrong-password
sign-in on the page with the attempts kept in SQLite and in PostgreSQL (where every instance sees them),
against the same server with them in memory, in interleaved rounds. bcrypt runs at cost 4 (its least) so
that the count's share shows; at the default cost 12 a check takes some 250 ms and the count is lost in it.

Usage: sign_in_attempts.py MARQUEE RESULTS_DIR. Writes sign-in-attempts.md with the CPU model."""
import os
import statistics
import time

import benchkit
import signin
from pgcluster import Cluster

GUESSES = 300


def serve(marquee, database, cost="4"):
    stored = ["--database", database] if database else []
    return benchkit.Server(marquee, "--log-level", "warning", "--password-cost", cost, "--sign-in-limit", "1000000", *stored, ready_seconds=30)


def round_of_guesses(port, guesses=GUESSES):
    """The median ms of `guesses` wrong-password sign-ins on the page, one at a time."""
    page = signin.Page(port)
    page.request("GET", "/device")
    times = []
    for index in range(guesses):
        began = time.perf_counter()
        status, _ = page.request("POST", "/device/sign-in", {"name": f"nobody{index % 7}", "password": "a wrong guess"})
        times.append(time.perf_counter() - began)
        assert status == 401, status
    return statistics.median(times) * 1000


def main():
    marquee, results, _ = benchkit.command_line("sign_in_attempts.py MARQUEE RESULTS_DIR")
    cpu = benchkit.cpu_model()
    with benchkit.scratch_folder("marquee-attempts-bench-") as work:
        cluster = Cluster(work)
        servers = {}
        try:
            backends = {"memory": None, "sqlite": os.path.join(work, "server.sqlite"), "postgres": cluster.database("attempts")}
            for database in backends.values():
                if database:
                    benchkit.import_catalog(marquee, benchkit.REFERENCE_CATALOG, database)
            servers = {name: serve(marquee, database) for name, database in backends.items()}
            medians = {name: [] for name in backends}
            for round_number in range(5):
                for name in benchkit.alternating(backends, round_number):
                    medians[name].append(round_of_guesses(servers[name].port))
            for server in servers.values():
                server.stop()
            with serve(marquee, None, cost="12") as full:
                at_cost_12 = round_of_guesses(full.port, guesses=20)
        finally:
            for server in servers.values():
                server.stop()
            cluster.stop()

    base = statistics.median(medians["memory"])
    text = (f"Measured on {cpu}, release build, `marquee serve --password-cost 4`; 5 interleaved rounds of {GUESSES} "
            f"wrong-password sign-ins on the page, one at a time, each counted under its account and its address.\n\n"
            "| attempts kept in | median sign-in, ms | against memory | rounds (median ms) |\n|---|---:|---:|---|\n")
    for name in backends:
        value = statistics.median(medians[name])
        text += f"| {name} | {value:.2f} | {value / base:.2f}× | {', '.join(f'{m:.2f}' for m in medians[name])} |\n"
    shares = ", ".join(f"{name} {(statistics.median(medians[name]) - base) / at_cost_12 * 100:.1f}%" for name in backends if name != "memory")
    text += (f"\nA wrong-password sign-in at the default bcrypt cost (12), attempts in memory: {at_cost_12:.0f} ms (median of 20). "
             f"What counting in the database adds, as a share of that: {shares}.\n")
    benchkit.write_result(results, "sign-in-attempts.md", text)
    print("sign-in attempts: " + ", ".join(f"{name} {statistics.median(m):.2f} ms" for name, m in medians.items()) + f"; {at_cost_12:.0f} ms at cost 12; on {cpu}")


if __name__ == "__main__":
    main()
