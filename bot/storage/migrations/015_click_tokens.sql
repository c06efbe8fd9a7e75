-- The token of a member's last click on their hand DM, or (private = 1) on the private hand
-- **My hand** showed them. For 15 minutes it may edit that message through the interaction's
-- webhook, which Discord's global limit does not count. It is written with the move the click
-- made, so the member's next turn is shown through it after a restart too, and by any process.
CREATE TABLE click_tokens (
    table_id INTEGER NOT NULL REFERENCES game_tables(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    private INTEGER NOT NULL,
    message_id INTEGER NOT NULL,  -- the message the click was on: what the token edits
    token TEXT NOT NULL,
    until REAL NOT NULL,          -- wall-clock seconds
    shows TEXT,                   -- a private hand: what it shows (render.relevance)
    PRIMARY KEY (table_id, seat, private)
);
