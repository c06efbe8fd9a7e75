-- A lobby's own messages, sent once by its delivery pass (bot/tables/lobby_posts.py) rather than
-- by the command or the clock that made them due, so that a process dying mid-send loses none and
-- sends none twice (each has its send intent, surface as below). ``surface``: 'invite:<user>' a
-- guest's invitation DM; 'unreached:<user>' the line in the table's thread for a guest whose DMs
-- are closed; 'lapse' the host's notice that invitations lapsed; 'call' a call for players.
-- ``message_id`` NULL: due, not sent yet; 0: none to edit (closed DMs, nothing left to call for).
-- ``shows``: what an invitation DM shows (its guest's answer, or what became of the table), so it
-- is edited once when that changes; for a call, the role and the lobbies called, as JSON.
CREATE TABLE lobby_posts (
    table_id INTEGER NOT NULL REFERENCES game_tables(id) ON DELETE CASCADE,
    surface TEXT NOT NULL,
    channel_id INTEGER,
    message_id INTEGER,
    shows TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (table_id, surface)
);
-- 1: the table's pass looks at its lobby posts (an invite-only lobby until its DMs say how it
-- ended, a lobby with a call due); 0 for every table before this, whose DMs went out directly.
ALTER TABLE game_tables ADD COLUMN posts INTEGER NOT NULL DEFAULT 0;
