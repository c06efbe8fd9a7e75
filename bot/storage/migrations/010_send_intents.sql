-- A message about to be sent, written before the call: if the process dies between Discord's answer
-- and the commit that stores the message id, the next pass finds the message in the channel's
-- history (bot messages after ``sent_after``, a snowflake) instead of sending it twice.
CREATE TABLE send_intents (
    table_id INTEGER NOT NULL REFERENCES game_tables(id) ON DELETE CASCADE,
    surface TEXT NOT NULL,
    channel_id INTEGER NOT NULL,
    sent_after INTEGER NOT NULL,
    PRIMARY KEY (table_id, surface)
);
