"""A throwaway PostgreSQL cluster in a temporary directory, on a free local port.

Used by the PostgreSQL leg of the tests and by ``benchmarks/load.py --database postgresql``. The
server refuses to run as root, so as root the cluster belongs to ``nobody``. ``find_bin`` looks on
PATH and in Debian's ``/usr/lib/postgresql/*/bin``; ``.ci/run`` installs the package when neither has it.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path


def find_bin() -> Path | None:
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    return Path(versions[-1]).parent if versions else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _as_owner(cmd: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return cmd
    return ["runuser", "-u", "nobody", "--", *cmd]


class Cluster:
    """``start()`` then ``url``; ``stop()`` removes everything."""

    def __init__(self, max_connections: int = 200) -> None:
        self.bin = find_bin()
        self.port = free_port()
        self.max_connections = max_connections
        self.root: Path | None = None

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def start(self) -> Cluster:
        if self.bin is None:
            raise RuntimeError("PostgreSQL is not installed (initdb not found)")
        self.root = Path(tempfile.mkdtemp(prefix="tabletop-pg-"))
        os.chmod(self.root, 0o777)
        data = self.root / "data"
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.PIPE, "check": True}
        subprocess.run(
            _as_owner([str(self.bin / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres", "-E", "UTF8"]),
            **quiet,
        )
        options = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off"
            f" -c synchronous_commit=off -c full_page_writes=off -c max_connections={self.max_connections}"
        )
        subprocess.run(
            _as_owner([str(self.bin / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(self.root / "log"),
                       "-w", "start"]),
            **quiet,
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), timeout=1):
                return self
            time.sleep(0.1)
        raise RuntimeError("PostgreSQL did not start")

    def stop(self) -> None:
        if self.root is None:
            return
        subprocess.run(
            _as_owner([str(self.bin / "pg_ctl"), "-D", str(self.root / "data"), "-m", "immediate", "stop"]),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        shutil.rmtree(self.root, ignore_errors=True)
        self.root = None


@contextlib.contextmanager
def cluster() -> Iterator[Cluster]:
    c = Cluster().start()
    try:
        yield c
    finally:
        c.stop()


_counter = 0


async def fresh_database(url: str) -> str:
    """A new empty database in the cluster at ``url``; returns its URL."""
    import asyncpg

    global _counter
    _counter += 1
    name = f"t{os.getpid()}_{_counter}_{int(time.time() * 1000) % 100000}"
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"CREATE DATABASE {name}")
    finally:
        await conn.close()
    return url.rsplit("/", 1)[0] + "/" + name

