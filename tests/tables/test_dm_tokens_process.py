"""A member's turn that comes back is shown in their DM through the token of their last click on it
(an interaction webhook, which Discord's global limit does not count), and through the bot's own
edit once that token has expired: either way the member plays from their DM."""

from __future__ import annotations

import random
from collections import Counter

from tests.support.players import bot_with_players

MOVES = 12


async def play(fake, players, prefix: str) -> tuple[list, list, list]:
    """Three members open a table and make ``MOVES`` moves at a member's pace, each waiting until
    Discord has been told everything: (members, clicks, the calls made meanwhile)."""
    members = [fake.add_member(f"{prefix}{i}") for i in range(3)]
    table = await players.open_donguri(fake.add_text_channel("games"), members)
    await players.wait_started(table)
    await fake.quiet(1.0, timeout=30)
    start = len(fake.calls)
    clicks = []
    players.patience = 3.0  # a DM put off by its channel's budget still shows the turn in time
    for _ in range(MOVES):
        click = await players.move(table)
        assert click is not None and click.accepted, fake.summary()
        clicks.append(click)
        await fake.quiet(0.4, timeout=30)
    return members, clicks, fake.calls[start:]


def token_edits(fake, calls) -> Counter:
    """Token edits of a DM, by whose click the token came from."""
    made = Counter()
    for call in calls:
        if call.kind == "followup.edit":
            sent = fake.sent[call.path.split("/")[3]]
            made[sent.user_id] += 1
            assert sent.custom_id.startswith("tt:a:"), "only a move's token, clicked in the DM it edits"
    return made


async def test_a_turn_that_comes_back_is_shown_through_the_members_last_click(tmp_path):
    async with bot_with_players(tmp_path, random.Random(7)) as (fake, bot, players):
        members, clicks, calls = await play(fake, players, "t")

        assert [c.via for c in clicks] == ["dm"] * MOVES, "every member played from their DM"
        made = token_edits(fake, calls)
        bot_edits = sum(1 for c in calls if c.label == "dm.message.edit")
        # Once each member has clicked, a turn that comes back is shown with their token; the bot's
        # own edits are a new deal's first turns, before anyone has clicked its DMs.
        assert sum(made.values()) >= MOVES - len(members) - bot_edits
        assert sum(made.values()) > bot_edits, (made, bot_edits)
        assert set(made) <= {m.id for m in members}
        assert not bot.errors(), "\n".join(bot.errors())


async def test_an_expired_token_gives_way_to_the_bots_own_edit(tmp_path):
    async with bot_with_players(tmp_path, random.Random(8)) as (fake, bot, players):
        fake.token_life = 0.3  # Discord's 15 minutes, shortened: every token is stale by the next turn
        _, clicks, calls = await play(fake, players, "x")

        assert [c.via for c in clicks] == ["dm"] * MOVES, "the DMs still showed each turn"
        refused = [c for c in calls if c.kind == "followup.edit" and c.status == 401]
        assert refused, "the bot tried its member's token first"
        assert sum(1 for c in calls if c.kind == "followup.edit" and c.status == 200) == 0
        assert sum(1 for c in calls if c.label == "dm.message.edit") >= len(refused)
        assert not bot.errors(), "\n".join(bot.errors())
