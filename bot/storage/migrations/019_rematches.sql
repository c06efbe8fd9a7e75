-- A finished table's rematch: its players confirm one by one on the final table message, and the
-- new table (same seats and options, a new seed) starts once every member seated there has.
-- ``state``: 'open' while confirmations come in, then 'started' (``new_table_id``), 'declined'
-- (by ``declined_by``) or 'expired' (``expires_at`` passed). The delivery worker posts the new
-- table's message and thread; a table to post is one with ``rematch_of`` set and no message yet.
CREATE TABLE rematches (
    table_id INTEGER PRIMARY KEY REFERENCES game_tables(id) ON DELETE CASCADE,
    state TEXT NOT NULL,
    expires_at REAL NOT NULL,      -- wall-clock seconds
    declined_by INTEGER,
    new_table_id INTEGER
);
CREATE TABLE rematch_votes (
    table_id INTEGER NOT NULL REFERENCES rematches(table_id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    PRIMARY KEY (table_id, user_id)
);
CREATE INDEX rematches_open ON rematches (expires_at) WHERE state = 'open';
ALTER TABLE game_tables ADD COLUMN rematch_of INTEGER;
