"""Cog tests drive the real bot through SimCord, with a fresh SQLite file per test."""

from __future__ import annotations

import pytest

from bot.app import create_bot
from bot.config import Config


@pytest.fixture
def bot_config(tmp_path) -> Config:
    return Config(token="unused", database=str(tmp_path / "tabletop.sqlite3"))


@pytest.fixture
def simcord_bot(bot_config):
    return create_bot(bot_config)
