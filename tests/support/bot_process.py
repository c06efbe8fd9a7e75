"""The real entry point (``python -m bot``) as a child process pointed at a fake Discord.

:class:`BotProcess` starts it, waits for "ready", kills it with SIGKILL or stops it with SIGTERM,
and keeps its stderr across restarts, so a test can restart the same bot on the same database as
an operator would and show the logs when something fails.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
import time
from pathlib import Path

from tests.support.patience import patient

PROJECT = Path(__file__).resolve().parent.parent.parent
TOKEN = "smoke-test-token.not.real"
OVERRIDES = ("DISCORD_TOKEN", "TABLETOP_CONFIG", "DISCORD_API_BASE", "DISCORD_GATEWAY_URL")
READY = "tabletop: ready as"
LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d")  # the start of a logged record
TRACE_WORDS = ("Traceback", "During handling", "The above exception")


def bot_env(**extra: str) -> dict[str, str]:
    """The test's environment without anything that would point the bot at a real Discord."""
    env = {k: v for k, v in os.environ.items() if k not in OVERRIDES}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PROJECT), env.get("PYTHONPATH")]))
    env["PYTHONUNBUFFERED"] = "1"
    env.update(extra)
    return env


def write_config(directory: Path, *lines: str) -> Path:
    path = directory / "config.toml"
    database = (directory / "tabletop.sqlite3").as_posix()
    # Computers play at random here: a search worker process outliving a killed bot would hold its
    # stderr open. The search itself is tested in tests/ai. No web pages unless a test gives a
    # ``web_port``: processes running side by side would compete for one port.
    web = [] if any(line.startswith("web_port") for line in lines) else ["web_port = 0"]
    path.write_text(
        "\n".join([f'database = "{database}"', "computer_search = false", *web, *lines]) + "\n", encoding="utf-8"
    )
    return path


class StderrLog:
    """Collects a process's stderr line by line while it runs."""

    def __init__(self, stream: asyncio.StreamReader, lines: list[str] | None = None) -> None:
        self.lines: list[str] = [] if lines is None else lines
        self.start = len(self.lines)
        self._changed = asyncio.Condition()
        self._task = asyncio.create_task(self._read(stream))

    async def _read(self, stream: asyncio.StreamReader) -> None:
        while line := await stream.readline():
            async with self._changed:
                self.lines.append(line.decode("utf-8", "replace").rstrip("\n"))
                self._changed.notify_all()

    def matching(self, text: str) -> list[str]:
        return [line for line in self.lines[self.start :] if text in line]

    async def wait_for(self, text: str, timeout: float) -> str:
        async with self._changed:
            try:
                await asyncio.wait_for(self._changed.wait_for(lambda: self.matching(text)), patient(timeout))
            except TimeoutError:
                raise AssertionError(f"bot: no {text!r} on stderr within {timeout}s\n{self}") from None
        return self.matching(text)[0]

    async def finish(self, timeout: float = 5.0) -> None:
        try:
            await asyncio.wait_for(self._task, patient(timeout))
        except TimeoutError:
            self._task.cancel()

    def __str__(self) -> str:
        return "bot stderr:\n" + "\n".join("  | " + line for line in self.lines[-60:])


