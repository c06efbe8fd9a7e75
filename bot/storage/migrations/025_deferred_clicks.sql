-- A click whose answer had to be deferred (its move took longer than Discord's first 3 s), written
-- before the deferral goes out: whichever process finishes it, if the one that deferred it dies,
-- answers it through its interaction token (good for 15 minutes). claim_until: until when one
-- process finishes it (first the one that deferred it); then any other may.
CREATE TABLE deferred_clicks (
    interaction_id INTEGER PRIMARY KEY,
    token TEXT NOT NULL,
    table_id INTEGER NOT NULL REFERENCES game_tables(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    guild_id INTEGER,             -- NULL: clicked in the member's DM
    version INTEGER NOT NULL,     -- the version the clicked message showed
    action TEXT NOT NULL,
    message_id INTEGER NOT NULL,  -- the clicked message
    language TEXT NOT NULL,       -- the member's, for the answer
    deferred_at REAL NOT NULL,    -- wall-clock seconds
    claim_until REAL NOT NULL
);
CREATE INDEX deferred_clicks_claim ON deferred_clicks (claim_until);
-- The request that made a member's move (a click's interaction id): a click finished by another
-- process than the one that took it is applied once, and answered as taken when it was.
ALTER TABLE actions ADD COLUMN request TEXT;
