#!/usr/bin/env python3
"""The server on one top list against nginx serving the same body as a static file: wrk
(-t2 -c64 -d10s --latency) on /api/movies/topGrossing/2016 of `marquee serve --public` and of nginx
(2 workers, no access log), on loopback, three rounds, nginx then Marquee in each; with each server's
CPU time (user + system, nginx's master and workers) per request answered, which is less noisy than
requests/s on a shared machine.

Usage: server.py MARQUEE RESULTS_DIR. Writes wrk-nginx-N.txt, wrk-marquee-N.txt (wrk's output) and
cpu-nginx-N.txt, cpu-marquee-N.txt (`cpu-us-per-request X`) for rounds 1 to 3; report.py reads them."""
import os
import shutil

import benchkit

PATH = "/api/movies/topGrossing/2016"


def measure_round(results, name, round_number, url, pids):
    run, cpu = benchkit.wrk_with_cpu(pids, "-t2", "-c64", "-d10s", "--latency", url)
    benchkit.write_result(results, f"wrk-{name}-{round_number}.txt", run.text)
    benchkit.write_result(results, f"cpu-{name}-{round_number}.txt", f"cpu-us-per-request {round(cpu, 2)}\n")


def main():
    marquee, results, _ = benchkit.command_line("server.py MARQUEE RESULTS_DIR")
    with benchkit.scratch_folder("marquee-server-bench-") as work:
        www = os.path.join(work, "www")
        os.makedirs(os.path.dirname(www + PATH))
        shutil.copy(os.path.join(benchkit.ROOT, "Sources", "ReferenceAPI", "Resources", "api", "movies", "topGrossing", "2016.json"), www + PATH)
        nginx = benchkit.Nginx.static(os.path.join(work, "nginx"), www, PATH)
        try:
            with benchkit.Server(marquee, "--public", "--log-level", "warning", log=os.path.join(work, "marquee.log")) as server:
                if benchkit.wait_for(server.url(PATH)) != benchkit.wait_for(nginx.url(PATH)):
                    raise SystemExit("server: marquee and nginx do not answer the same bytes")
                for round_number in (1, 2, 3):
                    measure_round(results, "nginx", round_number, nginx.url(PATH), nginx.pids())
                    measure_round(results, "marquee", round_number, server.url(PATH), [server.pid])
        finally:
            nginx.stop()


if __name__ == "__main__":
    main()
