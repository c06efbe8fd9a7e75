CREATE TABLE game_tables (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    guild_id INTEGER,
    channel_id INTEGER NOT NULL,
    thread_id INTEGER,
    message_id INTEGER,
    host_id INTEGER NOT NULL,
    status TEXT NOT NULL,
    size INTEGER NOT NULL,
    options TEXT NOT NULL DEFAULT '{}',
    seed INTEGER,
    language TEXT NOT NULL DEFAULT 'en',
    dirty INTEGER NOT NULL DEFAULT 0,
    result TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX game_tables_status ON game_tables(status);

CREATE TABLE seats (
    table_id INTEGER NOT NULL REFERENCES game_tables(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    user_id INTEGER,
    name TEXT NOT NULL,
    PRIMARY KEY (table_id, position)
);
CREATE INDEX seats_user ON seats(user_id);

CREATE TABLE actions (
    table_id INTEGER NOT NULL REFERENCES game_tables(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    by_computer INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    PRIMARY KEY (table_id, idx)
);

CREATE TABLE deliveries (
    table_id INTEGER NOT NULL REFERENCES game_tables(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    deal INTEGER NOT NULL,
    channel_id INTEGER,
    message_id INTEGER,
    failed INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, seat, deal)
);

CREATE TABLE records (
    table_id INTEGER NOT NULL REFERENCES game_tables(id) ON DELETE CASCADE,
    part INTEGER NOT NULL,
    deal INTEGER NOT NULL,
    message_id INTEGER,
    lines TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (table_id, part)
);
