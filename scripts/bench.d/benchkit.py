"""What the benchmarks of scripts/bench.d share: the command line, the machine's CPU model, free
loopback ports, scratch folders, `marquee serve` and nginx started and waited for, generated and
imported catalogues, wrk and hyperfine runs and their figures, the CPU time and memory of
processes, percentiles, the 30 fixed search queries, and the result files (a Markdown or text file
per benchmark, and goals.jsonl, the goals that scripts/bench.d/report.py puts first in
docs/benchmarks.md). The fault campaign (scripts/chaos.d) uses it too."""
import contextlib
import http.client
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import unicodedata
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
REFERENCE_CATALOG = os.path.join(ROOT, "Sources", "MovieServer", "Resources", "catalog.json")
LOOPBACK = "127.0.0.1"
QUIET = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
GOALS_FILE = "goals.jsonl"

# The 30 fixed queries of the search benchmarks (SQLite and PostgreSQL).
SEARCH_QUERIES = ["the", "golden", "harbor", "lost empire", "secret garden", "midnight signal", "ava", "costa", "ava costa",
                  "return of the", "kingdom", "dark river", "silent witness", "wild", "broken machine", "little island",
                  "final storm", "rosa silva", "hiro tanaka", "zoe", "gold", "har", "the lost", "voyage", "circus",
                  "letter", "engine reborn", "orchard", "glass", "nakamura"]


def command_line(usage):
    """MARQUEE, RESULTS_DIR (made if missing) and the arguments after them."""
    if len(sys.argv) < 3:
        raise SystemExit(f"usage: {usage}")
    os.makedirs(sys.argv[2], exist_ok=True)
    return sys.argv[1], sys.argv[2], sys.argv[3:]


def cpu_model(fallback="unknown"):
    """The `model name` line of /proc/cpuinfo, as the results record it."""
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            return next((line.split(":", 1)[1].strip() for line in cpuinfo if line.startswith("model name")), fallback)
    except OSError:
        return fallback


