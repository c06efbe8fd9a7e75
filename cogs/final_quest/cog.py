"""Slash commands for Final Quest (``/finalquest``); the platform runs the table in its own channel.

The turn's main actions that need words or three cards are slash commands used in the table
channel: ``ask`` (free YES/NO question, posted publicly; the asked player answers with the table's
buttons), ``check`` (a question the engine answers truthfully) and ``quest`` (a Final Quest).
Swapping, showing and ending the turn are buttons in the private prompt, and also commands here.
Each command is checked before it reaches the engine so a mistake gets a specific answer.
"""

from __future__ import annotations

import re

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.desk import display, member_lang
from bot.errors import UserError
from bot.games import register
from bot.i18n import Lang
from cogs.final_quest.engine import (
    HAND_SIZE,
    NUMBERS,
    OPT_REBUTTAL,
    OPT_ROUND_CAP,
    QUESTIONS,
    askq_action,
    fq_action,
)
from cogs.final_quest.render import FinalQuestUI

G = "final_quest"
FACE = {"a": 1, "j": 11, "q": 12, "k": 13}
QUESTION_MAX = 300

REBUTTAL_CHOICES = [
    app_commands.Choice(
        name=locale_str("everyone (the original rule)", key="final_quest.cmd.new.rebuttal.public"),
        value="public",
    ),
    app_commands.Choice(
        name=locale_str("the asker only, by DM", key="final_quest.cmd.new.rebuttal.asker"),
        value="asker",
    ),
]


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


