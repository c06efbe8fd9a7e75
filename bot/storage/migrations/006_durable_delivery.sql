-- Every committed change to a table bumps its version; Discord surfaces catch up to it.
ALTER TABLE game_tables ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
-- How many rows of table_log the public record already shows.
ALTER TABLE game_tables ADD COLUMN recorded INTEGER NOT NULL DEFAULT 0;
-- The one live turn ping of a table, deleted when the next is sent.
ALTER TABLE game_tables ADD COLUMN ping_message_id INTEGER;
-- 1 while a computer seat is to act, so a worker (also after a restart) makes its move.
ALTER TABLE game_tables ADD COLUMN computer_turn INTEGER NOT NULL DEFAULT 0;
CREATE INDEX game_tables_computer_turn ON game_tables(status, computer_turn);
CREATE INDEX game_tables_dirty ON game_tables(dirty);

-- A computer seat's level: easy, normal or hard.
ALTER TABLE seats ADD COLUMN level TEXT NOT NULL DEFAULT 'normal';

-- The public record's lines as data, written in the move's own transaction: engine events and
-- platform notes (timeouts, seat changes, pause), in order. ``deal`` is the deal after the line.
CREATE TABLE table_log (
    table_id INTEGER NOT NULL REFERENCES game_tables(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,            -- 'event' | 'note' | 'final'
    code TEXT NOT NULL,
    data TEXT NOT NULL DEFAULT '{}',
    deal INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, seq)
);