def free_port():
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def scratch_folder(prefix):
    """A temporary folder that other users may read (nginx's workers and PostgreSQL run as others
    under root), removed at the end."""
    folder = tempfile.mkdtemp(prefix=prefix)
    os.chmod(folder, 0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def isolated_environment(folder, **extra):
    """The environment with marquee's config and cache folders inside `folder`."""
    return dict(os.environ, XDG_CACHE_HOME=os.path.join(folder, "cache"), XDG_CONFIG_HOME=os.path.join(folder, "config"), **extra)


def alternating(sides, round_number):
    """The sides in their order on even rounds and reversed on odd ones, so that noise hits all alike."""
    return list(sides) if round_number % 2 == 0 else list(reversed(list(sides)))


def timed_run(command, **options):
    """Runs a process to its end: the seconds it took, start to exit, and its result."""
    begun = time.perf_counter()
    done = subprocess.run(command, **options)
    return time.perf_counter() - begun, done


def wait_for(url, seconds=30, process=None):
    """Asks `url` until it answers 2xx; its body. Gives up early when `process` (the server) has exited."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise SystemExit(f"bench: the server of {url} exited with {process.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                return answer.read()
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"bench: {url} never answered")


def url(port, path=""):
    return f"http://{LOOPBACK}:{port}{path}"


class LoopbackProcess:
    """A server this process started, on a loopback port."""

    @property
    def pid(self):
        return self.process.pid

    def url(self, path=""):
        return url(self.port, path)

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
        self.process.wait()

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.stop()


class Server(LoopbackProcess):
    """`marquee serve ARGUMENTS` on a free loopback port, waited for until /health/ready answers
    (or `wait_path`: /health/live for a server that listens before it is ready)."""

    def __init__(self, marquee, *arguments, ready_seconds=60, log=None, env=None, wait_path="/health/ready"):
        self.port = free_port()
        self.log = log
        stderr = open(log, "w") if log else subprocess.DEVNULL
        self.process = subprocess.Popen([marquee, "serve", "--port", str(self.port), *arguments],
                                        stdout=subprocess.DEVNULL, stderr=stderr, env=env)
        try:
            wait_for(self.url(wait_path), ready_seconds, self.process)
        except BaseException:
            self.stop()
            raise

    @property
    def api(self):
        return self.url("/api/")

    def wait_for_log(self, text, seconds, who="bench"):
        """Waits until the server's log holds `text` (the server was started with log=PATH)."""
        began = time.monotonic()
        while True:
            with open(self.log) as log:
                if text in log.read():
                    return
            if time.monotonic() - began > seconds:
                raise SystemExit(f"{who}: the server's log did not say '{text}' in {seconds} s")
            time.sleep(0.2)


def indexed_search_server(marquee, database, log, ready_seconds, who):
    """`marquee serve --public --database DATABASE` once its search index of the database is made
    (until then the database answers searches: the first seconds after a start, measured apart by
    cold start)."""
    server = Server(marquee, "--public", "--database", database, "--log-level", "info", ready_seconds=ready_seconds, log=log)
    try:
        server.wait_for_log("search index ready", 900, who)
    except BaseException:
        server.stop()
        raise
    return server


STATIC_SITE = """worker_processes 2; daemon off; pid nginx.pid; error_log stderr warn;
events {{ worker_connections 1024; }}
http {{ access_log off; default_type application/json;
  client_body_temp_path tmp/body; proxy_temp_path tmp/proxy; fastcgi_temp_path tmp/fastcgi; uwsgi_temp_path tmp/uwsgi; scgi_temp_path tmp/scgi;
  server {{ listen 127.0.0.1:{port}; root {root};{not_found} location / {{ try_files $uri =404; }} }} }}
"""


class Nginx(LoopbackProcess):
    """nginx (in the foreground, a child of this process) on a free loopback port, in a folder of its own."""

    def __init__(self, folder, port, configuration, ready_path):
        self.port = port
        os.makedirs(os.path.join(folder, "tmp"), exist_ok=True)
        os.makedirs(os.path.join(folder, "logs"), exist_ok=True)
        conf = os.path.join(folder, "nginx.conf")
        with open(conf, "w") as handle:
            handle.write(configuration)
        self.process = subprocess.Popen(["nginx", "-p", folder, "-c", conf], **QUIET)
        try:
            wait_for(self.url(ready_path), process=self.process)
        except BaseException:
            self.stop()
            raise

    @classmethod
    def static(cls, folder, root, ready_path, not_found=None):
        """nginx serving the files under `root` (2 workers, no access log); a 404 answers the file
        `not_found` when given."""
        port = free_port()
        page = f" error_page 404 {not_found};" if not_found else ""
        return cls(folder, port, STATIC_SITE.format(port=port, root=root, not_found=page), ready_path)

    @classmethod
    def proxy(cls, folder, upstream_ports, ready_path):
        """deploy/nginx.conf, its upstream the given instances, on 2 workers."""
        port = free_port()
        servers = "".join(f"        server 127.0.0.1:{p} max_fails=1 fail_timeout=5s;\n" for p in upstream_ports)
        with open(os.path.join(ROOT, "deploy", "nginx.conf")) as deployed:
            conf = deployed.read()
        conf = re.sub(r"(upstream marquee \{\n)(?:.*\n)*?(\s*keepalive)", lambda m: m.group(1) + servers + m.group(2), conf)
        conf = conf.replace("listen 127.0.0.1:8080", f"listen 127.0.0.1:{port}").replace("worker_processes auto", "worker_processes 2")
        return cls(folder, port, conf, ready_path)

    def pids(self):
        """The master and its workers."""
        return [self.process.pid] + child_pids(self.process.pid)


def generate_catalog(marquee, path, movies, seed=None, first_id=None):
    """A synthetic catalogue; `first_id` numbers it after another one imported into the same database."""
    seeded = ["--seed", str(seed)] if seed is not None else []
    numbered = ["--first-id", str(first_id)] if first_id is not None else []
    subprocess.run([marquee, "generate-catalog", "--movies", str(movies), *seeded, *numbered, "--output", path], check=True, stdout=subprocess.DEVNULL)
    return path


def import_catalog(marquee, catalog, database):
    """`marquee catalog import`: the seconds it took."""
    elapsed, done = timed_run([marquee, "catalog", "import", catalog, "--database", database], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"bench: the import into {database} failed: {done.stderr.strip()}")
    return elapsed


class WrkRun:
    """What wrk printed, and the figures read from it."""

    def __init__(self, text):
        self.text = text
        self.requests = int(re.search(r"(\d+) requests in", text).group(1))
        self.requests_per_second = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
        errors = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
        self.errors = int(errors.group(1)) if errors else 0

    @property
    def p99_us(self):
        """The 99th percentile latency in µs (wrk run with --latency)."""
        found = re.search(r"99%\s+([\d.]+)(us|ms|s)", self.text)
        return float(found.group(1)) * {"us": 1, "ms": 1000, "s": 1_000_000}[found.group(2)]


def wrk(*arguments):
    return WrkRun(subprocess.run(["wrk", *arguments], capture_output=True, text=True, check=True).stdout)


def wrk_with_cpu(pids, *arguments):
    """A wrk run, and the CPU time (user + system) the processes `pids` spent over it, in µs per
    request answered."""
    before = cpu_ticks(pids)
    run = wrk(*arguments)
    after = cpu_ticks(pids)
    return run, (after - before) * 1e6 / CLOCK_TICKS / run.requests


def rotating_script(path, paths, authorization=None, header=None):
    """A wrk Lua script that asks the paths in turn, from a random one on, with an Authorization
    header when given, and a traceparent when `header` is one."""
    quoted = ",".join(json.dumps(p) for p in paths)
    header = (f'wrk.headers["Authorization"] = {json.dumps(authorization)}\n' if authorization else "") + \
        (f'wrk.headers["traceparent"] = {json.dumps(header)}\n' if header else "")
    with open(path, "w") as script:
        script.write(f"""{header}local paths = {{{quoted}}}
local i = math.random(#paths)
request = function()
  i = i % #paths + 1
  return wrk.format("GET", paths[i])
end
""")
    return path


def hyperfine(export_json, commands, env=None, output=None):
    """hyperfine, 30 runs after 3 warm-ups, of `commands` (name: shell command); its results by name.
    What it prints goes to the file `output`, else nowhere."""
    named = [part for name, command in commands.items() for part in ("-n", name, command)]
    with open(output, "w") if output else open(os.devnull, "w") as printed:
        subprocess.run(["hyperfine", "--warmup", "3", "--runs", "30", "--export-json", export_json, *named],
                       env=env, stdout=printed, check=True)
    with open(export_json) as exported:
        return {result["command"]: result for result in json.load(exported)["results"]}


def cpu_ticks(pids):
    """The CPU time (user + system, in clock ticks) of the processes and all their threads so far."""
    total = 0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total


def child_pids(parent):
    """The processes whose parent is `parent`, read from /proc (no procps needed)."""
    children = []
    for name in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{name}/stat") as stat:
                if stat.read().rsplit(")", 1)[1].split()[1] == str(parent):
                    children.append(int(name))
        except OSError:
            pass
    return children


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        return int(re.search(r"VmRSS:\s+(\d+)", status.read()).group(1))


def percentile(values, q):
    """The value at rank ⌊n·q⌋ of the sorted values (the upper median at q = 0.5)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def percentile_ms(seconds, q):
    """The percentile (as `percentile`) of times in seconds, in milliseconds."""
    return percentile(seconds, q) * 1000


def percentile_nearest(values, q):
    """The value at rank round((n - 1)·q) of the sorted values."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def search_words(text):
    """A text's words as the server's search folds them: lower case, accents gone, letters and digits."""
    folded = unicodedata.normalize("NFKD", text.lower())
    folded = "".join(c for c in folded if not unicodedata.combining(c))
    found, current = [], ""
    for c in folded:
        if unicodedata.category(c)[0] in "LN":
            current += c
        elif current:
            found.append(current)
            current = ""
    if current:
        found.append(current)
    return found


def title_needles(words):
    """What the server's relevance (SearchSQL) looks for in a title's words: each word (the last
    may be a prefix), the words at the title's start, and the words as the whole title."""
    needles = [" " + w + (" " if i < len(words) - 1 else "") for i, w in enumerate(words)]
    return needles, " " + " ".join(words), " " + " ".join(words) + " "


class TimedClient:
    """GETs on one kept-alive connection, each timed and required to answer 200."""

    def __init__(self, port, timeout=60):
        self.connection = http.client.HTTPConnection(LOOPBACK, port, timeout=timeout)

    def get(self, path):
        """The seconds the request took, and its JSON body."""
        begun = time.perf_counter()
        self.connection.request("GET", path)
        response = self.connection.getresponse()
        body = response.read()
        elapsed = time.perf_counter() - begun
        assert response.status == 200, (path, response.status, body[:200])
        return elapsed, json.loads(body)


def listing_pages(client):
    """Page 1 and page 1,000 of the listing by rating, 100 a page: 50 timings of each, in turn, each
    with another limit (never an answer the server kept)."""
    cursor, pages = None, 0
    while pages < 999:
        _, page = client.get("/api/movies?sort=rating&limit=100" + (f"&cursor={cursor}" if cursor else ""))
        cursor, pages = page["next"], pages + 1
    first, thousandth = [], []
    for k in range(50):
        first.append(client.get(f"/api/movies?sort=rating&limit={100 - k}")[0])
        thousandth.append(client.get(f"/api/movies?sort=rating&limit={100 - k}&cursor={cursor}")[0])
    return first, thousandth


def search_figures(results, backend, prefix, served, by_hand, slowest, first, thousandth):
    """The result lines of the 30 fixed queries (served and one statement by hand, seconds each),
    their five slowest and the listing's pages, each line's name starting with `prefix`; their
    goals recorded for `backend` (search.py and search_postgres.py)."""
    ms = percentile_ms
    lines = [
        f"{prefix}search-30-queries served-p50-ms {ms(served, .5):.2f} served-p99-ms {ms(served, .99):.2f} one-statement-by-hand-p50-ms {ms(by_hand, .5):.2f} one-statement-by-hand-p99-ms {ms(by_hand, .99):.2f} p99-ratio {ms(served, .99) / ms(by_hand, .99):.2f}",
        f"{prefix}search-slowest-ms " + " ".join(f"{q.replace(' ', '+')}={t * 1000:.1f}" for q, t in sorted(slowest.items(), key=lambda item: -item[1])[:5]),
        f"{prefix}listing-by-rating page-1-p50-ms {ms(first, .5):.2f} page-1000-p50-ms {ms(thousandth, .5):.2f} ratio {ms(thousandth, .5) / ms(first, .5):.2f}",
    ]
    record_goal(results, f"search on {backend}, 1M movies, the 30 fixed queries: p99", "< 20 ms", f"{ms(served, .99):.2f} ms",
                ms(served, .99) < 20, f"{ms(served, .99) / ms(by_hand, .99):.2f}× (one statement by hand)")
    record_goal(results, f"listing by rating on {backend}, 1M movies: page 1,000 against page 1, p50", "≤ 1.5×", f"{ms(thousandth, .5):.2f} ms",
                ms(thousandth, .5) / ms(first, .5) <= 1.5, f"{ms(thousandth, .5) / ms(first, .5):.2f}×")
    return lines


def write_result(results, name, text):
    """Writes a benchmark's result file; its path."""
    path = os.path.join(results, name)
    with open(path, "w") as handle:
        handle.write(text)
    return path


def record_goal(results, what, goal, figure, met, ratio="", command=None):
    """Adds a goal and today's figure to RESULTS_DIR/goals.jsonl, for the report's first table;
    `met` is None for a goal that no number decides ("within noise")."""
    entry = {"what": what, "goal": goal, "figure": figure, "ratio": ratio, "met": None if met is None else bool(met),
             "command": command or f"python3 scripts/bench.d/{os.path.basename(sys.argv[0])} MARQUEE RESULTS"}
    path = os.path.join(results, GOALS_FILE)
    kept = []
    if os.path.exists(path):
        with open(path) as goals:
            kept = [line for line in goals if line.strip() and json.loads(line)["what"] != what]
    with open(path, "w") as goals:
        goals.writelines(kept + [json.dumps(entry, ensure_ascii=False) + "\n"])
