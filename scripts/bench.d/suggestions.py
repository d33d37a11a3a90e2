#!/usr/bin/env python3
"""Did you mean at 1M movies: `GET /api/movies/suggestions` for queries that find nothing (a typo
in a title word or a name, two typos, a year written into the query), against the search of the
same query (the request a client makes first, and the baseline), interleaved, on a catalogue whose
vocabulary is large (title words drawn Zipf-like from 150,000, actors named from 20,000 first and
60,000 last names): the synthetic catalogue of generate-catalog has about a hundred words, which
would flatter the scan.

The server answers both from its in-memory index on every backend; the in-memory server is
measured, and SQLite too (its catalogue version read beside the index) unless
SUGGESTION_BENCH_BACKENDS=memory. SUGGESTION_BENCH_MOVIES sets another size (to try the script).

Usage: suggestions.py MARQUEE RESULTS_DIR. The CPU model is written with the results (suggestions.txt)."""
import json
import os
import random
import statistics
import urllib.parse

import benchkit

MOVIES = int(os.environ.get("SUGGESTION_BENCH_MOVIES", "1000000"))
SYLLABLES = ["ka", "lo", "mi", "ra", "te", "su", "no", "vi", "da", "re", "po", "la", "shi", "an", "or", "el", "un", "is",
             "ma", "to", "ne", "ri", "ba", "go", "de", "li", "ku", "ze", "fa", "ho", "ja", "we", "qu", "ye", "xo", "ci"]


def vocabulary(random_source, count, syllables=(2, 4)):
    words = set()
    while len(words) < count:
        words.add("".join(random_source.choice(SYLLABLES) for _ in range(random_source.randint(*syllables))))
    return sorted(words)


