"""A member's turn that comes back is shown in their DM through the token of their last click on it
(an interaction webhook, which Discord's global limit does not count), and through the bot's own
edit once that token has expired: either way the member plays from their DM. The token is stored
with the move, so a bot killed and started again still uses it. A member whose DMs are closed
finds the private hand they last played from redrawn the same way."""

from __future__ import annotations

import random
from collections import Counter

from tests.support import audit
from tests.support.players import bot_with_players

MOVES = 12


async def play(fake, players, prefix: str, table=None, moves: int = MOVES):
    """Three members open a table (or go on at ``table``) and make ``moves`` moves at a member's
    pace, each waiting until Discord has been told everything: (members, clicks, the calls made
    meanwhile, the table)."""
    members = [fake.add_member(f"{prefix}{i}") for i in range(3)]
    if table is None:
        table = await players.open_donguri(fake.add_text_channel("games"), members)
        await players.wait_started(table)
    await fake.quiet(1.0, timeout=30)
    start = len(fake.calls)
    clicks = []
    players.patience = 3.0  # a DM put off by its channel's budget still shows the turn in time
    for _ in range(moves):
        click = await players.move(table)
        assert click is not None and click.accepted, fake.summary()
        clicks.append(click)
        await fake.quiet(0.4, timeout=30)
    return members, clicks, fake.calls[start:], table


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
        members, clicks, calls, _ = await play(fake, players, "t")

        assert [c.via for c in clicks] == ["dm"] * MOVES, "every member played from their DM"
        made = token_edits(fake, calls)
        bot_edits = sum(1 for c in calls if c.label == "dm.message.edit")
        # Once each member has clicked, a turn that comes back is shown with their token; the bot's
        # own edits are a new deal's first turns, before anyone has clicked its DMs.
        assert sum(made.values()) >= MOVES - len(members) - bot_edits
        assert sum(made.values()) > bot_edits, (made, bot_edits)
        assert set(made) <= {m.id for m in members}
        assert not bot.errors(), "\n".join(bot.errors())


async def test_a_bot_killed_and_started_again_still_shows_turns_through_the_members_clicks(tmp_path):
    async with bot_with_players(tmp_path, random.Random(10)) as (fake, bot, players):
        members, _, _, table = await play(fake, players, "k", moves=4)  # each member has clicked
        await bot.kill()
        await bot.start_ready()
        _, clicks, calls, _ = await play(fake, players, "k", table=table, moves=6)

        assert [c.via for c in clicks] == ["dm"] * 6, "every member played from their DM"
        made = token_edits(fake, calls)
        assert not [c for c in calls if c.label == "dm.message.edit"], "no turn needed the bot's own edit"
        # Each turn that passed to another member was shown through a token (a member who won the
        # trick leads the next: the answer to their own click showed that turn).
        passed = sum(1 for a, b in zip(clicks, clicks[1:], strict=False) if a.user.id != b.user.id)
        assert passed >= 2 and sum(made.values()) >= passed, (made, passed)
        assert not bot.errors(), "\n".join(bot.errors())


async def test_an_expired_token_gives_way_to_the_bots_own_edit(tmp_path):
    async with bot_with_players(tmp_path, random.Random(8)) as (fake, bot, players):
        fake.token_life = 0.3  # Discord's 15 minutes, shortened: every token is stale by the next turn
        _, clicks, calls, _ = await play(fake, players, "x")

        assert [c.via for c in clicks] == ["dm"] * MOVES, "the DMs still showed each turn"
        refused = [c for c in calls if c.kind == "followup.edit" and c.status == 401]
        assert refused, "the bot tried its member's token first"
        assert sum(1 for c in calls if c.kind == "followup.edit" and c.status == 200) == 0
        assert sum(1 for c in calls if c.label == "dm.message.edit") >= len(refused)
        assert not bot.errors(), "\n".join(bot.errors())


async def test_a_member_with_closed_dms_plays_on_from_the_private_hand_redrawn_for_them(tmp_path):
    async with bot_with_players(tmp_path, random.Random(9)) as (fake, bot, players):
        members = [fake.add_member(f"c{i}") for i in range(3)]
        closed = members[0]
        fake.model.users[closed.id].dms_open = False
        table = await players.open_donguri(fake.add_text_channel("games"), members)
        await fake.wait_until(
            lambda: all(players.hand_dm(table, u) for u in members[1:]), timeout=20, what="the others' hands"
        )
        await fake.quiet(1.0, timeout=30)
        players.patience = 3.0
        private = None  # the private hand (ephemeral) the member last pressed a card on
        from_it = 0
        for _ in range(60):  # to the end of the first deal
            truth = audit.read_tables(bot.database, table.id)[table.id]
            if truth.engine.deal_number > 1:
                break
            (seat,) = truth.engine.to_act()
            if private is not None and truth.seats[seat].user_id == closed.id:
                hand = fake.message(private)
                ids = hand.custom_ids(f"tt:a:{table.id}:{len(truth.engine.history)}:")
                assert ids, f"their private hand shows their turn: {hand.text()}"
                click = await players._press(table, closed, hand, ids, "hand", True)
                from_it += 1
            else:
                click = await players.move(table)
            assert click is not None and click.accepted, fake.summary()
            if click.user is closed:
                private = click.sent.message_id
            await fake.quiet(0.4, timeout=30)

        assert from_it >= 3, "the member's turn came back to the hand they played from"
        (mine,) = [s.position for s in truth.seats if s.user_id == closed.id]
        dealt = len(truth.engine.observation(mine)["hand"])
        assert f"({dealt} cards)" in fake.message(private).text(), "the new deal, shown where they play"
        assert not fake.dms(closed.id)
        assert not bot.errors(), "\n".join(bot.errors())
