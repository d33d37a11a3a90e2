#!/usr/bin/env python3
"""The client's decoding benchmark (`ClientBenchmarks`: a 10,000-movie body through
`ResponseDecoding` into domain movies, and `JSONSerialization` on the same bytes) in several
builds, interleaved: each round runs every build once, in alternating order, and the ratios are
taken within a round, so a noisy machine disturbs them less than the medians.

For "measured interleaved against the commit before": at each commit build the benchmarks with
`(cd Benchmarks && swift build -c release --scratch-path ../.build --product ClientBenchmarks)` and
copy `.build/release/ClientBenchmarks` with the `lib*.so` beside it into a folder of its own.

Usage: client_decoding_builds.py RESULTS_DIR ROUNDS NAME=FOLDER [NAME=FOLDER ...]
Writes client-decoding-builds.md with the CPU model."""
import math
import os
import re
import statistics
import subprocess
import sys

import benchkit

BENCHMARKS = {"domain movies": "decoding/Marquee DTOs to Movie 10k movies", "JSONSerialization": "decoding/JSONSerialization 10k movies"}


def median_milliseconds(folder, benchmark):
    """The median wall-clock time of one run of `benchmark` in the build in `folder`."""
    output = subprocess.run(
        [os.path.join(folder, "ClientBenchmarks"), "--filter", "^" + re.escape(benchmark) + "$", "--quiet", "true"],
        env=dict(os.environ, LD_LIBRARY_PATH=folder), capture_output=True, text=True, check=True, timeout=300,
    ).stdout
    section = output.split("Time (wall clock):", 1)[1].split("#[Mean", 1)[0]
    for line in section.splitlines():
        fields = line.split()
        if len(fields) >= 2 and re.fullmatch(r"[0-9.]+", fields[0]) and float(fields[1]) >= 0.5:
            return float(fields[0]) / 1e6
    raise SystemExit(f"no median in the output of {folder} for {benchmark}")


def main():
    if len(sys.argv) < 4:
        raise SystemExit("usage: client_decoding_builds.py RESULTS_DIR ROUNDS NAME=FOLDER [NAME=FOLDER ...]")
    results, rounds = sys.argv[1], int(sys.argv[2])
    builds = dict(argument.split("=", 1) for argument in sys.argv[3:])
    names = list(builds)
    times = {(label, name): [] for label in BENCHMARKS for name in names}
    for round_number in range(rounds):
        order = names if round_number % 2 == 0 else list(reversed(names))
        for label, benchmark in BENCHMARKS.items():
            for name in order:
                times[(label, name)].append(median_milliseconds(builds[name], benchmark))
        print(f"round {round_number + 1} of {rounds} done", file=sys.stderr, flush=True)
    lines = [
        "## The client's decoding, builds interleaved (`scripts/bench.d/client_decoding_builds.py`)", "",
        f"Measured on {benchkit.cpu_model()}: {rounds} rounds, each build's benchmark once a round, in alternating order.", "",
        "| benchmark | build | median of the rounds' medians (ms) |", "|---|---|---:|",
    ]
    for label in BENCHMARKS:
        for name in names:
            lines.append(f"| {label} | {name} | {statistics.median(times[(label, name)]):.1f} |")
    lines += ["", "| benchmark | build | against | median ratio of rounds | geometric mean |", "|---|---|---|---:|---:|"]
    for label in BENCHMARKS:
        for index, name in enumerate(names):
            for other in names[:index]:
                ratios = [a / b for a, b in zip(times[(label, name)], times[(label, other)])]
                mean = math.exp(sum(map(math.log, ratios)) / len(ratios))
                lines.append(f"| {label} | {name} | {other} | {statistics.median(ratios):.2f}× | {mean:.2f}× |")
    text = "\n".join(lines) + "\n"
    os.makedirs(results, exist_ok=True)
    with open(os.path.join(results, "client-decoding-builds.md"), "w") as file:
        file.write(text)
    print(text)


if __name__ == "__main__":
    main()