def make_catalogue(path, random_source):
    """1M movies: titles of 1 to 4 words of 150,000, casts of 2 to 4 of 250,000 names; the movies (id, title, year, cast)."""
    titles = vocabulary(random_source, 150_000)
    random_source.shuffle(titles)
    weights = [1 / (rank + 1) for rank in range(len(titles))]
    firsts, lasts = vocabulary(random_source, 20_000, (2, 3)), vocabulary(random_source, 60_000, (2, 4))
    actors = [f"{random_source.choice(firsts).title()} {random_source.choice(lasts).title()}" for _ in range(250_000)]
    drawn = random_source.choices(titles, cum_weights=list(accumulate(weights)), k=MOVIES * 3)
    movies = []
    with open(path, "w") as out:
        out.write("[")
        for movie in range(MOVIES):
            words = drawn[movie * 3:movie * 3 + random_source.randint(1, 3)]
            title = " ".join(w.title() for w in words)
            year = random_source.randint(1950, 2024)
            cast = random_source.sample(actors, random_source.randint(2, 4))
            if movie:
                out.write(",")
            json.dump({"name": title, "id": movie + 1, "year": year, "releaseDate": f"{year}-01-01", "grossing": random_source.randint(10_000, 900_000_000),
                       "rating": random_source.randint(10, 99), "cast": [{"name": n} for n in cast]}, out, separators=(",", ":"))
            if movie % max(1, MOVIES // 2000) == 0:
                movies.append((title, year, cast))
        out.write("]")
    return movies


def accumulate(values):
    total = 0.0
    for value in values:
        total += value
        yield total


def typo(random_source, word):
    """One edit: a letter dropped, doubled, replaced, or two swapped."""
    at = random_source.randrange(len(word))
    kind = random_source.randrange(4)
    if kind == 0 and len(word) > 4:
        return word[:at] + word[at + 1:]
    if kind == 1:
        return word[:at] + word[at] + word[at:]
    if kind == 2:
        return word[:at] + random_source.choice("aeiouklmnrst") + word[at + 1:]
    at = min(at, len(word) - 2)
    return word[:at] + word[at + 1] + word[at] + word[at + 2:]


def queries(random_source, movies):
    """Typos of a title word, of a name, two typos, and a year written in: 80 queries."""
    chosen = []
    for title, year, cast in random_source.sample(movies, 80):
        words = benchkit.search_words(title)
        kind = len(chosen) % 4
        if kind == 0:
            at = random_source.randrange(len(words))
            words[at] = typo(random_source, words[at])
        elif kind == 1:
            words = benchkit.search_words(cast[0])
            words[-1] = typo(random_source, words[-1])
        elif kind == 2:
            words = [typo(random_source, w) for w in words[:2]] + benchkit.search_words(cast[0])[-1:]
        else:
            words = words + [str(year)]
        chosen.append(" ".join(words))
    return chosen


def measure(client, asked, rounds=10):
    """Interleaved rounds: each query's search (a new limit each round, so the response cache never
    answers) and its suggestion, in turn, the order swapped every round."""
    searched, suggested, found = [], [], {}
    for round_number in range(rounds):
        for query in asked:
            quoted = urllib.parse.quote(query)
            for side in benchkit.alternating(["search", "suggestion"], round_number):
                if side == "search":
                    searched.append(client.get(f"/api/movies?limit={20 + round_number}&query={quoted}")[0])
                else:
                    took, body = client.get(f"/api/movies/suggestions?query={quoted}")
                    suggested.append(took)
                    found[query] = body["suggestion"]
    return searched, suggested, found


def main():
    marquee, results, _ = benchkit.command_line("suggestions.py MARQUEE RESULTS_DIR")
    cpu = benchkit.cpu_model()
    backends = os.environ.get("SUGGESTION_BENCH_BACKENDS", "memory,sqlite").split(",")
    random_source = random.Random(57)
    lines = [f"cpu {cpu}"]
    with benchkit.scratch_folder("marquee-suggestion-bench-") as work:
        catalogue = os.path.join(work, "catalog.json")
        sample = make_catalogue(catalogue, random_source)
        asked = queries(random_source, sample)
        for backend in backends:
            if backend == "memory":
                server = benchkit.Server(marquee, "--public", "--catalog", catalogue, ready_seconds=900)
            else:
                database = os.path.join(work, "movies.sqlite")
                benchkit.import_catalog(marquee, catalogue, database)
                server = benchkit.indexed_search_server(marquee, database, os.path.join(work, "server.log"), 900, "suggestions")
            with server:
                client = benchkit.TimedClient(server.port)
                found_nothing = [q for q in asked if not client.get(f"/api/movies?limit=1&query={urllib.parse.quote(q)}")[1]["movies"]]
                measure(client, found_nothing, rounds=1)
                searched, suggested, found = measure(client, found_nothing)
            suggestions = sum(1 for s in found.values() if s)
            p50, p99 = benchkit.percentile_ms(suggested, 0.5), benchkit.percentile_ms(suggested, 0.99)
            s50, s99 = benchkit.percentile_ms(searched, 0.5), benchkit.percentile_ms(searched, 0.99)
            lines += [
                f"{backend} queries {len(found_nothing)} (of {len(asked)}; the rest found movies) with-suggestion {suggestions}",
                f"{backend} suggestion-ms p50 {p50:.2f} p99 {p99:.2f} max {max(suggested) * 1000:.2f}",
                f"{backend} search-ms p50 {s50:.2f} p99 {s99:.2f}",
                f"{backend} ratio p50 {p50 / s50:.2f} p99 {p99 / s99:.2f}",
                f"{backend} examples " + "; ".join(f"{q!r} -> {found[q]['query'] if found[q] else None}" + (f" year {found[q]['year']}" if found[q] and found[q]['year'] else "")
                                                  for q in found_nothing[:6]),
            ]
            benchkit.record_goal(results, f"did you mean at {MOVIES:,} movies ({backend}), p99 of the suggestion", "< 20 ms",
                                 f"p50 {p50:.1f} ms, p99 {p99:.1f} ms", p99 < 20, f"{p50 / s50:.2f}× the search's p50")
    benchkit.write_result(results, "suggestions.txt", "\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
