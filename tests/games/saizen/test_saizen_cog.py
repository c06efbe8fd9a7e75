"""Saizen through the real bot in SimCord: options, chip steps, refusals with reasons, playoffs, a full game.

The table seed is fixed (``fixed_seed``) so deals and computer moves repeat; the assertions still
read everything from what players see: the table embed and picture, DMs, ephemeral replies, the record.
"""

from __future__ import annotations

import re

import pytest

from tests.support import table as sim

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def fixed_seed(monkeypatch):
    monkeypatch.setattr("bot.tables.desk.secrets.randbits", lambda bits: 424242)


def record(world) -> str:
    return "\n".join(m.content for m in sim.thread(world).history() if m.author.bot)


def field(message, name: str) -> str:
    for embed in message.embeds:
        for f in embed.to_dict().get("fields", []):
            if f["name"].startswith(name):
                return f["value"]
    return ""


def moves(message) -> dict[str, str]:
    """Every enabled move of a prompt (buttons and select options): action -> label."""
    found = {}
    for c in sim.components(message):
        if c.get("type") == 2 and c.get("custom_id", "").startswith("tt:a:") and not c.get("disabled"):
            found[c["custom_id"].split(":", 4)[4]] = c["label"]
        elif c.get("type") == 3 and c.get("custom_id", "").startswith("tt:as:"):
            found.update({o["value"]: o["label"] for o in c["options"]})
    return found


def is_chip_prompt(message) -> bool:
    return "pass" in moves(message)


async def choose(member, message, action: str):
    """Take ``action`` from a prompt, by its button or from its select menu."""
    for c in sim.components(message):
        if c.get("type") == 2 and c.get("custom_id", "").endswith(f":{action}") and not c.get("disabled"):
            return await member.user.click(message, custom_id=c["custom_id"])
        if c.get("type") == 3 and action in [o["value"] for o in c["options"]]:
            return await member.user.select(message, [action], custom_id=c["custom_id"])
    raise AssertionError(f"{action} is not offered")


async def with_two_computers(world, **options):
    alice = world.members[0]
    lobby = await sim.open_table(world, alice, "saizen", players=3, **options)
    await sim.add_computer(alice, lobby)
    await sim.add_computer(alice, sim.table_message(world))
    return alice


async def test_bad_layout_is_refused_and_options_show_in_the_lobby(simcord_env, fixed_seed):
    world = sim.make_world(simcord_env)
    alice, bob = world.members[:2]
    refused = await alice.slash(world.channel, "saizen new", layout="S:low H:huge")
    assert refused.ephemeral and "not valid at “H:huge”" in refused.response.content
    assert not [m for m in world.channel.history() if m.author.bot], "no table was opened"

    lobby = await sim.open_table(world, alice, "saizen", players=2, jokers=2, layout="s:low+may, H:playoff")
    options = sim.embed_text(lobby)
    assert "Jokers: 2" in options
    assert "Starting layout: ♠︎ 小 low, MAY follow · ♥ 決勝 playoff" in options
    await bob.click(lobby, label="Join")
    table = sim.table_message(world)
    cards_text = field(table, "Rule cards")
    assert cards_text.splitlines()[0].startswith(
        "♠︎ 小 low · 後 later · 無視 ignore · MAY follow · 必勝 must win"
    )
    assert "🔒" not in cards_text, "a starting layout is not a moved chip"
    assert table.attachments and (await table.attachments[0].read()).startswith(PNG)
    for member in (alice, bob):
        assert "**Your hand** (27)" in sim.embed_text(sim.dms(member)[-1]), "54 cards dealt to two players"


async def test_chip_move_at_round_start_changes_the_rule_cards(simcord_env, fixed_seed):
    world = sim.make_world(simcord_env)
    alice = await with_two_computers(world)
    assert sim.to_act(world) == [alice]
    dm = sim.dms(alice)[-1]
    assert is_chip_prompt(dm) and "Chip step, round 1" in sim.embed_text(dm)
    before = sim.table_message(world)
    before_png = await before.attachments[0].read()
    offered = {a: label for a, label in moves(dm).items() if a.startswith("chip:")}
    assert 1 <= len(offered) <= 20
    action, label = next(iter(offered.items()))
    suit, change = label.split(" ", 1)
    old, new = change.split(" → ")
    (line,) = [x for x in field(before, "Rule cards").splitlines() if x.startswith(suit)]
    assert old in line and f"{new} 🔒" not in line

    await choose(alice, dm, action)

    after = sim.table_message(world)
    (line,) = [x for x in field(after, "Rule cards").splitlines() if x.lstrip("*").startswith(suit)]
    assert f"{new} 🔒" in line
    assert await after.attachments[0].read() != before_png, "the picture shows the moved chip"
    assert re.search(rf"alice moves the chip on {re.escape(suit)} \S+: now {re.escape(new)}\.", record(world))
    assert not is_chip_prompt(sim.dms(alice)[-1]), "one chip step per player per round"


