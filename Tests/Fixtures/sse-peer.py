#!/usr/bin/env python3
"""A peer's client reads Marquee's event feed: sseclient-py (from PyPI, not Marquee's parser) on
requests' streamed body, against `marquee serve` on a SQLite database. It reads the stream's
`ready` event, a `catalog` event for an import made by another process, then disconnects, lets
another import happen, and resumes with the Last-Event-ID header: it must receive that event
and no event twice.

Usage: sse-peer.py MARQUEE. Prints "all as expected" and exits 0, or says what differed and exits 1."""
import json, os, socket, subprocess, sys, tempfile, time

import requests
import sseclient

marquee = sys.argv[1]
work = tempfile.mkdtemp(prefix="marquee-sse-peer-")
quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}


def fail(message):
    print(f"sse-peer: {message}")
    sys.exit(1)


def catalog(seed):
    path = os.path.join(work, f"catalog-{seed}.json")
    subprocess.run([marquee, "generate-catalog", "--movies", "40", "--seed", str(seed), "--output", path], check=True, **quiet)
    return path


with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
database = os.path.join(work, "server.sqlite")
subprocess.run([marquee, "catalog", "import", catalog(1), "--database", database], check=True, **quiet)
server = subprocess.Popen([marquee, "serve", "--port", str(port), "--database", database, "--log-level", "warning"], **quiet)
base = f"http://127.0.0.1:{port}"
try:
    for _ in range(200):
        try:
            if requests.get(f"{base}/health/ready", timeout=2).status_code == 200:
                break
        except requests.ConnectionError:
            time.sleep(0.1)
    token = requests.post(f"{base}/api/auth/token", data={
        "grant_type": "client_credentials", "client_id": "marquee-dev", "client_secret": "marquee-dev-secret"}, timeout=10).json()["access_token"]
    headers = {"Authorization": f"Bearer {token}", "Accept": "text/event-stream"}

    def read(extra, count):
        """The first `count` events of a new stream."""
        response = requests.get(f"{base}/api/events", headers={**headers, **extra}, stream=True, timeout=30)
        if response.status_code != 200:
            fail(f"the stream answered {response.status_code}")
        events = []
        for event in sseclient.SSEClient(response).events():
            events.append(event)
            if len(events) == count:
                break
            if events[-1].event == "ready" and count > 1 and len(events) == 1:
                subprocess.run([marquee, "catalog", "import", catalog(2), "--replace", "--database", database], check=True, **quiet)
        response.close()
        return events

    first = read({}, 2)
    if [e.event for e in first] != ["ready", "catalog"]:
        fail(f"expected ready then catalog, got {[e.event for e in first]}")
    cursor = first[-1].id
    subprocess.run([marquee, "catalog", "import", catalog(3), "--replace", "--database", database], check=True, **quiet)
    resumed_response = requests.get(f"{base}/api/events", headers={**headers, "Last-Event-ID": cursor}, stream=True, timeout=30)
    resumed = []
    for event in sseclient.SSEClient(resumed_response).events():
        resumed.append(event)
        if len(resumed) == 2:
            break
    resumed_response.close()
    if [e.event for e in resumed] != ["ready", "catalog"] or resumed[0].id != cursor:
        fail(f"the resumed stream gave {[(e.event, e.id) for e in resumed]} after cursor {cursor}")
    if json.loads(resumed[0].data).get("resumed") is not True:
        fail(f"the resumed stream's ready event: {resumed[0].data}")
    if int(resumed[1].id) <= int(cursor):
        fail(f"an event at or before the cursor came again: {resumed[1].id} <= {cursor}")
    if json.loads(resumed[1].data)["version"] != json.loads(first[1].data)["version"] + 1:
        fail(f"the versions do not follow: {first[1].data} then {resumed[1].data}")
    print("all as expected: ready, catalog, resumed after", cursor, "with", resumed[1].id)
finally:
    server.terminate()
    server.wait()
