-- What an organizer changed in an event, for its log: a swap of two players in a round's seating
-- (``data``: {"a": user id, "b": user id}), with the round it changed and who did it.
CREATE TABLE tournament_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    round INTEGER NOT NULL,
    kind TEXT NOT NULL,                   -- 'swap'
    actor_id INTEGER,                     -- the member who did it
    data TEXT NOT NULL DEFAULT '{}',      -- JSON
    at TEXT NOT NULL
);
CREATE INDEX tournament_log_event ON tournament_log(tournament_id, round);
-- The organizer's name as it was when they created the event, so the event message names them.
ALTER TABLE tournaments ADD COLUMN organizer_name TEXT;
