"""A prompt's buttons and menus as Discord's component JSON, in the place of a ``discord.ui.View``.

A prompt is rendered for every seat whose turn starts and in every click's answer. Building
discord.ui items for a hand of buttons cost more than the rest of the render, and nothing reads
them back: discord.py finds every component again by its custom id (``components``). The JSON
is the same as discord.py's (a test compares them).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import discord

from bot.core.games import Choice, Menu, Prompt
from bot.core.i18n import Lang

MAX_BUTTONS = 20
STYLES = {"primary": 1, "secondary": 2, "success": 3, "danger": 4}
ROW = 5  # buttons per action row
ROWS = 5  # action rows per message


class Rows:
    """What discord.py needs of a view to send it: its components, and that it is never stored as
    a live view (``is_finished``)."""

    __discord_ui_view__ = True
    timeout = None

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        self.rows = rows

    def to_components(self) -> list[dict[str, Any]]:
        return self.rows

    def has_components_v2(self) -> bool:
        return False

    def is_finished(self) -> bool:
        return True

    def is_dispatchable(self) -> bool:
        return False


@lru_cache(maxsize=512)
def _emoji(text: str) -> dict[str, Any]:
    emoji: dict[str, Any] = dict(discord.PartialEmoji.from_str(text).to_dict())
    return emoji


def choice_rows(table_id: int, version: int, prompt: Prompt, tr: Lang) -> Rows:
    """Up to ``MAX_BUTTONS`` choices as buttons, five to a row (more become one select), then one
    select per menu in the rows left."""
    menus = list(prompt.menus)
    rows: list[dict[str, Any]] = []
    if len(prompt.choices) > MAX_BUTTONS:
        menus.insert(0, Menu(tr("prompt.choose"), prompt.choices))
    elif prompt.choices:
        buttons = [_button(table_id, version, n, choice) for n, choice in enumerate(prompt.choices)]
        rows = [{"type": 1, "components": buttons[i : i + ROW]} for i in range(0, len(buttons), ROW)]
    used = len(rows)
    for n, menu in enumerate(menus[: ROWS - used]):
        playable = [c for c in menu.choices if c.action is not None][:25]
        if not playable:
            continue
        options = []
        for c in playable:
            option: dict[str, Any] = {"label": c.label[:100], "value": c.action, "default": False}
            if c.emoji:
                option["emoji"] = _emoji(c.emoji)
            options.append(option)
        select = {
            "type": 3,
            "custom_id": f"tt:as:{table_id}:{version}:{n}",
            "min_values": 1,
            "max_values": 1,
            "disabled": False,
            "required": True,
            "placeholder": menu.placeholder[:150],
            "options": options,
        }
        rows.append({"type": 1, "components": [select]})
    return Rows(rows)


def _button(table_id: int, version: int, n: int, choice: Choice) -> dict[str, Any]:
    if choice.action is None:
        button = {"type": 2, "style": 2, "disabled": True, "custom_id": f"tt:x:{table_id}:{n}"}
    else:
        style = STYLES.get(choice.style, 1)
        custom_id = f"tt:a:{table_id}:{version}:{choice.action}"
        button = {"type": 2, "style": style, "disabled": False, "custom_id": custom_id}
    label = choice.label[:80]
    if label:
        button["label"] = label
    if choice.emoji:
        button["emoji"] = _emoji(choice.emoji)
    return button