async def test_greyed_cards_come_with_their_reason_and_refusals_say_why(simcord_env, fixed_seed):
    world = sim.make_world(simcord_env)
    alice = await with_two_computers(world)
    while True:
        assert sim.to_act(world) == [alice]
        dm = sim.dms(alice)[-1]
        if is_chip_prompt(dm):
            await choose(alice, dm, "pass")
        elif field(sim.table_message(world), "On the table") and len(sim.labels(dm)) > len(moves(dm)):
            break
        else:
            await sim.play_from_dm(alice)

    on_table = field(sim.table_message(world), "On the table")
    led = re.match(r"(?:🃏 led as )?(\S+?)(?: led)?:", on_table).group(1)
    shown = await alice.click(sim.table_message(world), label="My hand / Play")
    assert shown.ephemeral
    text = sim.embed_text(shown.response)
    reasons = [line.removeprefix("Greyed — ") for line in text.splitlines() if line.startswith("Greyed — ")]
    assert reasons, text
    playable = set(moves(shown.response).values())
    greyed = [c["label"] for c in sim.components(shown.response) if c.get("disabled")]
    assert greyed and playable
    follow = [r for r in reasons if r.startswith("Must follow")]
    win = [r for r in reasons if r.startswith("Must win")]
    assert len(follow) + len(win) == len(reasons) >= 1
    if follow:
        assert follow[0].startswith(f"Must follow {led}")
    if win:
        winners = re.match(r"Must win \(必勝\): (.+?) would", win[0]).group(1).split()
        assert set(winners) == playable, "must-win names exactly the cards left to play"
    else:
        assert not [card for card in greyed if card.startswith(led)], "only cards off the suit led are greyed"

    typed = await alice.slash(sim.thread(world), "saizen play", move=greyed[0])
    assert typed.ephemeral and typed.response.content in reasons
    assert sim.to_act(world) == [alice], "a refused card changes nothing"

    old_prompt = shown.response
    await sim.play_from_dm(alice)
    await sim.refused_click(alice, old_prompt, "out of date", custom_id=sim.enabled_ids(old_prompt)[0])


async def test_playoff_prompts_only_its_players_and_the_record_shows_it(simcord_env, fixed_seed):
    world = sim.make_world(simcord_env)
    alice, bob, carol = world.members[:3]
    lobby = await sim.open_table(world, alice, "saizen", players=3, layout="*:playoff")
    await bob.click(lobby, label="Join")
    await carol.click(lobby, label="Join")
    for _ in range(200):
        table = sim.table_message(world)
        waiting = field(table, "On the table")
        playoff = re.search(r"⚔ Playoff: (.+) play one more card each", waiting)
        if playoff and len(playoff.group(1).split(" and ")) == 2:
            break
        (member,) = sim.to_act(world)
        dm = sim.dms(member)[-1]
        await (choose(member, dm, "pass") if is_chip_prompt(dm) else sim.play_from_dm(member))
    else:
        raise AssertionError("no two-player playoff came up")
    in_playoff = {m for m in (alice, bob, carol) if m.name in playoff.group(1).split(" and ")}
    (outsider,) = {alice, bob, carol} - in_playoff
    (member,) = sim.to_act(world)
    assert member in in_playoff
    assert "Your playoff card" in sim.embed_text(sim.dms(member)[-1]) and moves(sim.dms(member)[-1])
    assert not moves(sim.dms(outsider)[-1]) and "Waiting for" in sim.embed_text(sim.dms(outsider)[-1])
    trick = re.search(r"(Trick \d+) · Playoff", sim.embed_text(table)).group(1)
    while re.search(rf"{trick} · Playoff", sim.embed_text(sim.table_message(world))):
        (member,) = sim.to_act(world)
        assert member in in_playoff
        await sim.play_from_dm(member)
    (line,) = [x for x in record(world).splitlines() if x.startswith(f"{trick} ·")]
    assert "⚔ playoff on" in line and "→" in line


# A whole game (about 6 s): test_results_cog.py plays one to the end in the fast lane.
@pytest.mark.slow
async def test_full_game_one_human_two_computers(simcord_env, fixed_seed):
    world = sim.make_world(simcord_env)
    alice = await with_two_computers(world, layout="*:playoff")
    chip_steps, moved, shown = 0, [], []
    while sim.to_act(world):
        assert sim.to_act(world) == [alice]
        dm = sim.dms(alice)[-1]
        shown.append(sim.embed_text(dm))
        if is_chip_prompt(dm):
            chips = [a for a in moves(dm) if a.startswith("chip:")]
            assert not set(moved) & set(chips), "a chip moves once per game"
            moved.append(chips[0])
            await choose(alice, dm, chips[0])
            chip_steps += 1
        else:
            await sim.play_from_dm(alice)
    assert chip_steps == 3, "a chip step at the start of each of the three rounds"
    hands = [m for m in sim.dms(alice) if m not in sim.result_dms(alice)]
    assert len(hands) == 3, "one DM per round, edited as the hand changes"
    assert len(sim.result_dms(alice)) == 1, "and one end-of-game DM"
    assert any("'s set (hands pass to the previous seat each round)" in text for text in shown)
    assert "This hand is over" in sim.embed_text(hands[0]), "an earlier round's DM, closed once the next was dealt"

    final = sim.table_message(world)
    assert "Game over" in sim.embed_text(final) and sim.labels(final) == ["Rematch", "Rules", "?"]
    totals = re.findall(r"tricks (\d+) / (\d+) / (\d+) · total \*\*(\d+)\*\*", field(final, "Players"))
    assert len(totals) == 3
    assert all(int(a) + int(b) + int(c) == int(t) for a, b, c, t in totals)

    log = record(world)
    tricks = [line for line in log.splitlines() if line.startswith("Trick ")]
    unwon = [line for line in tricks if "no winner" in line]
    assert sum(int(t[-1]) for t in totals) == len(tricks) - len(unwon)
    for n in (1, 2, 3):
        assert f"**Round {n} over** · tricks:" in log
    # after rounds 1 and 2; after round 3 the game is over and passing the sets changes nothing
    assert log.count("Sets pass to the previous seat:") == 2
    last = log[log.index("**Round 3 over**") :]
    assert "Sets pass to the previous seat:" not in last
    assert "⚔ playoff on" in log
    assert "**Tricks per round:**" in log and "Final result" in log
