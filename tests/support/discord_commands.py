"""The fake Discord's application commands and Activity, as Discord keeps them.

The global commands are a list the bot reads (``GET``) and overwrites (``PUT``, discord.py's sync),
each command keeping its id across overwrites (Discord matches them by name and type). With
``activities`` on, the application has an Activity: it carries the ``EMBEDDED`` flag, Discord made
its default Entry Point command ("launch", type 4, handler 2) and answers ``LAUNCH_ACTIVITY``
(callback type 12) with an Activity instance. Like Discord it refuses an overwrite that would drop
the Entry Point command (50240), an Entry Point command without Activities, a second one or a guild
one; and a launch where no Activity opens (a thread, a DM) is kept as a problem of the bot's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.support.discord_model import snowflake
from tests.support.discord_traffic import CALL, error_response, json_response

if TYPE_CHECKING:
    from tests.support.discord_interactions import Sent
    from tests.support.fake_discord import FakeDiscord

API = "/api/v10"
ENTRY_POINT, DISCORD_LAUNCHES = 4, 2
ENTRY_POINT_DROPPED = 50240
EMBEDDED = 1 << 17  # the application flag of an application with an Activity
INVALID = 50035
DROPPED_TEXT = (
    "You cannot remove this app's Entry Point command in a bulk update operation. Please include the Entry"
    " Point command in your update request or delete it separately."
)


class AppCommands:
    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.activities = False
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[str, list[dict[str, Any]]] = {}
        self.refused: list[tuple[int, str]] = []  # overwrites refused: (code, why)
        self.launched: list[Sent] = []  # interactions answered by launching the Activity

    @property
    def flags(self) -> int:
        return EMBEDDED if self.activities else 0

    def enable_activities(self) -> None:
        """The owner enabled Activities in the developer portal: Discord adds its Entry Point command."""
        self.activities = True
        if not self.entry_point():
            self.global_commands.append(self.made({"name": "launch", "type": ENTRY_POINT, "handler": DISCORD_LAUNCHES}))

    def entry_point(self) -> dict[str, Any] | None:
        return next((c for c in self.global_commands if c.get("type") == ENTRY_POINT), None)

    def made(self, command: dict[str, Any], kept: dict[str, Any] | None = None) -> dict[str, Any]:
        return {
            "id": kept["id"] if kept else snowflake(),
            "application_id": self.fake.application_id,
            "version": snowflake(),
            "type": 1,
            "description": "",
            "options": [],
            "default_member_permissions": None,
            **command,
        }

    def routes(self, router: web.UrlDispatcher) -> None:
        router.add_get(API + "/applications/{application_id}/commands", self.get)
        router.add_put(API + "/applications/{application_id}/commands", self.put)
        router.add_put(API + "/applications/{application_id}/guilds/{gid}/commands", self.put)

    async def get(self, request: web.Request) -> web.Response:
        if request.match_info["application_id"] != self.fake.application_id:
            return error_response(404, "Unknown Application", 10002)
        return json_response(self.global_commands)

    async def put(self, request: web.Request) -> web.Response:
        if request.match_info["application_id"] != self.fake.application_id:
            return error_response(404, "Unknown Application", 10002)
        body = request[CALL].body
        if not isinstance(body, list):
            return self.refuse(INVALID, "400: Bad Request (expected a list of commands)")
        guild = request.match_info.get("gid")
        entries = [c for c in body if c.get("type") == ENTRY_POINT]
        if entries and guild is not None:
            return self.refuse(INVALID, "Entry Point commands cannot be guild commands")
        if entries and not self.activities:
            return self.refuse(INVALID, "Entry Point commands need the application's Activity")
        if len(entries) > 1:
            return self.refuse(INVALID, "An application has one Entry Point command")
        if guild is None and self.entry_point() and not entries:
            return self.refuse(ENTRY_POINT_DROPPED, DROPPED_TEXT)
        before = self.global_commands if guild is None else self.guild_commands.get(guild, [])
        by_key = {(c["name"], c.get("type", 1)): c for c in before}
        commands = [self.made(c, by_key.get((c["name"], c.get("type", 1)))) for c in body]
        if guild is None:
            self.global_commands = commands
        else:
            self.guild_commands[guild] = commands
        return json_response(commands)

    def refuse(self, code: int, why: str) -> web.Response:
        self.refused.append((code, why))
        return error_response(400, why, code)

    async def launch(self, sent: Sent) -> web.Response | None:
        """A ``LAUNCH_ACTIVITY`` answer: None when Discord takes it (the Activity opens), else the
        refusal."""
        if not self.activities:
            return error_response(400, "Interaction response type is only available for apps with Activities", INVALID)
        channel = self.fake.model.channels[sent.channel_id]
        if channel.is_thread or channel.is_dm:  # Discord takes it; the member's client shows a failure
            await self.fake._problem(f"an Activity launched in a {'thread' if channel.is_thread else 'DM'}: {sent.custom_id}")
        self.launched.append(sent)
        return None
