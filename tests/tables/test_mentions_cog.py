"""A member's name never pings anyone: a player named ``@everyone`` plays a whole game, and no
message the bot sends or edits mentions everyone (Discord parses an edit's content afresh, with its
default allowances, unless the edit says otherwise: the record's edits pinged the whole server)."""

from __future__ import annotations

from tests.support.table import make_world
from tests.tables.test_record_batches_cog import open_table, play


def bot_messages(world) -> list:
    return [
        message
        for channel in world.guild.channels.values()
        for place in (channel, *channel.threads)
        for message in place.history()
        if message.author.bot
    ]


async def test_a_member_named_everyone_pings_nobody_in_the_record_or_anywhere(simcord_env, simcord_bot, monkeypatch):
    world = make_world(simcord_env, names=("@everyone", "@here"))
    # The test makes the computers' moves and the record's passes itself (as the record's tests do).
    monkeypatch.setattr(simcord_bot.service, "on_computer_turn", lambda table_id: None)
    table_id = await open_table(world, simcord_bot, "donguri", {"players": 3, "length": "short"})
    await simcord_env.settle()
    await play(simcord_bot, table_id, lambda move: True)  # a record pass after every move: edits
    await simcord_env.settle()
    messages = bot_messages(world)
    named = [m for m in messages if "@everyone" in (m.content or "")]
    assert any(m.edited_at is not None for m in named), "the record was edited with the name in it"
    assert [m.content for m in messages if m.mention_everyone] == []
    stored = [simcord_env.backend.get_message(m.channel.id, m.id) for m in messages]
    assert [m.content for m in stored if m.ping_user_ids or m.ping_role_ids] == []  # nor anyone else