class BotProcess:
    """One bot, started and restarted on the same config and database."""

    def __init__(self, fake, directory: Path, *config_lines: str, module: str = "bot") -> None:
        self.fake = fake
        self.directory = directory
        self.config = write_config(directory, 'log_level = "INFO"', *config_lines)
        self.database = directory / "tabletop.sqlite3"
        self.module = module
        self.proc: asyncio.subprocess.Process | None = None
        self.stderr: StderrLog | None = None
        self.lines: list[str] = []  # every run's stderr, one after the other
        self.started_at = 0.0
        self.starts = 0
        self.env: dict[str, str] = {}  # more environment (TABLETOP_DATABASE for PostgreSQL, say)
        self.shard: int | None = None  # its shard id, when the config gives it one

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    async def start(self, *, nice: int = 0) -> None:
        env = bot_env(
            DISCORD_TOKEN=self.fake.token,
            DISCORD_API_BASE=self.fake.api_base,
            DISCORD_GATEWAY_URL=self.fake.gateway_url,
            **self.env,
        )
        command = [sys.executable, "-m", self.module, "--config", str(self.config)]
        if nice:
            command = ["nice", "-n", str(nice), *command]
        self.starts += 1
        self.lines.append(f"==== start {self.starts} ====")
        self.started_at = time.monotonic()
        self.proc = await asyncio.create_subprocess_exec(
            *command,
            cwd=self.directory,
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        self.stderr = StderrLog(self.proc.stderr, self.lines)

    async def ready(self, timeout: float = 40.0) -> float:
        """Wait for the "ready" line; seconds from the spawn. Fails at once if the bot exits."""
        assert self.stderr is not None and self.proc is not None
        waiting = asyncio.ensure_future(self.stderr.wait_for(READY, timeout))
        exited = asyncio.ensure_future(self.proc.wait())
        try:
            await asyncio.wait({waiting, exited}, return_when=asyncio.FIRST_COMPLETED)
            if not waiting.done():
                raise AssertionError(f"bot exited early with code {self.proc.returncode}\n{self}")
            waiting.result()
        finally:
            waiting.cancel()
            exited.cancel()
        return time.monotonic() - self.started_at

    async def start_ready(self, timeout: float = 40.0) -> float:
        await self.start()
        return await self.ready(timeout)

    async def kill(self) -> None:
        """SIGKILL: no cleanup of any kind, as in a crash or an OOM kill."""
        sessions = len(self.fake.gateway.identified())
        if self.running:
            self.proc.kill()
            await self.proc.wait()
        if self.stderr is not None:
            await self.stderr.finish()
        # Wait for the fake to see this bot's gateway gone, so no click is sent into a dead socket
        # (other bot processes may stay connected). A shard's session is known by its shard id,
        # so a process killed before it identified is not waited for.
        gateway = self.fake.gateway
        if self.shard is not None:
            gone = lambda: not any(c.shard is not None and c.shard[0] == self.shard for c in gateway.identified())  # noqa: E731
        else:
            gone = lambda: len(gateway.identified()) < sessions or not self.fake.connected  # noqa: E731
        await self.fake.wait_until(gone, timeout=10, what="gateway closed")

    async def stop(self, timeout: float = 10.0) -> int | None:
        """SIGTERM and wait for a clean exit (SIGKILL after ``timeout``)."""
        if self.running:
            self.proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.proc.wait(), patient(timeout))
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()
        if self.stderr is not None:
            await self.stderr.finish()
        return None if self.proc is None else self.proc.returncode

    def proc_status(self, field: str) -> int:
        """A ``/proc/<pid>/status`` value in KiB (VmRSS, VmHWM); 0 when unavailable."""
        try:
            for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
                if line.startswith(field + ":"):
                    return int(line.split()[1])
        except (OSError, AssertionError):
            pass
        return 0

    def cpu_seconds(self) -> float:
        """User plus system CPU time the process has used so far."""
        try:
            fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def errors(self) -> list[str]:
        """Errors logged over every run, each with the exception its traceback ended with."""
        out: list[str] = []
        in_error = False  # inside a logged error's traceback
        for n, line in enumerate(self.lines):
            if LOG_LINE.match(line) or line.startswith("===="):
                in_error = " ERROR " in line
                if not in_error:
                    continue
            elif not line.startswith("Traceback") or in_error:
                continue
            in_error = True
            exception = ""
            for following in self.lines[n + 1 :]:
                if LOG_LINE.match(following) or following.startswith("===="):
                    break
                if following and not following[0].isspace() and not following.startswith(TRACE_WORDS):
                    exception = following
            out.append(f"{line} | {exception}" if exception else line)
        return out

    def __str__(self) -> str:
        return "bot stderr:\n" + "\n".join("  | " + line for line in self.lines[-80:])


def bot_processes(fake, root: Path, names: list[str], database: str | None, *config_lines: str) -> list[BotProcess]:
    """One bot process per name, each in a directory of its own under ``root``, all on ``database``
    (a PostgreSQL URL; None: each on its own SQLite file) and the same fake Discord."""
    bots = []
    for name in names:
        directory = root / name
        directory.mkdir()
        bot = BotProcess(fake, directory, *config_lines)
        if database is not None:
            bot.env["TABLETOP_DATABASE"] = database
        bots.append(bot)
    return bots
