-- Tables that run in a channel of their own may restrict who can speak there.
-- speech: NULL (no restriction), 'overwrites' (per-member send permission), 'delete' (fallback).
-- locked: 1 while restrictions may be in place, so a restart can lift them after the game.
ALTER TABLE game_tables ADD COLUMN speech TEXT;
ALTER TABLE game_tables ADD COLUMN locked INTEGER NOT NULL DEFAULT 0;
