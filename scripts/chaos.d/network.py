"""The campaign's network: one loopback port per device, each connection relayed to one of the server
instances chosen at random, and the faults a network makes: every connection to an instance cut,
an instance's connections stalled, a device's network gone."""
import asyncio
import socket


class Network:
    def __init__(self, instance_ports, rng):
        self.instance_ports = instance_ports  # index -> port, updated when an instance restarts elsewhere
        self.rng = rng
        self.device_ports = {}
        self.servers = []
        self.links = set()  # (device, instance, client writer, upstream writer)
        self.down = set()  # devices without a network
        self.stalled = {}  # instance -> asyncio.Event set when the stall ends
        self.relaying = set()  # the task of each accepted connection

    async def add_device(self, device):
        server = await asyncio.start_server(lambda r, w: self._accept(device, r, w), "127.0.0.1", 0)
        self.servers.append(server)
        self.device_ports[device] = server.sockets[0].getsockname()[1]
        return self.device_ports[device]

    async def _accept(self, device, reader, writer):
        task = asyncio.current_task()
        self.relaying.add(task)
        try:
            await self._relay(device, reader, writer)
        except asyncio.CancelledError:
            pass  # the network is closing: asyncio would report the cancelled handler as an error
        finally:
            self.relaying.discard(task)

    async def _relay(self, device, reader, writer):
        if device in self.down:
            self._close(writer)
            return
        instance = self.rng.randrange(len(self.instance_ports))
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.instance_ports[instance])
        except OSError:
            self._close(writer)  # the instance is down: the device sees a refused (closed) connection
            return
        link = (device, instance, writer, up_writer)
        self.links.add(link)
        try:
            await asyncio.gather(self._pipe(instance, reader, up_writer), self._pipe(instance, up_reader, writer))
        finally:
            self.links.discard(link)
            self._close(writer)
            self._close(up_writer)

    async def _pipe(self, instance, reader, writer):
        try:
            while True:
                data = await reader.read(65536)
                if not data:
                    break
                stall = self.stalled.get(instance)
                if stall is not None:
                    await stall.wait()
                writer.write(data)
                await writer.drain()
        except OSError:
            pass
        finally:
            self._close(writer)

    @staticmethod
    def _close(writer):
        try:
            sock = writer.get_extra_info("socket")
            if sock is not None:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")  # a reset, as a cut
            writer.close()
        except (OSError, RuntimeError):
            pass

    def cut(self, instance=None, device=None):
        """Resets every connection to `instance` (or of `device`); returns how many."""
        cut = [link for link in list(self.links) if (instance is None or link[1] == instance) and (device is None or link[0] == device)]
        for link in cut:
            self._close(link[2])
            self._close(link[3])
            self.links.discard(link)
        return len(cut)

    def stall(self, instance):
        self.stalled[instance] = asyncio.Event()

    def unstall(self, instance):
        event = self.stalled.pop(instance, None)
        if event is not None:
            event.set()

    def take_down(self, device):
        self.down.add(device)
        return self.cut(device=device)

    def bring_up(self, device):
        self.down.discard(device)

    def heal(self):
        for instance in list(self.stalled):
            self.unstall(instance)
        self.down.clear()

    async def close(self):
        self.heal()
        for server in self.servers:
            server.close()
        self.cut()
        if self.relaying:  # each ends once its sockets are reset
            await asyncio.wait(set(self.relaying), timeout=5)
