"""Which click's token may redraw which message: a DM only with a click on that DM, a private hand
only with a click on a private hand, each kept apart, none after 14 minutes, and none that Discord
has refused."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import discord
import pytest
from discord.webhook.async_ import async_context

from bot.tables import tokens as tokens_module
from bot.tables.tokens import LIFE, Tokens

TABLE = SimpleNamespace(id=7)


def click(message_id: int, token: str) -> SimpleNamespace:
    """What ``Tokens.keep`` reads of a discord.py interaction."""
    return SimpleNamespace(
        application_id=1, token=token, message=SimpleNamespace(id=message_id), _session=None
    )


class Refusing:
    """Discord's answer to an edit of a dismissed private hand."""

    async def edit_original_interaction_response(self, *args, **kwargs):
        raise discord.NotFound(SimpleNamespace(status=404, reason="Not Found"), {"message": "Unknown Message", "code": 10008})


async def test_a_dm_and_a_private_hand_each_keep_their_own_token(monkeypatch):
    clock = [100.0]
    monkeypatch.setattr(asyncio.get_running_loop(), "time", lambda: clock[0])
    monkeypatch.setattr(tokens_module, "relevance", lambda table, engine, seat: "key-1")
    tokens = Tokens()
    tokens.keep(click(500, "dm-click"), TABLE, None, 0, private=False)
    tokens.keep(click(900, "hand-click"), TABLE, None, 0, private=True)  # then a card from **My hand**

    assert tokens.fresh(7, 0, 500).token == "dm-click", "the DM's own click, not the later one"
    assert tokens.fresh(7, 0, 501) is None, "a new deal's DM: no click on it yet"
    private = tokens.fresh(7, 0, None)
    assert (private.token, private.shows) == ("hand-click", "key-1")
    assert tokens.fresh(7, 1, 500) is None and tokens.fresh(8, 0, 500) is None

    async_context.set(Refusing())
    http = SimpleNamespace(proxy=None, proxy_auth=None)
    with pytest.raises(discord.NotFound):
        await tokens.edit(7, 0, private, http, content="hand")  # refused (dismissed): the DM's token stays
    assert tokens.fresh(7, 0, None) is None and tokens.fresh(7, 0, 500) is not None

    clock[0] += LIFE + 1  # Discord's 15 minutes are nearly up
    assert tokens.fresh(7, 0, 500) is None
    assert not tokens.kept


async def test_a_finished_table_forgets_its_tokens():
    tokens = Tokens()
    tokens.keep(click(500, "a"), TABLE, None, 0, private=False)
    tokens.keep(click(600, "b"), SimpleNamespace(id=8), None, 0, private=False)
    tokens.forget(7)
    assert tokens.fresh(7, 0, 500) is None and tokens.fresh(8, 0, 600) is not None
