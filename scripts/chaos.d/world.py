"""The servers of a campaign: a throwaway PostgreSQL cluster with a small catalogue, and two
`marquee serve` instances on it that share a signing-key file, each killed and started again on
demand; the keys rotated the documented way (OperatingTheServer.md: a key added as `accept`, then
signing, the old one dropped once no token it signed can be alive)."""
import asyncio
import base64
import json
import os
import subprocess
import sys
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bench.d"))
from benchkit import free_port  # noqa: E402
from pgcluster import Cluster  # noqa: E402

TOKEN_TTL = 30  # seconds: short, so that tokens lapse and renew many times in a campaign
MOVIES = 40


class Keys:
    """The shared signing-key file, and where its rotation stands."""

    def __init__(self, path, rng):
        self.path, self.rng = path, rng
        self.lines = [["sign", "k1", self.secret()]]
        self.number = 1
        self.retired_at = {}  # key id -> when it stopped signing
        self.write()

    def secret(self):
        return base64.b64encode(bytes(self.rng.getrandbits(8) for _ in range(32))).decode()

    def write(self):
        with open(self.path + ".new", "w") as file:
            for kind, name, secret in self.lines:
                file.write(("accept " if kind == "accept" else "") + f"{name} {secret}\n")
        os.chmod(self.path + ".new", 0o600)
        os.replace(self.path + ".new", self.path)

    def step(self):
        """The next step of a rotation; its name. A key added as `accept` signs at the next step; the
        keys it replaced are dropped once every token they signed has lapsed (the token lifetime,
        and a margin for the leeway)."""
        accepting = [line for line in self.lines if line[0] == "accept"]
        if accepting:
            for line in self.lines:
                if line[0] == "sign" and line[1] not in self.retired_at:
                    self.retired_at[line[1]] = time.monotonic()
            accepting[0][0] = "sign"
            self.write()
            return f"{accepting[0][1]} signs"
        expired = [name for name, at in self.retired_at.items() if time.monotonic() - at > TOKEN_TTL + 90]
        if expired:
            self.lines = [line for line in self.lines if line[1] not in expired]
            for name in expired:
                del self.retired_at[name]
            self.write()
            return "dropped " + ", ".join(expired)
        self.number += 1
        self.lines.append(["accept", f"k{self.number}", self.secret()])
        self.write()
        return f"k{self.number} accepted"


class ServerExited(RuntimeError):
    """An instance exited before it was ready."""


class World:
    def __init__(self, marquee, work, rng, log):
        self.marquee, self.work, self.rng, self.log = marquee, work, rng, log
        self.cluster = Cluster(work)
        self.database = self.cluster.database("marquee")
        self.keys = Keys(os.path.join(work, "signing-keys"), rng)
        self.ports = [free_port(), free_port()]
        self.processes = [None, None]
        catalog = os.path.join(work, "catalog.json")
        subprocess.run([marquee, "generate-catalog", "--movies", str(MOVIES), "--seed", "11", "--output", catalog], check=True, stdout=subprocess.DEVNULL)
        subprocess.run([marquee, "catalog", "import", catalog, "--database", self.database], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.movie_ids = sorted(movie["id"] for movie in json.load(open(catalog)))

    def psql(self, sql):
        out = subprocess.run(self.cluster.psql("marquee", "-At", "-c", sql), check=True, capture_output=True, text=True)
        return out.stdout

    async def start(self, index, attempts=20):
        """Starts instance `index` and waits until it is ready. An instance that exits while it
        starts (PostgreSQL restarting under another fault: `the database system is starting up`)
        is started again a second later, as an operator's supervisor does, up to `attempts` times."""
        for attempt in range(attempts):
            log = open(os.path.join(self.work, f"server-{index}.log"), "a")
            self.processes[index] = await asyncio.create_subprocess_exec(
                self.marquee, "serve", "--port", str(self.ports[index]), "--database", self.database, "--signing-keys", self.keys.path,
                "--token-ttl", str(TOKEN_TTL), "--password-cost", "4", "--event-retention", "86400", "--drain-delay", "0",
                "--log-level", "warning", stdout=log, stderr=log)
            try:
                await self.ready(index)
                return
            except ServerExited:
                if attempt == attempts - 1:
                    raise
                log.write(f"chaos: instance {index} exited while starting; started again (attempt {attempt + 2})\n")
                log.flush()
                await asyncio.sleep(1)

    async def ready(self, index, seconds=120):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.processes[index].returncode is not None:
                raise ServerExited(f"server {index} exited with {self.processes[index].returncode}: see server-{index}.log")
            try:
                status = await asyncio.to_thread(lambda: urllib.request.urlopen(f"http://127.0.0.1:{self.ports[index]}/health/ready", timeout=2).status)
                if status == 200:
                    return
            except OSError:
                pass
            await asyncio.sleep(0.1)
        raise RuntimeError(f"server {index} was not ready in {seconds} s: see server-{index}.log")

    async def kill(self, index):
        process = self.processes[index]
        if process and process.returncode is None:
            process.kill()
            await process.wait()

    async def restart(self, index):
        await self.kill(index)
        await self.start(index)

    async def restart_database(self, immediate):
        await asyncio.to_thread(self.cluster.restart, immediate)

    async def stop(self):
        for index in range(len(self.processes)):
            await self.kill(index)
        self.cluster.stop()
