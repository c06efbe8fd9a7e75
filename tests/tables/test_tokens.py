"""Which click's token may redraw which message: a DM only with a click on that DM, a private hand
only with a click on a private hand, each kept apart, none after 14 minutes, none that Discord has
refused, and none once the table has ended. Tokens live in the database, so a token stored by one
store is found by another (a restart, or another process)."""

from __future__ import annotations

import time
from types import SimpleNamespace

import discord
import pytest
from discord.webhook.async_ import async_context

from bot.storage.store import Store
from bot.tables import tokens as tokens_module
from bot.tables.tokens import LIFE, Token, Tokens


class Refusing:
    """Discord's answer to an edit of a dismissed private hand."""

    async def edit_original_interaction_response(self, *args, **kwargs):
        raise discord.NotFound(SimpleNamespace(status=404, reason="Not Found"), {"message": "Unknown Message", "code": 10008})


def tokens_on(store: Store) -> Tokens:
    client = SimpleNamespace(http=SimpleNamespace(proxy=None, proxy_auth=None), application_id=1)
    return Tokens(store, client, session=None)


def click(message_id: int, token: str) -> SimpleNamespace:
    """What ``Tokens.of`` reads of a discord.py interaction."""
    return SimpleNamespace(token=token, message=SimpleNamespace(id=message_id))


async def table_with_dm(store: Store, message_id: int) -> SimpleNamespace:
    table_id = await store.create_table(
        game="donguri", guild_id=1, channel_id=2, host_id=3, status="running", size=3, options={}, language="en"
    )
    await store.surfaces.set_delivery(table_id, 0, 1, 40, message_id, False)
    return SimpleNamespace(id=table_id)


async def test_a_dm_and_a_private_hand_each_keep_their_own_token(database, monkeypatch):
    clock = [time.time()]
    monkeypatch.setattr(tokens_module.time, "time", lambda: clock[0])
    monkeypatch.setattr(tokens_module, "relevance", lambda table, engine, seat: "key-1")
    store = await Store.open(database)
    try:
        tokens = tokens_on(store)
        table = await table_with_dm(store, 500)
        async with store.transaction():  # as the move's own transaction does
            await tokens.keep(Tokens.of(click(500, "dm-click")), table, None, 0, private=False)
        async with store.transaction():  # then a card from **My hand**
            await tokens.keep(Tokens.of(click(900, "hand-click")), table, None, 0, private=True)

        assert Tokens.for_dm(await store.surfaces.delivery(table.id, 0, 1)).token == "dm-click", "the DM's own click"
        await store.surfaces.set_delivery(table.id, 0, 2, 40, 501, False)
        assert Tokens.for_dm(await store.surfaces.delivery(table.id, 0, 2)) is None, "a new deal's DM: no click on it yet"
        private = await tokens.for_private_hand(table.id, 0)
        assert (private.token, private.shows) == ("hand-click", "key-1")
        assert await store.surfaces.delivery(table.id, 1, 1) is None and await tokens.for_private_hand(table.id, 1) is None

        async_context.set(Refusing())
        with pytest.raises(discord.NotFound):
            await tokens.edit(table.id, 0, private, content="hand")  # refused (dismissed): the DM's token stays
        assert await tokens.for_private_hand(table.id, 0) is None
        assert Tokens.for_dm(await store.surfaces.delivery(table.id, 0, 1)) is not None

        clock[0] += LIFE + 1  # Discord's 15 minutes are nearly up
        assert Tokens.for_dm(await store.surfaces.delivery(table.id, 0, 1)) is None
    finally:
        await store.close()


async def test_a_token_outlives_the_store_that_kept_it_but_not_the_table(database):
    store = await Store.open(database)
    table = await table_with_dm(store, 500)
    other = await table_with_dm(store, 600)
    tokens = tokens_on(store)
    async with store.transaction():
        await tokens.keep(Tokens.of(click(500, "a")), table, None, 0, private=False)
        await tokens.keep(Tokens.of(click(600, "b")), other, None, 0, private=False)
    await store.close()

    store = await Store.open(database)  # a restart, or another process on the same database
    try:
        tokens = tokens_on(store)
        assert Tokens.for_dm(await store.surfaces.delivery(table.id, 0, 1)).token == "a"
        await tokens.forget(table.id)  # the table ended
        assert Tokens.for_dm(await store.surfaces.delivery(table.id, 0, 1)) is None
        assert Tokens.for_dm(await store.surfaces.delivery(other.id, 0, 1)).token == "b"
    finally:
        await store.close()


async def test_a_refused_token_does_not_take_a_later_clicks_with_it(database):
    store = await Store.open(database)
    try:
        table = await table_with_dm(store, 500)
        tokens = tokens_on(store)
        old = Token("old", 500, time.time() + LIFE)
        async with store.transaction():
            await tokens.keep(Tokens.of(click(500, "new")), table, None, 0, private=False)
        async_context.set(Refusing())
        with pytest.raises(discord.NotFound):
            await tokens.edit(table.id, 0, old, content="hand")
        assert Tokens.for_dm(await store.surfaces.delivery(table.id, 0, 1)).token == "new"
    finally:
        await store.close()
