"""Slash commands for Final Quest (``/finalquest``); the platform runs the table in its own channel.

The turn's main actions that need words or three cards are slash commands used in the table
channel: ``ask`` (free YES/NO question, posted publicly; the asked player answers with the table's
buttons; refused for a computer seat, which cannot read it), ``check`` (a question the engine answers truthfully) and ``quest`` (a Final Quest).
Swapping, showing and ending the turn are buttons in the private prompt, and also commands here.
Each command is checked before it reaches the engine so a mistake gets a specific answer.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.errors import UserError
from bot.core.games import register
from bot.core.i18n import Lang
from bot.core.interaction import Interaction
from bot.core.translator import command
from bot.tables.game_cog import GameCog, game_group, new_command, rules_command
from bot.tables.member_locale import member_lang
from bot.tables.opening import display
from cogs.final_quest.engine import (
    HAND_SIZE,
    NUMBERS,
    QUESTIONS,
    FinalQuestEngine,
    askq_action,
    fq_action,
)
from cogs.final_quest.render import FinalQuestUI

if TYPE_CHECKING:
    from bot.tables.desk import Desk
    from bot.tables.opening import Opening

G = "final_quest"
FACE = {"a": 1, "j": 11, "q": 12, "k": 13}
QUESTION_MAX = 300


def parse_cards(text: str) -> list[int]:
    """``"3 7 12"`` / ``"3,7,Q"`` → three distinct numbers, else a UserError naming the problem."""
    tokens = [t for t in re.split(r"[\s,;/.]+", text.strip()) if t]
    if len(tokens) != HAND_SIZE:
        raise UserError(f"{G}.error.name_three")
    numbers = []
    for token in tokens:
        value = FACE.get(token.lower()) or (int(token) if token.isascii() and token.isdigit() else None)
        if value not in NUMBERS:
            raise UserError(f"{G}.error.bad_card", value=token[:10])
        numbers.append(value)
    if len(set(numbers)) != HAND_SIZE:
        raise UserError(f"{G}.error.cards_not_distinct")
    return numbers


def question_params(question: str, number: int | None, count: int | None, tr: Lang) -> list[int]:
    """The engine parameters of a structured question from the ``number`` / ``count`` fields."""
    if question not in QUESTIONS:
        raise UserError(f"{G}.error.bad_question", value=question[:40])
    given = {"n": number, "k": count}
    params = []
    for name, values in QUESTIONS[question]:
        value = given[name]
        bounds = {"low": values.start, "high": values.stop - 1, "field": tr(f"{G}.field.{name}")}
        if value is None:
            raise UserError(f"{G}.error.need_param", **bounds)
        if value not in values:
            raise UserError(f"{G}.error.bad_param", value=value, **bounds)
        params.append(value)
    return params


def computer_cannot_read(player: discord.abc.User, tr: Lang) -> UserError:
    """A computer seat cannot read a free question, and answering it at random would be a lie
    the rules forbid: the asker is pointed to the structured questions instead."""
    questions = "\n".join(f"• {tr(f'{G}.question_choice.{q}')}" for q in QUESTIONS)
    return UserError(f"{G}.error.ask_computer", player=display(player), questions=questions)


class FinalQuest(GameCog, **game_group("final_quest", "finalquest", "Final Quest (4 players, two teams)")):
    # ---- the table ---------------------------------------------------------------------------
    new = new_command(G, FinalQuestEngine, "Open a Final Quest table in a channel of its own", players=4)
    rules = rules_command(G, "How to play Final Quest")

    # ---- main actions --------------------------------------------------------------------------
    async def target_seat(self, interaction: Interaction, player: discord.abc.User):
        """(table, seat of ``player``) at the member's table in this channel."""
        table, _engine, _seat = await self.desk.seat_here(interaction, G)
        target = table.seat_of(player.id)
        if target is None:
            raise UserError(f"{G}.error.not_at_table", player=display(player))
        return table, target

    @command(
        "final_quest.cmd.ask",
        "Ask one player your own YES/NO question (your turn)",
        player="The player you ask",
        question="Your question, answerable with YES or NO",
    )
    async def ask(
        self,
        interaction: Interaction,
        player: discord.Member,
        question: app_commands.Range[str, 1, QUESTION_MAX],
    ) -> None:
        async def work() -> None:
            table, target = await self.target_seat(interaction, player)
            if table.seats[target].played_by_computer:
                raise computer_cannot_read(player, member_lang(interaction))
            tr = Lang(table.language)
            text = discord.utils.escape_mentions(" ".join(question.split()))
            announce = tr(
                f"{G}.announce.ask", player=display(interaction.user), target=player.mention, question=text
            )
            await self.desk.play_command(
                interaction, G, f"ask:{target}", announce=announce, talk=text, pings=[player.id]
            )

        await self.desk.guarded(interaction, None, work())

    @command(
        "final_quest.cmd.check",
        "Ask one player a question the bot answers truthfully",
        player="The player you ask",
        question="The question (N = the number field, K = the count field)",
        number="N: a card number, or a sum",
        count="K: how many cards",
    )
    async def check(
        self,
        interaction: Interaction,
        player: discord.Member,
        question: str,
        number: int | None = None,
        count: int | None = None,
    ) -> None:
        async def work() -> None:
            _table, target = await self.target_seat(interaction, player)
            params = question_params(question, number, count, member_lang(interaction))
            await self.desk.play_command(interaction, G, askq_action(target, question, *params))

        await self.desk.guarded(interaction, None, work())

    @check.autocomplete("question")
    async def question_choices(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        tr = member_lang(interaction)
        typed = current.strip().lower()
        choices = []
        for question in QUESTIONS:
            name = tr(f"{G}.question_choice.{question}")
            if typed in name.lower() or typed in question:
                choices.append(app_commands.Choice(name=name[:100], value=question))
        return choices

    @command(
        "final_quest.cmd.quest",
        "Final Quest: name one player's three cards (your turn)",
        player="The player whose hand you name",
        cards="Three different cards, like 3 7 12",
    )
    async def quest(self, interaction: Interaction, player: discord.Member, cards: str) -> None:
        async def work() -> None:
            _table, target = await self.target_seat(interaction, player)
            await self.desk.play_command(interaction, G, fq_action(target, parse_cards(cards)))

        await self.desk.guarded(interaction, None, work())

    @quest.autocomplete("cards")
    async def card_choices(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Complete what is typed: a valid trio as is, or the typed cards plus one more number."""
        tokens = [t for t in re.split(r"[\s,;/.]+", current.strip()) if t][:HAND_SIZE]
        try:
            named = [FACE.get(t.lower()) or int(t) for t in tokens]
        except ValueError:
            return []
        if any(n not in NUMBERS for n in named) or len(set(named)) != len(named):
            return []
        if len(named) == HAND_SIZE:
            text = " ".join(str(n) for n in sorted(named))
            return [app_commands.Choice(name=text, value=text)]
        base = " ".join(str(n) for n in named)
        more = [n for n in NUMBERS if n not in named]
        return [app_commands.Choice(name=f"{base} {n}".strip(), value=f"{base} {n}".strip()) for n in more][
            :25
        ]

    # ---- the rest of a turn (also buttons in the private prompt) ------------------------------
    @command(
        "final_quest.cmd.swap",
        "Swap one of your cards with the centre card (your turn)",
        card="The card you give to the centre",
    )
    async def swap(self, interaction: Interaction, card: app_commands.Range[int, 1, 13]) -> None:
        await self.desk.play_command(interaction, G, f"swap:{card}")

    @command(
        "final_quest.cmd.show",
        "Show one of your cards to everyone (your turn)",
        card="The card you show",
    )
    async def show(self, interaction: Interaction, card: app_commands.Range[int, 1, 13]) -> None:
        await self.desk.play_command(interaction, G, f"show:{card}")

    @swap.autocomplete("card")
    @show.autocomplete("card")
    async def hand_choices(self, interaction: Interaction, current: str) -> list[app_commands.Choice[int]]:
        verb = interaction.command.name if interaction.command else ""
        pairs = await self.desk.autocomplete_actions(interaction, G, lambda a: a.split(":")[-1])
        return [
            app_commands.Choice(name=label, value=int(label))
            for label, action in pairs
            if action.startswith(f"{verb}:")
        ]

    @command("final_quest.cmd.end", "End your turn (after your action)")
    async def end(self, interaction: Interaction) -> None:
        await self.desk.play_command(interaction, G, "end")


def cog(desk: Desk, opening: Opening) -> commands.Cog:
    """The game's commands, and its table views registered with the platform."""
    register(FinalQuestUI())
    return FinalQuest(desk, opening)
