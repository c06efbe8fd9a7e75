-- How long each member took over their last moves at the table (bot/tables/notice_plan.py): a
-- JSON object {seat: [seconds, ...]}, the last three, newest last. A player who moves every few
-- minutes is playing, not away: their turn waits longer before they are told (``grace_for``).
ALTER TABLE game_tables ADD COLUMN think TEXT NOT NULL DEFAULT '{}';
