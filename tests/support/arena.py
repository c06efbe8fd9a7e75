"""A server full of tables in every state, for the click fuzz (tests/tables/test_fuzz_clicks_cog.py).

Home server: Donguri, Arsène, Saizen, Othello and Final Quest tables running with members only, a
lobby (kept: a new one opens when the last one starts), a table finished by its clock, a cancelled
one and a tournament taking sign-ups. Another server: its own lobby and a member who manages that
server. Everyone may click from the home server, from the other one or from their DMs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import discord

from tests.support.final_quest import start_table as start_final_quest
from tests.support.table import World, add_computer, components, make_world, open_table, table_message

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank")


@dataclass
class Actor:
    """Who clicks, and from where: a member in a server, or a user in their DM with the bot."""

    name: str
    handle: Any  # a SimCord member (in a server) or user (in the DM)
    user_id: int
    guild_id: int | None  # None: in the DM

    @property
    def kind(self) -> str:
        return "dm" if self.guild_id is None else "server"


@dataclass
class Arena:
    env: Any
    bot: Any
    home: World
    away: Any  # the other server
    actors: list[Actor] = field(default_factory=list)

    # ---- what can be clicked --------------------------------------------------------------
    def sources(self, actor: Actor) -> list[Any]:
        """Stored messages the actor can click from: any message of a channel they see in their
        server, or of their DM."""
        backend = self.env.backend
        if actor.guild_id is None:
            channel_ids = [backend.dm_channels[actor.user_id]]
        else:
            channel_ids = [
                c.id
                for c in backend.channels.values()
                if c.guild_id == actor.guild_id and can_see(self.env, c.id, actor.handle)
            ]
        return [m for cid in channel_ids for m in backend.messages.get(cid, {}).values()]

    def carried(self) -> list[tuple[Any, dict[str, Any]]]:
        """(message, component) for every button and menu the bot has shown anywhere."""
        found = []
        for messages in self.env.backend.messages.values():
            for message in messages.values():
                found += [(message, c) for c in components(message) if c.get("custom_id", "").startswith("tt:")]
        return found

    def components(self) -> list[dict[str, Any]]:
        """Every button and menu the bot has shown anywhere (to be pressed by anyone, or mutated)."""
        return [c for _message, c in self.carried()]

    # ---- keeping every state at hand -------------------------------------------------------
    async def replenish(self) -> None:
        """A lobby and a running table in the home server, whatever the clicks did to the others."""
        tables = await self.bot.store.tables_with_status("lobby", "running")
        home = [t for t in tables if t.guild_id == self.home.guild.id]
        if not any(t.status == "lobby" for t in home):
            await open_table(self.home, self.home.members[4], "donguri", players=4)
        if not any(t.status == "running" for t in home):
            alice, bob, carol = self.home.members[:3]
            lobby = await open_table(self.home, alice, "donguri", players=3, length="short")
            await bob.click(lobby, label="Join")
            await carol.click(table_message(self.home), label="Join")


def can_see(env: Any, channel_id: int, member: Any) -> bool:
    from simcord.backend.access import can_access_channel

    return can_access_channel(env, channel_id, member)


async def build(env: Any, bot: Any) -> Arena:
    home = make_world(env, NAMES)
    alice, bob, carol, dave, erin, frank = home.members

    async def running(game: str, host: Any, guests: list[Any], **options: Any) -> None:
        await open_table(home, host, game, **options)
        for guest in guests:
            await guest.click(table_message(home), label="Join")

    await running("donguri", alice, [bob, carol], players=3, length="short")
    await running("arsene", dave, [erin, alice], players=3)
    await running("saizen", bob, [dave], players=2)
    await running("othello", carol, [erin])
    await start_final_quest(home)  # alice, bob, carol and dave, in a channel of its own

    lobby = await open_table(home, erin, "donguri", players=3, length="short")  # ends by its clock
    table_id = int(lobby.embeds[0].title.split("#")[-1].split()[0])
    await erin.select(lobby, ["60"], custom_id=f"tt:clock:{table_id}")
    await erin.select(table_message(home), ["end"], custom_id=f"tt:tmo:{table_id}")
    await frank.click(table_message(home), label="Join")
    await add_computer(erin, table_message(home))
    await env.advance_time(121)

    await open_table(home, frank, "donguri", players=3)
    await frank.click(table_message(home), label="Cancel")
    await open_table(home, erin, "donguri", players=4)
    await frank.click(table_message(home), label="Join")

    staff = home.guild.create_role("staff", permissions=discord.Permissions(manage_guild=True))
    olga = home.guild.add_member(env.create_user("olga"), roles=[staff])  # organizes, never clicks
    await olga.slash(home.channel, "tournament create", game="donguri", name="Cup", format="swiss", rounds=2, table_size=3)

    away = env.create_guild()
    lounge = away.create_text_channel("lounge")
    admins = away.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    mallory = away.add_member(env.create_user("mallory"), roles=[admins])
    await mallory.send(lounge, "hello")
    await mallory.slash(lounge, "donguri new", players=3)

    arena = Arena(env, bot, home, away)
    for member in [*home.members, mallory]:
        if member.user.id not in env.backend.dm_channels:
            await member.send_dm("hello")
        guild_id = member.guild.id
        arena.actors += [
            Actor(member.name, member, member.id, guild_id),
            Actor(member.name, member.user, member.id, None),
        ]
    return arena
