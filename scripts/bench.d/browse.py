#!/usr/bin/env python3
"""marquee browse in a real pseudo-terminal, against `marquee top-grossing --offline` in the same run.

Usage: browse.py MARQUEE RESULTS_DIR [ROUNDS]

- Start to the stored list on screen: from spawning `marquee browse --offline` (and the default
  cacheThenNetwork policy on the embedded API) in a 120x40 pty until the frame that holds the
  stored list and its status line has been read; against `marquee top-grossing --offline` from
  spawn to exit. The three are interleaved round by round so that noise hits them alike.
- One redraw: a Down key written to the pty until the whole next frame has been read back, 300
  times in one session. This is the cost a user sees: key decoding, layout, rendering to lines,
  one write, and the pty in between.
- A search keystroke offline: a store holding 100,000 movies of one API (`marquee movies --all`
  against `marquee serve` on a generated catalogue), `browse --offline`, `/`; then for each letter
  in turn, the field emptied and the letter typed, timed until the first result the store gives
  for it (asked beforehand with `marquee search LETTER --offline --json`) is on screen.

Writes RESULTS_DIR/browse.md (a Markdown section) and prints it.
"""
import fcntl
import json
import os
import pty
import select
import statistics
import struct
import subprocess
import termios
import time

import benchkit


