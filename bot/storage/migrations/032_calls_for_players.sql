-- A call for players (/settings lfg_role, bot/tables/lfg.py): when a lobby still short of players
-- has the server's role mentioned for it; NULL once it has, or for a lobby that has none (invite-only).
ALTER TABLE game_tables ADD COLUMN lfg_at REAL;
-- The last call in each channel: at most one every 15 minutes, whichever process makes it.
CREATE TABLE lfg_calls (
    channel_id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    called_at REAL NOT NULL
);
