"""Which click's token may redraw which message: a DM only with a click on that DM, a private hand
only with a click on a private hand, each kept apart, and none after 14 minutes."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from bot.tables.tokens import LIFE, Tokens


def click(message_id: int, token: str) -> SimpleNamespace:
    """What ``Tokens.keep`` reads of a discord.py interaction."""
    return SimpleNamespace(
        application_id=1, token=token, message=SimpleNamespace(id=message_id), _session=None
    )


async def test_a_dm_and_a_private_hand_each_keep_their_own_token(monkeypatch):
    clock = [100.0]
    monkeypatch.setattr(asyncio.get_running_loop(), "time", lambda: clock[0])
    tokens = Tokens()
    tokens.keep(7, 0, click(500, "dm-click"))
    tokens.keep(7, 0, click(900, "hand-click"), shows="key-1")  # then a card from **My hand**

    assert tokens.fresh(7, 0, 500).token == "dm-click", "the DM's own click, not the later one"
    assert tokens.fresh(7, 0, 501) is None, "a new deal's DM: no click on it yet"
    private = tokens.fresh(7, 0, None)
    assert (private.token, private.shows) == ("hand-click", "key-1")
    assert tokens.fresh(7, 1, 500) is None and tokens.fresh(8, 0, 500) is None

    tokens.drop(7, 0, private)  # refused (dismissed): the DM's token stays
    assert tokens.fresh(7, 0, None) is None and tokens.fresh(7, 0, 500) is not None

    clock[0] += LIFE + 1  # Discord's 15 minutes are nearly up
    assert tokens.fresh(7, 0, 500) is None
    assert not tokens.kept


async def test_a_finished_table_forgets_its_tokens():
    tokens = Tokens()
    tokens.keep(7, 0, click(500, "a"))
    tokens.keep(8, 0, click(600, "b"))
    tokens.forget(7)
    assert tokens.fresh(7, 0, 500) is None and tokens.fresh(8, 0, 600) is not None
