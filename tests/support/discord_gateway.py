"""The fake Discord's gateway: HELLO, heartbeat ACKs, READY then GUILD_CREATE, and dispatches.

Payloads are compressed as the connection URL asks (``compress=zlib-stream``; ``zstd-stream``
only when a zstd compressor is importable). RESUME is refused (op 9), so a bot that lost its
connection identifies afresh. When the bot's connection closes, interactions it never answered
are marked lost.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from tests.support.discord_interactions import Sent
    from tests.support.fake_discord import FakeDiscord

log = logging.getLogger("fake_discord")


@dataclass
class GatewayConnection:
    ws: web.WebSocketResponse
    query: dict[str, str]
    compress: Callable[[bytes], bytes] | None
    sequence: int = 0
    identified: bool = False
    shard: tuple[int, int] | None = None  # (shard id, shard count) from IDENTIFY, when sharded
    close_code: int | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


def _compressor(kind: str | None) -> Callable[[bytes], bytes] | None:
    """One streaming context per connection, flushed after every payload, as Discord does."""
    if not kind:
        return None
    if kind == "zlib-stream":
        context = zlib.compressobj()
        return lambda data: context.compress(data) + context.flush(zlib.Z_SYNC_FLUSH)
    if kind == "zstd-stream":
        try:
            import zstandard

            stream = zstandard.ZstdCompressor().compressobj()
            return lambda data: stream.compress(data) + stream.flush(zstandard.COMPRESSOBJ_FLUSH_BLOCK)
        except ImportError:
            from compression import zstd  # Python 3.14+

            compressor = zstd.ZstdCompressor()
            return lambda data: compressor.compress(data, mode=zstd.ZstdCompressor.FLUSH_BLOCK)
    raise ValueError(f"unsupported gateway compression {kind!r}")


def shard_of(guild_id: str | int | None, count: int) -> int:
    """Discord's rule: a server's events go to shard (server id >> 22) % shard count; DMs to shard 0."""
    return 0 if guild_id is None else (int(guild_id) >> 22) % count


def owns(conn: GatewayConnection, guild_id: str | int | None) -> bool:
    return conn.shard is None or shard_of(guild_id, conn.shard[1]) == conn.shard[0]


class Gateway:
    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.connections: list[GatewayConnection] = []

    async def close(self) -> None:
        for conn in list(self.connections):
            if not conn.ws.closed:
                await conn.ws.close(code=1001)

    def connection(self) -> GatewayConnection | None:
        return next((c for c in reversed(self.connections) if c.identified and not c.ws.closed), None)

    def identified(self) -> list[GatewayConnection]:
        """Every connected bot session (one per bot process), oldest first."""
        return [c for c in self.connections if c.identified and not c.ws.closed]

    def for_guild(self, guild_id: str | None) -> GatewayConnection | None:
        """The session Discord sends this server's events to (a DM's: shard 0's); with unsharded
        sessions, the newest."""
        sessions = self.identified()
        return next((c for c in reversed(sessions) if c.shard is not None and owns(c, guild_id)), None) or (
            sessions[-1] if sessions else None
        )

    async def serve(self, request: web.Request) -> web.StreamResponse:
        query = dict(request.query)
        self.fake.gateway_queries.append(query)
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        try:
            compress = _compressor(query.get("compress"))
        except (ValueError, ImportError) as exc:
            await self.fake._problem(f"gateway: {exc}")
            await ws.close(code=4000, message=str(exc).encode()[:120])
            return ws
        if query.get("encoding", "json") != "json" or query.get("v") != "10":
            await self.fake._problem(f"gateway: unsupported query {query}")
            await ws.close(code=4012, message=b"Invalid API version or encoding")
            return ws
        conn = GatewayConnection(ws, query, compress)
        self.connections.append(conn)
        await self.send(conn, {"op": 10, "d": {"heartbeat_interval": self.fake.heartbeat_interval_ms}})
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    await self.fake._problem(f"gateway: unexpected {msg.type.name} frame from the bot")
                    continue
                await self.on_message(conn, json.loads(msg.data))
        finally:
            conn.close_code = ws.close_code
            self.connections.remove(conn)
            if conn.identified:
                # The bot process went away: nothing will answer what was sent to it.
                for token, sent in list(self.fake.pending.items()):
                    if sent.connection is conn or self.connection() is None:
                        sent.lose()
                        del self.fake.pending[token]
            self.fake.close_codes.append(ws.close_code)
            await self.fake.changed()
            log.info("gateway connection closed with code %s", ws.close_code)
        return ws

    async def on_message(self, conn: GatewayConnection, msg: dict[str, Any]) -> None:
        op, data = msg.get("op"), msg.get("d")
        if op == 1:
            self.fake.heartbeats += 1
            await self.send(conn, {"op": 11})
        elif op == 2:
            self.fake.identifies.append(data)
            await self.fake.changed()
            if not isinstance(data, dict) or data.get("token") != self.fake.token:
                await self.fake._problem("gateway: IDENTIFY with a wrong token")
                await conn.ws.close(code=4004, message=b"Authentication failed.")
                return
            conn.identified = True
            if isinstance(data.get("shard"), list) and len(data["shard"]) == 2:
                conn.shard = (int(data["shard"][0]), int(data["shard"][1]))
            guilds = [g for g in self.fake.model.guilds.values() if owns(conn, g.id)]
            ready = {
                "v": 10,
                "user": self.fake.bot_user,
                "guilds": [{"id": g.id, "unavailable": True} for g in guilds],
                "session_id": self.fake.session_id,
                "resume_gateway_url": self.fake.gateway_url,
                "application": {"id": self.fake.application_id, "flags": 0},
                "private_channels": [],
                "relationships": [],
                "user_settings": {},
                "_trace": ["fake-discord"],
            }
            if "shard" in data:
                ready["shard"] = data["shard"]
            await self.send_dispatch(conn, "READY", ready)
            for guild in guilds:
                await self.send_dispatch(conn, "GUILD_CREATE", self.fake.model.guild_payload(guild))
        elif op == 6:
            await self.send(conn, {"op": 9, "d": False})  # no resuming: identify afresh
        else:
            log.warning("fake Discord: ignoring gateway op %s", op)
            await self.fake._problem(f"gateway: unhandled op {op}")

    async def send_dispatch(
        self, conn: GatewayConnection, event: str, data: dict[str, Any], sent: Sent | None = None
    ) -> None:
        async with conn.lock:
            conn.sequence += 1
            text = json.dumps({"op": 0, "t": event, "s": conn.sequence, "d": data})
            if sent is not None:
                sent.sent_at = time.monotonic()
            await self._send_locked(conn, text)

    async def send(self, conn: GatewayConnection, payload: dict[str, Any]) -> None:
        async with conn.lock:
            await self._send_locked(conn, json.dumps({"s": None, "t": None, "d": None, **payload}))

    @staticmethod
    async def _send_locked(conn: GatewayConnection, text: str) -> None:
        # The lock keeps compressed chunks in the order the stream produced them.
        if conn.compress is None:
            await conn.ws.send_str(text)
        else:
            await conn.ws.send_bytes(conn.compress(text.encode()))
