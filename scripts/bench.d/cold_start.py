#!/usr/bin/env python3
"""Cold start: `marquee top-grossing` from process start to exit with a warm store, offline and
through the embedded server, against `marquee --help` (the floor of starting the process at all);
hyperfine, 30 runs after 3 warm-ups.

Usage: cold_start.py MARQUEE RESULTS_DIR. Writes cold-start.json (hyperfine's export, which report.py
reads) and cold-start.txt (what hyperfine printed)."""
import os
import subprocess

import benchkit


def main():
    marquee, results, _ = benchkit.command_line("cold_start.py MARQUEE RESULTS_DIR")
    with benchkit.scratch_folder("marquee-cold-start-") as home:
        env = benchkit.isolated_environment(home)
        subprocess.run([marquee, "top-grossing"], env=env, stdout=subprocess.DEVNULL, check=True)
        benchkit.hyperfine(os.path.join(results, "cold-start.json"), {
            "marquee --help (process start and exit, the floor)": f"{marquee} --help",
            "marquee top-grossing --offline (warm store)": f"{marquee} top-grossing --offline",
            "marquee top-grossing (embedded server, token, request, store)": f"{marquee} top-grossing",
        }, env=env, output=os.path.join(results, "cold-start.txt"))


if __name__ == "__main__":
    main()
