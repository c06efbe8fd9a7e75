"""The replay of every game steps through the stored game exactly: step N is the engine replayed to
N (the same public view, every seat's view, whose turn), its page shows every seat's hand as
someone looking on sees it (named, never "your hand"), and the last step is the game's end with its
stored result."""

from __future__ import annotations

import html
import json
import re

import pytest

from bot.core.games import REGISTRY
from bot.core.i18n import Lang
from bot.tables import render
from bot.web.markup import to_html
from tests.support.web import GAMES, client, play, seated_table


def snapshot(engine) -> str:
    views = [engine.public_view(), engine.to_act(), engine.is_terminal()]
    views += [engine.observation(s) for s in range(engine.num_players)]
    return json.dumps(views, sort_keys=True)


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_every_step_of_the_replay_is_the_engine_replayed_to_it(tables, site, game):
    table_id = await seated_table(tables, game, seed=21)
    await play(tables, table_id, seed=22)
    table = await tables.tables.table(table_id)
    assert table.status == "finished"
    log = await tables.store.actions(table_id)
    replay = await site.replay(table)
    assert replay.length == len(log) and [(s.seat, s.action) for s in replay.steps] == log

    expected = REGISTRY[game].engine(len(table.seats), table.seed, table.options)
    for n in range(len(log) + 1):
        if n:
            expected.apply(*log[n - 1])
        assert snapshot(replay.state(n)) == snapshot(expected), f"step {n}"
    assert expected.is_terminal() and expected.results() == {
        k: v for k, v in json.loads(table.result).items() if k in expected.results()
    }

    ui, tr = REGISTRY[game], Lang("en")
    names = render.seat_names(table, tr)
    async with client(site) as web:
        for n in sorted({0, 1, len(log) // 2, len(log) - 1, len(log)}):
            answer = await web.get(site.path(table_id, f"/replay/{n}.json") + "?lang=en")
            assert answer.status == 200
            step = await answer.json()
            assert (step["step"], step["total"]) == (n, len(log))
            state = REGISTRY[game].engine.replay(len(table.seats), table.seed, table.options, log[:n])
            hands = re.findall(r'<article class="hand">.*?</article>', step["html"], re.S)
            assert len(hands) == len(table.seats)
            for seat, hand in enumerate(hands):  # every hand, seen from outside: named, never "your"
                assert to_html(ui.onlooker(state, seat, names, tr).text) in hand, (n, seat)
                assert html.escape(names[seat]) in hand.split("</h3>")[1], "the text names its seat"
                assert not re.search(r"\b[Yy]ou(r|rs)?\b", html.unescape(hand)), (n, seat, hand)
                held = state.observation(seat).get("hand")
                if held:  # every card it holds, the ones it could play marked
                    assert hand.count("<li") == len(held), (n, seat)
                    legal = set(state.legal_actions(seat))
                    assert hand.count('<li class="playable">') == len({a for a in legal if a.removeprefix("play:") in held})
            ja = await (await web.get(site.path(table_id, f"/replay/{n}.json") + "?lang=ja")).json()
            assert "あなた" not in ja["html"] and ja["html"].count('<article class="hand">') == len(table.seats)
            if n:
                acting = names[log[n - 1][0]]
                assert re.search(rf'<p class="move">{re.escape(html.escape(acting))} played ', step["html"])
        last = await (await web.get(site.path(table_id, f"/replay/{len(log)}.json"))).json()
    final = render.table_view(table, expected, tr)
    assert html.escape(render.game_title(table, tr)) in last["html"] and "Final result" in last["html"]
    assert last["title"] == re.sub(r"\*\*", "", final.title)


async def test_the_replay_page_has_its_controls_and_each_deals_scores(tables, site):
    table_id = await seated_table(tables, "donguri", seed=4)
    await play(tables, table_id, seed=5)
    length = len(await tables.store.actions(table_id))
    async with client(site) as web:
        page = await (await web.get(site.path(table_id, "/replay") + "?lang=en&step=7")).text()
        ja = await (await web.get(site.path(table_id, "/replay") + "?lang=ja")).text()
    assert f'<input type="range" id="step" min="0" max="{length}" value="7" aria-label="Move">' in page
    for key, target in (("first", 0), ("previous", 6), ("next", 8), ("last", length)):
        assert re.search(rf'data-go="{key}" href="\?step={target}" aria-label="[^"]+"', page), key
    assert "Move 7 of " in page and "/static/replay.js" in page
    scores = page.split('<section class="scores">')[1]
    deals = re.findall(r'data-step="(\d+)">Deal (\d+)</a>', scores)
    assert [d for _, d in deals] == ["1", "2", "3", "4", "5", "6"], "a short game is six deals"
    assert int(deals[-1][0]) == length
    for deal in range(1, 7):
        assert f"Deal {deal} scored" in scores
    assert "ディールごとの得点" in ja and "手目" in ja and "🏁 <strong>最終結果</strong>" in ja


@pytest.mark.parametrize(
    ("game", "en", "ja"),
    [
        ("saizen", ("Scores by round", "Round 1", "Round 3"), ("ラウンドごとの得点", "ラウンド1", "ラウンド3")),
        ("othello_torite", ("<h2>Result</h2>", "The end of the game"), ("<h2>結果</h2>", "ゲームの終わり")),
    ],
)
async def test_the_replays_scores_count_in_the_games_own_parts(tables, site, game, en, ja):
    """Review #10: Saizen plays rounds, not deals; a game of one part has a result, not scores by deal."""
    table_id = await seated_table(tables, game, seed=21)
    await play(tables, table_id, seed=22)
    async with client(site) as web:
        pages = {lang: await (await web.get(site.path(table_id, "/replay") + f"?lang={lang}")).text() for lang in ("en", "ja")}
    for language, expected in (("en", en), ("ja", ja)):
        scores = pages[language].split('<section class="scores">')[1].split("</section>")[0]
        assert all(text in scores for text in expected), (language, scores)
        assert "Deal" not in scores and "ディール" not in scores
    assert "<h2>What each player holds</h2>" in pages["en"] and "<h2>各プレイヤーの手元</h2>" in pages["ja"]


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_no_hand_is_shown_while_the_game_is_played(tables, site, game):
    table_id = await seated_table(tables, game, seed=21)
    await play(tables, table_id, 4, seed=22)
    async with client(site) as web:
        for language in ("en", "ja"):
            page = await (await web.get(site.path(table_id) + f"?lang={language}")).text()
            assert '<article class="hand">' not in page and "/replay" not in page
            for path in ("/replay", "/replay/2.json", "/replay/0.json"):
                assert (await web.get(site.path(table_id, path) + f"?lang={language}")).status == 404, path


def test_a_game_that_says_nothing_of_its_own_shows_a_seats_choices_in_the_third_person():
    from bot.core.games import Choice, GameUI, Prompt

    class Plain(GameUI):
        def prompt(self, engine, seat, names, tr):
            return Prompt("**Your turn.**", [Choice("a", "Ace"), Choice(None, "King")])

    seen = Plain().onlooker(None, 1, ["alice", "bob"], Lang("en"))
    assert seen.text == "What bob may choose from:" and [c.label for c in seen.choices] == ["Ace", "King"]
    assert Plain().onlooker(None, 0, ["alice", "bob"], Lang("ja")).text == "aliceが選べるもの:"
