#!/usr/bin/env python3
"""`marquee catalog import --format imdb` against today's `catalog import` of the same movies in
Marquee's JSON: a data set of 1,000,000 films in IMDb's layout written by this script (gzip;
title.basics with 500,000 other titles among the films, title.ratings, title.principals with
four actors a film, name.basics), and the same films as a catalogue file; each imported into a
new SQLite file, interleaved rounds, wall time and the importer's peak memory (VmHWM, read while it runs).

Usage: imdb_import.py MARQUEE RESULTS_DIR [--movies N] [--imdb DIR] (DIR: real data sets,
imported once, beside). Writes imdb-import.md with the CPU model."""
import gzip
import json
import os
import random
import statistics
import subprocess
import time

import benchkit

ROUNDS = int(os.environ.get("IMDB_IMPORT_ROUNDS", "3"))
OTHER_TITLES = 0.5
CAST = 4


def write_data_sets(folder, movies, rng):
    """The films in IMDb's layout, and the same films as Marquee's catalogue; the catalogue's path."""
    os.makedirs(folder)
    people = movies
    catalogue = []
    with gzip.open(os.path.join(folder, "title.basics.tsv.gz"), "wt", compresslevel=6) as basics, \
            gzip.open(os.path.join(folder, "title.ratings.tsv.gz"), "wt", compresslevel=6) as ratings, \
            gzip.open(os.path.join(folder, "title.principals.tsv.gz"), "wt", compresslevel=6) as principals:
        basics.write("tconst\ttitleType\tprimaryTitle\toriginalTitle\tisAdult\tstartYear\tendYear\truntimeMinutes\tgenres\n")
        ratings.write("tconst\taverageRating\tnumVotes\n")
        principals.write("tconst\tordering\tnconst\tcategory\tjob\tcharacters\n")
        number = 0
        for index in range(movies + int(movies * OTHER_TITLES)):
            number += 1
            tconst = f"tt{number:07d}"
            if index % 3 == 2:
                basics.write(f"{tconst}\ttvEpisode\tEpisode {number}\tEpisode {number}\t0\t2001\t\\N\t42\tDrama\n")
                continue
            year = 1920 + rng.randrange(105)
            title = f"{rng.choice(WORDS).title()} {rng.choice(WORDS)} {number}"
            runtime = 80 + rng.randrange(80)
            basics.write(f"{tconst}\tmovie\t{title}\t{title}\t0\t{year}\t\\N\t{runtime}\tDrama,Crime\n")
            rating = rng.randrange(10, 100) / 10
            votes = rng.randrange(5, 2_000_000)
            ratings.write(f"{tconst}\t{rating}\t{votes}\n")
            cast = [1 + rng.randrange(people) for _ in range(CAST)]
            for ordering, person in enumerate(cast, 1):
                principals.write(f"{tconst}\t{ordering}\tnm{person:07d}\t{'actor' if person % 2 else 'actress'}\t\\N\t\\N\n")
            catalogue.append({"name": title, "id": number, "year": year, "releaseDate": f"{year:04d}-01-01", "grossing": 0,
                              "rating": round(rating * 10), "cast": [{"name": f"Person {person}"} for person in dict.fromkeys(cast)],
                              "imdbId": tconst, "runtimeMinutes": runtime, "genres": ["Drama", "Crime"], "votes": votes})
    with gzip.open(os.path.join(folder, "name.basics.tsv.gz"), "wt", compresslevel=6) as names:
        names.write("nconst\tprimaryName\tbirthYear\tdeathYear\tprimaryProfession\tknownForTitles\n")
        for person in range(1, people + 1):
            names.write(f"nm{person:07d}\tPerson {person}\t1950\t\\N\tactor\t\\N\n")
    path = os.path.join(os.path.dirname(folder), "catalog.json")
    with open(path, "w") as written:
        json.dump(catalogue, written, separators=(",", ":"))
    return path


WORDS = ["golden", "harbor", "lost", "empire", "secret", "garden", "midnight", "signal", "river", "silent", "witness",
         "broken", "machine", "island", "storm", "voyage", "circus", "letter", "engine", "orchard", "glass", "kingdom"]


