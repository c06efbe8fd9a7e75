"""The real entry point (``python -m bot``) as a process, against a fake Discord on loopback.

One run: log in, sync slash commands, connect to the gateway, answer ``/donguri rules``, stop on
SIGTERM. Plus the entry point's fast failures: no token, and a bad config value.
"""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.bot_process import TOKEN, StderrLog, bot_env, write_config
from tests.support.fake_discord import FakeDiscord
from tests.support.patience import patient

STEP_TIMEOUT = 40.0  # any single step of start-up
SHUTDOWN_LIMIT = patient(5.0)  # SIGTERM to exit


async def test_entry_point_logs_in_syncs_answers_a_command_and_stops_on_sigterm(tmp_path):
    config = write_config(tmp_path, 'log_level = "INFO"')
    async with FakeDiscord(token=TOKEN) as fake:
        env = bot_env(
            DISCORD_TOKEN=TOKEN, DISCORD_API_BASE=fake.api_base, DISCORD_GATEWAY_URL=fake.gateway_url
        )
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            "--config",
            str(config),
            cwd=tmp_path,
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        stderr = StderrLog(proc.stderr)

        def context() -> str:
            return f"{fake.summary()}\n{stderr}"

        async def step(waiting):
            """Await ``waiting``, but fail at once if the bot exits first."""
            task = asyncio.ensure_future(waiting)
            exited = asyncio.ensure_future(proc.wait())
            try:
                await asyncio.wait({task, exited}, return_when=asyncio.FIRST_COMPLETED)
                if not task.done():
                    raise AssertionError(f"bot exited early with code {proc.returncode}\n{context()}")
                return task.result()
            finally:
                task.cancel()
                exited.cancel()

        try:
            # Logged in: the REST login, then IDENTIFY with the token on the overridden gateway.
            await step(fake.wait_until(lambda: fake.identifies, timeout=STEP_TIMEOUT, what="IDENTIFY"))
            assert fake.identifies[0]["token"] == TOKEN, context()
            assert fake.calls_to("GET", "/users/@me"), context()
            assert fake.gateway_queries[0].get("encoding") == "json", context()

            # Synced the global commands (in setup_hook, before the gateway).
            puts = fake.calls_to("PUT", f"/applications/{fake.application_id}/commands")
            assert len(puts) == 1, context()
            commands = {c["name"]: c for c in puts[0].body}
            assert "donguri" in commands, context()
            donguri = commands["donguri"]
            subcommands = {o["name"]: o for o in donguri.get("options", []) if o.get("type") == 1}
            assert {"new", "rules"} <= subcommands.keys(), donguri

            # Ready, announced once.
            await step(stderr.wait_for("tabletop: ready as", STEP_TIMEOUT))

            # One slash command over the gateway, answered through the interaction callback.
            interaction = fake.interaction_create(command="donguri", subcommand="rules")
            callback_path = f"/interactions/{interaction['id']}/{interaction['token']}/callback"
            await fake.dispatch("INTERACTION_CREATE", interaction)
            await step(
                fake.wait_until(
                    lambda: fake.calls_to("POST", callback_path),
                    timeout=STEP_TIMEOUT,
                    what="interaction callback",
                )
            )
            (callback,) = fake.calls_to("POST", callback_path)
            assert callback.body["type"] == 4, callback.body  # CHANNEL_MESSAGE_WITH_SOURCE
            reply = callback.body["data"]
            assert reply.get("flags", 0) & 64, reply  # ephemeral
            assert [e.get("title") for e in reply.get("embeds", [])] == ["Donguri to Yamaneko"], reply
            assert all(e.get("fields") for e in reply["embeds"]), reply

            # SIGTERM: a clean, quick exit.
            started = time.monotonic()
            proc.send_signal(signal.SIGTERM)
            try:
                code = await asyncio.wait_for(proc.wait(), SHUTDOWN_LIMIT)
            except TimeoutError:
                raise AssertionError(
                    f"bot still running {SHUTDOWN_LIMIT}s after SIGTERM\n{context()}"
                ) from None
            await stderr.finish()
            assert code == 0, context()
            assert time.monotonic() - started < SHUTDOWN_LIMIT
            assert stderr.matching("tabletop: stopped"), context()
            assert len(stderr.matching("tabletop: ready as")) == 1, context()
            assert not stderr.matching("Traceback"), context()
            assert not stderr.matching("voice will NOT be supported"), context()  # no voice, no warning
            # The bot closed the gateway itself (the fake closes only on exit). The code is 4000, not
            # 1000: discord.py's poll loop closes the socket first when Client.close() interrupts it.
            assert fake.close_codes, context()
            assert not fake.problems, context()
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
            await stderr.finish()
            print(context())  # shown by pytest when the test fails


def run_entry_point(tmp_path: Path, config: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "--config", str(config)],
        cwd=tmp_path,
        env=bot_env(**env),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=STEP_TIMEOUT,
    )


def test_without_a_token_it_exits_at_once_saying_how_to_give_one(tmp_path):
    result = run_entry_point(tmp_path, write_config(tmp_path))
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "DISCORD_TOKEN" in lines[0]
    assert not (tmp_path / "tabletop.sqlite3").exists()


@pytest.mark.parametrize(
    ("line", "key"),
    [("log_level = 5", "log_level"), ('test_guild_id = "abc"', "test_guild_id")],
)
def test_a_bad_config_value_exits_with_a_message_naming_the_key(tmp_path, line, key):
    result = run_entry_point(tmp_path, write_config(tmp_path, line), DISCORD_TOKEN=TOKEN)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert f"'{key}'" in lines[0]
