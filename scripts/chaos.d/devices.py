"""A device of the campaign: a config folder and a store of its own, reaching the servers through
its own port of the campaign's network, on a clock that may be off (libfaketime). It runs the real
`marquee` binary, records each run in the history, signs in through the device flow (the page
approved by a browser at the person's own loopback address), and keeps `--follow` windows open."""
import asyncio
import json
import os
import re
import signal
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bench.d"))
from signin import LOGIN_CODE, approve  # noqa: E402

FAKETIME = next((path for path in ("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1", "/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1")
                 if os.path.exists(path)), None)
# Without FAKETIME_SHARED in its environment, libfaketime sets it from its constructor, and a
# Swift program, which finds its arguments beside the environment it started with, then starts
# without them: every run on a clock that was off printed marquee's top-level help and did
# nothing. Any value will do: the library then makes no shared state of its own.
FAKETIME_SHARED = "none none"
PASSWORD = "chaos campaign password"
COMMAND_TIMEOUT = 90


def stop(process):
    """SIGKILL, unless the process ended meanwhile; whether it was killed."""
    try:
        process.kill()
        return True
    except ProcessLookupError:
        return False


class Device:
    def __init__(self, index, person, marquee, work, port, history, world):
        self.index, self.person, self.marquee, self.history, self.world = index, person, marquee, history, world
        self.name = f"d{index}"
        self.folder = os.path.join(work, "devices", self.name)
        os.makedirs(self.folder, exist_ok=True)
        self.api = f"http://127.0.0.1:{port}/api/"
        self.clock_offset = 0  # seconds
        self.frozen_at = None  # a wall-clock time every run stands still at ("YYYY-MM-DD HH:MM:SS", UTC)
        self.signed_in = False
        self.windows = {}
        self.opened = 0
        self.notes = 0

    def environment(self):
        env = {key: value for key, value in os.environ.items() if not key.startswith(("MARQUEE_", "XDG_", "FAKETIME", "LD_PRELOAD"))}
        env.update(XDG_CONFIG_HOME=os.path.join(self.folder, "config"), XDG_CACHE_HOME=os.path.join(self.folder, "cache"),
                   HOME=self.folder, MARQUEE_ENV=self.api)
        spec = self.clock_spec()
        if spec:
            env.update(LD_PRELOAD=FAKETIME, FAKETIME=spec, FAKETIME_SHARED=FAKETIME_SHARED, TZ="UTC",
                       FAKETIME_DONT_FAKE_MONOTONIC="1", FAKETIME_NO_CACHE="1")
        return env

    def clock_spec(self):
        """The faketime clock of this device's runs now, or None for the machine's own: an absolute
        time without '@' keeps the wall clock still at it (so two devices' changes made now carry
        the same millisecond); an offset moves it."""
        if not FAKETIME:
            return None
        if self.frozen_at:
            return self.frozen_at
        return f"{self.clock_offset:+d}" if self.clock_offset else None

    def command(self, *arguments):
        """`marquee ARGUMENTS` (its clock is in ``environment``)."""
        return [self.marquee, *arguments]

    def next_note(self):
        self.notes += 1
        return f"{self.person}-{self.name}-{self.notes}"

    async def run(self, name, arguments, kill_after=None, timeout=COMMAND_TIMEOUT):
        """Runs `marquee ARGUMENTS` to its end (or kills it after `kill_after` seconds, the fault
        of a process killed mid-command); records and returns the operation."""
        began = self.history.now()
        process = await asyncio.create_subprocess_exec(*self.command(*arguments), env=self.environment(), stdin=asyncio.subprocess.DEVNULL,
                                                       stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        killed = False
        try:
            out, err = await asyncio.wait_for(process.communicate(), kill_after if kill_after is not None else timeout)
        except asyncio.TimeoutError:
            killed = stop(process)
            out, err = await process.communicate()
        operation = {"device": self.name, "person": self.person, "op": name, "args": arguments, "began": began, "ended": self.history.now(),
                     "exit": process.returncode, "killed": killed, "clock": self.clock_offset,
                     "stdout": out.decode(errors="replace")[-20000:], "stderr": err.decode(errors="replace")[-2000:]}
        if killed:
            self.history.write("fault", fault="kill-client", device=self.name, op=name, after=kill_after)
        self.history.write("op", **operation)
        if process.returncode != 0 and re.search(r"sign in|signed out|not signed in|login", operation["stderr"], re.I):
            self.signed_in = False
        return operation

    async def login(self, instance_port, source):
        """`marquee login`, approved on the page of the instance at `instance_port` as the person;
        True when it signed in."""
        began = self.history.now()
        process = await asyncio.create_subprocess_exec(*self.command("login", "--device-name", f"chaos {self.name}"), env=self.environment(),
                                                       stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        code, outcome = None, "no code"
        try:
            while code is None:
                line = await asyncio.wait_for(process.stdout.readline(), 30)
                if not line:
                    break
                found = LOGIN_CODE.search(line.decode(errors="replace"))
                code = found.group(1) if found else None
            if code:
                try:
                    await asyncio.to_thread(approve, instance_port, code, self.person, PASSWORD, False, source)
                except Exception as error:  # noqa: BLE001 -- the account may not exist yet: sign up
                    try:
                        await asyncio.to_thread(approve, instance_port, code, self.person, PASSWORD, True, source)
                    except Exception as again:  # noqa: BLE001
                        outcome = f"approval failed: {error}; {again}"
                await asyncio.wait_for(process.wait(), 60)
        except asyncio.TimeoutError:
            outcome = "timed out"
        try:  # a login that failed before its code closes its output as it ends: let it end
            await asyncio.wait_for(process.wait(), 5)
        except asyncio.TimeoutError:
            stop(process)
            await process.wait()
        err = (await process.stderr.read()).decode(errors="replace")
        self.signed_in = process.returncode == 0
        self.history.write("op", device=self.name, person=self.person, op="login", args=["login"], began=began, ended=self.history.now(),
                           exit=process.returncode, killed=False, clock=self.clock_offset, stdout="", stderr=(outcome if not self.signed_in else "") + err[-1000:])
        return self.signed_in

    async def open_window(self):
        self.opened += 1
        window = f"{self.name}-w{self.opened}"
        process = await asyncio.create_subprocess_exec(*self.command("watchlist", "--follow", "--json", "--timeout", "10"), env=self.environment(),
                                                       stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        self.history.write("op", device=self.name, person=self.person, op="window-open", window=window, began=self.history.now(),
                           ended=self.history.now(), exit=0, killed=False, clock=self.clock_offset, stdout="", stderr="")
        reader = asyncio.create_task(self._read_window(window, process))
        self.windows[window] = (process, reader)
        return window

    async def _read_window(self, window, process):
        while True:
            line = await process.stdout.readline()
            if not line:
                break
            text = line.decode(errors="replace").strip()
            try:
                parsed = json.loads(text)
            except ValueError:
                parsed = {"unparsed": text}
            self.history.write("window-line", window=window, device=self.name, person=self.person, line=parsed)
        await process.wait()
        err = (await process.stderr.read()).decode(errors="replace")
        self.history.write("window-closed", window=window, device=self.name, person=self.person, exit=process.returncode, stderr=err[-2000:])

    async def close_window(self, window, kill=False):
        process, reader = self.windows.pop(window)
        if not reader.done():
            if kill:
                stop(process)
                self.history.write("fault", fault="kill-window", device=self.name, window=window)
            else:
                process.send_signal(signal.SIGINT)
        done, _ = await asyncio.wait({reader}, timeout=20)
        if not done:
            stop(process)
            await reader
        self.history.write("op", device=self.name, person=self.person, op="window-close", window=window, began=self.history.now(),
                           ended=self.history.now(), exit=0, killed=kill, clock=self.clock_offset, stdout="", stderr="")

    def live_windows(self):
        return [window for window, (process, _) in self.windows.items() if process.returncode is None]
