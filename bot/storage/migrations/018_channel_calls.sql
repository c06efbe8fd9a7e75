-- Discord takes about 5 messages and edits per 5 s in a channel, whichever process makes them:
-- processes sharing one database count each channel's calls here, one row per call, dated when
-- its answer came back (while it is under way, when it was counted).
CREATE TABLE channel_calls (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    channel_id INTEGER NOT NULL,
    at REAL NOT NULL
);
CREATE INDEX channel_calls_by_channel ON channel_calls (channel_id, at);
CREATE INDEX channel_calls_by_date ON channel_calls (at);
