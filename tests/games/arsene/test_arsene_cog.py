"""Arsène through the real bot in SimCord: the shop board, private choices, pushing, the dummy."""

from __future__ import annotations

import pytest

from bot.core import cards
from tests.support import table as sim
from tests.support.arsene import engine, first_clockwise_target, record, shown_labels, table_id

SEED = 20240611


@pytest.fixture
def fixed_seed(monkeypatch):
    """Same shuffle and computer moves every run, so a test never depends on luck."""
    monkeypatch.setattr("bot.tables.desk.secrets.randbits", lambda _bits: SEED)


def enabled_labels(message) -> list[str]:
    return [c.get("label") for c in sim.components(message) if c.get("type") == 2 and not c.get("disabled")]


def dm_text(member) -> str:
    return sim.embed_text(sim.dms(member)[-1])


async def check_board_attached(world) -> None:
    message = sim.table_message(world)
    (attachment,) = message.attachments
    assert attachment.filename == "table.png"
    assert (await attachment.read()).startswith(b"\x89PNG")
    assert (message.embeds[0].image.url or "").endswith("table.png")


# A whole game (about 7 s): test_results_cog.py plays one to the end in the fast lane.
@pytest.mark.slow
async def test_four_players_one_human_three_computers_play_a_whole_game(simcord_env, fixed_seed):
    world = sim.make_world(simcord_env)
    alice = world.members[0]
    lobby = await sim.open_table(world, alice, "arsene", players=4)
    assert "Basic rules" in sim.embed_text(lobby)
    for _ in range(3):
        await sim.add_computer(alice, sim.table_message(world))
    table = sim.embed_text(sim.table_message(world))
    assert "Jewel shops" in table and "Thieves" in table and "Dealer:" in table
    await check_board_attached(world)

    seen: set[str] = set()
    moves = 0
    while sim.to_act(world):
        assert sim.to_act(world) == [alice], "computers act at once; only the human is waited for"
        game = await engine(world)
        phase = game.phase
        seen.add(phase)
        dm = sim.dms(alice)[-1]
        title = sim.table_message(world).embeds[0].title
        if game.trumps is not None:
            assert ("Trumps: ♦" in title) == game.trumps and ("No trumps" in title) != game.trumps
        if phase == "aside_pick":
            assert enabled_labels(dm) == ["Face-down card 1", "Face-down card 2", "Face-down card 3"]
            assert "is taking an aside card" in sim.embed_text(sim.table_message(world))
        elif phase == "push":
            names = {s.position: s.name for s in (await world.env.bot.service.table(table_id(world))).seats}
            target = first_clockwise_target(game.public_view(), game.to_act()[0])
            assert sim.labels(dm) == ["Take", f"Push to 🤖 Computer {names[target].split(':')[1]}"]
        elif phase == "play":
            playable = enabled_labels(dm)
            blocked = [c for c in game.hands[game.to_act()[0]] if cards.label(c) not in playable]
            if blocked and "refused" not in seen:
                seen.add("refused")
                suit = cards.SUIT_SYMBOLS[game.trick[0][1][0]]
                assert f"You must follow suit ({suit})" in sim.embed_text(dm)
                refused = await alice.slash(world.channel, "arsene play", move=f"play:{blocked[0]}")
                assert refused.ephemeral and f"You must follow suit ({suit})" in refused.response.content
                assert len((await engine(world)).history) == len(game.history), "a refusal changes nothing"
        await sim.play_from_dm(alice)
        moves += 1
        assert moves < 400
    game = await engine(world)
    assert game.is_terminal()
    assert {"aside_pick", "trump_choice", "play", "push", "refused"} <= seen, "every private choice came up"
    final = sim.table_message(world)
    text = sim.embed_text(final)
    assert "Game over" in text and "Final result" in text and "🥇 **" in text
    assert "Dealer:" not in text, "the game-over board drops Dealer/Leader"
    assert sim.labels(final) == ["Rematch", "Rules", "?"]
    await check_board_attached(world)
    log = record(world)
    assert log.count("scored:**") == game.deal_number
    assert "The game is over." in log and "Final result" in log
    assert "🔵" in log and "→ shop" in log and "⇒ 💰" in log, "the deal summary: tricks → shop → chips"
    hands = [m for m in sim.dms(alice) if m not in sim.result_dms(alice)]
    assert len(hands) == game.deal_number, "one DM per deal, edited as the deal goes"
    assert len(sim.result_dms(alice)) == 1, "and one end-of-game DM"


