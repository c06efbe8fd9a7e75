-- Set when a table message was drawn from a version that had been passed by the time the drawing
-- reached Discord: a click's answer and the delivery worker (or two answers, from two processes) may
-- reach Discord in another order than they were stored, so the older drawing may be the one shown
-- while the stored fingerprint is the newer one. The next pass draws the table message again,
-- whatever the fingerprints say.
ALTER TABLE game_tables ADD COLUMN redraw INTEGER NOT NULL DEFAULT 0;
