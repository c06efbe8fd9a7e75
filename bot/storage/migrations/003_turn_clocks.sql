-- Turn clocks for asynchronous play. Times are UTC epoch seconds.
ALTER TABLE game_tables ADD COLUMN clock INTEGER;            -- seconds per move; NULL: no clock
ALTER TABLE game_tables ADD COLUMN on_timeout TEXT NOT NULL DEFAULT 'computer_turn';
ALTER TABLE game_tables ADD COLUMN timeout_limit INTEGER NOT NULL DEFAULT 3;
ALTER TABLE game_tables ADD COLUMN paused INTEGER NOT NULL DEFAULT 0;
ALTER TABLE game_tables ADD COLUMN deadline REAL;
ALTER TABLE game_tables ADD COLUMN remind_at REAL;
ALTER TABLE game_tables ADD COLUMN remaining REAL;
ALTER TABLE game_tables ADD COLUMN turn_seats TEXT NOT NULL DEFAULT '[]';
ALTER TABLE game_tables ADD COLUMN turn_no INTEGER NOT NULL DEFAULT 0;
ALTER TABLE game_tables ADD COLUMN pinged_turn INTEGER NOT NULL DEFAULT 0;
ALTER TABLE game_tables ADD COLUMN ping_seats TEXT NOT NULL DEFAULT '[]';  -- seats whose turn began
CREATE INDEX game_tables_deadline ON game_tables(status, paused, deadline);

ALTER TABLE seats ADD COLUMN away INTEGER NOT NULL DEFAULT 0;      -- handed to a computer for good
ALTER TABLE seats ADD COLUMN timeouts INTEGER NOT NULL DEFAULT 0;  -- consecutive timeouts

CREATE TABLE user_settings (
    user_id INTEGER PRIMARY KEY,
    turn_dms INTEGER NOT NULL DEFAULT 1
);
