-- Invite-only lobbies and challenges (/<game> new invite:). The members invited, as a JSON array
-- [[user, name, state], ...], state 'pending', 'accepted', 'declined' or 'lapsed'; an empty array
-- is a lobby open to everyone. Kept on the table's row, so a join reads and changes them under the
-- table's lock, and an answer bumps the version the lobby message follows.
ALTER TABLE game_tables ADD COLUMN guests TEXT NOT NULL DEFAULT '[]';
-- When the invitations still unanswered lapse (the host is told); NULL once they have, or for none.
ALTER TABLE game_tables ADD COLUMN invites_lapse REAL;
-- 0: the member refuses challenges (/notifications challenges): nobody may invite them.
ALTER TABLE user_settings ADD COLUMN challenges INTEGER NOT NULL DEFAULT 1;
