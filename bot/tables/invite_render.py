"""What an invite-only lobby shows of its invitations: each member invited and their answer, so
that the host (and everyone reading the channel) sees whom the table still waits for; and why a
lobby closed."""

from __future__ import annotations

from bot.core.i18n import Lang
from bot.storage.invitations import ACCEPTED, DECLINED, LAPSED, PENDING
from bot.storage.store import TableRow
from bot.tables.terms import IDLE, LOBBY_IDLE

MARKS = {ACCEPTED: "✅", DECLINED: "❌", PENDING: "⏳", LAPSED: "⌛"}


def guest_lines(table: TableRow, tr: Lang) -> str:
    """One line per member invited, in the order invited; then when the unanswered ones lapse."""
    lines = []
    for guest in table.guests:
        state = guest.state
        if state == ACCEPTED and table.seat_of(guest.user_id) is None:
            state = "left"  # accepted, then left the lobby: they may join again
        lines.append(f"{MARKS.get(guest.state, '')} {tr(f'lobby.guest.{state}', name=guest.name)}")
    if table.invites_lapse is not None and any(g.state == PENDING for g in table.guests):
        lines.append(tr("lobby.guests_lapse", at=f"<t:{int(table.invites_lapse)}:R>"))
    return "\n".join(lines)


def closed_text(table: TableRow, tr: Lang) -> str:
    """Why the table is closed: by its host; or by the bot, a lobby nobody joined for a day, or
    none of whose guests joined (its invitations may have waited longer than a day)."""
    if table.closed_why != IDLE:
        return tr("table.cancelled")
    if table.guests and not any(table.seat_of(g.user_id) is not None for g in table.guests):
        return tr("table.closed_unanswered")
    return tr("table.closed_idle", time=tr("clock.days", count=LOBBY_IDLE // 86400))