def timed_import(marquee, arguments, database):
    """Imports into a new SQLite file: the seconds, the importer's peak memory in MB, and its output."""
    if os.path.exists(database):
        os.remove(database)
    began = time.perf_counter()
    with open(os.path.join(os.path.dirname(database), "import-out.txt"), "w+") as out:
        process = subprocess.Popen([marquee, "catalog", "import", *arguments, "--database", database], stdout=out, stderr=subprocess.STDOUT)
        peak_kib = 0
        while process.poll() is None:
            peak_kib = max(peak_kib, high_water_mark_kib(process.pid))
            time.sleep(0.05)
        elapsed = time.perf_counter() - began
        out.seek(0)
        said = out.read()
    if process.returncode != 0:
        raise SystemExit(f"imdb_import: the import failed: {said.strip()[-500:]}")
    return elapsed, peak_kib / 1024, said


def high_water_mark_kib(pid):
    """The process's peak resident memory so far (VmHWM), read from /proc while it runs: its
    rusage is no good here, as a child forked from this script counts this script's memory
    until it execs (a million films' catalogue in Python: 1.9 GB for either import)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def main():
    marquee, results, rest = benchkit.command_line("imdb_import.py MARQUEE RESULTS_DIR [--movies N] [--imdb DIR]")
    movies = int(rest[rest.index("--movies") + 1]) if "--movies" in rest else 1_000_000
    real = rest[rest.index("--imdb") + 1] if "--imdb" in rest else None
    cpu = benchkit.cpu_model()
    times = {"json": [], "imdb": []}
    memory = {"json": [], "imdb": []}
    with benchkit.scratch_folder("marquee-imdb-bench-") as work:
        began = time.perf_counter()
        catalogue = write_data_sets(os.path.join(work, "imdb"), movies, random.Random(5))
        written = time.perf_counter() - began
        sides = {"json": [catalogue], "imdb": ["--format", "imdb", os.path.join(work, "imdb")]}
        for round_number in range(ROUNDS):
            for side in benchkit.alternating(["json", "imdb"], round_number):
                seconds, peak, _ = timed_import(marquee, sides[side], os.path.join(work, f"{side}.sqlite"))
                times[side].append(seconds)
                memory[side].append(peak)
        real_row = ""
        if real:
            seconds, peak, said = timed_import(marquee, ["--format", "imdb", real], os.path.join(work, "real.sqlite"))
            first = next((line for line in said.splitlines() if line.startswith("Read ")), "")
            real_row = f"| IMDb's own data sets ({first[:120]}) | | {seconds:.1f} s | | {peak:.0f} MB | |\n"

    json_s, imdb_s = statistics.median(times["json"]), statistics.median(times["imdb"])
    json_mb, imdb_mb = max(memory["json"]), max(memory["imdb"])
    ratio = imdb_s / json_s
    text = f"""## IMDb's data sets into a catalogue

Measured on {cpu}. {movies:,} films in IMDb's layout, written by the script ({written:.0f} s): title.basics
with {int(movies * OTHER_TITLES):,} episodes among them, title.ratings, title.principals ({CAST} actors
a film) and name.basics ({movies:,} people), gzip; and the same films, with the same casts, as
Marquee's catalogue JSON (details included: IMDb id, runtime, genres, votes). Each imported into a new SQLite file, {ROUNDS} interleaved rounds; medians,
and the importer's peak resident memory (VmHWM from /proc, read every 50 ms while it runs).

| import | Marquee's JSON | IMDb's layout | ratio | peak memory (JSON / IMDb) | goal |
|---|---|---|---|---|---|
| {movies:,} films into SQLite | {json_s:.1f} s | {imdb_s:.1f} s | {ratio:.2f}× | {json_mb:.0f} / {imdb_mb:.0f} MB | ≤ 1.3×, < 512 MB: {"met" if ratio <= 1.3 and imdb_mb < 512 else "missed"} |
{real_row}"""
    benchkit.write_result(results, "imdb-import.md", text)
    print(text)
    benchkit.record_goal(results, f"IMDb's layout import of {movies:,} films against Marquee's JSON", "≤ 1.3×, < 512 MB",
                         f"{imdb_s:.1f} s, {imdb_mb:.0f} MB", ratio <= 1.3 and imdb_mb < 512, f"{ratio:.2f}× (JSON)")


if __name__ == "__main__":
    main()
