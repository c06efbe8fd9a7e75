"""Every message the bot posts, edits and deletes in SimCord, on its virtual clock: to count turn
notices, end-of-game DMs and rematch offers.

A turn ping is a message in a server channel that notifies a member (Discord's pings, as SimCord
computes them from the allowed mentions); a turn DM is a DM without an embed or buttons (hand DMs
have both, and so do end-of-game DMs, which begin "🏁"). A rematch offer is a ping that begins
"🔁". Each is followed from its creation to its deletion. A notice is live while it calls its
player: not yet deleted, nor edited to say its turn has passed ("✓ …", or "🏁 …" once the game is
over). So the most live notices each member had at once, how long each lived and what is left can
be read afterwards.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

SPENT = ("✓", "🏁")  # how a notice whose turn has passed begins


@dataclass
class Posted:
    id: int
    channel_id: int
    content: str
    created: float
    pinged: list[int]
    flags: int = 0
    deleted: float | None = None
    spent: float | None = None  # when it was edited to say its turn had passed
    edits: int = 0
    recipient: int | None = None  # a DM's member
    original: str = ""  # the content it was posted with (``content`` follows its edits)

    def __post_init__(self) -> None:
        self.original = self.original or self.content

    @property
    def alive(self) -> bool:
        """Still in its channel."""
        return self.deleted is None

    @property
    def live(self) -> bool:
        """Still calling its player."""
        return self.deleted is None and self.spent is None

    @property
    def silent(self) -> bool:
        return bool(self.flags & (1 << 12))  # SUPPRESS_NOTIFICATIONS

    def names(self, user_id: int) -> bool:
        return self.recipient == user_id if self.recipient is not None else f"<@{user_id}>" in self.content


@dataclass
class Watch:
    env: Any
    pings: list[Posted] = field(default_factory=list)
    turn_dms: list[Posted] = field(default_factory=list)
    hand_dms: list[Posted] = field(default_factory=list)
    end_dms: list[Posted] = field(default_factory=list)
    offers: list[Posted] = field(default_factory=list)
    #: member -> the most live notices (turn pings and turn DMs) calling them at once
    most_live: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    by_id: dict[int, Posted] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.env.backend.subscribers.append(self.on_event)

    def now(self) -> float:
        return self.env.backend.clock.elapsed

    def on_event(self, event: str, payload: Any) -> None:
        if event == "MESSAGE_CREATE" and (payload.get("author") or {}).get("bot"):
            channel_id, message_id = int(payload["channel_id"]), int(payload["id"])
            message = self.env.backend.messages[channel_id][message_id]
            content = message.content or ""
            posted = Posted(message_id, channel_id, content, self.now(), list(message.ping_user_ids), message.flags)
            in_dm = "guild_id" not in payload
            if in_dm:
                recipients = self.env.backend.channels[channel_id].recipient_ids
                posted.recipient = next((u for u in recipients if u != message.author_id), None)
            if in_dm and content.startswith("🏁") and message.embeds:
                self.end_dms.append(posted)
            elif in_dm and (message.embeds or message.components):
                self.hand_dms.append(posted)
            elif in_dm:
                self.turn_dms.append(posted)
            elif posted.pinged and content.startswith("🔁"):
                self.offers.append(posted)
            elif posted.pinged:
                self.pings.append(posted)
            else:
                return
            self.by_id[message_id] = posted
            self.count()
        elif event == "MESSAGE_UPDATE" and int(payload["id"]) in self.by_id:
            posted = self.by_id[int(payload["id"])]
            posted.edits += 1
            if "content" in payload:
                posted.content = payload["content"] or ""
                if posted.spent is None and posted.content.startswith(SPENT) and posted in self.notices():
                    posted.spent = self.now()
        elif event == "MESSAGE_DELETE" and int(payload["id"]) in self.by_id:
            self.by_id[int(payload["id"])].deleted = self.now()

    def count(self) -> None:
        live = self.live_notices()
        for user_id in {u for p in live for u in ([p.recipient] if p.recipient else p.pinged)}:
            self.most_live[user_id] = max(self.most_live[user_id], sum(p.names(user_id) for p in live))

    def notices(self) -> list[Posted]:
        return self.pings + self.turn_dms

    def live_notices(self) -> list[Posted]:
        return [p for p in self.notices() if p.live]

    def left(self) -> list[Posted]:
        """Notices still in their channel, live or spent."""
        return [p for p in self.notices() if p.alive]

    def deleted_young(self, within: float = 60.0) -> list[Posted]:
        """Notices deleted within ``within`` seconds of being posted: a ping gone when its player looks."""
        return [p for p in self.notices() if p.deleted is not None and p.deleted - p.created < within]

    def dms_in(self, channel_id: int) -> list[Posted]:
        return [p for p in self.turn_dms if p.channel_id == channel_id]

    def pings_of(self, user_id: int) -> list[Posted]:
        return [p for p in self.pings if user_id in p.pinged]

    def end_dms_of(self, user_id: int) -> list[Posted]:
        return [p for p in self.end_dms if p.recipient == user_id]
