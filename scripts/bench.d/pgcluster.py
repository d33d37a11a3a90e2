"""A throwaway PostgreSQL cluster for the benchmarks and the fault campaign: initdb and pg_ctl from
Debian's postgresql, as the `postgres` user when run as root, default settings, on a free loopback port."""
import os
import shutil
import subprocess

from benchkit import free_port


class Cluster:
    def __init__(self, work):
        versions = sorted(int(v) for v in os.listdir("/usr/lib/postgresql") if v.isdigit())
        self.bin = f"/usr/lib/postgresql/{versions[-1]}/bin"
        self.folder = os.path.join(work, "pg")
        os.makedirs(self.folder)
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self.as_user:
            shutil.chown(self.folder, "postgres")
            os.chmod(work, 0o755)
        self.port = free_port()
        self.data = os.path.join(self.folder, "data")
        self.log = os.path.join(self.folder, "log")
        self.options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c max_connections=200"
        self.run([f"{self.bin}/initdb", "-D", self.data, "-U", "marquee", "--auth=trust", "-E", "UTF8"])
        self.run([f"{self.bin}/pg_ctl", "-D", self.data, "-l", self.log, "-w", "-o", self.options, "start"])

    def run(self, command):
        subprocess.run(self.as_user + command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, close_fds=True)

    def database(self, name):
        self.run([f"{self.bin}/createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "marquee", name])
        return f"postgres://marquee@127.0.0.1:{self.port}/{name}"

    def psql(self, name, *arguments):
        """The command line of psql on the database `name`, then `arguments`."""
        return self.as_user + [f"{self.bin}/psql", "-h", "127.0.0.1", "-p", str(self.port), "-U", "marquee", "-d", name, *arguments]

    def restart(self, immediate=False):
        """pg_ctl restart; `immediate` stops it as a crash would."""
        subprocess.run(self.as_user + [f"{self.bin}/pg_ctl", "-D", self.data, "-m", "immediate" if immediate else "fast", "-w", "restart",
                                       "-o", self.options, "-l", self.log], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def stop(self):
        subprocess.run(self.as_user + [f"{self.bin}/pg_ctl", "-D", self.data, "-m", "fast", "-w", "stop"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
