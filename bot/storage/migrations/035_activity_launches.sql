-- The table each member last pressed **Play in Discord** on, per channel an Activity can open in
-- (a table in a thread is remembered under the thread's parent channel): the Activity, opened
-- there, starts at that table. One row per member and channel, replaced by the next press; it
-- goes with its table.
CREATE TABLE activity_launches (
    user_id INTEGER NOT NULL,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    table_id INTEGER NOT NULL REFERENCES game_tables(id) ON DELETE CASCADE,
    at REAL NOT NULL,
    PRIMARY KEY (user_id, guild_id, channel_id)
);
