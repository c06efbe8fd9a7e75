-- Ratings per game per server, and tournaments that open tables themselves.
ALTER TABLE game_tables ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
ALTER TABLE game_tables ADD COLUMN settled INTEGER NOT NULL DEFAULT 0;  -- rating applied to a finished table
ALTER TABLE game_tables ADD COLUMN tournament_id INTEGER;

CREATE TABLE ratings (
    guild_id INTEGER NOT NULL,
    game TEXT NOT NULL,
    user_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    games INTEGER NOT NULL DEFAULT 0,
    wins INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, game, user_id)
);

-- One row per rated player per table: the rating after it, and where they finished.
CREATE TABLE rating_history (
    table_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    guild_id INTEGER NOT NULL,
    game TEXT NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    place INTEGER NOT NULL,
    places INTEGER NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (table_id, user_id)
);
CREATE INDEX rating_history_user ON rating_history(guild_id, game, user_id);

CREATE TABLE tournaments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    message_id INTEGER,
    organizer_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    game TEXT NOT NULL,
    format TEXT NOT NULL,                 -- swiss | round_robin | elimination
    rounds INTEGER NOT NULL,
    table_size INTEGER NOT NULL,
    options TEXT NOT NULL DEFAULT '{}',   -- the game's table options
    points TEXT NOT NULL,                 -- JSON list: points per finishing place
    clock INTEGER NOT NULL,
    on_timeout TEXT NOT NULL,
    signup_deadline REAL,
    auto_next INTEGER NOT NULL DEFAULT 1,
    advance INTEGER NOT NULL DEFAULT 1,   -- elimination: how many of each table go through
    group_size INTEGER,                   -- round robin: players per group
    teams TEXT,                           -- team games: 'fixed' or 'redraw'
    language TEXT NOT NULL DEFAULT 'en',
    seed INTEGER NOT NULL,
    status TEXT NOT NULL,                 -- signup | running | finished | cancelled
    round INTEGER NOT NULL DEFAULT 0,
    round_done INTEGER NOT NULL DEFAULT 0, -- the last round whose standings were posted
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX tournaments_status ON tournaments(status);

CREATE TABLE entrants (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    joined INTEGER NOT NULL,              -- sign-up order
    status TEXT NOT NULL DEFAULT 'active', -- active | dropped | out (eliminated)
    team INTEGER,                         -- fixed team number in a team game
    grp INTEGER,                          -- round-robin group
    PRIMARY KEY (tournament_id, user_id)
);

-- A round's seating is stored before its tables are opened, so a restart finishes opening them.
CREATE TABLE tournament_tables (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    round INTEGER NOT NULL,
    number INTEGER NOT NULL,              -- 1.. ; 0 holds the round's byes
    players TEXT NOT NULL,                -- JSON list of user ids in seat order
    table_id INTEGER,
    PRIMARY KEY (tournament_id, round, number)
);
CREATE INDEX tournament_tables_table ON tournament_tables(table_id);

CREATE TABLE tournament_results (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    round INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    table_id INTEGER,
    place INTEGER,                        -- NULL for a bye
    size INTEGER NOT NULL DEFAULT 0,      -- places at the table (teams in a team game)
    points REAL NOT NULL,
    score REAL,
    opponents TEXT NOT NULL DEFAULT '[]',
    bye INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, round, user_id)
);
