-- What each server chose with /settings: one row per setting it changed, the value as JSON. A
-- setting without a row takes its default (config.toml's per-server fields, or the bot's own).
CREATE TABLE server_settings (
    guild_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (guild_id, name)
);
-- One counter (one row, id 1, written by the first change), raised in the transaction of every
-- change: each process compares it with the one it read last (at most every 15 s) and reads the
-- servers' settings again when it moved.
CREATE TABLE settings_version (
    id INTEGER PRIMARY KEY,
    version INTEGER NOT NULL
);
-- Servers the bot left: their data is purged this long after (bot/tables/sweep.py), unless the
-- bot comes back first.
CREATE TABLE departed_servers (
    guild_id INTEGER PRIMARY KEY,
    left_at REAL NOT NULL
);
-- The level a computer plays at for a seat that did not choose one (a player out of time), as
-- the server's setting was when the table opened.
ALTER TABLE game_tables ADD COLUMN computer_level TEXT NOT NULL DEFAULT 'normal';
CREATE INDEX game_tables_guild ON game_tables(guild_id, status);
CREATE INDEX tournaments_guild ON tournaments(guild_id);
