"""The campaign: people's devices changing their watchlists through the real binary while faults
overlap, then every device run once more, the final states read, and the history handed to the
checker (check.py)."""
import asyncio
import json
import os
import random
import time

from devices import FAKETIME, Device
from network import Network
from world import World

MOVIES_IN_PLAY = 8  # few movies, so that devices change the same ones


# The person's list every device of the campaign changes, made once at the start.
SHELF_LIST = "chaos"
SHELF_OPERATIONS = {"rate", "unrate", "log", "list-add", "list-move", "list-remove"}

class Campaign:
    def __init__(self, marquee, work, history, seed, seconds, devices, people):
        self.marquee, self.work, self.history, self.seconds = marquee, work, history, seconds
        self.rng = random.Random(seed)
        self.device_count, self.people = devices, [f"p{n}" for n in range(people)]
        self.stopping = False
        self.fault_tasks = set()
        self.restarting = [asyncio.Lock(), asyncio.Lock()]

    async def run(self):
        self.world = World(self.marquee, self.work, random.Random(self.rng.random()), self.history)
        self.movies = self.world.movie_ids[:MOVIES_IN_PLAY]
        for index in range(2):
            await self.world.start(index)
        self.network = Network(self.world.ports, random.Random(self.rng.random()))
        self.devices = []
        for index in range(self.device_count):
            port = await self.network.add_device(f"d{index}")
            self.devices.append(Device(index, self.people[index % len(self.people)], self.marquee, self.work, port, self.history, self.world))
        self.history.write("world", people=self.people, devices={d.name: d.person for d in self.devices}, movies=self.movies,
                           instances=self.world.ports, faketime=bool(FAKETIME))
        try:
            for device in self.devices:
                await self.sign_in(device)
            await self.make_lists()
            for device in self.devices[: max(1, self.device_count // 3)]:
                await device.open_window()
            workers = [asyncio.create_task(self.work_on(device)) for device in self.devices]
            faults = asyncio.create_task(self.inject_faults())
            try:
                await asyncio.sleep(self.seconds)
                self.stopping = True
                await asyncio.gather(*workers)
            finally:
                self.stopping = True
                faults.cancel()
                for worker in workers:
                    worker.cancel()
                await asyncio.gather(faults, *workers, return_exceptions=True)
                await asyncio.gather(*list(self.fault_tasks), return_exceptions=True)
            await self.heal()
            await self.finish()
        finally:
            for device in self.devices:
                for window in list(device.windows):
                    await device.close_window(window)
            await self.network.close()
            await self.world.stop()

    async def make_lists(self):
        """Each person's list of the campaign, made once, by their first device, before the work."""
        for person in self.people:
            device = next((d for d in self.devices if d.person == person and d.signed_in), None)
            for _ in range(5 if device else 0):
                if (await device.run("list-create", ["list", "create", SHELF_LIST, "--timeout", "10"]))["exit"] == 0:
                    break
                await asyncio.sleep(1)

    def source(self, person):
        """The loopback address a person's browser connects from."""
        return f"127.0.1.{self.people.index(person) + 1}"

    async def sign_in(self, device, attempts=5):
        for _ in range(attempts):
            up = [index for index in range(2) if self.world.processes[index] and self.world.processes[index].returncode is None]
            if up and await device.login(self.world.ports[self.rng.choice(up)], self.source(device.person)):
                return True
            await asyncio.sleep(1)
        return False

    # The work

    async def work_on(self, device):
        while not self.stopping:
            await asyncio.sleep(self.rng.uniform(0.1, 0.8))
            if self.stopping:
                break
            if not device.signed_in:
                await self.sign_in(device, attempts=1)
                continue
            await self.one_operation(device)

    async def one_operation(self, device):
        rng = self.rng
        movie = str(rng.choice(self.movies))
        offline = ["--offline"] if rng.random() < 0.25 else []
        kill_after = rng.uniform(0.02, 0.8) if rng.random() < 0.08 else None
        choice = rng.choices(["add", "remove", "clear", "sync", "list", "window", "relogin", "rate", "unrate", "log", "list-add", "list-move", "list-remove"],
                             weights=[40, 16, 2, 10, 10, 3, 2, 8, 2, 4, 5, 5, 2])[0]
        if choice in SHELF_OPERATIONS:
            return await self.shelf_operation(device, choice, movie, offline, kill_after)
        if choice == "add":
            await device.run("add", ["watch", "add", movie, "--note", device.next_note(), "--json", "--timeout", "5"] + offline, kill_after)
        elif choice == "remove":
            await device.run("remove", ["watch", "remove", movie, "--json", "--timeout", "5"] + offline, kill_after)
        elif choice == "clear":
            await device.run("add", ["watch", "add", movie, "--clear-note", "--json", "--timeout", "5"] + offline, kill_after)
        elif choice == "sync":
            await device.run("sync", ["sync", "--timeout", "5"], kill_after)
        elif choice == "list":
            await device.run("list", ["watchlist", "--json", "--timeout", "5"] + offline, kill_after)
        elif choice == "window":
            live = device.live_windows()
            if live:
                await device.close_window(live[0])
            else:
                for window in list(device.windows):  # a window that ended by itself
                    await device.close_window(window)
                await device.open_window()
        elif choice == "relogin":
            await device.run("logout", ["logout"])
            device.signed_in = False
            await self.sign_in(device, attempts=1)

    async def shelf_operation(self, device, choice, movie, offline, kill_after):
        """A change of the shelf: a rating set or cleared, a viewing logged (the watchlist left as
        it is, which its own operations change), a movie of the person's list added, moved or taken off."""
        rng = self.rng
        arguments = {
            "rate": ["rate", movie, str(rng.randint(1, 10))],
            "unrate": ["rate", movie, "--clear"],
            "log": ["watched", movie, "--on", f"2020-01-{rng.randint(1, 28):02d}", "--keep-on-watchlist"],
            "list-add": ["list", "add", SHELF_LIST, movie],
            "list-move": ["list", "move", SHELF_LIST, movie, "--to", str(rng.randint(1, 8))],
            "list-remove": ["list", "remove", SHELF_LIST, movie],
        }[choice]
        await device.run(choice, arguments + ["--timeout", "5"] + offline, kill_after)

    # The faults

    async def inject_faults(self):
        kinds = ["kill-server", "rotate-keys", "cut", "stall", "device-offline", "clock", "restart-database", "kill-window", "draw"]
        weights = [14, 3, 18, 12, 16, 14, 4, 8, 8]
        last_rotation = self.history.now()
        while True:
            await asyncio.sleep(self.rng.uniform(1.5, 4.5))
            kind = self.rng.choices(kinds, weights)[0]
            if self.history.now() - last_rotation > 60:  # a rotation's step at least once a minute
                kind = "rotate-keys"
            if kind == "rotate-keys":
                last_rotation = self.history.now()
            task = asyncio.create_task(self.fault(kind))
            self.fault_tasks.add(task)
            task.add_done_callback(self.fault_tasks.discard)

    async def fault(self, kind):
        rng = self.rng
        if kind == "kill-server":
            index = rng.randrange(2)
            async with self.restarting[index]:
                await self.world.kill(index)
                down = rng.uniform(0.2, 4)
                self.history.write("fault", fault=kind, instance=index, seconds=round(down, 2))
                await asyncio.sleep(down)
                await self.world.start(index)
                self.history.write("fault-end", fault=kind, instance=index)
        elif kind == "rotate-keys":
            async with self.restarting[0], self.restarting[1]:
                step = self.world.keys.step()
                self.history.write("fault", fault=kind, step=step)
                for index in (0, 1):  # one at a time, as the operator's article says
                    await self.world.restart(index)
                self.history.write("fault-end", fault=kind, step=step)
        elif kind == "cut":
            index = rng.randrange(2)
            self.history.write("fault", fault=kind, instance=index, connections=self.network.cut(instance=index))
        elif kind == "stall":
            index, seconds = rng.randrange(2), rng.uniform(0.5, 8)
            self.network.stall(index)
            self.history.write("fault", fault=kind, instance=index, seconds=round(seconds, 2))
            await asyncio.sleep(seconds)
            self.network.unstall(index)
            self.history.write("fault-end", fault=kind, instance=index)
        elif kind == "device-offline":
            device, seconds = rng.choice(self.devices), rng.uniform(1, 15)
            self.history.write("fault", fault=kind, device=device.name, seconds=round(seconds, 2), connections=self.network.take_down(device.name))
            await asyncio.sleep(seconds)
            self.network.bring_up(device.name)
            self.history.write("fault-end", fault=kind, device=device.name)
        elif kind == "clock":
            device, seconds = rng.choice(self.devices), rng.uniform(5, 30)
            device.clock_offset = rng.choice([-1, 1]) * rng.randint(60, 86400)
            self.history.write("fault", fault=kind, device=device.name, offset=device.clock_offset, seconds=round(seconds, 2))
            await asyncio.sleep(seconds)
            device.clock_offset = 0
            self.history.write("fault-end", fault=kind, device=device.name)
        elif kind == "restart-database":
            immediate = rng.random() < 0.5
            self.history.write("fault", fault=kind, immediate=immediate)
            await self.world.restart_database(immediate)
            self.history.write("fault-end", fault=kind)
        elif kind == "draw":
            await self.draw()
        elif kind == "kill-window":
            windows = [(device, window) for device in self.devices for window in device.live_windows()]
            if windows:
                device, window = rng.choice(windows)
                await device.close_window(window, kill=True)

    async def draw(self):
        """Two devices of one person change one movie in the same millisecond: both clocks stand
        still at one time a little ahead (within the server's bound, after their earlier changes),
        and the two changes are made at once. The server settles the tie by device and orders the
        winner a millisecond later; every device must end on the winner."""
        rng = self.rng
        people = [person for person in self.people if sum(d.person == person and d.signed_in for d in self.devices) >= 2]
        if not people or not FAKETIME:
            return
        person = rng.choice(people)
        first, second = rng.sample([d for d in self.devices if d.person == person and d.signed_in], 2)
        movie = str(rng.choice(self.movies))
        frozen = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(time.time() + 30))
        self.history.write("fault", fault="draw", devices=[first.name, second.name], movie=int(movie), at=frozen)
        for device in (first, second):
            device.frozen_at = frozen
        try:
            await asyncio.gather(*(device.run("add", ["watch", "add", movie, "--note", device.next_note(), "--json", "--timeout", "5"])
                                   for device in (first, second)))
        finally:
            for device in (first, second):
                device.frozen_at = None
        self.history.write("fault-end", fault="draw", devices=[first.name, second.name])

    async def heal(self):
        self.network.heal()
        for device in self.devices:
            device.clock_offset = 0
        for index in range(2):
            process = self.world.processes[index]
            if process is None or process.returncode is not None:
                await self.world.start(index)
        self.history.write("faults-stopped")

    # The end

    async def finish(self):
        """Every device runs once more (signed in again if it must), twice, so that the second round
        fetches what the others sent in the first; then the final states are read."""
        async def once_more(device):
            if not device.signed_in:
                await self.sign_in(device)
            for _ in range(5):
                if (await device.run("final-sync", ["sync", "--timeout", "10"]))["exit"] == 0:
                    break
                await asyncio.sleep(1)
        for _ in range(2):  # all devices at once, as people would; the second round fetches the first's
            await asyncio.gather(*(once_more(device) for device in self.devices))
        for device in self.devices:
            operation = await device.run("final-list", ["watchlist", "--json", "--offline"])
            self.history.write("device-final", device=device.name, person=device.person, list=parse(operation["stdout"]))
            shelf = {}
            for name, arguments in (("ratings", ["ratings", "--json", "--offline"]), ("diary", ["diary", "--json", "--offline"]),
                                    ("list", ["list", "show", SHELF_LIST, "--json", "--offline"]), ("lists", ["lists", "--json", "--offline"])):
                shelf[name] = parse((await device.run(f"final-{name}", arguments))["stdout"])
            self.history.write("device-shelf", device=device.name, person=device.person, **shelf)
        shelves = self.world.psql("""SELECT coalesce(json_agg(json_build_object('person', a.name,
            'records', (SELECT coalesce(json_agg(json_build_object('kind', s.kind, 'key', s.key, 'value', s.value, 'removed', s.removed)
                ORDER BY s.kind, s.key), '[]') FROM shelf_entry s WHERE s.owner = 'account/' || a.id))), '[]') FROM account a""")
        for account in json.loads(shelves):
            self.history.write("server-shelf", **account)
        lists = self.world.psql("""SELECT coalesce(json_agg(json_build_object('person', a.name, 'owner', 'account/' || a.id,
            'entries', (SELECT coalesce(json_agg(json_build_object('movieId', e.movie_id, 'note', e.note, 'changedAt', e.changed_at,
                'device', e.device, 'removed', e.removed) ORDER BY e.movie_id), '[]') FROM watchlist_entry e WHERE e.owner = 'account/' || a.id))), '[]')
            FROM account a""")
        for account in json.loads(lists):
            self.history.write("server-list", **account)
        journal = self.world.psql("""SELECT coalesce(json_agg(json_build_object('sequence', sequence, 'owner', owner, 'id', id,
            'movieId', movie_id, 'outcome', outcome) ORDER BY sequence), '[]') FROM watchlist_change""")
        self.history.write("journal", rows=json.loads(journal))
        feed = self.world.psql("""SELECT coalesce(json_agg(json_build_object('sequence', sequence, 'owner', owner, 'kind', kind,
            'data', data) ORDER BY sequence), '[]') FROM feed_event""")
        self.history.write("feed", rows=json.loads(feed))
        await self.settle_windows(json.loads(lists))

    async def settle_windows(self, accounts, seconds=60):
        """Waits until every open window's lines add up to its person's list on the server (the
        checker decides from the lines; this only stops waiting early)."""
        from check import window_views  # the checker's own reading of a window's lines
        wanted = {account["person"]: {e["movieId"]: e["note"] for e in account["entries"] if not e["removed"]} for account in accounts}
        deadline = asyncio.get_running_loop().time() + seconds
        while asyncio.get_running_loop().time() < deadline:
            self.history.file.flush()
            views = window_views(os.path.join(self.work, "history.jsonl"))
            live = [(device, window) for device in self.devices for window in device.live_windows()]
            if all(views.get(window) == wanted.get(device.person, {}) for device, window in live):
                break
            await asyncio.sleep(0.5)
        self.history.write("windows-settled", windows=[window for device in self.devices for window in device.live_windows()])


def parse(text):
    try:
        return json.loads(text)
    except ValueError:
        return None
