-- The end of a game, pushed (issue 46).
-- Each member's end-of-game DM (bot/tables/result_dms.py), a new message sent once: its send
-- intent (``send_intents``, surface 'result:<user>') is committed first, and its id is stored
-- here with the intent closed. ``message_id`` 0: it could not be sent (closed DMs), or the table
-- ended before these DMs existed. ``shows``: what its buttons offer (the rematch's state), so it
-- is edited once when that changes.
CREATE TABLE result_dms (
    table_id INTEGER NOT NULL REFERENCES game_tables(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    shows TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (table_id, user_id)
);
INSERT INTO result_dms (table_id, user_id, channel_id, message_id, shows)
    SELECT s.table_id, s.user_id, 0, 0, '' FROM seats s JOIN game_tables t ON t.id = s.table_id
    WHERE t.status = 'finished' AND s.user_id IS NOT NULL;
-- The rematch offer's message in the finished table's thread or channel (bot/tables/rematch_offer.py):
-- posted once, mentioning the players still to confirm, then edited as they answer. ``offer_message_id``
-- NULL: not posted yet; 0: none to post (an offer made before this, or with nobody else to tell).
ALTER TABLE rematches ADD COLUMN offer_channel_id INTEGER;
ALTER TABLE rematches ADD COLUMN offer_message_id INTEGER;
ALTER TABLE rematches ADD COLUMN offer_shows TEXT;
UPDATE rematches SET offer_message_id = 0;
-- Turn notices whose turn has passed (bot/tables/notices.py): edited to say so ("✓ played") rather
-- than deleted under the eyes of a player a ping just called, and deleted at the member's next
-- notice at the table or after the game, never within a minute of being posted (their age is their
-- message id's time). A thread message that named several members is one row (``user_id``: the first).
CREATE TABLE spent_notices (
    table_id INTEGER NOT NULL REFERENCES game_tables(id) ON DELETE CASCADE,
    message_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    kind TEXT NOT NULL,          -- 'dm' | 'thread'
    PRIMARY KEY (table_id, message_id)
);
