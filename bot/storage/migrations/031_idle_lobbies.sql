-- A lobby left behind closes after a day without a join (bot/tables/lobby_clocks.py): when it
-- does, moved on at each join; NULL out of the lobby, or for a lobby opened before this.
ALTER TABLE game_tables ADD COLUMN lobby_closes REAL;
-- Why a table was closed: NULL by its host (or an event, or its server's leaving); 'idle': a lobby
-- nobody joined, closed by the bot, and its message says so.
ALTER TABLE game_tables ADD COLUMN closed_why TEXT;