async def test_three_humans_choose_the_dummy_cards_secretly_then_play_a_deal(simcord_env, fixed_seed):
    world = sim.make_world(simcord_env)
    alice, bob, carol = world.members[:3]
    lobby = await sim.open_table(world, alice, "arsene", players=3, advanced=True)
    assert "Advanced rules" in sim.embed_text(lobby)
    await bob.click(lobby, label="Join")
    await carol.click(lobby, label="Join")
    players = [alice, bob, carol]

    # the blind aside pick: three face-down buttons for the dealer's left neighbour only
    (picker,) = sim.to_act(world)
    assert enabled_labels(sim.dms(picker)[-1]) == ["Face-down card 1", "Face-down card 2", "Face-down card 3"]
    for other in set(players) - {picker}:
        assert not sim.enabled_ids(sim.dms(other)[-1])
    assert f"{picker.name} is taking an aside card" in sim.embed_text(sim.table_message(world))
    await sim.play_from_dm(picker)
    game = await engine(world)
    assert f"You took {cards.label(game.picked_card)}" in dm_text(picker)
    for other in set(players) - {picker}:
        assert cards.label(game.picked_card) not in dm_text(other)
    assert "is choosing the trump card" in sim.embed_text(sim.table_message(world))
    await sim.play_from_dm(picker)

    # the dummy choice: everyone at once, each in private
    game = await engine(world)
    public_card = game.trump_card or game.shown_card
    table = sim.embed_text(sim.table_message(world))
    assert cards.label(public_card) in table, "the laid trump card or the shown card is public"
    hidden = set(game.aside) | {c for h in game.hands for c in h}
    assert not shown_labels(table, hidden), "the other aside cards and the hands never show"
    assert set(sim.to_act(world)) == set(players)
    for member in players:
        assert f"{member.name} is choosing a card for the dummy" in table
        assert len(sim.enabled_ids(sim.dms(member)[-1])) == 11
        assert "Give one card to the dummy" in dm_text(member)
    given = {}
    for member in (bob, carol):
        before = len((await engine(world)).history)
        chosen = await sim.play_from_dm(member)
        given[member] = chosen.rsplit(":", 1)[1]
        assert len((await engine(world)).history) == before + 1
        assert f"You gave {cards.label(given[member])} to the dummy" in dm_text(member)
        assert not sim.enabled_ids(sim.dms(member)[-1])
    table = sim.embed_text(sim.table_message(world))
    assert sim.to_act(world) == [alice]
    assert "alice is choosing a card for the dummy" in table and "bob is choosing" not in table
    assert "bob** ·" in table and "✓ card given" in table
    assert not shown_labels(table, given.values()), "the table shows who chose, not what"
    assert not shown_labels(dm_text(alice), given.values())
    given[alice] = (await sim.play_from_dm(alice)).rsplit(":", 1)[1]

    # play begins; the dummy starts with 1 trick; its cards are never shown
    game = await engine(world)
    assert game.phase == "play" and game.dummy_tricks == 1
    table = sim.embed_text(sim.table_message(world))
    assert "Trick 1/10" in table and "the dummy** · 1 trick" in table
    assert "stacks the three cards face down" in record(world)
    secret = set(given.values()) | set(game.aside)
    for _ in range(200):
        if "Deal 1 scored" in record(world):
            break
        for member in players:
            assert not shown_labels(dm_text(member), secret - {given[member]})
        assert not shown_labels(sim.embed_text(sim.table_message(world)), secret)
        (member,) = sim.to_act(world)
        await sim.play_from_dm(member)
    log = record(world)
    deal_one = log[: log.index("Deal 1 scored")]
    assert "Trick 10:" in deal_one and "Trick 11" not in deal_one
    assert not shown_labels(deal_one, secret), "the dummy's and the aside cards never reach the record"
    summary = log[log.index("Deal 1 scored") :]
    assert "🎭 the dummy:" in summary
    for member in players:
        assert f"**{member.name}**:" in summary
    assert all(len(sim.dms(m)) == 2 for m in players), "a new DM for the new deal"


