"""The fake Discord's REST routes: logging in (the commands: ``discord_commands``), and what a table
does: messages, threads, DMs, interaction responses and their followups. Each route changes the in-memory model as Discord would and answers
with the JSON discord.py expects; the errors are Discord's (10003 Unknown Channel, 10008 Unknown
Message, 10062 Unknown interaction, 40060 already acknowledged, 50007 closed DMs).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.support.discord_interactions import (
    DEFERRED_MESSAGE,
    DEFERRED_UPDATE,
    LAUNCH,
    MESSAGE,
    UPDATE,
    Sent,
    is_ephemeral,
)
from tests.support.discord_model import DM, EPHEMERAL, LOADING, PUBLIC_THREAD, TEXT, Message, snowflake
from tests.support.discord_traffic import CALL, CLOSED_DMS, error_response, json_response

if TYPE_CHECKING:
    from tests.support.fake_discord import FakeDiscord

API = "/api/v10"


def add_rest_routes(app: web.Application, fake: FakeDiscord) -> None:
    rest = Rest(fake)
    r = app.router
    r.add_get(API + "/users/@me", rest.me)
    r.add_get(API + "/oauth2/applications/@me", rest.application)
    r.add_get(API + "/gateway/bot", rest.gateway_bot)
    fake.app_commands.routes(r)  # syncing commands, the Entry Point command (discord_commands.py)
    r.add_post(API + "/interactions/{iid}/{token}/callback", rest.callback)
    r.add_post(API + "/webhooks/{app}/{token}", rest.followup)
    r.add_route("*", API + "/webhooks/{app}/{token}/messages/{mid}", rest.followup_message)
    r.add_post(API + "/channels/{cid}/messages/bulk-delete", rest.bulk_delete)
    r.add_post(API + "/channels/{cid}/messages/{mid}/threads", rest.thread_from_message)
    r.add_post(API + "/channels/{cid}/threads", rest.thread)
    r.add_post(API + "/channels/{cid}/messages", rest.create_message)
    r.add_get(API + "/channels/{cid}/messages", rest.list_messages)
    r.add_route("*", API + "/channels/{cid}/messages/{mid}", rest.message)
    r.add_route("*", API + "/channels/{cid}", rest.channel)
    r.add_post(API + "/guilds/{gid}/channels", rest.guild_channel)
    r.add_post(API + "/users/@me/channels", rest.open_dm)
    r.add_get(API + "/users/{uid:[0-9]+}", rest.user)


class Rest:
    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.model = fake.model

    @staticmethod
    def body(request: web.Request) -> Any:
        return request[CALL].body  # parsed once by the middleware

    def message_json(self, message: Message) -> web.Response:
        return json_response(message.payload(self.model))

    def attachments(self, data: dict[str, Any], files: list[dict[str, Any]]) -> dict[str, Any]:
        """Turn uploaded files into attachment objects; attachments an edit keeps stay as they are.

        discord.py names a new upload ``{"id": <index>, "filename": ...}`` (an int id) and an
        attachment to keep by its own object (a snowflake string id).
        """
        if "attachments" not in data:
            return data
        uploads = {f["index"]: f for f in files}
        shown = []
        for item in data["attachments"] or []:
            if not isinstance(item.get("id"), int):
                shown.append(item)
                continue
            upload = uploads.get(item["id"], {})
            name = item.get("filename") or upload.get("filename", "file")
            aid = snowflake()
            shown.append(
                {
                    "id": aid,
                    "filename": name,
                    "size": upload.get("size", 0),
                    "url": f"https://cdn.example/attachments/{aid}/{name}",
                    "proxy_url": f"https://media.example/attachments/{aid}/{name}",
                }
            )
        return {**data, "attachments": shown}

    # ---- logging in -------------------------------------------------------------------------------
    async def me(self, request: web.Request) -> web.Response:
        if request.headers.get("Authorization", "").startswith("Bearer "):
            return self.fake.oauth.me(request)  # a member, signed in to an Activity
        return json_response(self.fake.bot_user)

    async def application(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "id": self.fake.application_id,
                "name": "Tabletop",
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.fake.owner,
                "team": None,
                "verify_key": "0" * 64,
                "flags": self.fake.app_commands.flags,
                "bot": self.fake.bot_user,
                "redirect_uris": [],
                "interactions_endpoint_url": None,
            }
        )

    async def gateway_bot(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        return json_response({"url": self.fake.gateway_url, "shards": 1, "session_start_limit": limit})

    # ---- interaction responses ------------------------------------------------------------------
    def _sent(self, request: web.Request) -> Sent | None:
        return self.fake.sent.get(request.match_info["token"])

    def _expired(self, sent: Sent) -> web.Response | None:
        """Discord's answer to a webhook call with a token older than 15 minutes."""
        if time.monotonic() - sent.sent_at > self.fake.token_life:
            sent.refused.append("token expired")
            return error_response(401, "Invalid Webhook Token", 50027)
        return None

    async def callback(self, request: web.Request) -> web.Response:
        sent = self._sent(request)
        body = self.body(request)
        if not isinstance(body, dict) or "type" not in body:
            return error_response(400, "400: Bad Request (no interaction response type)", 50035)
        if sent is None or sent.id != request.match_info["iid"]:
            return error_response(404, "Unknown interaction", 10062)
        if sent.answered:
            sent.refused.append("already acknowledged")
            return error_response(400, "Interaction has already been acknowledged.", 40060)
        if time.monotonic() - sent.sent_at > self.fake.interaction_deadline:
            sent.refused.append("late")
            return error_response(404, "Unknown interaction", 10062)
        kind, data = body["type"], body.get("data") or {}
        message: Message | None = None
        if kind in (MESSAGE, DEFERRED_MESSAGE):
            flags = int(data.get("flags") or 0) | (LOADING if kind == DEFERRED_MESSAGE else 0)
            message = self.model.post(
                sent.channel_id,
                self.model.bot.id,
                self.attachments({**data, "flags": flags}, request[CALL].files),
                visible_to=sent.user_id if flags & EPHEMERAL else None,
                interaction_id=sent.id,
            )
        elif kind == UPDATE and sent.message_id:
            message = self.model.messages[sent.message_id]
            message.apply(self.attachments(data, request[CALL].files))
            message.edits.append(time.monotonic())
        elif kind == DEFERRED_UPDATE and sent.message_id:
            message = self.model.messages[sent.message_id]
        elif kind == LAUNCH and (refused := await self.fake.app_commands.launch(sent)) is not None:
            return refused
        sent.answer(kind, data, message.id if message else None)
        self.fake.pending.pop(sent.token, None)
        await self.fake.changed(sent.channel_id)
        response: dict[str, Any] = {
            "interaction": {
                "id": sent.id,
                "type": sent.type,
                "response_message_id": message.id if message else None,
                "response_message_loading": kind == DEFERRED_MESSAGE,
                "response_message_ephemeral": bool(message and message.ephemeral),
            }
        }
        if message is not None and kind in (MESSAGE, UPDATE):
            response["resource"] = {"type": kind, "message": message.payload(self.model)}
        if kind == LAUNCH:
            instance = response["interaction"]["activity_instance_id"] = "i-" + snowflake()
            response["resource"] = {"type": kind, "activity_instance": {"id": instance}}
        return json_response(response)

    async def followup(self, request: web.Request) -> web.Response:
        sent = self._sent(request)
        if sent is None or not sent.answered:
            return error_response(404, "Unknown Webhook", 10015)
        if (expired := self._expired(sent)) is not None:
            return expired
        data = self.attachments(self.body(request) or {}, request[CALL].files)
        original = self.model.messages.get(sent.response_message_id or "")
        if (
            sent.response_type == DEFERRED_MESSAGE
            and original
            and original.flags & LOADING
            and not sent.followups
        ):
            # The first followup after "thinking" replaces the loading message, as Discord does.
            original.apply(data)
            original.flags &= ~LOADING
            original.edits.append(time.monotonic())
            message = original
        else:
            flags = int(data.get("flags") or 0)
            message = self.model.post(
                sent.channel_id,
                self.model.bot.id,
                data,
                visible_to=sent.user_id if is_ephemeral(data) else None,
                interaction_id=sent.id,
            )
            message.flags = flags
        sent.followups.append(message.id)
        sent.said.append(message.content or "")
        await self.fake.changed(message.channel_id)
        return self.message_json(message)

    async def followup_message(self, request: web.Request) -> web.Response:
        sent = self._sent(request)
        if sent is None:
            return error_response(404, "Unknown Webhook", 10015)
        if (expired := self._expired(sent)) is not None:
            return expired
        mid = request.match_info["mid"]
        mid = sent.response_message_id if mid == "@original" else mid
        message = self.model.messages.get(mid or "")
        if message is None or not message.live:
            return error_response(404, "Unknown Message", 10008)
        if request.method == "PATCH" and mid == sent.response_message_id:
            sent.edits.append(self.body(request) or {})
        return await self._on_message(request, message)

    # ---- messages -------------------------------------------------------------------------------
    async def _on_message(self, request: web.Request, message: Message) -> web.Response:
        if request.method == "GET":
            return self.message_json(message)
        if request.method == "DELETE":
            message.deleted_at = time.monotonic()
            await self.fake.changed(message.channel_id)
            await self.fake.dispatch_from_rest(
                "MESSAGE_DELETE", {"id": message.id, "channel_id": message.channel_id}
            )
            return web.Response(status=204)
        if request.method == "PATCH":
            message.apply(self.attachments(self.body(request) or {}, request[CALL].files))
            message.edits.append(time.monotonic())
            await self.fake.changed(message.channel_id)
            return self.message_json(message)
        raise web.HTTPMethodNotAllowed(request.method, ["GET", "PATCH", "DELETE"])

    def _channel(self, request: web.Request):
        return self.model.channels.get(request.match_info["cid"])

    async def create_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if channel is None:
            return error_response(404, "Unknown Channel", 10003)
        if channel.is_dm and not self.model.users[channel.recipient_id].dms_open:
            return error_response(403, "Cannot send messages to this user", CLOSED_DMS)
        data = self.attachments(self.body(request) or {}, request[CALL].files)
        message = self.model.post(channel.id, self.model.bot.id, data)
        await self.fake.changed(channel.id)
        if self.fake.echo_messages:
            await self.fake.dispatch_from_rest("MESSAGE_CREATE", message.payload(self.model))
        return self.message_json(message)

    async def message(self, request: web.Request) -> web.Response:
        message = self.model.messages.get(request.match_info["mid"])
        if message is None or not message.live or message.channel_id != request.match_info["cid"]:
            return error_response(404, "Unknown Message", 10008)
        return await self._on_message(request, message)

    async def list_messages(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if channel is None:
            return error_response(404, "Unknown Channel", 10003)
        limit = int(request.query.get("limit", 50))
        shown = [m for m in self.model.shown(channel.id) if m.visible_to is None]
        if "after" in request.query:  # the oldest ``limit`` after it, newest first, as Discord answers
            after = int(request.query["after"])
            later = [m for m in shown if int(m.id) > after][:limit]
            return json_response([m.payload(self.model) for m in reversed(later)])
        return json_response([m.payload(self.model) for m in reversed(shown[-limit:])])

    async def bulk_delete(self, request: web.Request) -> web.Response:
        for mid in (self.body(request) or {}).get("messages", []):
            message = self.model.messages.get(str(mid))
            if message is not None and message.live:
                message.deleted_at = time.monotonic()
        await self.fake.changed(request.match_info["cid"])
        return web.Response(status=204)

    # ---- channels and threads -------------------------------------------------------------------
    async def channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if channel is None:
            return error_response(404, "Unknown Channel", 10003)
        if request.method == "PATCH":
            channel.name = (self.body(request) or {}).get("name", channel.name)
        elif request.method != "GET":
            raise web.HTTPMethodNotAllowed(request.method, ["GET", "PATCH"])
        return json_response(channel.payload(self.model))

    async def _new_thread(self, parent, name: str, thread_id: str | None, kind: int) -> web.Response:
        thread = self.model.add_thread(parent, name, thread_id, kind)
        payload = thread.payload(self.model)
        await self.fake.changed()
        await self.fake.dispatch_from_rest("THREAD_CREATE", {**payload, "newly_created": True})
        return json_response(payload)

    async def thread_from_message(self, request: web.Request) -> web.Response:
        parent = self._channel(request)
        message = self.model.messages.get(request.match_info["mid"])
        if parent is None or message is None or message.channel_id != parent.id:
            return error_response(404, "Unknown Message", 10008)
        if message.id in self.model.channels:
            return error_response(400, "A thread has already been created for this message", 160004)
        # A thread started from a message has that message's id.
        name = (self.body(request) or {}).get("name", "thread")
        return await self._new_thread(parent, name, message.id, PUBLIC_THREAD)

    async def thread(self, request: web.Request) -> web.Response:
        parent = self._channel(request)
        if parent is None:
            return error_response(404, "Unknown Channel", 10003)
        body = self.body(request) or {}
        return await self._new_thread(parent, body.get("name", "thread"), None, int(body.get("type", 12)))

    async def guild_channel(self, request: web.Request) -> web.Response:
        guild = self.model.guilds.get(request.match_info["gid"])
        if guild is None:
            return error_response(404, "Unknown Guild", 10004)
        body = self.body(request) or {}
        if int(body.get("type", TEXT)) != TEXT:
            return error_response(400, "the fake makes text channels only", 50035)
        channel = self.model.add_text_channel(guild, body.get("name", "channel"))
        channel.parent_id = body.get("parent_id")
        payload = channel.payload(self.model)
        await self.fake.dispatch_from_rest("CHANNEL_CREATE", payload)
        return json_response(payload)

    # ---- users and DMs ----------------------------------------------------------------------------
    async def open_dm(self, request: web.Request) -> web.Response:
        user_id = str((self.body(request) or {}).get("recipient_id"))
        if user_id not in self.model.users:
            return error_response(400, "Invalid Recipient(s)", 50033)
        channel = self.model.open_dm(user_id)
        assert channel.type == DM
        return json_response(channel.payload(self.model))

    async def user(self, request: web.Request) -> web.Response:
        user = self.model.users.get(request.match_info["uid"])
        if user is None:
            return error_response(404, "Unknown User", 10013)
        return json_response(user.payload())
