"""A finished table's export holds the whole game, and ``python -m bot.replay FILE`` plays it again
through the engine to the same result; an export that was changed, or is no export, is refused."""

from __future__ import annotations

import asyncio
import io
import json
import sys

import pytest

from bot import replay
from bot.web.export import FORMAT
from tests.support.web import GAMES, client, play, seated_table


async def exported(tables, site, table_id: int) -> dict:
    async with client(site) as web:
        answer = await web.get(site.path(table_id, "/export.json"))
        assert answer.status == 200
        assert answer.headers["Content-Disposition"].startswith("attachment; filename=")
        return json.loads(await answer.text())


def check(data, tmp_path) -> tuple[int, str]:
    path = tmp_path / "table.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    out = io.StringIO()
    return replay.main([str(path)], out=out), out.getvalue()


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_an_export_replays_to_its_result(tables, site, game, tmp_path):
    table_id = await seated_table(tables, game, seed=31)
    await play(tables, table_id, seed=32)
    table = await tables.tables.table(table_id)
    data = await exported(tables, site, table_id)
    assert data["format"] == FORMAT and data["game"] == game
    assert (data["players"], data["seed"], data["options"]) == (len(table.seats), table.seed, table.options)
    assert [s["name"] for s in data["seats"]] == [s.name for s in table.seats]
    assert [tuple(a) for a in data["actions"]] == await tables.store.actions(table_id)
    assert data["result"] == json.loads(table.result)
    assert data["engine"]["bot_version"] and len(data["engine"]["rules"]) == 16
    status, said = check(data, tmp_path)
    assert status == 0 and said.startswith(f"ok: {game}, {len(data['actions'])} actions replayed"), said

    changed = json.loads(json.dumps(data))
    changed["result"]["ranks"] = list(reversed(changed["result"]["ranks"]))
    if changed["result"]["ranks"] != data["result"]["ranks"]:
        status, said = check(changed, tmp_path)
        assert status == 1 and "FAILED: result ranks" in said
    shorter = {**data, "actions": data["actions"][:-1]}
    status, said = check(shorter, tmp_path)
    assert status == 1 and "the game is not over" in said
    seat, action = data["actions"][0]
    wrong = {**data, "actions": [[(seat + 1) % data["players"], action], *data["actions"][1:]]}
    status, said = check(wrong, tmp_path)
    assert status == 1 and "FAILED: action 1 " in said and "refused" in said


async def test_the_export_of_a_table_a_clock_ended_replays_as_unfinished(tables, site, tmp_path):
    table_id = await seated_table(tables, "donguri", seed=41)
    await play(tables, table_id, 5)
    await tables.store.update_table(table_id, clock=3600, on_timeout="end", deadline=1.0)
    assert await tables.tables.expire(table_id)
    data = await exported(tables, site, table_id)
    assert data["result"]["reason"] == "timeout" and len(data["actions"]) == 5
    assert check(data, tmp_path)[0] == 0
    assert check({**data, "actions": []}, tmp_path)[0] == 1, "the final table differs"


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("not json", "not JSON"),
        ('{"format": "something else"}', "not a table export"),
        (json.dumps({"format": FORMAT, "game": "chess", "players": 2, "seed": 1, "options": {}, "actions": []}), "unknown game"),
        (json.dumps({"format": FORMAT, "game": "../../etc", "players": 2, "seed": 1, "options": {}, "actions": []}), "unknown game"),
        (json.dumps({"format": FORMAT, "game": "donguri", "players": 3, "seed": 1, "options": {}, "actions": [["x"]]}), "an action is not"),
    ],
)
def test_a_file_that_is_no_export_is_refused(tmp_path, capsys, text, said):
    assert check(text, tmp_path)[0] == 2
    assert said in capsys.readouterr().err


async def test_the_command_runs_as_python_m_bot_replay(tables, site, tmp_path):
    table_id = await seated_table(tables, "othello_torite", seed=51)
    await play(tables, table_id, seed=52)
    path = tmp_path / "othello.json"
    path.write_text(json.dumps(await exported(tables, site, table_id)), encoding="utf-8")
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.replay", str(path), stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    out, err = await proc.communicate()
    assert proc.returncode == 0, err.decode()
    assert out.decode().startswith("ok: othello_torite, ")
