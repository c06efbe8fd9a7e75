"""Othello de Torite for computer players: perfect information, so the search sees the real
position; random playouts run to the end of the game (about 30 moves from the middle)."""

from __future__ import annotations

from bot.ai.registry import GameAI, register

register("othello_torite", GameAI(move_us=34.0, iteration_us=60.0))
