-- Turn notices for players who are away (bot/tables/notices.py): a "your turn" DM, or the mention in
-- the table's thread, once a turn has waited. One row per table, member and kind: a newer notice
-- replaces the row, and the row goes with its message once the turn has passed. The members one
-- thread message mentions share its message id. ``message_id`` is NULL while the message is being
-- sent (after a crash it is looked for in the channel: the bot's message after ``sent_after``, a
-- snowflake, that reads ``text``), and 0 when it could not be sent (closed DMs).
CREATE TABLE turn_notices (
    table_id INTEGER NOT NULL REFERENCES game_tables(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    kind TEXT NOT NULL,          -- 'dm' | 'thread'
    channel_id INTEGER NOT NULL,
    message_id INTEGER,
    turn_no INTEGER NOT NULL,    -- the table's turn at which the member's wait began
    stage INTEGER NOT NULL,      -- 1: it is your turn; 2: the clock's reminder
    sent_after INTEGER NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (table_id, user_id, kind)
);
-- Each waiting member's wait, as a JSON array of [seat, turn_no, since (epoch seconds), came (1:
-- the turn came round, 0: it went on after the member's own move)]; and when the next wait
-- reaches its grace period, for the clock (NULL: none).
ALTER TABLE game_tables ADD COLUMN waits TEXT NOT NULL DEFAULT '[]';
ALTER TABLE game_tables ADD COLUMN notify_at REAL;
CREATE INDEX game_tables_notify ON game_tables(status, paused, notify_at);
-- What a member chose with /notifications: 'always', 'away' (after the grace period) or 'never'.
-- It replaces ``turn_dms``: turn DMs switched off are 'never'.
ALTER TABLE user_settings ADD COLUMN notices TEXT NOT NULL DEFAULT 'away';
UPDATE user_settings SET notices = 'never' WHERE turn_dms = 0;
