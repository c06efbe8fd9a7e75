-- One language per member: the language of the last interaction each member sent, so that DMs
-- (which no interaction carries) follow it too. Written only when it changes.
CREATE TABLE user_locales (
    user_id INTEGER PRIMARY KEY,
    language TEXT NOT NULL
);
-- Table talk the engine does not keep but the table message shows: Final Quest's open free question.
ALTER TABLE game_tables ADD COLUMN talk TEXT;
