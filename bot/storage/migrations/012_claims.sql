-- Work on a table that processes sharing one database must not do twice, or at once:
-- due_claim: until when (epoch seconds) one process handles the table's passed deadline or reminder;
-- courier: the process that last brought the table's Discord messages up to date.
ALTER TABLE game_tables ADD COLUMN due_claim REAL;
ALTER TABLE game_tables ADD COLUMN courier TEXT;
-- What each Discord surface of a table shows (surface -1: the table message; a seat: its hand DM),
-- kept for processes sharing a database: whoever delivers the table next edits only what changed.
CREATE TABLE shown (
    table_id INTEGER NOT NULL REFERENCES game_tables(id) ON DELETE CASCADE,
    surface INTEGER NOT NULL,
    shown TEXT NOT NULL,
    PRIMARY KEY (table_id, surface)
);
