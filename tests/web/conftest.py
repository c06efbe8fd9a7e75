"""The web pages over a real SQLite store and the platform's own services (no Discord)."""

from __future__ import annotations

import pytest_asyncio

from bot.storage.store import Store
from tests.support.browser import CHROMIUM, require_browser
from tests.support.platform import platform
from tests.support.web import make_site, register_games


@pytest_asyncio.fixture
async def tables(tmp_path):
    """The platform on a fresh database, with every game registered."""
    register_games()
    store = await Store.open(str(tmp_path / "web.sqlite3"))
    yield platform(store)
    await store.close()


@pytest_asyncio.fixture
async def site(tables):
    return make_site(tables.store, tables)


@pytest_asyncio.fixture
async def browser():
    """Debian's chromium through Playwright, for the browser tests (tests/support/browser.py)."""
    api = require_browser()
    async with api.async_playwright() as playwright:
        chromium = await playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        await chromium.close()