async def test_push_is_offered_only_to_the_winner_with_only_the_legal_target(simcord_env, fixed_seed):
    world = sim.make_world(simcord_env)
    alice, bob = world.members[:2]
    lobby = await sim.open_table(world, alice, "arsene", players=4)
    await bob.click(lobby, label="Join")
    await sim.add_computer(alice, sim.table_message(world))
    await sim.add_computer(alice, sim.table_message(world))
    humans = {alice, bob}
    for _ in range(600):
        (member,) = sim.to_act(world)
        if "Take" in sim.labels(sim.dms(member)[-1]):
            break
        for other in humans - {member}:
            assert not {"Take"} & set(sim.labels(sim.dms(other)[-1]))
        await sim.play_from_dm(member)
    else:
        pytest.fail("no human was offered a push")

    winner, other = member, (humans - {member}).pop()
    game = await engine(world)
    public = game.public_view()
    seat = game.to_act()[0]
    target = first_clockwise_target(public, seat)
    names = {s.position: s.name for s in (await world.env.bot.service.table(table_id(world))).seats}
    target_name = names[target]
    assert sim.labels(sim.dms(winner)[-1]) == ["Take", f"Push to {target_name}"], "only the legal choices"
    assert "You won the trick" in dm_text(winner)
    assert not {lab for lab in sim.labels(sim.dms(other)[-1]) if lab.startswith(("Take", "Push"))}
    ephemeral = await other.click(sim.table_message(world), label="My hand / Play")
    assert not {lab for lab in sim.labels(ephemeral.response) if lab.startswith(("Take", "Push"))}
    table = sim.embed_text(sim.table_message(world))
    assert f"{winner.name} won the trick and is deciding whether to push it" in table
    assert "Push to" not in table and sim.to_act(world) == [winner]

    offered = await winner.autocomplete(world.channel, "arsene play", "move", "")
    assert [(c["name"], c["value"]) for c in offered] == [
        ("Take", "take"),
        (f"Push to {target_name}", f"push:{target}"),
    ]
    assert await other.autocomplete(world.channel, "arsene play", "move", "") == []
    wrong = next(s for s in names if s not in (seat, target))
    refused = await winner.slash(world.channel, "arsene play", move=f"push:{wrong}")
    assert refused.ephemeral and f"You may only push this trick to {target_name}." in refused.response.content
    assert sim.to_act(world) == [winner]

    await winner.user.click(sim.dms(winner)[-1], label=f"Push to {target_name}")
    # The trick's line waited for the push: one line, as if both had reached the record at once.
    assert f"**{winner.name}** wins with" in record(world).splitlines()[-1]
    assert record(world).splitlines()[-1].endswith(f" and pushes it to **{target_name}**.")
    after = await engine(world)
    assert after.tricks[target] == public["players"][target]["tricks"] + 1
    last = sim.embed_text(sim.table_message(world))
    assert f"pushed it to **{target_name}**" in last or "Last trick" not in last


async def test_rules_command_explains_every_part(simcord_env):
    world = sim.make_world(simcord_env)
    result = await world.members[0].slash(world.channel, "arsene rules")
    assert result.ephemeral
    text = sim.embed_text(result.response)
    for heading in ("Goal", "Trumps", "Tricks and pushing", "Chips after the deal", "Three players"):
        assert heading in text


# A whole advanced game (about 15 s), slow like the one above.
@pytest.mark.slow
async def test_three_players_with_two_computers_advanced_game_to_the_end(simcord_env, fixed_seed):
    world = sim.make_world(simcord_env)
    alice = world.members[0]
    lobby = await sim.open_table(world, alice, "arsene", players=3, advanced=True)
    await sim.add_computer(alice, lobby)
    await sim.add_computer(alice, sim.table_message(world))
    dummy_rounds = 0
    for _ in range(400):
        if not sim.to_act(world):
            break
        assert sim.to_act(world) == [alice]
        game = await engine(world)
        if game.phase == "dummy_choice":
            dummy_rounds += 1
            table = sim.embed_text(sim.table_message(world))
            assert table.count("✓ card given") == 2 and "alice is choosing a card for the dummy" in table
            assert not shown_labels(table, game.dummy_cards.values())
        await sim.play_from_dm(alice)
    game = await engine(world)
    assert game.is_terminal() and dummy_rounds == game.deal_number
    log = record(world)
    assert log.count("🎭 the dummy:") == game.deal_number
    assert "Final result" in log