class FinalQuest(
    commands.GroupCog,
    group_name=locale_str("finalquest", key="final_quest.cmd.name"),
    group_description=locale_str("Final Quest (4 players, two teams)", key="final_quest.cmd.description"),
):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @property
    def desk(self):
        return self.bot.desk

    # ---- the table ---------------------------------------------------------------------------
    @app_commands.command(
        name=locale_str("new", key="final_quest.cmd.new.name"),
        description=locale_str(
            "Open a Final Quest table in a channel of its own", key="final_quest.cmd.new.description"
        ),
    )
    @app_commands.rename(
        rebuttal=locale_str("rebuttal", key="final_quest.cmd.new.rebuttal.name"),
        round_cap=locale_str("round_cap", key="final_quest.cmd.new.round_cap.name"),
        rated=locale_str("rated", key="cmd.new.rated.name"),
    )
    @app_commands.describe(
        rebuttal=locale_str(
            "Who sees a rebuttal card: everyone (original rule) or the asker only, by DM",
            key="final_quest.cmd.new.rebuttal.description",
        ),
        round_cap=locale_str(
            "Draw after this many rounds (leave empty for no limit)",
            key="final_quest.cmd.new.round_cap.description",
        ),
        rated=locale_str(
            "Count this table for the server's ratings and leaderboard", key="cmd.new.rated.description"
        ),
    )
    @app_commands.choices(rebuttal=REBUTTAL_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction,
        rebuttal: str = "public",
        round_cap: app_commands.Range[int, 1, 99] | None = None,
        rated: bool = False,
    ) -> None:
        options = {OPT_REBUTTAL: rebuttal, OPT_ROUND_CAP: round_cap}
        await self.desk.open_table(interaction, G, 4, options, rated=rated)

    @app_commands.command(
        name=locale_str("rules", key="final_quest.cmd.rules.name"),
        description=locale_str("How to play Final Quest", key="final_quest.cmd.rules.description"),
    )
    async def rules(self, interaction: discord.Interaction) -> None:
        await self.desk.send_rules(interaction, G)

    # ---- main actions --------------------------------------------------------------------------
    async def target_seat(self, interaction: discord.Interaction, player: discord.abc.User):
        """(table, seat of ``player``) at the member's table in this channel."""
        table, _engine, _seat = await self.desk.seat_here(interaction, G)
        target = table.seat_of(player.id)
        if target is None:
            raise UserError(f"{G}.error.not_at_table", player=display(player))
        return table, target

    @app_commands.command(
        name=locale_str("ask", key="final_quest.cmd.ask.name"),
        description=locale_str(
            "Ask one player your own YES/NO question (your turn)", key="final_quest.cmd.ask.description"
        ),
    )
    @app_commands.rename(
        player=locale_str("player", key="final_quest.cmd.ask.player.name"),
        question=locale_str("question", key="final_quest.cmd.ask.question.name"),
    )
    @app_commands.describe(
        player=locale_str("The player you ask", key="final_quest.cmd.ask.player.description"),
        question=locale_str(
            "Your question, answerable with YES or NO", key="final_quest.cmd.ask.question.description"
        ),
    )
    async def ask(
        self,
        interaction: discord.Interaction,
        player: discord.Member,
        question: app_commands.Range[str, 1, QUESTION_MAX],
    ) -> None:
        async def work():
            table, target = await self.target_seat(interaction, player)
            tr = Lang(table.language)
            text = discord.utils.escape_mentions(" ".join(question.split()))
            announce = tr(
                f"{G}.announce.ask", player=display(interaction.user), target=player.mention, question=text
            )
            await self.desk.play_command(interaction, G, f"ask:{target}", announce=announce)

        await self.desk.guarded(interaction, None, work())

    @app_commands.command(
        name=locale_str("check", key="final_quest.cmd.check.name"),
        description=locale_str(
            "Ask one player a question the bot answers truthfully", key="final_quest.cmd.check.description"
        ),
    )
    @app_commands.rename(
        player=locale_str("player", key="final_quest.cmd.check.player.name"),
        question=locale_str("question", key="final_quest.cmd.check.question.name"),
        number=locale_str("number", key="final_quest.cmd.check.number.name"),
        count=locale_str("count", key="final_quest.cmd.check.count.name"),
    )
    @app_commands.describe(
        player=locale_str("The player you ask", key="final_quest.cmd.check.player.description"),
        question=locale_str(
            "The question (N = the number field, K = the count field)",
            key="final_quest.cmd.check.question.description",
        ),
        number=locale_str("N: a card number, or a sum", key="final_quest.cmd.check.number.description"),
        count=locale_str("K: how many cards", key="final_quest.cmd.check.count.description"),
    )
    async def check(
        self,
        interaction: discord.Interaction,
        player: discord.Member,
        question: str,
        number: int | None = None,
        count: int | None = None,
    ) -> None:
        async def work():
            _table, target = await self.target_seat(interaction, player)
            params = question_params(question, number, count, member_lang(interaction))
            await self.desk.play_command(interaction, G, askq_action(target, question, *params))

        await self.desk.guarded(interaction, None, work())

    @check.autocomplete("question")
    async def question_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        tr = member_lang(interaction)
        typed = current.strip().lower()
        choices = []
        for question in QUESTIONS:
            name = tr(f"{G}.question_choice.{question}")
            if typed in name.lower() or typed in question:
                choices.append(app_commands.Choice(name=name[:100], value=question))
        return choices

    @app_commands.command(
        name=locale_str("quest", key="final_quest.cmd.quest.name"),
        description=locale_str(
            "Final Quest: name one player's three cards (your turn)", key="final_quest.cmd.quest.description"
        ),
    )
    @app_commands.rename(
        player=locale_str("player", key="final_quest.cmd.quest.player.name"),
        cards=locale_str("cards", key="final_quest.cmd.quest.cards.name"),
    )
    @app_commands.describe(
        player=locale_str("The player whose hand you name", key="final_quest.cmd.quest.player.description"),
        cards=locale_str("Three different cards, like 3 7 12", key="final_quest.cmd.quest.cards.description"),
    )
    async def quest(self, interaction: discord.Interaction, player: discord.Member, cards: str) -> None:
        async def work():
            _table, target = await self.target_seat(interaction, player)
            await self.desk.play_command(interaction, G, fq_action(target, parse_cards(cards)))

        await self.desk.guarded(interaction, None, work())

    @quest.autocomplete("cards")
    async def card_choices(
        self, interaction: discord.Interaction, current: str
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
    @app_commands.command(
        name=locale_str("swap", key="final_quest.cmd.swap.name"),
        description=locale_str(
            "Swap one of your cards with the centre card (your turn)", key="final_quest.cmd.swap.description"
        ),
    )
    @app_commands.rename(card=locale_str("card", key="final_quest.cmd.swap.card.name"))
    @app_commands.describe(
        card=locale_str("The card you give to the centre", key="final_quest.cmd.swap.card.description")
    )
    async def swap(self, interaction: discord.Interaction, card: app_commands.Range[int, 1, 13]) -> None:
        await self.desk.play_command(interaction, G, f"swap:{card}")

    @app_commands.command(
        name=locale_str("show", key="final_quest.cmd.show.name"),
        description=locale_str(
            "Show one of your cards to everyone (your turn)", key="final_quest.cmd.show.description"
        ),
    )
    @app_commands.rename(card=locale_str("card", key="final_quest.cmd.show.card.name"))
    @app_commands.describe(card=locale_str("The card you show", key="final_quest.cmd.show.card.description"))
    async def show(self, interaction: discord.Interaction, card: app_commands.Range[int, 1, 13]) -> None:
        await self.desk.play_command(interaction, G, f"show:{card}")

    @swap.autocomplete("card")
    @show.autocomplete("card")
    async def hand_choices(
        self, interaction: discord.Interaction, current: int
    ) -> list[app_commands.Choice[int]]:
        verb = interaction.command.name if interaction.command else ""
        pairs = await self.desk.autocomplete_actions(interaction, G, lambda a: a.split(":")[-1])
        return [
            app_commands.Choice(name=label, value=int(label))
            for label, action in pairs
            if action.startswith(f"{verb}:")
        ]

    @app_commands.command(
        name=locale_str("end", key="final_quest.cmd.end.name"),
        description=locale_str("End your turn (after your action)", key="final_quest.cmd.end.description"),
    )
    async def end(self, interaction: discord.Interaction) -> None:
        await self.desk.play_command(interaction, G, "end")


async def setup(bot: commands.Bot) -> None:
    register(FinalQuestUI())
    await bot.add_cog(FinalQuest(bot))
