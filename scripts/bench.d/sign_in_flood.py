#!/usr/bin/env python3
"""Guessing is harmless to everyone else: movie-by-id requests/s (wrk, 16 connections, an app's
token) while 64 connections send wrong passwords to the sign-in page, against the same without the
flood, in interleaved rounds. The server runs with the default bcrypt cost (12) and a sign-in limit
high enough that every guess is checked with bcrypt (a flood from many addresses); with the default
limit, one address is answered 429 after ten guesses and costs next to nothing.

Usage: sign_in_flood.py MARQUEE RESULTS_DIR. Writes sign-in-flood.md with the CPU model."""
import http.client
import os
import re
import statistics
import subprocess
import time
import urllib.parse

import benchkit
import signin


def wrong_password_script(path, page):
    """A wrk Lua script posting a wrong password for "victim" with the page's cookie and CSRF token."""
    body = urllib.parse.urlencode({"csrf": page.csrf, "name": "victim", "password": "a wrong guess"})
    with open(path, "w") as f:
        f.write('wrk.method = "POST"\n')
        f.write(f'wrk.body = "{body}"\n')
        f.write('wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"\n')
        f.write(f'wrk.headers["Cookie"] = "{page.cookie}"\n')
    return path


def sign_in_answers(port):
    """The sign-in page's answers by status over the whole run, from /metrics."""
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    c.request("GET", "/metrics")
    metrics = c.getresponse().read().decode()
    return {m.group(1): int(float(m.group(2)))
            for m in re.finditer(r'marquee_http_requests_total\{[^}]*route="/device/sign-in"[^}]*status="(\d+)"[^}]*\} ([\d.e+]+)', metrics)}


def main():
    marquee, results, _ = benchkit.command_line("sign_in_flood.py MARQUEE RESULTS_DIR")
    cpu = benchkit.cpu_model()
    with benchkit.scratch_folder("marquee-flood-bench-") as work, \
            benchkit.Server(marquee, "--log-level", "warning", "--sign-in-limit", "1000000") as server:
        token = signin.app_token(server.port)
        signin.device_tokens(server.port, "victim")
        page = signin.Page(server.port)
        page.request("GET", "/device")
        flood_lua = wrong_password_script(os.path.join(work, "flood.lua"), page)
        status, _ = page.request("POST", "/device/sign-in", {"name": "victim", "password": "a wrong guess"})
        assert status == 401, status

        movie_args = ["-t1", "-c16", "-d8s", "-H", f"Authorization: Bearer {token}", server.url("/api/movies/6")]
        quiet, flooded, guesses = [], [], []
        for round_number in range(6):
            for side in benchkit.alternating(["quiet", "flood"], round_number):
                if side == "quiet":
                    quiet.append(benchkit.wrk(*movie_args).requests_per_second)
                else:
                    flood = subprocess.Popen(["wrk", "-t1", "-c64", "-d10s", "-s", flood_lua, server.url("/device/sign-in")],
                                             stdout=subprocess.PIPE, text=True)
                    time.sleep(1)
                    flooded.append(benchkit.wrk(*movie_args).requests_per_second)
                    guesses.append(benchkit.WrkRun(flood.communicate()[0]).requests_per_second)
        ratio = statistics.median(flooded) / statistics.median(quiet)
        answers = sign_in_answers(server.port)

    text = (f"Measured on {cpu}, release build, `marquee serve` with bcrypt cost 12 and every guess checked "
            f"(`--sign-in-limit 1000000`); 6 interleaved rounds of wrk -c16 on /api/movies/6 for 8 s, alone and while "
            f"wrk -c64 posts wrong passwords to /device/sign-in.\n\n"
            "| | movie requests/s (median) | rounds |\n|---|---:|---|\n"
            f"| no flood | {statistics.median(quiet):,.0f} | {', '.join(f'{r:,.0f}' for r in quiet)} |\n"
            f"| 64 connections of wrong passwords | {statistics.median(flooded):,.0f} | {', '.join(f'{r:,.0f}' for r in flooded)} |\n\n"
            f"Ratio under the flood: **{ratio:.2f}×** (goal ≥ 0.7×). Guesses answered: {statistics.median(guesses):,.1f}/s; "
            f"by status over the whole run: {', '.join(f'{k}: {v:,}' for k, v in sorted(answers.items()))} "
            f"(401: checked with bcrypt at cost 12 on the hasher's own thread; 503: the hasher's queue was full, "
            f"answered after a second's tarpit).\n")
    benchkit.write_result(results, "sign-in-flood.md", text)
    print(f"sign-in flood: {ratio:.2f}x ({statistics.median(flooded):,.0f} vs {statistics.median(quiet):,.0f} movie requests/s; {statistics.median(guesses):.1f} guesses/s; {answers}) on {cpu}")
    benchkit.record_goal(results, "movie by id, requests/s while 64 connections send wrong passwords, against none", "≥ 0.7×",
                         f"{statistics.median(flooded):,.0f} req/s", ratio >= 0.7, f"{ratio:.2f}×")


if __name__ == "__main__":
    main()