def spawn_in_pty(argv, env, columns=120, rows=40):
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(argv[0], argv, env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    return pid, fd


def read_until(fd, needle, deadline):
    data = b""
    while needle not in data:
        remaining = deadline - time.perf_counter()
        if remaining <= 0:
            raise TimeoutError(f"never saw {needle!r}; last output: {data[-300:]!r}")
        ready, _, _ = select.select([fd], [], [], remaining)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                raise TimeoutError(f"the terminal closed before {needle!r}")
            if not chunk:
                raise TimeoutError(f"the terminal closed before {needle!r}")
            data += chunk
    return data


def finish(pid, fd):
    os.write(fd, b"q")
    deadline = time.perf_counter() + 10
    while time.perf_counter() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            try:
                os.read(fd, 65536)
            except OSError:
                pass
    else:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
    os.close(fd)


def time_to_stored_list(marquee, extra, env):
    started = time.perf_counter()
    pid, fd = spawn_in_pty([marquee, "browse"] + extra, env)
    read_until(fd, "from the local store".encode(), started + 20)
    elapsed = time.perf_counter() - started
    finish(pid, fd)
    return elapsed


def time_offline_command(marquee, env):
    return benchkit.timed_run([marquee, "top-grossing", "--offline"], env=env, stdout=subprocess.DEVNULL, check=True)[0]


def redraw_times(marquee, env, count):
    pid, fd = spawn_in_pty([marquee, "browse", "--offline"], env)
    read_until(fd, "from the local store".encode(), time.perf_counter() + 20)
    times = []
    key_line = "q quit".encode()
    for index in range(count):
        key = b"\x1b[B" if (index // 9) % 2 == 0 else b"\x1b[A"
        started = time.perf_counter()
        os.write(fd, key)
        read_until(fd, key_line, started + 5)
        times.append(time.perf_counter() - started)
    finish(pid, fd)
    return times


def filled_store(marquee, env, work, movies=100_000):
    """A store holding `movies` generated movies of one API; returns the API and the store."""
    catalog = benchkit.generate_catalog(marquee, os.path.join(work, "catalog.json"), movies, seed=7)
    store = os.path.join(work, "search-store.sqlite")
    with benchkit.Server(marquee, "--public", "--catalog", catalog, "--log-level", "warning", env=env) as server:
        subprocess.run([marquee, "movies", "--all", "--limit", "100", "--env", server.api, "--store", store], env=env, stdout=subprocess.DEVNULL, check=True)
        return server.api, store


def search_keystrokes(marquee, env, api, store, rounds):
    """Per letter: the field emptied, then the letter typed, until its first stored result is drawn."""
    first_titles = {}
    for letter in "abcdefghijklmnopqrstuvwxyz":
        answer = subprocess.run([marquee, "search", letter, "--offline", "--limit", "1", "--json", "--env", api, "--store", store],
                                env=env, capture_output=True, text=True)
        movies = json.loads(answer.stdout).get("movies", []) if answer.returncode == 0 else []
        if movies:
            first_titles[letter] = movies[0]["name"]
    pid, fd = spawn_in_pty([marquee, "browse", "--offline", "--env", api, "--store", store], env)
    read_until(fd, "stored movies of".encode(), time.perf_counter() + 20)  # the year's list, derived from the store
    os.write(fd, b"/")
    read_until(fd, "type words of a title".encode(), time.perf_counter() + 5)
    times = []
    letters = list(first_titles) * rounds
    for index, letter in enumerate(letters):
        if index:
            os.write(fd, b"\x7f")
            read_until(fd, "type words of a title".encode(), time.perf_counter() + 5)
        started = time.perf_counter()
        os.write(fd, letter.encode())
        read_until(fd, first_titles[letter].encode(), started + 5)
        times.append(time.perf_counter() - started)
    finish(pid, fd)
    return times, len(first_titles)


def describe(values):
    """The median and the p99."""
    return statistics.median(values), benchkit.percentile(values, 0.99)


def measure(marquee, home, rounds):
    """Every figure of the table, each a list of seconds; and how many letters the search used."""
    env = dict(benchkit.isolated_environment(home), TERM="xterm-256color")
    env.pop("NO_COLOR", None)
    subprocess.run([marquee, "top-grossing"], env=env, stdout=subprocess.DEVNULL, check=True)
    offline_command, browse_offline, browse_default = [], [], []
    for _ in range(3):
        time_offline_command(marquee, env)
        time_to_stored_list(marquee, ["--offline"], env)
    for _ in range(rounds):
        offline_command.append(time_offline_command(marquee, env))
        browse_offline.append(time_to_stored_list(marquee, ["--offline"], env))
        browse_default.append(time_to_stored_list(marquee, [], env))
    redraws = redraw_times(marquee, env, 300)
    api, store = filled_store(marquee, env, home)
    keystrokes, letters = search_keystrokes(marquee, env, api, store, rounds=4)
    return offline_command, browse_offline, browse_default, redraws, keystrokes, letters


def main():
    marquee, results, rest = benchkit.command_line("browse.py MARQUEE RESULTS_DIR [ROUNDS]")
    rounds = int(rest[0]) if rest else 20
    with benchkit.scratch_folder("marquee-bench-browse-") as home:
        offline_command, browse_offline, browse_default, redraws, keystrokes, letters = measure(marquee, home, rounds)

    baseline = statistics.median(offline_command)
    lines = [
        "## Browse",
        "",
        f"CPU: {benchkit.cpu_model('unknown CPU')}, {os.cpu_count()} cores. {rounds} interleaved rounds after 3 warm-ups; a 120×40 pseudo-terminal.",
        "",
        "| measure | median | p99 | ratio to `top-grossing --offline` | goal |",
        "|---|---|---|---|---|",
    ]
    for label, values, goal in [
        ("`marquee top-grossing --offline`, start to exit (baseline)", offline_command, ""),
        ("`marquee browse --offline`, start to the stored list on screen", browse_offline, "under 100 ms and 1.5×"),
        ("`marquee browse` (cacheThenNetwork, embedded API), start to the stored list", browse_default, "under 100 ms and 1.5×"),
    ]:
        median, p99 = describe(values)
        lines.append(f"| {label} | {median * 1000:.1f} ms | {p99 * 1000:.1f} ms | {median / baseline:.2f}× | {goal} |")
        if goal:
            benchkit.record_goal(results, f"{label}, median", goal, f"{median * 1000:.1f} ms", median < 0.1 and median / baseline <= 1.5,
                                 f"{median / baseline:.2f}× (`top-grossing --offline`)")
    median, p99 = describe(redraws)
    lines.append(f"| one redraw of a full screen (Down key to the whole next frame read back), 300 keys | {median * 1000:.2f} ms | {p99 * 1000:.2f} ms | | under 2 ms |")
    benchkit.record_goal(results, "`marquee browse`: one redraw of a full screen, median", "under 2 ms", f"{median * 1000:.2f} ms (p99 {p99 * 1000:.2f})", median < 0.002)
    median, p99 = describe(keystrokes)
    lines.append(f"| `/` search offline over 100,000 stored movies: a letter typed to its first result drawn, {len(keystrokes)} keys ({letters} letters) | {median * 1000:.2f} ms | {p99 * 1000:.2f} ms | | under 50 ms |")
    benchkit.record_goal(results, "`marquee browse`: `/` search offline over 100,000 stored movies, a letter to its first result, median", "under 50 ms",
                         f"{median * 1000:.2f} ms (p99 {p99 * 1000:.2f})", median < 0.05)
    text = "\n".join(lines) + "\n"
    benchkit.write_result(results, "browse.md", text)
    print(text)


if __name__ == "__main__":
    main()
