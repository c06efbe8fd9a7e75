"""Errors a user may see: each carries a message key, shown ephemerally; nothing changes."""

from __future__ import annotations

from typing import Any


class UserError(Exception):
    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params
