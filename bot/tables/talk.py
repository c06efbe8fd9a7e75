"""What was said at a table (Final Quest's own questions): table talk, not game state, so the
engine never holds it. The platform keeps each text under the number of the move it came with
(the move's index in the engine's history), so a game can quote it wherever that move shows, also
once it is answered.

The table's ``talk`` column holds a JSON object ``{"<move>": text}``; a plain text stored before
is the latest words, known under no move.
"""

from __future__ import annotations

import json

KEPT = 40  # texts kept per table: more than a game's facts ever show at once


def _parsed(raw: str | None) -> dict[str, object] | None:
    try:
        found = json.loads(raw) if raw else None
    except ValueError:
        return None
    return found if isinstance(found, dict) else None


def said(raw: str | None) -> dict[int, str]:
    """Each text by the move it came with."""
    found = _parsed(raw) or {}
    return {int(k): str(v) for k, v in found.items() if k.isdigit()}


def latest(raw: str | None) -> str | None:
    """The words said last (what an open question shows)."""
    if _parsed(raw) is None:
        return raw or None  # stored before texts were kept by move
    texts = said(raw)
    return texts[max(texts)] if texts else None


def with_said(raw: str | None, move: int, text: str) -> str:
    """The column's value once ``text`` is said with move number ``move``."""
    texts = said(raw)
    texts[move] = text
    kept = sorted(texts)[-KEPT:]
    return json.dumps({str(k): texts[k] for k in kept}, ensure_ascii=False)
