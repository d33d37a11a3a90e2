#!/usr/bin/env python3
"""The credential look-up per account costs nothing measurable: `marquee auth status` and
`marquee top-grossing --offline` against a server API, with a credentials file of one account
against one of 200 (40 APIs, 5 accounts and a client each), in interleaved rounds, process start
to exit. Also `marquee --help`, the floor of a run.

Usage: account_lookup.py MARQUEE RESULTS_DIR. Writes account-lookup.md with the CPU model."""
import json
import os
import statistics
import time

import benchkit

API = "http://127.0.0.1:9/api/"
COMMANDS = {
    "auth status": ["auth", "status", "--env", API],
    "top-grossing --offline": ["top-grossing", "--env", API, "--offline"],
    "--help": ["--help"],
}


def home(folder, apis, accounts):
    """A config folder whose credentials file holds `apis` APIs with a client and `accounts` people
    each; its environment and the number of credentials."""
    os.makedirs(os.path.join(folder, "config", "marquee"))
    credentials, defaults = {}, {}
    for index in range(apis):
        key = API if index == 0 else f"http://127.0.0.{index + 1}:8080/api/"
        credentials[f"{key} client:marquee-dev@aab298fe49c540f4"] = {"accessToken": "a" * 300, "refreshToken": "r" * 43, "issuedAt": time.time(), "expiresAt": time.time() + 3600}
        for person in range(accounts):
            credentials[f"{key} account:person{person}"] = {"accessToken": "b" * 400, "refreshToken": "s" * 43, "issuedAt": time.time(), "expiresAt": time.time() + 3600}
        defaults[key] = "person0"
    path = os.path.join(folder, "config", "marquee", "credentials.json")
    with open(path, "w") as f:
        json.dump({"version": 1, "credentials": credentials, "defaultAccounts": defaults}, f)
    os.chmod(path, 0o600)
    return benchkit.isolated_environment(folder), len(credentials)


def main():
    marquee, results, _ = benchkit.command_line("account_lookup.py MARQUEE RESULTS_DIR")
    cpu = benchkit.cpu_model()
    with benchkit.scratch_folder("marquee-lookup-") as work:
        small, small_count = home(os.path.join(work, "small"), 1, 1)
        large, large_count = home(os.path.join(work, "large"), 40, 4)
        times = {(name, side): [] for name in COMMANDS for side in ("small", "large")}
        for round_number in range(30):
            for name, arguments in COMMANDS.items():
                for side, env in benchkit.alternating([("small", small), ("large", large)], round_number):
                    elapsed, _ = benchkit.timed_run([marquee] + arguments, env=env, **benchkit.QUIET)
                    if round_number > 0:
                        times[(name, side)].append(elapsed * 1000)
    text = (f"Measured on {cpu}, release build: process start to exit, 29 interleaved rounds after a warm-up, "
            f"a credentials file of {small_count} entries against one of {large_count}.\n\n"
            "| command | 2 entries (median ms) | 200 entries (median ms) | ratio |\n|---|---:|---:|---:|\n")
    for name in COMMANDS:
        a, b = statistics.median(times[(name, "small")]), statistics.median(times[(name, "large")])
        text += f"| `marquee {name}` | {a:.1f} | {b:.1f} | {b / a:.2f}× |\n"
    benchkit.write_result(results, "account-lookup.md", text)
    print(text)


if __name__ == "__main__":
    main()
