"""Nothing on a live page reveals a hidden card, in any game.

As the computer players' test does (``tests/ai/test_ai_no_peeking.py``), a game is set beside a
lookalike (``tests.support.lookalikes``): a game of the rules whose hidden cards differ but that a
seat cannot tell apart from it, built by the tests' own code. A spectator knows less than any seat,
so the live page of the one and of the other, and their pictures, must be the same bytes: anything
drawn from a hidden card would differ. The page is asked of the server with the lookalike put in
the place of the stored game (the engine the pages read).
"""

from __future__ import annotations

import random
import re

import pytest

from tests.support.lookalikes import lookalike, others_view
from tests.support.web import GAMES, client, play, seated_table

#: Moves made before each look at the page: early in a deal, and later.
STOPS = (1, 4, 9, 17, 30)
#: Three Saizen players: with two, every card one cannot see is in the other's hand, and a
#: lookalike would have to change what that one holds, which is no longer the same game to them.
PLAYERS = {"saizen": 3}


async def page_and_picture(web, site, table_id: int, language: str) -> tuple[str, bytes | None]:
    site.drawings.clear()
    page = await (await web.get(site.path(table_id) + f"?lang={language}")).text()
    src = re.search(r'<img src="([^"]+)"', page)
    picture = await (await web.get(src.group(1).replace("&amp;", "&"))).read() if src else None
    return page, picture


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_the_live_page_is_the_same_for_games_that_differ_only_in_hidden_cards(tables, site, game):
    rng = random.Random(game)
    compared = 0
    async with client(site) as web:
        for seed in (5, 6):
            table_id = await seated_table(tables, game, seed=seed, players=PLAYERS.get(game))
            made = 0
            for stop in STOPS:
                await play(tables, table_id, stop - made, seed=seed)
                made = stop
                table = await tables.tables.table(table_id)
                if table.status != "running":
                    break
                engine = await tables.tables.engine(table)
                if not engine.hidden_from(None):
                    assert game == "othello_torite", f"{game} hides nothing from a spectator?"
                    continue
                twin = next(
                    (t for s in rng.sample(range(engine.num_players), engine.num_players) if (t := lookalike(engine, s, rng))),
                    None,
                )
                if twin is None:
                    continue
                assert any(others_view(twin, s) != others_view(engine, s) for s in range(engine.num_players))
                for language in ("en", "ja"):
                    real = await page_and_picture(web, site, table_id, language)
                    tables.tables.engines[table_id] = (table.version, twin)  # what the pages read
                    assert await page_and_picture(web, site, table_id, language) == real, (game, stop, language)
                    tables.tables.forget(table_id)
                compared += 1
    if game == "othello_torite":
        assert compared == 0, "Othello de Torite hides nothing: every disc is on the board or counted"
    else:
        assert compared >= 4, f"only {compared} positions of {game} had a lookalike"
