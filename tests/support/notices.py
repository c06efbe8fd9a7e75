"""Every message the bot posts and deletes in SimCord, on its virtual clock: to count turn notices.

A turn ping is a message in a server channel that notifies a member (Discord's pings, as SimCord
computes them from the allowed mentions); a turn DM is a DM without an embed or buttons (hand DMs
have both). Each is followed from its creation to its deletion, so the most alive at once and how
long each lived can be read afterwards.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Posted:
    id: int
    channel_id: int
    content: str
    created: float
    pinged: list[int]
    deleted: float | None = None
    edits: int = 0

    @property
    def live(self) -> bool:
        return self.deleted is None


@dataclass
class Watch:
    env: Any
    pings: list[Posted] = field(default_factory=list)
    turn_dms: list[Posted] = field(default_factory=list)
    hand_dms: list[Posted] = field(default_factory=list)
    #: channel -> the most turn notices (pings in a thread, turn DMs in a DM) alive at once there
    most_alive: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    alive: dict[int, set[int]] = field(default_factory=lambda: defaultdict(set))
    by_id: dict[int, Posted] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.env.backend.subscribers.append(self.on_event)

    def now(self) -> float:
        return self.env.backend.clock.elapsed

    def on_event(self, event: str, payload: Any) -> None:
        if event == "MESSAGE_CREATE" and (payload.get("author") or {}).get("bot"):
            channel_id, message_id = int(payload["channel_id"]), int(payload["id"])
            message = self.env.backend.messages[channel_id][message_id]
            posted = Posted(message_id, channel_id, message.content or "", self.now(), list(message.ping_user_ids))
            in_dm = "guild_id" not in payload
            if in_dm and (message.embeds or message.components):
                self.hand_dms.append(posted)
            elif in_dm:
                self.turn_dms.append(posted)
            elif posted.pinged:
                self.pings.append(posted)
            else:
                return
            self.by_id[message_id] = posted
            if posted in self.hand_dms:
                return
            self.alive[channel_id].add(message_id)
            self.most_alive[channel_id] = max(self.most_alive[channel_id], len(self.alive[channel_id]))
        elif event == "MESSAGE_UPDATE" and int(payload["id"]) in self.by_id:
            self.by_id[int(payload["id"])].edits += 1
        elif event == "MESSAGE_DELETE" and int(payload["id"]) in self.by_id:
            posted = self.by_id[int(payload["id"])]
            posted.deleted = self.now()
            self.alive[posted.channel_id].discard(posted.id)

    def notices(self) -> list[Posted]:
        return self.pings + self.turn_dms

    def live_notices(self) -> list[Posted]:
        return [p for p in self.notices() if p.live]

    def dms_in(self, channel_id: int) -> list[Posted]:
        return [p for p in self.turn_dms if p.channel_id == channel_id]

    def pings_of(self, user_id: int) -> list[Posted]:
        return [p for p in self.pings if user_id in p.pinged]
